/** API keys, their scopes, and the per-key rate limit of the demo service. */
import { isScope, SCOPES, type Scope } from '../shared/service/scopes';
import { DEFAULT_DEMO_KEY } from './options';

export interface ResolvedKeys {
  keys: Record<string, readonly Scope[]>;
  defaultKey: string | null;
}

/**
 * Resolves the configured keys (`'*'` = every scope), or the default all-scopes key when none
 * are given. Throws on an unknown scope or an unusable key value, since options may come from
 * plain JavaScript or a config file rather than type-checked code.
 */
export function resolveDemoKeys(configured?: Record<string, readonly Scope[] | '*'>): ResolvedKeys {
  if (configured === undefined || Object.keys(configured).length === 0) {
    return { keys: { [DEFAULT_DEMO_KEY]: [...SCOPES] }, defaultKey: DEFAULT_DEMO_KEY };
  }
  // Built as entries, then fromEntries: a key named `__proto__` stays an ordinary key.
  const keys: Array<[string, readonly Scope[]]> = [];
  for (const [key, scopes] of Object.entries(configured)) {
    if (!isUsableKeyValue(key)) {
      throw new RangeError(`API key "${key}" must be printable ASCII without spaces.`);
    }
    if (scopes === '*') {
      keys.push([key, [...SCOPES]]);
      continue;
    }
    const unknown = scopes.filter((scope) => !isScope(scope));
    if (unknown.length > 0) {
      throw new RangeError(
        `Unknown scope(s) for API key "${key}": ${unknown.join(', ')}. Valid scopes: ${SCOPES.join(', ')}.`,
      );
    }
    keys.push([key, [...new Set(scopes)]]);
  }
  return { keys: Object.fromEntries(keys), defaultKey: null };
}

/** Who owns what a key creates (webhooks): an account, shared by the keys mapped to it. */
export interface KeyAccount {
  /** Equal for every key of the account; never equal across accounts. */
  id: string;
  /** The account in a person's words, for the e-mails of failing webhooks. */
  label: string;
}

/**
 * The account of every accepted key: the configured one, or an account of the key's own. Throws
 * when a configured entry names a key the service does not accept, or an empty account.
 */
export function resolveKeyAccounts(
  keys: Readonly<Record<string, readonly Scope[]>>,
  configured: Readonly<Record<string, string>> = {},
): Map<string, KeyAccount> {
  const accounts = new Map<string, KeyAccount>();
  for (const [key, account] of Object.entries(configured)) {
    if (!Object.hasOwn(keys, key)) {
      throw new RangeError(`keyAccounts names the API key "${key}", which the service does not accept.`);
    }
    const name = typeof account === 'string' ? account.trim() : '';
    if (name === '') throw new RangeError(`The account of API key "${key}" must be a non-empty name.`);
    accounts.set(key, { id: `account:${name}`, label: `account "${name}"` });
  }
  for (const key of Object.keys(keys)) {
    if (!accounts.has(key)) accounts.set(key, { id: `key:${key}`, label: `the account of API key "${key}"` });
  }
  return accounts;
}

/** A key travels in an HTTP header, so it must be visible ASCII (no spaces, no control characters). */
export function isUsableKeyValue(key: string): boolean {
  return /^[\x21-\x7e]+$/.test(key);
}

/** The required scopes the key does not hold, in the order the endpoint lists them. */
export function missingScopes(held: readonly Scope[], required: readonly Scope[]): Scope[] {
  return required.filter((scope) => !held.includes(scope));
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Token bucket per key: `ratePerSecond` tokens a second, burst of `ratePerSecond` requests.
 * Time comes from the injected clock, so tests can step over the refill without waiting.
 */
export class KeyRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedMs: number }>();
  private readonly capacity: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly now: () => number,
  ) {
    if (!Number.isFinite(ratePerSecond) || ratePerSecond <= 0) {
      throw new RangeError(
        `The rate limit must be a positive number of requests per second, not ${ratePerSecond}.`,
      );
    }
    // A bucket smaller than one token would refuse every request.
    this.capacity = Math.max(1, ratePerSecond);
  }

  take(key: string): RateDecision {
    const nowMs = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, updatedMs: nowMs };
    const elapsedSeconds = Math.max(0, nowMs - bucket.updatedMs) / 1000;
    bucket.tokens = Math.min(this.capacity, bucket.tokens + elapsedSeconds * this.ratePerSecond);
    bucket.updatedMs = nowMs;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    // Whole seconds (the header's unit), rounded up so a client that waits is let in.
    const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerSecond));
    return { allowed: false, retryAfterSeconds };
  }
}
