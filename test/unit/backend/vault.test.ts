import { describe, expect, it } from 'vitest';
import {
  createKeyVault,
  createMemoryVault,
  IncompleteKeytarError,
  keychainFailureReason,
  pickKeytar,
  VAULT_REASONS,
} from '../../../src/main/backend/accounts/vault';
import { fakeKeytar, REAL_KEYTAR_ERRORS } from './helpers';

const KEY = 'sk-live-vault-test-0123456789';

describe('key vault with a working keychain', () => {
  it('stores, reads and deletes keys in the keychain under the FieldDesk service name', async () => {
    const fake = fakeKeytar();
    const vault = createKeyVault({ loadKeytar: async () => fake.keytar });
    expect(await vault.set('acc-1', KEY)).toBe('keychain');
    expect(fake.entries.get(fake.keyOf('FieldDesk', 'acc-1'))).toBe(KEY);
    expect(await vault.get('acc-1')).toEqual({ key: KEY, storage: 'keychain' });
    expect(vault.status()).toEqual({ storage: 'keychain', reason: null });
    await vault.delete('acc-1');
    expect(fake.entries.size).toBe(0);
    expect(await vault.get('acc-1')).toBeNull();
  });

  it('reads a key stored in an earlier session (a new vault over the same keychain)', async () => {
    const fake = fakeKeytar();
    await createKeyVault({ loadKeytar: async () => fake.keytar }).set('acc-1', KEY);
    const later = createKeyVault({ loadKeytar: async () => fake.keytar });
    expect(await later.get('acc-1')).toEqual({ key: KEY, storage: 'keychain' });
    expect(await later.get('acc-unknown')).toBeNull();
  });

  it('uses the configured service name', async () => {
    const fake = fakeKeytar();
    const vault = createKeyVault({ serviceName: 'FieldDesk-test', loadKeytar: async () => fake.keytar });
    await vault.set('acc-1', KEY);
    expect([...fake.entries.keys()]).toEqual([fake.keyOf('FieldDesk-test', 'acc-1')]);
  });
});

