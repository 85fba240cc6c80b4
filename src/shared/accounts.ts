/**
 * Accounts: a name, a base address and an API key. The key itself never leaves the main
 * process; the renderer only sees `AccountSummary`.
 */
import { z } from 'zod';
import type { Scope } from './service/scopes';

export const ACCOUNT_NAME_MAX_LENGTH = 60;
export const API_KEY_MAX_LENGTH = 512;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Checks a base address: any `https` address, or `http` on loopback only (the demo service).
 * Returns the normalised address (no trailing slash) or a message saying what is wrong.
 */
export function checkBaseUrl(text: string): { ok: true; url: string } | { ok: false; message: string } {
  const trimmed = text.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, message: 'Enter a full address such as https://api.mycirrus.cloud/v1.' };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, message: 'The address must not contain a user name or password.' };
  }
  if (url.search !== '' || url.hash !== '') {
    return { ok: false, message: 'The address must not contain a query (?…) or fragment (#…).' };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return {
      ok: false,
      message: 'Use https: plain http is allowed only for a service on this computer (localhost).',
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, message: 'The address must start with https://.' };
  }
  return { ok: true, url: url.toString().replace(/\/+$/, '') };
}

export const accountNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the account a name, for example the client it belongs to.')
  .max(ACCOUNT_NAME_MAX_LENGTH, `Keep the name to ${ACCOUNT_NAME_MAX_LENGTH} characters or fewer.`);

export const baseUrlSchema = z.string().transform((text, ctx) => {
  const checked = checkBaseUrl(text);
  if (!checked.ok) {
    ctx.addIssue({ code: 'custom', message: checked.message });
    return z.NEVER;
  }
  return checked.url;
});

export const apiKeySchema = z
  .string()
  .trim()
  .min(1, 'Paste the API key from the web console.')
  .max(API_KEY_MAX_LENGTH, 'That is too long to be an API key.')
  .regex(/^[\x21-\x7e]+$/, 'An API key has no spaces or special characters: check what was pasted.');

export type KeyStorage = 'keychain' | 'memory' | 'missing' | 'demo';

export interface AccountSummary {
  id: string;
  name: string;
  baseUrl: string;
  /** `demo` accounts talk to the built-in demo service; their key is not a secret. */
  kind: 'service' | 'demo';
  /**
   * Where the key lives: the OS keychain, memory for this session only (keychain
   * unavailable), `missing` (must be entered again), or `demo`.
   */
  keyStorage: KeyStorage;
  /** Scopes the service said this key lacks (learned from 403 answers). */
  missingScopes: Scope[];
  createdAt: number;
  lastCheckedAt: number | null;
}

export interface VaultStatus {
  /** `keychain`: keys are stored in the OS keychain. `memory`: kept for this session only. */
  storage: 'keychain' | 'memory';
  /** Plain-language reason when the keychain cannot be used. */
  reason: string | null;
}

export interface AccountsState {
  accounts: AccountSummary[];
  activeId: string | null;
  vault: VaultStatus;
  /**
   * A plain-language notice about the saved accounts for this session, e.g. that a damaged
   * accounts file was moved aside and FieldDesk started without it. Absent when all is well.
   */
  notice?: string;
}

export interface AccountCheck {
  account: AccountSummary;
  instrumentCount: number;
  checkedAt: number;
}
