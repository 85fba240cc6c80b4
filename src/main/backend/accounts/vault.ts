/**
 * The key vault: API keys live in the OS keychain (keytar → Secret Service, Keychain, Credential
 * Manager). When the keychain cannot be used (no D-Bus session, a locked or missing keyring, keytar
 * not loadable), the vault switches to memory for the rest of the session and says why in plain
 * words. Like VS Code, it never falls back to writing keys to disk: a key kept in memory is lost
 * when FieldDesk closes and must be entered again, which is the safe failure.
 *
 * Nothing here logs, and no message ever contains a key.
 */
import type { VaultStatus } from '../../../shared/accounts';

export type KeyLocation = 'keychain' | 'memory';

export interface KeyVault {
  status(): VaultStatus;
  /** Loads the keychain connection now (at start-up), so a broken one is known before the first key. */
  check(): Promise<VaultStatus>;
  get(accountId: string): Promise<{ key: string; storage: KeyLocation } | null>;
  set(accountId: string, key: string): Promise<KeyLocation>;
  delete(accountId: string): Promise<void>;
}

/** The subset of keytar the vault uses (so tests can inject a fake). */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface KeyVaultOptions {
  /** keytar's service name; tests use a unique one per run. */
  serviceName?: string;
  /** Loads keytar; injected in tests to simulate a missing or broken native module. */
  loadKeytar?: () => Promise<KeytarLike>;
}

const IN_MEMORY_UNTIL_CLOSE = 'so API keys are kept in memory until FieldDesk closes';

/** Plain-language reasons, one per real failure seen on users' machines (TOOLCHAIN.md). */
export const VAULT_REASONS = {
  noSecretService:
    `No system keychain is running in this session (FieldDesk found no Secret Service on D-Bus), ${IN_MEMORY_UNTIL_CLOSE}. ` +
    'Start GNOME Keyring or KWallet and restart FieldDesk to store them securely.',
  locked:
    `The system keychain is locked, ${IN_MEMORY_UNTIL_CLOSE}. ` +
    'Unlock your login keyring and restart FieldDesk to store them securely.',
  notLoadable:
    `FieldDesk could not load its connection to the system keychain, ${IN_MEMORY_UNTIL_CLOSE}. ` +
    'Reinstalling FieldDesk may fix this.',
  incomplete:
    `FieldDesk's connection to the system keychain is incomplete (a packaging fault), ${IN_MEMORY_UNTIL_CLOSE}. ` +
    'Please report this; reinstalling FieldDesk may fix it.',
  other:
    `The system keychain reported an error, ${IN_MEMORY_UNTIL_CLOSE}. ` +
    'Restart FieldDesk to try the keychain again.',
} as const;

/** Maps a keytar failure to the reason shown to the user. Exported for tests. */
export function keychainFailureReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (
    /autolaunch D-Bus|DBUS_SESSION_BUS_ADDRESS|Failed to connect to (the )?(socket|bus)|org\.freedesktop\.secrets was not provided|ServiceUnknown|No such interface/i.test(
      message,
    )
  ) {
    return VAULT_REASONS.noSecretService;
  }
  if (
    /collection\/login|Object does not exist at path|locked|unlock|prompt (was )?dismissed|Cannot create an item/i.test(
      message,
    )
  ) {
    return VAULT_REASONS.locked;
  }
  return VAULT_REASONS.other;
}

const KEYTAR_FUNCTIONS = ['getPassword', 'setPassword', 'deletePassword'] as const;

/** keytar loaded without every function the vault needs (the message names the missing ones). */
export class IncompleteKeytarError extends Error {
  constructor(readonly missing: readonly string[]) {
    super(`keytar was loaded without ${missing.join(', ')}`);
    this.name = 'IncompleteKeytarError';
  }
}

const missingFunctions = (candidate: unknown): string[] =>
  KEYTAR_FUNCTIONS.filter(
    (name) =>
      typeof candidate !== 'object' ||
      candidate === null ||
      typeof (candidate as Record<string, unknown>)[name] !== 'function',
  );

