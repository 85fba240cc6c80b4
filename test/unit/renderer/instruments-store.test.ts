import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeBackend, expectCalledWith, fakePinia } from './fake-api';
import { FieldDeskError } from '../../../src/shared/errors';
import type { InstrumentEntry, InstrumentList, InstrumentStatuses } from '../../../src/shared/ipc/contract';
import { STATUS_EAGER_LIMIT } from '../../../src/shared/ipc/contract';
import type { Instrument } from '../../../src/shared/service/schemas';
import { account, deferred, entry, FLEET, status } from './fixtures';
import { ROW_STATUS_DEFAULTS } from '../../../src/renderer/src/features/instruments/row-statuses';
import {
  useInstrumentsStore,
  AUTO_REFRESH_MS,
  LARGE_FLEET_REFRESH_MS,
} from '../../../src/renderer/src/features/instruments/store';
import { useAccountsStore } from '../../../src/renderer/src/features/accounts/store';
import { useConnectivityStore } from '../../../src/renderer/src/features/connectivity/store';

/** The fake backend the stores talk to instead of `window.fielddesk`, typed from the contract. */
const backend = createFakeBackend();
const fake = backend.api;

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
    fakePinia(backend);
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
    // The failure is remembered, so the page says it failed rather than "Last refreshed …" alone.
    expect(store.refreshFailedAt).not.toBeNull();
    expect(store.refreshFailedAt!).toBeGreaterThan(store.fetchedAt!);
    // The backend's last known list (the service unreachable) is a failed refresh too.
    fake.instruments.list.mockResolvedValueOnce({
      accountId: 'acc-1',
      entries: FLEET,
      fetchedAt: 1_000,
      skipped: [],
      lastKnown: { reason: { code: 'offline', message: 'Cannot reach it.', retryable: true } },
    });
    await store.refresh();
    expect(store.refreshFailedAt).not.toBeNull();
    // A refresh that works ends it.
    fake.instruments.list.mockResolvedValueOnce({
      accountId: 'acc-1',
      entries: FLEET,
      fetchedAt: 2_000,
      skipped: [],
    });
    await store.refresh();
    expect(store.refreshFailedAt).toBeNull();
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

/** A fleet over STATUS_EAGER_LIMIT as the backend lists it: every status still to be read. */
const LARGE_FLEET: InstrumentEntry[] = Array.from({ length: STATUS_EAGER_LIMIT * 5 }, (_, i) => ({
  ...entry(`QT${String(i).padStart(6, '0')}`, `Receptor ${i}`),
  status: null,
  statusPending: true,
}));
const serialsOf = (entries: readonly InstrumentEntry[]) => entries.map((e) => e.instrument.serialNumber);

/** What `instruments.statuses` answers: every serial asked, online unless listed offline. */
function statusesOf(serials: readonly string[], offline: readonly string[] = []): InstrumentStatuses {
  return {
    accountId: 'acc-1',
    entries: serials.map((serial) => ({
      serial,
      status: status({ online: !offline.includes(serial) }),
      statusError: null,
    })),
    fetchedAt: Date.now(),
  };
}

