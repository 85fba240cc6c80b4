/**
 * Account metadata (never keys) in `<dataDir>/accounts.json`, validated on load and written
 * atomically. A damaged or unreadable file is moved aside, never overwritten, so nothing is lost;
 * the store then starts empty and offers a warning the backend shows to the user.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { isScope, type Scope } from '../../../shared/service/scopes';

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
  version: z.literal(FILE_VERSION),
  activeId: z.string().nullable(),
  accounts: z.array(storedAccountSchema),
});

type AccountsFile = z.output<typeof accountsFileSchema>;

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
}

/** A timestamp safe in file names on every platform (no colons). */
function fileTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/[:.]/g, '-');
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

type LoadResult =
  { file: AccountsFile } | { problem: 'damaged' | 'newer' | 'unreadable' } | { missing: true };

async function readAccountsFile(path: string): Promise<LoadResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { missing: true };
    return { problem: 'unreadable' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: 'damaged' };
  }
  const parsed = accountsFileSchema.safeParse(json);
  if (parsed.success) return { file: parsed.data };
  const version = (json as { version?: unknown } | null)?.version;
  return { problem: typeof version === 'number' && version > FILE_VERSION ? 'newer' : 'damaged' };
}

/** Opens (loading or creating) the account store in `dataDir`. */
export async function openAccountStore(
  dataDir: string,
  options: AccountStoreOptions = {},
): Promise<AccountStore> {
  const now = options.now ?? Date.now;
  const path = join(dataDir, ACCOUNTS_FILE_NAME);
  await mkdir(dataDir, { recursive: true });

  let accounts: StoredAccount[] = [];
  let activeId: string | null = null;
  let warning: string | null = null;
  // False only when a bad file could not be moved aside: then saving would destroy it.
  let canSave = true;

  const loaded = await readAccountsFile(path);
  if ('file' in loaded) {
    const seen = new Set<string>();
    accounts = loaded.file.accounts.filter((account) => !seen.has(account.id) && seen.add(account.id));
    activeId = accounts.some((a) => a.id === loaded.file.activeId) ? loaded.file.activeId : null;
  } else if ('problem' in loaded) {
    const asideName = `${ACCOUNTS_FILE_NAME}.corrupt-${fileTimestamp(now())}`;
    const what =
      loaded.problem === 'newer'
        ? 'were saved by a newer version of FieldDesk'
        : loaded.problem === 'unreadable'
          ? 'could not be read'
          : 'are damaged';
    try {
      await rename(path, join(dataDir, asideName));
      warning =
        `Your saved accounts ${what}, so FieldDesk started without them. ` +
        `The old file was kept as ${asideName} in ${dataDir}. API keys in the system keychain are untouched.`;
    } catch {
      canSave = false;
      warning =
        `Your saved accounts ${what}, and FieldDesk could not move the file aside, so changes to accounts ` +
        `will not be saved this session. Check the file ${path}.`;
    }
  }

  let saving: Promise<void> = Promise.resolve();

  function save(): Promise<void> {
    if (!canSave) return Promise.resolve();
    const snapshot: AccountsFile = { version: FILE_VERSION, activeId, accounts: structuredClone(accounts) };
    const text = `${JSON.stringify(snapshot, null, 2)}\n`;
    // Saves run one after another so an older snapshot never overwrites a newer one.
    const next = saving.catch(() => undefined).then(() => writeFileAtomic(path, text, { mode: 0o600 }));
    saving = next;
    return next;
  }

  return {
    warning,
    list: () => accounts.map((account) => structuredClone(account)),
    get: (id) => {
      const account = accounts.find((a) => a.id === id);
      return account === undefined ? undefined : structuredClone(account);
    },
    activeId: () => activeId,
    async add(account) {
      const stored: StoredAccount = { ...structuredClone(account), id: randomUUID() };
      accounts = [...accounts, stored];
      await save();
      return structuredClone(stored);
    },
    async update(id, change) {
      const index = accounts.findIndex((a) => a.id === id);
      const current = accounts[index];
      if (current === undefined) return undefined;
      const changed = { ...change(structuredClone(current)), id };
      accounts = accounts.map((a, i) => (i === index ? changed : a));
      await save();
      return structuredClone(changed);
    },
    async remove(id) {
      accounts = accounts.filter((a) => a.id !== id);
      if (activeId === id) activeId = null;
      await save();
    },
    async setActive(id) {
      activeId = id !== null && accounts.some((a) => a.id === id) ? id : null;
      await save();
    },
    flush: () => saving.catch(() => undefined),
  };
}
