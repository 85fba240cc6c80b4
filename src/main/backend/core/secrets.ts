/**
 * Secrets (API keys, webhook secrets) kept out of every text FieldDesk keeps or shows: the service's
 * answers and messages, pushed events, the log and the diagnostics. A service or a URL may carry a
 * secret in many spellings (literal, URL- and JSON-escaped, HTML references, hex, base64 at any
 * alignment: secret-spellings.ts), each character in any of its spellings independently, so a
 * redactor matches every one of them, and a long enough prefix or suffix of any (secret-scanner.ts).
 *
 * This file holds what the rest of the backend uses: a redactor for some secrets, the stricter one
 * of an API key for messages, redaction through a value's strings, and the registry of the secrets
 * this backend has met.
 */
import { needleRedactor } from './secret-scanner';

/** Text in, the same text with every secret replaced by a label such as `[API key]`. */
export type Redact = (text: string) => string;

/** What a secret is, as its replacement says it: `[API key]`, `[webhook secret]`. */
export type SecretKind = 'API key' | 'webhook secret' | 'team password';

/**
 * Secrets shorter than this are not redacted: no service issues one, and replacing every occurrence
 * of one to three characters would garble every text (and every answer) FieldDesk reads.
 */
export const MIN_SECRET_LENGTH = 4;

/** A redactor for these secrets (each with its kind); secrets too short to be real are left out. */
export function createRedactor(secrets: Iterable<readonly [secret: string, kind: SecretKind]>): Redact {
  const byKind = new Map<SecretKind, string[]>();
  for (const [secret, kind] of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    byKind.set(kind, [...(byKind.get(kind) ?? []), secret]);
  }
  const passes = [...byKind].map(([kind, list]) => needleRedactor(list, `[${kind}]`));
  if (passes.length === 0) return (text) => text;
  return (text) => passes.reduce((result, pass) => pass(result), text);
}

/**
 * A run of more of a key's characters than this is never shown in a message: FieldDesk never
 * shows more of a key than its last four characters.
 */
export const KEY_CHARACTERS_SHOWN = 4;

/**
 * `text` with every run of more than `KEY_CHARACTERS_SHOWN` consecutive characters of `secret`
 * replaced by `label`. For short texts only (a message): it compares every position.
 */
function redactPieces(text: string, secret: string, label: string): string {
  const piece = KEY_CHARACTERS_SHOWN + 1;
  if (secret.length < piece) return text;
  const pieces = new Set<string>();
  for (let i = 0; i + piece <= secret.length; i++) pieces.add(secret.slice(i, i + piece));
  let result = '';
  let done = 0;
  let i = 0;
  while (i + piece <= text.length) {
    if (!pieces.has(text.slice(i, i + piece))) {
      i++;
      continue;
    }
    let end = i + piece;
    while (end < text.length && secret.includes(text.slice(i, end + 1))) end++;
    result += text.slice(done, i) + label;
    done = i = end;
  }
  return result + text.slice(done);
}

/** The redactor of one API key, with a stricter pass for what a message shows of the service's words. */
export interface KeyRedactor {
  (text: string): string;
  /**
   * For a short text shown as (part of) a message, e.g. a service's error description: besides
   * every spelling and long fragment, any run of more than `KEY_CHARACTERS_SHOWN` of the key's
   * characters. Too strict for answers (a run of five may well be data), right for a message.
   */
  inMessage(text: string): string;
}

/** Redactors for one API key, shared by the clients of an account (one is made per request). */
const keyRedactors = new Map<string, KeyRedactor>();
const KEY_REDACTORS_KEPT = 32;

/** The redactor of one API key (a service client's own), built once per key. */
export function apiKeyRedactor(apiKey: string): KeyRedactor {
  let redactor = keyRedactors.get(apiKey);
  if (redactor === undefined) {
    const redact = createRedactor([[apiKey, 'API key']]);
    redactor = Object.assign((text: string) => redact(text), {
      inMessage: (text: string) => redactPieces(redact(text), apiKey, '[API key]'),
    });
    if (keyRedactors.size >= KEY_REDACTORS_KEPT) keyRedactors.delete(keyRedactors.keys().next().value!);
    keyRedactors.set(apiKey, redactor);
  }
  return redactor;
}

const isPlainObject = (value: object): boolean => {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/**
 * `value` with every string in it (in plain objects and arrays, at any depth) redacted; the same
 * value when nothing changed. Typed arrays, dates and class instances are left as they are.
 */
export function redactStrings<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item: unknown) => {
      const redacted = redactStrings(item, redact);
      if (redacted !== item) changed = true;
      return redacted;
    });
    return (changed ? items : value) as T;
  }
  if (!isPlainObject(value)) return value;
  let changed = false;
  const entries = Object.entries(value).map(([name, item]: [string, unknown]) => {
    const redacted = redactStrings(item, redact);
    if (redacted !== item) changed = true;
    return [name, redacted] as const;
  });
  return (changed ? Object.fromEntries(entries) : value) as T;
}

/**
 * The secrets this backend has met (every API key a client was made with, every webhook secret
 * read or given), redacted from what leaves the backend: events, the log, the diagnostics.
 */
export interface SecretRegistry {
  add(secret: string, kind: SecretKind): void;
  redact: Redact;
  /** `redactStrings` with the secrets known now. */
  redactValue<T>(value: T): T;
}

export function createSecretRegistry(): SecretRegistry {
  const known = new Map<string, SecretKind>();
  let redactor: Redact = (text) => text;
  const redact: Redact = (text) => redactor(text);
  return {
    add(secret, kind) {
      if (secret.length < MIN_SECRET_LENGTH || known.get(secret) === kind) return;
      known.set(secret, kind);
      redactor = createRedactor(known);
    },
    redact,
    redactValue: (value) => (known.size === 0 ? value : redactStrings(value, redact)),
  };
}
