/**
 * The backend against the REAL demo service (src/simulator) on a random loopback port, with an
 * in-memory keytar so keychain behaviour is observable. Faults the demo service cannot produce on
 * its own (one status failing, a write refused then allowed) come from a fetch wrapper.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Backend, BackendOptions } from '../../../src/main/backend/backend';
import { createKeyVault, type KeyVault } from '../../../src/main/backend/accounts/vault';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import { parseRequestArg, STATUS_EAGER_LIMIT, type EventPayloads } from '../../../src/shared/ipc/contract';
import { createRecordingBackend, TEST_APP_INFO } from './backend-helpers';
import { fakeKeytar, makeTempDir, refusedBaseUrl, REAL_KEYTAR_ERRORS, failureOf } from './helpers';

const KEYS = {
  'key-all-scopes': '*',
  'key-read-only': ['instruments:read'],
  'key-write-only': ['instruments:write'],
} as const;
const FAST_CLIENT = {
  timeoutMs: 2_000,
  retry: { limit: 1, baseDelayMs: 5, maxDelayMs: 10, maxRetryAfterMs: 500 },
};

let service: RunningDemoService;
let dataDir: { path: string; remove(): Promise<void> };
let keytar: ReturnType<typeof fakeKeytar>;
const backends: Backend[] = [];
const extraServices: RunningDemoService[] = [];

beforeEach(async () => {
  service = await startDemoService({ port: 0, keys: KEYS, rateLimit: 10_000 });
  dataDir = await makeTempDir();
  keytar = fakeKeytar();
});

afterEach(async () => {
  await Promise.all(backends.splice(0).map((backend) => backend.close()));
  await Promise.all([service.close(), ...extraServices.splice(0).map((s) => s.close())]);
  await dataDir.remove();
});

function vaultOnFakeKeytar(): KeyVault {
  return createKeyVault({ loadKeytar: async () => keytar.keytar });
}

async function makeBackend(overrides: Partial<BackendOptions> = {}) {
  const made = await createRecordingBackend({
    dataDir: dataDir.path,
    vault: vaultOnFakeKeytar(),
    appInfo: TEST_APP_INFO,
    startDemo: async () => {
      throw new Error('the demo is not used in this test');
    },
    clientOptions: FAST_CLIENT,
    ...overrides,
  });
  backends.push(made.backend);
  return made;
}

async function savedFile(): Promise<{
  activeId: string | null;
  accounts: Array<Record<string, unknown>>;
} | null> {
  try {
    return JSON.parse(await readFile(join(dataDir.path, 'accounts.json'), 'utf8'));
  } catch {
    return null;
  }
}

async function demoInstrumentCount(): Promise<number> {
  const response = await fetch(`${service.baseUrl}/control/instruments`, {
    headers: { 'X-Api-Key': 'key-all-scopes' },
  });
  return ((await response.json()) as unknown[]).length;
}

describe('accounts.add against the demo service', () => {
  it('tests the key, keeps it in the keychain only, saves the account and makes it active', async () => {
    const { handlers, events } = await makeBackend();
    const check = await handlers['accounts.add']({
      name: 'Client A',
      baseUrl: service.baseUrl,
      apiKey: 'key-all-scopes',
    });

    expect(check.instrumentCount).toBe(await demoInstrumentCount());
    expect(check.instrumentCount).toBeGreaterThan(0);
    expect(check.account).toMatchObject({
      name: 'Client A',
      kind: 'service',
      keyStorage: 'keychain',
      missingScopes: [],
    });
    expect(keytar.entries.get(keytar.keyOf('FieldDesk', check.account.id))).toBe('key-all-scopes');

    const state = await handlers['accounts.getState']({});
    expect(state.activeId).toBe(check.account.id);
    expect(state.vault).toEqual({ storage: 'keychain', reason: null });
    const fileText = await readFile(join(dataDir.path, 'accounts.json'), 'utf8');
    expect(fileText).not.toContain('key-all-scopes');
    expect(JSON.parse(fileText)).toMatchObject({ version: 1, activeId: check.account.id });

    expect(events.some((e) => e.channel === 'accounts.changed')).toBe(true);
    expect(events.filter((e) => e.channel === 'connectivity.changed').at(-1)?.payload).toMatchObject({
      state: 'online',
      accountId: check.account.id,
    });
  });

  it('an invalid key: unauthorized in plain words, nothing saved', async () => {
    const { handlers } = await makeBackend();
    const error = await failureOf(
      handlers['accounts.add']({ name: 'Client A', baseUrl: service.baseUrl, apiKey: 'key-made-up' }),
    );
    expect(error.code).toBe('unauthorized');
    expect(error.message).toBe(
      'The service did not accept this API key. Check that it was copied whole and has not been revoked.',
    );
    expect(await savedFile()).toBeNull();
    expect(keytar.entries.size).toBe(0);
    expect((await handlers['accounts.getState']({})).accounts).toEqual([]);
  });

  it('a key without instruments:read: the precise message, nothing saved', async () => {
    const { handlers } = await makeBackend();
    const error = await failureOf(
      handlers['accounts.add']({ name: 'Client A', baseUrl: service.baseUrl, apiKey: 'key-write-only' }),
    );
    expect(error).toMatchObject({ code: 'forbidden', missingScope: 'instruments:read' });
    expect(error.message).toBe(
      'This key lacks the instruments:read scope, so FieldDesk cannot list instruments. Create a key with instruments:read in the web console.',
    );
    expect(await savedFile()).toBeNull();
    expect(keytar.entries.size).toBe(0);
  });

  it('an unreachable address: offline naming the address, nothing saved', async () => {
    const { handlers } = await makeBackend();
    const { baseUrl } = await refusedBaseUrl();
    const error = await failureOf(
      handlers['accounts.add']({ name: 'Client A', baseUrl, apiKey: 'key-all-scopes' }),
    );
    expect(error.code).toBe('offline');
    expect(error.message).toContain(`Cannot reach ${baseUrl}: the connection was refused`);
    expect(error.message).not.toContain('key-all-scopes');
    expect(await savedFile()).toBeNull();
    expect(keytar.entries.size).toBe(0);
  });
});

describe('instruments against the demo service', () => {
  it('refuses instrument requests when no account is active', async () => {
    const { handlers } = await makeBackend();
    const error = await failureOf(handlers['instruments.list']({}));
    expect(error).toMatchObject({
      code: 'noAccount',
      message: 'No account is active. Add an account or try the demo.',
    });
  });

  it('lists instruments with their status, and renames one (round trip through the service)', async () => {
    const { handlers } = await makeBackend();
    await handlers['accounts.add']({ name: 'Client A', baseUrl: service.baseUrl, apiKey: 'key-all-scopes' });
    const list = await handlers['instruments.list']({});
    expect(list.entries.length).toBe(await demoInstrumentCount());
    expect(list.entries.every((e) => e.status !== null && e.statusError === null)).toBe(true);

    const target = list.entries[0]!.instrument;
    const renamed = await handlers['instruments.rename']({
      serial: target.serialNumber,
      name: 'North fence',
    });
    expect(renamed).toMatchObject({ serialNumber: target.serialNumber, name: 'North fence' });
    const detail = await handlers['instruments.get']({ serial: target.serialNumber });
    expect(detail.instrument.name).toBe('North fence');
    expect(detail.status).not.toBeNull();
    const again = await handlers['instruments.list']({});
    expect(
      again.entries.find((e) => e.instrument.serialNumber === target.serialNumber)?.instrument.name,
    ).toBe('North fence');
  });

  it('a failing status leaves that entry without status, not a failed list', async () => {
    let brokenSerial = '';
    const faultyFetch: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (brokenSerial !== '' && url.endsWith(`/control/instruments/${brokenSerial}/status`)) {
        return Response.json(
          { error: 'InternalError', description: 'Status store unavailable.' },
          { status: 500 },
        );
      }
      return fetch(input, init);
    };
    const { handlers } = await makeBackend({ fetch: faultyFetch });
    await handlers['accounts.add']({ name: 'Client A', baseUrl: service.baseUrl, apiKey: 'key-all-scopes' });
    brokenSerial = (await handlers['instruments.list']({})).entries[1]!.instrument.serialNumber;

    const list = await handlers['instruments.list']({});
    const broken = list.entries.filter((e) => e.status === null);
    expect(broken.map((e) => e.instrument.serialNumber)).toEqual([brokenSerial]);
    expect(broken[0]!.statusError).toMatchObject({ code: 'serverError', retryable: true });
    expect(broken[0]!.statusError?.message).toContain('Status store unavailable.');
    expect(list.entries.filter((e) => e.status !== null)).toHaveLength(list.entries.length - 1);
  });

  it('learns a missing scope from a real 403 on rename, and keeps it across restarts', async () => {
    const first = await makeBackend();
    const { account } = await first.handlers['accounts.add']({
      name: 'Read only',
      baseUrl: service.baseUrl,
      apiKey: 'key-read-only',
    });
    const serial = (await first.handlers['instruments.list']({})).entries[0]!.instrument.serialNumber;
    first.events.length = 0;

    const error = await failureOf(first.handlers['instruments.rename']({ serial, name: 'Gate' }));
    expect(error).toMatchObject({ code: 'forbidden', missingScope: 'instruments:write' });
    expect(error.message).toBe('This key cannot rename instruments: it lacks instruments:write.');

    const state = await first.handlers['accounts.getState']({});
    expect(state.accounts.find((a) => a.id === account.id)?.missingScopes).toEqual(['instruments:write']);
    const changed = first.events.filter((e) => e.channel === 'accounts.changed');
    expect(changed).toHaveLength(1);
    expect(changed[0]?.payload).toMatchObject({ accounts: [{ missingScopes: ['instruments:write'] }] });

    await first.backend.close();
    const second = await makeBackend();
    const reloaded = await second.handlers['accounts.getState']({});
    expect(reloaded.accounts[0]?.missingScopes).toEqual(['instruments:write']);

    // A new key has its own scopes: replacing the key forgets what was learned.
    const replaced = await second.handlers['accounts.replaceKey']({
      id: account.id,
      apiKey: 'key-all-scopes',
    });
    expect(replaced.account.missingScopes).toEqual([]);
    await expect(second.handlers['instruments.rename']({ serial, name: 'Gate' })).resolves.toMatchObject({
      name: 'Gate',
    });
  });

  it('a success on an endpoint clears the scope it had learned', async () => {
    let denyWrites = true;
    const gatedFetch: typeof fetch = async (input, init) => {
      const request = input instanceof Request ? input : new Request(String(input), init);
      if (denyWrites && request.method === 'PUT') {
        return Response.json(
          { error: 'AccessDenied', description: 'The API key lacks the required scope: instruments:write.' },
          { status: 403 },
        );
      }
      return fetch(input, init);
    };
    const { handlers } = await makeBackend({ fetch: gatedFetch });
    await handlers['accounts.add']({ name: 'Client A', baseUrl: service.baseUrl, apiKey: 'key-all-scopes' });
    const serial = (await handlers['instruments.list']({})).entries[0]!.instrument.serialNumber;
    await failureOf(handlers['instruments.rename']({ serial, name: 'Gate' }));
    expect((await handlers['accounts.getState']({})).accounts[0]?.missingScopes).toEqual([
      'instruments:write',
    ]);

    denyWrites = false;
    await handlers['instruments.rename']({ serial, name: 'Gate' });
    expect((await handlers['accounts.getState']({})).accounts[0]?.missingScopes).toEqual([]);
    expect((await savedFile())?.accounts[0]?.['missingScopes']).toEqual([]);
  });
});

describe('account management', () => {
  it('rename, activate and remove (which deletes the keychain entry and activates the next account)', async () => {
    const { handlers, events } = await makeBackend();
    const a = await handlers['accounts.add']({
      name: 'A',
      baseUrl: service.baseUrl,
      apiKey: 'key-all-scopes',
    });
    const b = await handlers['accounts.add']({
      name: 'B',
      baseUrl: service.baseUrl,
      apiKey: 'key-read-only',
    });
    const c = await handlers['accounts.add']({
      name: 'C',
      baseUrl: service.baseUrl,
      apiKey: 'key-all-scopes',
    });
    expect((await handlers['accounts.getState']({})).activeId).toBe(c.account.id);

    expect(await handlers['accounts.rename']({ id: a.account.id, name: 'Client A' })).toMatchObject({
      name: 'Client A',
    });
    expect((await handlers['accounts.activate']({ id: b.account.id })).activeId).toBe(b.account.id);
    expect(events.filter((e) => e.channel === 'connectivity.changed').at(-1)?.payload).toMatchObject({
      state: 'unknown',
      accountId: b.account.id,
    });

    const afterRemove = await handlers['accounts.remove']({ id: b.account.id });
    expect(afterRemove.accounts.map((x) => x.name)).toEqual(['Client A', 'C']);
    expect(afterRemove.activeId).toBe(c.account.id);
    expect(keytar.entries.has(keytar.keyOf('FieldDesk', b.account.id))).toBe(false);
    expect(keytar.entries.size).toBe(2);

    await handlers['accounts.remove']({ id: c.account.id });
    const last = await handlers['accounts.remove']({ id: a.account.id });
    expect(last).toMatchObject({ accounts: [], activeId: null });
    expect(keytar.entries.size).toBe(0);
    expect(await failureOf(handlers['accounts.check']({ id: a.account.id }))).toMatchObject({
      code: 'invalidInput',
    });
  });

  it('check updates lastCheckedAt; replaceKey tests the new key before replacing the old one', async () => {
    let clock = 1_000_000;
    const { handlers } = await makeBackend({ now: () => clock });
    const { account } = await handlers['accounts.add']({
      name: 'A',
      baseUrl: service.baseUrl,
      apiKey: 'key-all-scopes',
    });
    clock = 2_000_000;
    const check = await handlers['accounts.check']({ id: account.id });
    expect(check).toMatchObject({ checkedAt: 2_000_000, account: { lastCheckedAt: 2_000_000 } });

    const error = await failureOf(handlers['accounts.replaceKey']({ id: account.id, apiKey: 'key-made-up' }));
    expect(error.code).toBe('unauthorized');
    expect(keytar.entries.get(keytar.keyOf('FieldDesk', account.id))).toBe('key-all-scopes');
    await handlers['accounts.replaceKey']({ id: account.id, apiKey: 'key-read-only' });
    expect(keytar.entries.get(keytar.keyOf('FieldDesk', account.id))).toBe('key-read-only');
  });

  it('a keychain that fails keeps keys in memory, then asks for them again after a restart', async () => {
    const broken = fakeKeytar({
      getPassword: REAL_KEYTAR_ERRORS.locked,
      setPassword: REAL_KEYTAR_ERRORS.locked,
    });
    const brokenVault = () => createKeyVault({ loadKeytar: async () => broken.keytar });
    const first = await makeBackend({ vault: brokenVault() });
    const { account } = await first.handlers['accounts.add']({
      name: 'A',
      baseUrl: service.baseUrl,
      apiKey: 'key-all-scopes',
    });
    expect(account.keyStorage).toBe('memory');
    const state = await first.handlers['accounts.getState']({});
    expect(state.vault.storage).toBe('memory');
    expect(state.vault.reason).toContain('The system keychain is locked');
    await expect(first.handlers['instruments.list']({})).resolves.toBeTruthy();
    expect(await readFile(join(dataDir.path, 'accounts.json'), 'utf8')).not.toContain('key-all-scopes');
    await first.backend.close();

    const second = await makeBackend({ vault: brokenVault() });
    expect((await second.handlers['accounts.getState']({})).accounts[0]?.keyStorage).toBe('missing');
    const missing = await failureOf(second.handlers['instruments.list']({}));
    expect(missing.code).toBe('keychainUnavailable');
    expect(missing.message).toContain('Enter the key again');
    await second.handlers['accounts.replaceKey']({ id: account.id, apiKey: 'key-all-scopes' });
    await expect(second.handlers['instruments.list']({})).resolves.toBeTruthy();
  });

  it('moves a corrupt accounts.json aside, starts empty, says so, and saves anew', async () => {
    const damaged = '{"version":1,"activeId":"x","accounts":[{"id":"x","name":';
    await writeFile(join(dataDir.path, 'accounts.json'), damaged);
    const { handlers } = await makeBackend();
    const state = await handlers['accounts.getState']({});
    expect(state.accounts).toEqual([]);
    expect(state.notice).toMatch(/damaged.*accounts\.json\.corrupt-/);
    const aside = (await readdir(dataDir.path)).filter((name) => name.startsWith('accounts.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(await readFile(join(dataDir.path, aside[0]!), 'utf8')).toBe(damaged);

    await handlers['accounts.add']({ name: 'A', baseUrl: service.baseUrl, apiKey: 'key-all-scopes' });
    expect((await savedFile())?.accounts).toHaveLength(1);
  });
});

describe('the demo account', () => {
  function realDemoStarter() {
    const started: RunningDemoService[] = [];
    return {
      started,
      startDemo: async () => {
        const demo = await startDemoService({ port: 0 });
        started.push(demo);
        extraServices.push(demo);
        return { baseUrl: demo.baseUrl, apiKey: demo.defaultKey ?? '', close: demo.close };
      },
    };
  }

  it('tryDemo starts the real demo once, creates "Demo fleet" (key in memory only) and activates it', async () => {
    const starter = realDemoStarter();
    const { backend, handlers } = await makeBackend({ startDemo: starter.startDemo });
    const check = await handlers['accounts.tryDemo']({});
    expect(check.account).toMatchObject({ name: 'Demo fleet', kind: 'demo', keyStorage: 'demo' });
    expect(check.account.baseUrl).toBe(starter.started[0]?.baseUrl);
    expect(check.instrumentCount).toBeGreaterThan(0);
    expect(keytar.entries.size).toBe(0);
    expect(await readFile(join(dataDir.path, 'accounts.json'), 'utf8')).not.toContain('demo-key');

    const again = await handlers['accounts.tryDemo']({});
    expect(again.account.id).toBe(check.account.id);
    expect(starter.started).toHaveLength(1);
    expect((await handlers['accounts.getState']({})).accounts).toHaveLength(1);
    expect((await handlers['instruments.list']({})).entries).toHaveLength(check.instrumentCount);

    await backend.close();
    await expect(fetch(`${check.account.baseUrl}/control/instruments`)).rejects.toThrow();
  });

  it('two tryDemo calls at once give one demo account', async () => {
    const starter = realDemoStarter();
    const { handlers } = await makeBackend({ startDemo: starter.startDemo });
    const [a, b] = await Promise.all([handlers['accounts.tryDemo']({}), handlers['accounts.tryDemo']({})]);
    expect(a.account.id).toBe(b.account.id);
    expect((await handlers['accounts.getState']({})).accounts).toHaveLength(1);
    expect(starter.started).toHaveLength(1);
  });

  it('a demo account saved in an earlier run restarts the demo lazily on first use', async () => {
    const firstStarter = realDemoStarter();
    const first = await makeBackend({ startDemo: firstStarter.startDemo });
    const { account } = await first.handlers['accounts.tryDemo']({});
    await first.backend.close();

    const secondStarter = realDemoStarter();
    const second = await makeBackend({ startDemo: secondStarter.startDemo });
    expect(secondStarter.started).toHaveLength(0);
    const list = await second.handlers['instruments.list']({});
    expect(list.accountId).toBe(account.id);
    expect(list.entries.length).toBeGreaterThan(0);
    expect(secondStarter.started).toHaveLength(1);
    const state = await second.handlers['accounts.getState']({});
    expect(state.accounts[0]?.baseUrl).toBe(secondStarter.started[0]?.baseUrl);
  });
});

describe('connectivity', () => {
  it('goes offline when the service disappears and online when it is back, one event per change', async () => {
    const { handlers, events } = await makeBackend();
    const { account } = await handlers['accounts.add']({
      name: 'A',
      baseUrl: service.baseUrl,
      apiKey: 'key-all-scopes',
    });
    await handlers['instruments.list']({});
    const connectivity = () =>
      events
        .filter((e) => e.channel === 'connectivity.changed')
        .map((e) => e.payload as EventPayloads['connectivity.changed']);
    expect(connectivity().map((c) => c.state)).toEqual(['online']);

    await service.close();
    // The list answers as last known, with why it is not live.
    const offline = (await handlers['instruments.list']({})).lastKnown!.reason;
    expect(offline.code).toBe('offline');
    expect((await handlers['instruments.list']({})).lastKnown?.reason.code).toBe('offline');
    expect(connectivity().map((c) => c.state)).toEqual(['online', 'offline']);
    expect(connectivity()[1]).toMatchObject({ accountId: account.id, message: offline.message });
    expect(connectivity()[1]?.message).toContain(`Cannot reach 127.0.0.1:${service.port}`);
    // A window opened now asks instead of waiting for the next change.
    expect(await handlers['connectivity.get']({})).toEqual(connectivity()[1]);

    service = await startDemoService({ port: service.port, keys: KEYS, rateLimit: 10_000 });
    await handlers['instruments.list']({});
    expect(connectivity().map((c) => c.state)).toEqual(['online', 'offline', 'online']);
  });

  it('errors from the service itself still count as online', async () => {
    const { handlers, events } = await makeBackend();
    await handlers['accounts.add']({ name: 'A', baseUrl: service.baseUrl, apiKey: 'key-all-scopes' });
    await failureOf(handlers['instruments.get']({ serial: 'NOPE0000' }));
    expect(events.filter((e) => e.channel === 'connectivity.changed').map((e) => e.payload)).toMatchObject([
      { state: 'online' },
    ]);
  });
});

describe('app info', () => {
  it('returns the injected app info', async () => {
    const { handlers } = await makeBackend();
    expect(await handlers['app.getInfo']({})).toEqual({ version: '0.1.0-test', shell: 'harness' });
  });
});

describe('large fleets', () => {
  it('lists a fleet beyond the eager limit without reading every status, then reads the ones asked for', async () => {
    const big = await startDemoService({
      port: 0,
      keys: KEYS,
      rateLimit: 100_000,
      fleetSize: STATUS_EAGER_LIMIT + 50,
    });
    try {
      const { handlers } = await makeBackend();
      await handlers['accounts.add']({ name: 'Big', baseUrl: big.baseUrl, apiKey: 'key-all-scopes' });
      const list = await handlers['instruments.list']({});
      expect(list.entries).toHaveLength(STATUS_EAGER_LIMIT + 50);
      expect(list.entries.every((e) => e.statusPending === true && e.status === null)).toBe(true);
      const screen = list.entries.slice(0, 30).map((e) => e.instrument.serialNumber);
      const read = await handlers['instruments.statuses']({ serials: screen });
      expect(read.entries.map((e) => e.serial)).toEqual(screen);
      expect(read.entries.every((e) => e.status !== null || e.statusError !== null)).toBe(true);
      expect(read.entries.filter((e) => e.status !== null).length).toBeGreaterThan(20);
      const serials = list.entries.slice(0, 101).map((e) => e.instrument.serialNumber);
      expect(() => parseRequestArg('instruments.statuses', { serials })).toThrow(
        'Ask for at most 100 statuses at a time.',
      );
    } finally {
      await big.close();
    }
  });
});