/**
 * The keytar module from what `import('keytar')` gave. keytar is CommonJS with a
 * `module.exports = {…}` literal: Node's and Electron's ESM loaders put on the namespace only the
 * names their lexer detects (just `getPassword`) and the whole object on `default`, while vitest
 * hands over the whole object. So take whichever has EVERY function, `default` first, and fail
 * loudly naming what is missing rather than find out at the first save.
 */
export function pickKeytar(loaded: unknown): KeytarLike {
  const namespace = loaded as { default?: unknown } | null;
  for (const candidate of [namespace?.default, namespace]) {
    if (missingFunctions(candidate).length === 0) return candidate as KeytarLike;
  }
  throw new IncompleteKeytarError(missingFunctions(namespace?.default ?? namespace));
}

async function loadRealKeytar(): Promise<KeytarLike> {
  return pickKeytar(await import('keytar'));
}

interface SessionKey {
  key: string;
  storage: KeyLocation;
}

export function createKeyVault(options: KeyVaultOptions = {}): KeyVault {
  const serviceName = options.serviceName ?? 'FieldDesk';
  const loadKeytar = options.loadKeytar ?? loadRealKeytar;
  /**
   * Keys set or read this session. The main process must hold a key to use it anyway; keeping it
   * here avoids a keychain round trip per request and keeps keys usable if the keychain fails later.
   */
  const sessionKeys = new Map<string, SessionKey>();
  let reason: string | null = null;
  let keytarPromise: Promise<KeytarLike> | null = null;

  function switchToMemory(error: unknown, fallbackReason?: string): void {
    // The first reason wins: it names the root cause (e.g. "no D-Bus" rather than a later symptom).
    reason ??= fallbackReason ?? keychainFailureReason(error);
  }

  /** The loaded keytar, or `null` once the vault has switched to memory. */
  async function keychain(): Promise<KeytarLike | null> {
    if (reason !== null) return null;
    keytarPromise ??= loadKeytar();
    try {
      return await keytarPromise;
    } catch (error) {
      switchToMemory(
        error,
        error instanceof IncompleteKeytarError ? VAULT_REASONS.incomplete : VAULT_REASONS.notLoadable,
      );
      return null;
    }
  }

  const status = (): VaultStatus =>
    reason === null ? { storage: 'keychain', reason: null } : { storage: 'memory', reason };

  return {
    status,

    async check() {
      await keychain();
      return status();
    },

    async get(accountId) {
      const known = sessionKeys.get(accountId);
      if (known !== undefined) return { ...known };
      const keytar = await keychain();
      if (keytar === null) return null;
      try {
        const key = await keytar.getPassword(serviceName, accountId);
        if (key === null || key === '') return null;
        sessionKeys.set(accountId, { key, storage: 'keychain' });
        return { key, storage: 'keychain' };
      } catch (error) {
        switchToMemory(error);
        return null;
      }
    },

    async set(accountId, key) {
      const keytar = await keychain();
      if (keytar !== null) {
        try {
          await keytar.setPassword(serviceName, accountId, key);
          sessionKeys.set(accountId, { key, storage: 'keychain' });
          return 'keychain';
        } catch (error) {
          switchToMemory(error);
        }
      }
      sessionKeys.set(accountId, { key, storage: 'memory' });
      return 'memory';
    },

    async delete(accountId) {
      sessionKeys.delete(accountId);
      const keytar = await keychain();
      if (keytar === null) return;
      try {
        await keytar.deletePassword(serviceName, accountId);
      } catch (error) {
        // The entry may stay in the keychain; the account is gone from FieldDesk either way.
        switchToMemory(error);
      }
    },
  };
}

/** A vault that never touches the keychain (the browser harness, or a keychain known to be unusable). */
export function createMemoryVault(reason: string): KeyVault {
  const keys = new Map<string, string>();
  return {
    status: () => ({ storage: 'memory', reason }),
    check: async () => ({ storage: 'memory', reason }),
    get: async (accountId) => {
      const key = keys.get(accountId);
      return key === undefined ? null : { key, storage: 'memory' };
    },
    set: async (accountId, key) => {
      keys.set(accountId, key);
      return 'memory';
    },
    delete: async (accountId) => {
      keys.delete(accountId);
    },
  };
}
