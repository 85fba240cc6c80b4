/**
 * Account metadata (never keys) in `<dataDir>/accounts.json`, a JSON file store (see
 * core/json-file-store.ts): a file that cannot be used is moved aside and the store starts empty,
 * with a warning the accounts view shows.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { isScope, type Scope } from '../../../shared/service/scopes';
import { openJsonFile } from '../core/json-file-store';
import type { Logger } from '../core/log';

export const ACCOUNTS_FILE_NAME = 'accounts.json';
const FILE_VERSION = 1;

export interface StoredAccount {
  id: string;
  name: string;
  baseUrl: string;
  kind: 'service' | 'demo';
  createdAt: number;
  lastCheckedAt: number | null;
  missingScopes: Scope[];
}

const storedAccountSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  name: z.string().min(1),
  baseUrl: z.url(),
  kind: z.enum(['service', 'demo']),
  createdAt: z.number().int().nonnegative(),
  lastCheckedAt: z.number().int().nonnegative().nullable(),
  // Scopes this version does not know (a newer service) are dropped rather than failing the file.
  missingScopes: z.array(z.string()).transform((scopes) => scopes.filter(isScope)),
});

const accountsFileSchema = z.object({
  activeId: z.string().nullable(),
  accounts: z.array(storedAccountSchema),
});

export interface AccountStore {
  /** Why the saved accounts could not be read at start, in plain words; `null` when all was well. */
  readonly warning: string | null;
  list(): StoredAccount[];
  get(id: string): StoredAccount | undefined;
  activeId(): string | null;
  /** Adds an account with a fresh id and saves. */
  add(account: Omit<StoredAccount, 'id'>): Promise<StoredAccount>;
  /** Changes an account and saves; returns the changed account or `undefined` if it is gone. */
  update(id: string, change: (account: StoredAccount) => StoredAccount): Promise<StoredAccount | undefined>;
  remove(id: string): Promise<void>;
  setActive(id: string | null): Promise<void>;
  /** Resolves once every save started so far has finished. */
  flush(): Promise<void>;
}

export interface AccountStoreOptions {
  now?: () => number;
  log?: Logger;
}

/** Opens (loading or creating) the account store in `dataDir`. */
export async function openAccountStore(
  dataDir: string,
  options: AccountStoreOptions = {},
): Promise<AccountStore> {
  const file = await openJsonFile({
    dataDir,
    fileName: ACCOUNTS_FILE_NAME,
    version: FILE_VERSION,
    schema: accountsFileSchema,
    describe: {
      subject: 'Your saved accounts',
      fallback: 'so FieldDesk started without them',
      reassurance: 'API keys in the system keychain are untouched.',
    },
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  let accounts: StoredAccount[] = [];
  let activeId: string | null = null;
  if (file.loaded !== null) {
    const seen = new Set<string>();
    const loaded = file.loaded;
    accounts = loaded.accounts.filter((account) => !seen.has(account.id) && seen.add(account.id));
    activeId = accounts.some((a) => a.id === loaded.activeId) ? loaded.activeId : null;
  }

  return {
    warning: file.warning,
    list: () => accounts.map((account) => structuredClone(account)),
    get: (id) => {
      const account = accounts.find((a) => a.id === id);
      return account === undefined ? undefined : structuredClone(account);
    },
    activeId: () => activeId,
    async add(account) {
      const stored: StoredAccount = { ...structuredClone(account), id: randomUUID() };
      return file.change(() => ({
        content: { activeId, accounts: structuredClone([...accounts, stored]) },
        apply: () => {
          accounts = [...accounts, stored];
          return structuredClone(stored);
        },
      }));
    },
    async update(id, change) {
      let changed: StoredAccount | undefined;
      await file.change(() => {
        const current = accounts.find((a) => a.id === id);
        changed = current === undefined ? undefined : { ...change(structuredClone(current)), id };
        const next = accounts.map((a) => (a.id === id && changed !== undefined ? changed : a));
        return { content: { activeId, accounts: structuredClone(next) }, apply: () => (accounts = next) };
      });
      return changed === undefined ? undefined : structuredClone(changed);
    },
    async remove(id) {
      await file.change(() => {
        const next = accounts.filter((a) => a.id !== id);
        const nextActive = activeId === id ? null : activeId;
        return {
          content: { activeId: nextActive, accounts: structuredClone(next) },
          apply: () => {
            accounts = next;
            activeId = nextActive;
          },
        };
      });
    },
    async setActive(id) {
      await file.change(() => {
        const nextActive = id !== null && accounts.some((a) => a.id === id) ? id : null;
        return {
          content: { activeId: nextActive, accounts: structuredClone(accounts) },
          apply: () => (activeId = nextActive),
        };
      });
    },
    flush: () => file.flush(),
  };
}
