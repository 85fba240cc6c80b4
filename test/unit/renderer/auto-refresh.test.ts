/**
 * An open data view reads its recent readings again by itself once they are older than the user's
 * refresh age: with the real data, connectivity and settings stores over the fake backend, and
 * vitest's fake clock (no test waits for real time).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { effectScope, nextTick, type EffectScope } from 'vue';
import type { DataReadResult, DatasetQuery, Provenance } from '../../../src/shared/data';
import { FieldDeskError } from '../../../src/shared/errors';
import { refreshDueAt, useAutoRefresh } from '../../../src/renderer/src/features/data/auto-refresh';
import { account, deferred } from './fixtures';
import { createFakeBackend, fakePinia } from './fake-api';
import { useDataStore } from '../../../src/renderer/src/features/data/store';
import { useAccountsStore } from '../../../src/renderer/src/features/accounts/store';
import { useConnectivityStore } from '../../../src/renderer/src/features/connectivity/store';
import { useSettingsStore } from '../../../src/renderer/src/features/settings/store';

const backend = createFakeBackend();
const fake = backend.api;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.UTC(2026, 10, 12, 14, 0);

const query: DatasetQuery = { serial: 'QT1', dataset: 'noiseMeasurements', start: T0 - 24 * HOUR, end: T0 };

const answer = (provenance: Provenance): DataReadResult => ({ query, provenance, series: [], records: null });

/** The backend's answer now: cached, its open hour just fetched (asked to refresh) or as before. */
let openFetchedAt: number;
function answerFromCache(arg: { refresh?: boolean }): Promise<DataReadResult> {
  if (arg.refresh) openFetchedAt = Date.now();
  return Promise.resolve(answer({ source: 'cached', cachedAt: T0 - 2 * HOUR, openFetchedAt }));
}

describe('when a shown answer is due to be read again', () => {
  it('is its open part’s fetch plus the refresh age, never sooner than that after the last try', () => {
    const fresh: Provenance = { source: 'fresh', fetchedAt: T0, openFetchedAt: T0 };
    expect(refreshDueAt(fresh, 5 * MINUTE, null)).toBe(T0 + 5 * MINUTE);
    expect(refreshDueAt({ source: 'cached', cachedAt: 0, openFetchedAt: T0 }, MINUTE, null)).toBe(
      T0 + MINUTE,
    );
    // A try that brought nothing newer: the next waits a whole refresh age after it.
    expect(refreshDueAt(fresh, 5 * MINUTE, T0 + 5 * MINUTE)).toBe(T0 + 10 * MINUTE);
    // A settled range cannot change; an answer with parts missing keeps its warning and Refresh.
    expect(refreshDueAt({ source: 'cached', cachedAt: T0 }, 5 * MINUTE, null)).toBeNull();
    expect(
      refreshDueAt(
        {
          source: 'partial',
          cachedAt: T0,
          missing: [{ start: T0 - HOUR, end: T0 }],
          reason: { code: 'forbidden', message: 'x', retryable: false },
        },
        5 * MINUTE,
        null,
      ),
    ).toBeNull();
  });
});

