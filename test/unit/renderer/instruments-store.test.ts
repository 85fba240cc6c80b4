import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { expectCalledWith } from './fake-api';
import { FieldDeskError } from '../../../src/shared/errors';
import type { InstrumentList } from '../../../src/shared/ipc/contract';
import type { Instrument } from '../../../src/shared/service/schemas';
import { account, deferred, FLEET } from './fixtures';

/** The fake backend the stores talk to instead of `window.fielddesk`, typed from the contract. */
const backend = await vi.hoisted(async () => (await import('./fake-api')).createFakeBackend());
vi.mock('../../../src/renderer/src/api', () => ({ api: backend.api }));
const fake = backend.api;

const { useInstrumentsStore } = await import('../../../src/renderer/src/features/instruments/store');
const { useAccountsStore } = await import('../../../src/renderer/src/features/accounts/store');
const { useConnectivityStore } = await import('../../../src/renderer/src/features/connectivity/store');

async function loadedStore() {
  const accounts = useAccountsStore();
  accounts.apply({ accounts: [account()], activeId: 'acc-1', vault: { storage: 'keychain', reason: null } });
  fake.instruments.list.mockResolvedValueOnce({
    accountId: 'acc-1',
    entries: FLEET,
    fetchedAt: 1_000,
    skipped: [],
  });
  const store = useInstrumentsStore();
  await store.refresh();
  return store;
}

const nameOf = (store: ReturnType<typeof useInstrumentsStore>, serial: string) =>
  store.entries.find((e) => e.instrument.serialNumber === serial)?.instrument.name;

describe('instruments store', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    backend.reset();
  });

  it('renames at once, then keeps the service’s answer', async () => {
    const store = await loadedStore();
    const answer = deferred<Instrument>();
    fake.instruments.rename.mockReturnValueOnce(answer.promise);

    const saving = store.rename('QT100001', '  Gate 3  ');
    expectCalledWith(fake.instruments.rename, { serial: 'QT100001', name: 'Gate 3' });
    expect(nameOf(store, 'QT100001')).toBe('Gate 3');
    expect(store.renames.QT100001).toEqual({ saving: true, error: null });

    answer.resolve({ ...FLEET[0]!.instrument, name: 'Gate 3' });
    await expect(saving).resolves.toBe(true);
    expect(nameOf(store, 'QT100001')).toBe('Gate 3');
    expect(store.renames.QT100001).toEqual({ saving: false, error: null });
  });

  it('puts the old name back and keeps the reason when the service refuses', async () => {
    const store = await loadedStore();
    fake.instruments.rename.mockRejectedValueOnce(
      new FieldDeskError('forbidden', 'This key cannot rename instruments: it lacks instruments:write.', {
        missingScope: 'instruments:write',
      }),
    );
    await expect(store.rename('QT100001', 'Gate 3')).resolves.toBe(false);
    expect(nameOf(store, 'QT100001')).toBe('Hinkley Point C – east boundary');
    expect(store.renames.QT100001).toEqual({
      saving: false,
      error: 'This key cannot rename instruments: it lacks instruments:write.',
    });
    store.clearRenameError('QT100001');
    expect(store.renames.QT100001?.error).toBeNull();
  });

  it('does not call the service when the name did not change', async () => {
    const store = await loadedStore();
    await expect(store.rename('QT100001', 'Hinkley Point C – east boundary ')).resolves.toBe(true);
    expect(fake.instruments.rename).not.toHaveBeenCalled();
  });

  it('keeps the last loaded list and its time when a refresh fails offline', async () => {
    const store = await loadedStore();
    fake.instruments.list.mockRejectedValueOnce(
      new FieldDeskError('offline', 'Cannot reach api.mycirrus.cloud.'),
    );
    await store.refresh();
    expect(store.entries).toHaveLength(FLEET.length);
    expect(store.fetchedAt).toBe(1_000);
    expect(store.error?.code).toBe('offline');
    // The backend alone says the app is offline (connectivity.changed); a failed request does not.
    expect(useConnectivityStore().isOffline).toBe(false);
  });

  it('filters and counts through the shared logic', async () => {
    const store = await loadedStore();
    store.filter.text = 'hinkley';
    expect(store.visibleEntries.map((e) => e.instrument.serialNumber).sort()).toEqual([
      'QT100001',
      'VB300001',
    ]);
    store.resetFilter();
    expect(store.visibleEntries).toHaveLength(FLEET.length);
  });

  it('drops an answer that arrives after the account changed', async () => {
    const store = await loadedStore();
    const late = deferred<InstrumentList>();
    fake.instruments.list.mockReturnValueOnce(late.promise);
    const pending = store.refresh();
    store.clear();
    late.resolve({ accountId: 'acc-1', entries: FLEET.slice(0, 1), fetchedAt: 2_000, skipped: [] });
    await pending;
    expect(store.entries).toEqual([]);
    expect(store.fetchedAt).toBeNull();
  });
});