describe('instruments store with a large fleet', () => {
  const { debounceMs, refreshMs, checkMs } = ROW_STATUS_DEFAULTS;

  beforeEach(() => {
    vi.useFakeTimers({ now: 5_000_000 });
    fakePinia(backend);
    backend.reset();
  });
  afterEach(() => vi.useRealTimers());

  async function largeStore(skipped: string[] = []) {
    useAccountsStore().apply({
      accounts: [account()],
      activeId: 'acc-1',
      vault: { storage: 'keychain', reason: null },
    });
    fake.instruments.list.mockResolvedValueOnce({
      accountId: 'acc-1',
      entries: LARGE_FLEET,
      fetchedAt: 1_000,
      skipped,
    });
    fake.instruments.statuses.mockImplementation(async ({ serials }) => statusesOf(serials, ['QT000002']));
    const store = useInstrumentsStore();
    await store.refresh();
    return store;
  }

  it('reads a large fleet’s list again every ten minutes, not every minute (its statuses refresh per row)', async () => {
    const listeners = { addEventListener: () => undefined, removeEventListener: () => undefined };
    vi.stubGlobal('document', { visibilityState: 'visible', ...listeners });
    vi.stubGlobal('window', listeners);
    vi.stubGlobal('navigator', { onLine: true });
    try {
      const store = await largeStore();
      fake.instruments.list.mockImplementation(async () => ({
        accountId: 'acc-1',
        entries: LARGE_FLEET,
        fetchedAt: Date.now(),
        skipped: [],
      }));
      await store.refresh();
      const stop = store.startAutoRefresh();
      const listed = fake.instruments.list.mock.calls.length;
      await vi.advanceTimersByTimeAsync(AUTO_REFRESH_MS * 5);
      expect(fake.instruments.list.mock.calls.length).toBe(listed);
      await vi.advanceTimersByTimeAsync(LARGE_FLEET_REFRESH_MS);
      expect(fake.instruments.list.mock.calls.length).toBe(listed + 1);
      stop();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('keeps the skipped items’ sentences and lists every instrument without statuses', async () => {
    const store = await largeStore([
      'An instrument could not be read: it has no serialNumber (item 7 of 1,001).',
    ]);
    expect(store.skipped).toEqual([
      'An instrument could not be read: it has no serialNumber (item 7 of 1,001).',
    ]);
    expect(store.statusesPerRow).toBe(true);
    expect(store.visibleEntries).toHaveLength(LARGE_FLEET.length);
    expect(store.visibleEntries.every((e) => e.statusPending)).toBe(true);
  });

  it('reads the statuses of the rows on screen only, and shows them in those rows', async () => {
    const store = await largeStore();
    const stop = store.followRowStatuses();
    const onScreen = serialsOf(store.visibleEntries.slice(0, 25));
    store.showRows(onScreen);
    await vi.advanceTimersByTimeAsync(debounceMs);

    expect(fake.instruments.statuses).toHaveBeenCalledTimes(1);
    expectCalledWith(fake.instruments.statuses, { serials: onScreen });
    const rows = store.visibleEntries;
    expect(rows.slice(0, 25).every((e) => !e.statusPending && e.status !== null)).toBe(true);
    expect(rows.find((e) => e.instrument.serialNumber === 'QT000002')?.status?.online).toBe(false);
    expect(rows.slice(25).every((e) => e.statusPending)).toBe(true);
    // The list as loaded is untouched: the statuses are kept beside it, to be forgotten.
    expect(store.entries.every((e) => e.statusPending)).toBe(true);
    stop();
  });

  it('reads them again every minute while the list is shown, and forgets them when it is left', async () => {
    const store = await largeStore();
    const stop = store.followRowStatuses();
    store.showRows(serialsOf(store.visibleEntries.slice(0, 20)));
    await vi.advanceTimersByTimeAsync(debounceMs);
    await vi.advanceTimersByTimeAsync(refreshMs + checkMs);
    expect(fake.instruments.statuses).toHaveBeenCalledTimes(2);

    stop();
    expect(store.rowStatuses.size).toBe(0);
    expect(store.visibleEntries.every((e) => e.statusPending)).toBe(true);
    await vi.advanceTimersByTimeAsync(refreshMs * 3);
    expect(fake.instruments.statuses).toHaveBeenCalledTimes(2);
  });

  it('asks nothing for a small fleet, whose statuses came with the list', async () => {
    const store = await loadedStore();
    const stop = store.followRowStatuses();
    store.showRows(serialsOf(store.visibleEntries));
    await vi.advanceTimersByTimeAsync(refreshMs * 2);
    expect(fake.instruments.statuses).not.toHaveBeenCalled();
    expect(store.statusesPerRow).toBe(false);
    stop();
  });

  it('drops statuses that arrive after the account changed', async () => {
    const store = await largeStore();
    const stop = store.followRowStatuses();
    const late = deferred<InstrumentStatuses>();
    fake.instruments.statuses.mockReturnValueOnce(late.promise);
    store.showRows(serialsOf(store.visibleEntries.slice(0, 10)));
    await vi.advanceTimersByTimeAsync(debounceMs);
    store.clear();
    late.resolve(statusesOf(serialsOf(LARGE_FLEET.slice(0, 10))));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.rowStatuses.size).toBe(0);
    stop();
  });

  it('Refresh reads the list and the statuses on screen again, showing the old ones meanwhile', async () => {
    const store = await largeStore();
    const stop = store.followRowStatuses();
    const onScreen = serialsOf(store.visibleEntries.slice(0, 10));
    store.showRows(onScreen);
    await vi.advanceTimersByTimeAsync(debounceMs);

    fake.instruments.list.mockResolvedValueOnce({
      accountId: 'acc-1',
      entries: LARGE_FLEET,
      fetchedAt: 2_000,
      skipped: [],
    });
    const answer = deferred<InstrumentStatuses>();
    fake.instruments.statuses.mockReturnValueOnce(answer.promise);
    await store.refreshAll();
    await vi.advanceTimersByTimeAsync(debounceMs);
    expect(fake.instruments.statuses).toHaveBeenCalledTimes(2);
    expect(store.visibleEntries[0]?.statusPending).toBeUndefined();
    answer.resolve(statusesOf(onScreen, onScreen));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.visibleEntries[0]?.status?.online).toBe(false);
    stop();
  });

  it('sorts rows without a status last both ways, and a state filter shows only known states', async () => {
    const store = await largeStore();
    const stop = store.followRowStatuses();
    const read = serialsOf(LARGE_FLEET.slice(0, 5));
    store.showRows(read);
    await vi.advanceTimersByTimeAsync(debounceMs);

    store.sortBy('state');
    expect(serialsOf(store.visibleEntries.slice(0, 5)).sort()).toEqual(read);
    expect(store.visibleEntries[0]?.instrument.serialNumber).toBe('QT000002');
    store.sortBy('state');
    expect(store.visibleEntries.at(-1)?.statusPending).toBe(true);
    expect(store.visibleEntries[0]?.statusPending).toBeUndefined();

    store.filter.state = 'offline';
    expect(serialsOf(store.visibleEntries)).toEqual(['QT000002']);
    stop();
  });

  it('a detail read keeps the row on the list’s status schedule', async () => {
    const store = await largeStore();
    const listed = LARGE_FLEET[3]!;
    fake.instruments.get.mockResolvedValueOnce({
      ...listed,
      instrument: { ...listed.instrument, name: 'Renamed elsewhere' },
      status: status({ online: false }),
      statusPending: undefined,
      accountId: 'acc-1',
      fetchedAt: 3_000,
    });
    await store.loadDetail(listed.instrument.serialNumber);
    const row = store.entries[3]!;
    expect(row.instrument.name).toBe('Renamed elsewhere');
    expect(row.statusPending).toBe(true);
    expect(store.entryFor(listed.instrument.serialNumber)?.status?.online).toBe(false);
  });
});