describe('key vault falling back to memory', () => {
  it('no D-Bus session: keeps the key in memory and says why in plain words', async () => {
    const fake = fakeKeytar({
      setPassword: REAL_KEYTAR_ERRORS.noDbus,
      getPassword: REAL_KEYTAR_ERRORS.noDbus,
    });
    const vault = createKeyVault({ loadKeytar: async () => fake.keytar });
    expect(await vault.set('acc-1', KEY)).toBe('memory');
    expect(await vault.get('acc-1')).toEqual({ key: KEY, storage: 'memory' });
    expect(vault.status()).toEqual({ storage: 'memory', reason: VAULT_REASONS.noSecretService });
    expect(vault.status().reason).toMatch(/kept in memory until FieldDesk closes/);
  });

  it('locked keyring on read: switches to memory and keeps keys already set this session', async () => {
    const fake = fakeKeytar();
    const vault = createKeyVault({ loadKeytar: async () => fake.keytar });
    await vault.set('acc-1', KEY);
    // The keyring gets locked mid-session.
    fake.keytar.getPassword = async () => {
      throw new Error(REAL_KEYTAR_ERRORS.locked);
    };
    expect(await vault.get('acc-2')).toBeNull();
    expect(vault.status()).toEqual({ storage: 'memory', reason: VAULT_REASONS.locked });
    expect(vault.status().reason).toContain('Unlock your login keyring and restart FieldDesk');
    expect(await vault.get('acc-1')).toEqual({ key: KEY, storage: 'keychain' });
    expect(await vault.set('acc-3', 'other-key')).toBe('memory');
    expect(await vault.get('acc-3')).toEqual({ key: 'other-key', storage: 'memory' });
  });

  it('stops calling the keychain once it has failed (no repeated D-Bus timeouts)', async () => {
    const fake = fakeKeytar({ getPassword: REAL_KEYTAR_ERRORS.noDbus });
    const vault = createKeyVault({ loadKeytar: async () => fake.keytar });
    await vault.get('acc-1');
    await vault.set('acc-1', KEY);
    await vault.get('acc-2');
    await vault.delete('acc-1');
    expect(fake.calls).toEqual(['getPassword']);
    expect(await vault.get('acc-1')).toBeNull();
  });

  it('keytar that cannot load: memory, with its own reason, and the loader is tried once', async () => {
    let loads = 0;
    const vault = createKeyVault({
      loadKeytar: async () => {
        loads++;
        throw new Error('Cannot find module ../build/Release/keytar.node');
      },
    });
    expect(await vault.get('acc-1')).toBeNull();
    expect(await vault.set('acc-1', KEY)).toBe('memory');
    expect(await vault.get('acc-1')).toEqual({ key: KEY, storage: 'memory' });
    expect(vault.status()).toEqual({ storage: 'memory', reason: VAULT_REASONS.notLoadable });
    expect(loads).toBe(1);
  });

  it("takes keytar from `default` when Node's loader detected only getPassword on the namespace", () => {
    const whole = fakeKeytar().keytar;
    // What `await import('keytar')` gives under Node's and Electron's ESM loaders.
    const nodeNamespace = { getPassword: whole.getPassword, default: whole, 'module.exports': whole };
    expect(pickKeytar(nodeNamespace)).toBe(whole);
    // What vitest's module graph gives: the functions on the namespace itself.
    expect(pickKeytar({ ...whole })).toMatchObject({ setPassword: whole.setPassword });
  });

  it('an incomplete keytar fails loudly at start-up, naming what is missing, and says so as its reason', async () => {
    const partial = { getPassword: async () => null };
    expect(() => pickKeytar({ ...partial, default: partial })).toThrow(
      new IncompleteKeytarError(['setPassword', 'deletePassword']),
    );
    const vault = createKeyVault({ loadKeytar: async () => pickKeytar(partial) });
    expect(await vault.check()).toEqual({ storage: 'memory', reason: VAULT_REASONS.incomplete });
    expect(await vault.set('acc-1', KEY)).toBe('memory');
  });

  it('a failed delete still forgets the key for this session', async () => {
    const fake = fakeKeytar({ deletePassword: 'Some unexpected D-Bus error' });
    const vault = createKeyVault({ loadKeytar: async () => fake.keytar });
    await vault.set('acc-1', KEY);
    await expect(vault.delete('acc-1')).resolves.toBeUndefined();
    expect(await vault.get('acc-1')).toBeNull();
    expect(vault.status()).toEqual({ storage: 'memory', reason: VAULT_REASONS.other });
  });

  it('never puts a key into a status or reason, whatever keytar says', async () => {
    const fake = fakeKeytar({ setPassword: `failed to store ${KEY}` });
    const vault = createKeyVault({ loadKeytar: async () => fake.keytar });
    await vault.set('acc-1', KEY);
    expect(JSON.stringify(vault.status())).not.toContain(KEY);
  });

  it('maps the real keytar messages to plain reasons', () => {
    expect(keychainFailureReason(new Error(REAL_KEYTAR_ERRORS.noDbus))).toBe(VAULT_REASONS.noSecretService);
    expect(keychainFailureReason(new Error(REAL_KEYTAR_ERRORS.locked))).toBe(VAULT_REASONS.locked);
    expect(
      keychainFailureReason(
        new Error('The name org.freedesktop.secrets was not provided by any .service files'),
      ),
    ).toBe(VAULT_REASONS.noSecretService);
    expect(keychainFailureReason(new Error('Something else'))).toBe(VAULT_REASONS.other);
  });
});

describe('memory vault', () => {
  it('keeps keys for the session only and reports its reason', async () => {
    const vault = createMemoryVault('Keys are kept in memory in the test harness.');
    expect(await vault.set('acc-1', KEY)).toBe('memory');
    expect(await vault.get('acc-1')).toEqual({ key: KEY, storage: 'memory' });
    expect(vault.status()).toEqual({
      storage: 'memory',
      reason: 'Keys are kept in memory in the test harness.',
    });
    await vault.delete('acc-1');
    expect(await vault.get('acc-1')).toBeNull();
  });
});