describe('an open data view refreshing itself', () => {
  let scope: EffectScope;

  beforeEach(() => {
    vi.useFakeTimers({ now: T0 });
    fakePinia(backend);
    backend.reset();
    useAccountsStore().apply({
      accounts: [account()],
      activeId: 'acc-1',
      vault: { storage: 'keychain', reason: null },
    });
    openFetchedAt = T0;
    fake.data.read.mockImplementation(answerFromCache);
  });

  afterEach(() => {
    scope.stop();
    vi.useRealTimers();
  });

  /** The data view's wiring: its store's answer, the user's setting, the connection. */
  async function openView(): Promise<void> {
    const store = useDataStore();
    const settings = useSettingsStore();
    const connectivity = useConnectivityStore();
    scope = effectScope();
    scope.run(() =>
      useAutoRefresh({
        provenance: () => store.result?.provenance ?? null,
        refreshAfterMs: () => settings.current.refreshCachedAfterMinutes * MINUTE,
        online: () => !connectivity.isOffline,
        busy: () => store.loading,
        reread: () => void store.read({ ...query, refresh: true }),
      }),
    );
    await store.read(query);
    await nextTick();
  }

  const reads = () => fake.data.read.mock.calls.map(([arg]) => (arg.refresh ? 'refresh' : 'read'));

  it('reads again once its open part is older than the setting (5 minutes by default), and again after that', async () => {
    await openView();
    await vi.advanceTimersByTimeAsync(5 * MINUTE - 1);
    expect(reads()).toEqual(['read']);
    await vi.advanceTimersByTimeAsync(1);
    expect(reads()).toEqual(['read', 'refresh']);
    expect(useDataStore().result?.provenance).toMatchObject({ openFetchedAt: T0 + 5 * MINUTE });
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(reads()).toEqual(['read', 'refresh', 'refresh']);
  });

  it('follows the setting, and a newer answer starts the wait again', async () => {
    await openView();
    useSettingsStore().current = { ...useSettingsStore().current, refreshCachedAfterMinutes: 15 };
    await nextTick();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(reads()).toEqual(['read']);
    // The user zooms 10 minutes on: the backend fetched the open part then (older than a minute).
    openFetchedAt = Date.now();
    await useDataStore().read(query);
    await vi.advanceTimersByTimeAsync(14 * MINUTE);
    expect(reads()).toEqual(['read', 'read']);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(reads()).toEqual(['read', 'read', 'refresh']);
  });

  it('never while offline; back online, an answer already too old is read again', async () => {
    await openView();
    const connectivity = useConnectivityStore();
    connectivity.current = { state: 'offline', accountId: 'acc-1', since: T0, message: 'Cannot reach it.' };
    await nextTick();
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(reads()).toEqual(['read']);
    connectivity.current = { state: 'online', accountId: 'acc-1', since: Date.now(), message: null };
    await nextTick();
    await vi.advanceTimersByTimeAsync(0);
    expect(reads()).toEqual(['read', 'refresh']);
  });

  it('never piles up: while a read is under way nothing more is asked, and its answer decides the next', async () => {
    await openView();
    const slow = deferred<DataReadResult>();
    fake.data.read.mockReturnValueOnce(slow.promise);
    // The user picks another range at 4 minutes; it is still loading when the refresh falls due.
    await vi.advanceTimersByTimeAsync(4 * MINUTE);
    const picked = useDataStore().read(query);
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(reads()).toEqual(['read', 'read']);
    // Its answer is already too old: read again at once, once.
    slow.resolve(answer({ source: 'cached', cachedAt: T0 - 2 * HOUR, openFetchedAt: T0 }));
    await picked;
    await vi.advanceTimersByTimeAsync(0);
    expect(reads()).toEqual(['read', 'read', 'refresh']);
  });

  it('after a read that brought nothing newer or failed, waits a whole refresh age before trying again', async () => {
    await openView();
    // The backend kept its copy (the refresh of the open part failed): the same fetch time comes back.
    fake.data.read.mockImplementation(() =>
      Promise.resolve(answer({ source: 'cached', cachedAt: T0 - 2 * HOUR, openFetchedAt: T0 })),
    );
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(reads()).toEqual(['read', 'refresh']);
    await vi.advanceTimersByTimeAsync(5 * MINUTE - 1);
    expect(reads()).toEqual(['read', 'refresh']);
    fake.data.read.mockRejectedValueOnce(new FieldDeskError('serverError', 'The service had an error.'));
    await vi.advanceTimersByTimeAsync(1);
    expect(reads()).toEqual(['read', 'refresh', 'refresh']);
    expect(useDataStore().error?.code).toBe('serverError');
    await vi.advanceTimersByTimeAsync(5 * MINUTE - 1);
    expect(reads()).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(reads()).toHaveLength(4);
  });

  it('a settled range is never read again by itself, and a closed view stops its timer', async () => {
    fake.data.read.mockImplementation(() =>
      Promise.resolve(answer({ source: 'cached', cachedAt: T0 - HOUR })),
    );
    await openView();
    await vi.advanceTimersByTimeAsync(3 * HOUR);
    expect(reads()).toEqual(['read']);

    fake.data.read.mockImplementation(answerFromCache);
    await useDataStore().read(query);
    scope.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(3 * HOUR);
    expect(reads()).toEqual(['read', 'read']);
  });
});
