/**
 * The vault against the REAL keytar and Secret Service. Run inside a D-Bus session with an
 * unlocked gnome-keyring (see TOOLCHAIN.md):
 *
 *   XDG_DATA_HOME=$(mktemp -d) dbus-run-session -- sh -c \
 *     'echo -n ci | gnome-keyring-daemon --unlock --components=secrets >/dev/null; npx vitest run test/keychain'
 *
 * Without one (no D-Bus, or a locked/missing login keyring), the keychain round trip is skipped
 * (the title says why) and the fallback to memory is checked against the real failure instead.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createKeyVault, VAULT_REASONS, type KeytarLike } from '../../src/main/backend/accounts/vault';

const SERVICE_NAME = `FieldDesk-test-${randomUUID()}`;
const KEY = `sk-keychain-test-${randomUUID()}`;

async function loadKeytar(): Promise<KeytarLike> {
  const loaded = (await import('keytar')) as KeytarLike & { default?: KeytarLike };
  return typeof loaded.getPassword === 'function' ? loaded : (loaded.default as KeytarLike);
}

/**
 * Probes the Secret Service once with a write round trip; `null` when it works, else the error
 * message. A read alone is not enough: with a locked or missing login keyring, reads answer
 * "nothing stored" and only writes fail.
 */
async function probeSecretService(): Promise<string | null> {
  try {
    const keytar = await loadKeytar();
    await keytar.setPassword(SERVICE_NAME, 'probe', 'probe');
    await keytar.deletePassword(SERVICE_NAME, 'probe');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const unavailable = await probeSecretService();
const SKIP_TITLE =
  'skipped: no usable Secret Service on this machine (run inside dbus-run-session with an unlocked gnome-keyring)' +
  (unavailable === null ? '' : ` — keytar said: ${unavailable}`);

// Vitest's default reporter does not print why a test was skipped: say it here, in the output.
console.info(
  unavailable === null
    ? 'keychain tests: a Secret Service is available, so the "no Secret Service" fallback test is skipped ' +
        '(it runs on machines without D-Bus; test/unit/backend/vault.test.ts covers the fallback everywhere).'
    : `keychain tests: the real keychain round trip is ${SKIP_TITLE}`,
);

describe('vault with the real OS keychain', () => {
  const created: string[] = [];
  afterAll(async () => {
    if (unavailable !== null) return;
    const keytar = await loadKeytar();
    await Promise.all(
      created.map((account) => keytar.deletePassword(SERVICE_NAME, account).catch(() => false)),
    );
  });

  it.skipIf(unavailable !== null)(
    unavailable === null
      ? 'stores a key in the Secret Service, reads it back in a new session, deletes it'
      : SKIP_TITLE,
    async () => {
      const accountId = `acc-${randomUUID()}`;
      created.push(accountId);
      const vault = createKeyVault({ serviceName: SERVICE_NAME });
      expect(await vault.set(accountId, KEY)).toBe('keychain');
      expect(vault.status()).toEqual({ storage: 'keychain', reason: null });

      // Straight from keytar: the key really is in the Secret Service, under our service name.
      const keytar = await loadKeytar();
      expect(await keytar.getPassword(SERVICE_NAME, accountId)).toBe(KEY);

      // A new vault (a restart of FieldDesk) reads it from the keychain, not from memory.
      const afterRestart = createKeyVault({ serviceName: SERVICE_NAME });
      expect(await afterRestart.get(accountId)).toEqual({ key: KEY, storage: 'keychain' });

      await afterRestart.delete(accountId);
      expect(await keytar.getPassword(SERVICE_NAME, accountId)).toBeNull();
      expect(await createKeyVault({ serviceName: SERVICE_NAME }).get(accountId)).toBeNull();
    },
  );

  it.skipIf(unavailable === null)(
    'without a Secret Service, the real keytar failure switches the vault to memory with a plain reason',
    async () => {
      const vault = createKeyVault({ serviceName: SERVICE_NAME });
      expect(await vault.set('acc-1', KEY)).toBe('memory');
      expect(await vault.get('acc-1')).toEqual({ key: KEY, storage: 'memory' });
      const status = vault.status();
      expect(status.storage).toBe('memory');
      expect(Object.values(VAULT_REASONS)).toContain(status.reason);
      expect(status.reason).not.toContain(KEY);
      // The reason must name what happened for the two cases users meet (TOOLCHAIN.md).
      if (/autolaunch D-Bus/.test(unavailable ?? ''))
        expect(status.reason).toBe(VAULT_REASONS.noSecretService);
      if (/collection\/login/.test(unavailable ?? '')) expect(status.reason).toBe(VAULT_REASONS.locked);
    },
  );
});
