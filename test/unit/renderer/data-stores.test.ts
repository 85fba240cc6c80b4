import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DataReadResult, DatasetQuery } from '../../../src/shared/data';
import { FieldDeskError } from '../../../src/shared/errors';
import { account, deferred, syncSnapshot as snapshot } from './fixtures';
import { createFakeBackend, expectCalledWith, fakePinia } from './fake-api';
import { syncFraction, syncOutcome, syncProgressText } from '../../../src/renderer/src/features/sync/logic';
import { useDataStore } from '../../../src/renderer/src/features/data/store';
import { useSyncStore } from '../../../src/renderer/src/features/sync/store';
import { useAccountsStore } from '../../../src/renderer/src/features/accounts/store';
import { useConnectivityStore } from '../../../src/renderer/src/features/connectivity/store';

/** The fake backend the stores talk to instead of `window.fielddesk`, typed from the contract. */
const backend = createFakeBackend();
const fake = backend.api;

const query = (dataset: DatasetQuery['dataset'] = 'noiseMeasurements'): DatasetQuery => ({
  serial: 'QT1',
  dataset,
  start: 0,
  end: 3_600_000,
});

function answer(q: DatasetQuery, provenance: DataReadResult['provenance']): DataReadResult {
  return { query: q, provenance, series: [], records: null };
}

beforeEach(() => {
  fakePinia(backend);
  backend.reset();
  useAccountsStore().apply({
    accounts: [account()],
    activeId: 'acc-1',
    vault: { storage: 'keychain', reason: null },
  });
});

describe('data store', () => {
  it('drops an answer to a read that a newer read replaced', async () => {
    const store = useDataStore();
    const slow = deferred<DataReadResult>();
    fake.data.read.mockReturnValueOnce(slow.promise);
    fake.data.read.mockResolvedValueOnce(answer(query('events'), { source: 'fresh', fetchedAt: 5 }));
    const first = store.read(query());
    await store.read(query('events'));
    slow.resolve(answer(query(), { source: 'fresh', fetchedAt: 1 }));
    await first;
    expect(store.result?.query.dataset).toBe('events');
    expect(store.loading).toBe(false);
  });

  it('reads a week of spectrum time history day by day with progress, then the whole week once (from the cache)', async () => {
    const store = useDataStore();
    const week: DatasetQuery = {
      serial: 'QT1',
      dataset: 'frequencyTimeHistory',
      options: { bands: 'Third' },
      start: 0,
      end: 7 * 86_400_000,
    };
    const days = Array.from({ length: 7 }, () => deferred<DataReadResult>());
    for (const day of days) fake.data.read.mockReturnValueOnce(day.promise);
    fake.data.read.mockResolvedValueOnce(answer(week, { source: 'cached', cachedAt: 9 }));
    const reading = store.read({ ...week, withEvents: true });
    expect(store.dayProgress).toEqual({ done: 0, total: 7 });
    // Three days are asked for at once, each without events and for a narrow chart.
    expect(fake.data.read).toHaveBeenCalledTimes(3);
    expect(fake.data.read.mock.calls[1]![0]).toMatchObject({
      start: 86_400_000,
      end: 2 * 86_400_000,
      chartWidth: 50,
    });
    expect(fake.data.read.mock.calls[1]![0]).not.toHaveProperty('withEvents');
    days[0]!.resolve(answer(week, { source: 'fresh', fetchedAt: 1 }));
    await vi.waitFor(() => expect(store.dayProgress).toEqual({ done: 1, total: 7 }));
    for (const day of days.slice(1)) day.resolve(answer(week, { source: 'fresh', fetchedAt: 1 }));
    await reading;
    // Then the whole week in one read, as asked (its events too).
    expect(fake.data.read).toHaveBeenCalledTimes(8);
    expect(fake.data.read.mock.calls[7]![0]).toMatchObject({ ...week, withEvents: true, refresh: false });
    expect(store.result?.provenance).toEqual({ source: 'cached', cachedAt: 9 });
    expect(store.dayProgress).toBeNull();
    expect(store.loading).toBe(false);
  });

  it('Cancel stops a day-by-day read: no more days, no whole read, the answer before stays', async () => {
    const store = useDataStore();
    const before = answer(query('frequencyTimeHistory'), { source: 'fresh', fetchedAt: 5 });
    fake.data.read.mockResolvedValueOnce(before);
    await store.read(query('frequencyTimeHistory'));
    const week: DatasetQuery = { ...query('frequencyTimeHistory'), start: 0, end: 7 * 86_400_000 };
    const days = Array.from({ length: 3 }, () => deferred<DataReadResult>());
    for (const day of days) fake.data.read.mockReturnValueOnce(day.promise);
    const reading = store.read(week);
    store.cancelDayReads();
    // Stopped without waiting for the days under way (they finish later, unused).
    await reading;
    expect(store.loading).toBe(false);
    for (const day of days) day.resolve(answer(week, { source: 'fresh', fetchedAt: 1 }));
    await Promise.all(days.map((day) => day.promise));
    // One read before, and the three days under way: nothing more.
    expect(fake.data.read).toHaveBeenCalledTimes(4);
    expect(store.error).toMatchObject({
      code: 'cancelled',
      message: expect.stringMatching(/^Stopped after 0 of 7 days/),
    });
    expect(store.result).toBe(before);
    expect(store.dayProgress).toBeNull();
    expect(store.loading).toBe(false);
  });

  it('says how old the shown copy is only while the data view shows a cached answer', async () => {
    const store = useDataStore();
    fake.data.read.mockResolvedValueOnce(answer(query(), { source: 'cached', cachedAt: 1234 }));
    await store.read(query());
    expect(store.shownCopyAt).toBeNull();
    store.onScreen = true;
    expect(store.shownCopyAt).toBe(1234);
    fake.data.read.mockResolvedValueOnce(answer(query(), { source: 'fresh', fetchedAt: 2000 }));
    await store.read(query());
    expect(store.shownCopyAt).toBeNull();
  });

  it('keeps the last answer when a read fails as offline, leaving connectivity to the backend', async () => {
    const store = useDataStore();
    fake.data.read.mockResolvedValueOnce(answer(query(), { source: 'cached', cachedAt: 1 }));
    await store.read(query());
    fake.data.read.mockRejectedValueOnce(new FieldDeskError('offline', 'Cannot reach the service.'));
    await store.read({ ...query(), end: 7_200_000 });
    expect(store.result?.provenance.source).toBe('cached');
    expect(store.error?.code).toBe('offline');
    expect(useConnectivityStore().isOffline).toBe(false);
  });

  it('does not show one instrument’s answer while another one loads', async () => {
    const store = useDataStore();
    fake.data.read.mockResolvedValueOnce(answer(query(), { source: 'fresh', fetchedAt: 1 }));
    await store.read(query());
    fake.data.read.mockReturnValueOnce(new Promise(() => undefined));
    void store.read({ ...query(), serial: 'QT2' });
    expect(store.result).toBeNull();
  });
});

describe('data view state per account and instrument', () => {
  const week = { kind: 'preset', preset: '7d' } as const;
  const values = { values: ['LAeq', 'LAF90'], bands: 'Octave', weighting: 'A', period: null } as const;

  it('gives a new instrument the range and options of the last one, said, but never its comparisons', () => {
    const store = useDataStore();
    store.enter('acc-1', 'QT1');
    store.range = week;
    store.setChoices('noiseMeasurements', { ...values, values: [...values.values] });
    store.compared = ['QT7'];
    store.enter('acc-1', 'QT2');
    expect(store.range).toEqual(week);
    expect(store.choicesFor('noiseMeasurements').values).toEqual(['LAeq', 'LAF90']);
    expect(store.compared).toEqual([]);
    expect(store.carriedFrom).toBe('QT1');
    // Its own defaults, one click away.
    store.useDefaults();
    expect(store.range).toEqual({ kind: 'preset', preset: '24h' });
    expect(store.carriedFrom).toBeNull();
  });

  it("brings an instrument's own choices and comparisons back when the user returns to it", () => {
    const store = useDataStore();
    store.enter('acc-1', 'QT1');
    store.range = week;
    store.compared = ['QT7', 'QT8'];
    store.enter('acc-1', 'QT2');
    store.range = { kind: 'preset', preset: '31d' };
    store.enter('acc-1', 'QT1');
    expect(store.range).toEqual(week);
    expect(store.compared).toEqual(['QT7', 'QT8']);
    expect(store.carriedFrom).toBeNull();
  });

  it('carries nothing into another account, not even for the same serial, and keeps each account’s own', () => {
    const store = useDataStore();
    store.enter('acc-1', 'QT1');
    store.range = week;
    store.compared = ['QT7'];
    store.enter('acc-2', 'QT1');
    expect(store.compared).toEqual([]);
    expect(store.range).toEqual({ kind: 'preset', preset: '24h' });
    expect(store.carriedFrom).toBeNull();
    store.enter('acc-1', 'QT1');
    expect(store.compared).toEqual(['QT7']);
  });

  it('says nothing was carried when the last instrument had only the defaults', () => {
    const store = useDataStore();
    store.enter('acc-1', 'QT1');
    store.enter('acc-1', 'QT2');
    expect(store.carriedFrom).toBeNull();
  });
});

describe('sync store', () => {
  it('re-attaches from sync.list, follows progress, and reloads the cache summary when done', async () => {
    fake.sync.list.mockResolvedValueOnce([snapshot(), snapshot({ id: 'other', accountId: 'acc-2' })]);
    fake.cache.summary.mockResolvedValue({ totalBytes: 0, instruments: [] });
    const sync = useSyncStore();
    await sync.start();
    expect(sync.active?.id).toBe('s1');
    expect(sync.all).toHaveLength(1);

    backend.emit('sync.progress', snapshot({ updatedAt: 2, done: 3 }));
    expect(sync.get('s1')?.done).toBe(3);
    backend.emit('sync.progress', snapshot({ updatedAt: 1, done: 1 })); // late, older: ignored
    expect(sync.get('s1')?.done).toBe(3);
    expect(fake.cache.summary).not.toHaveBeenCalled();

    backend.emit('sync.progress', snapshot({ updatedAt: 3, done: 4, state: 'succeeded' }));
    expect(sync.active).toBeNull();
    expect(fake.cache.summary).toHaveBeenCalledTimes(1);
  });

  it('offers an interrupted sync for resuming', async () => {
    fake.sync.list.mockResolvedValueOnce([snapshot({ state: 'interrupted' })]);
    const sync = useSyncStore();
    await sync.start();
    expect(sync.interrupted?.id).toBe('s1');
    expect(sync.active).toBeNull();
  });

  it('starts a sync, follows it, and a finish with gaps shows what was fetched, not full', async () => {
    fake.sync.list.mockResolvedValueOnce([]);
    fake.cache.summary.mockResolvedValue({ totalBytes: 0, instruments: [] });
    const range = { start: 0, end: 86_400_000 };
    fake.sync.start.mockResolvedValueOnce(
      snapshot({ ...range, serials: ['QT1'], done: 0, total: 8, fetched: 0 }),
    );
    const sync = useSyncStore();
    await sync.start();
    await sync.startSync({ serials: ['QT1'], ...range, datasets: { QT1: ['noiseMeasurements', 'audio'] } });
    expectCalledWith(fake.sync.start, {
      serials: ['QT1'],
      ...range,
      datasets: { QT1: ['noiseMeasurements', 'audio'] },
    });
    expect(sync.active?.id).toBe('s1');

    const missingAudio = { serial: 'QT1', dataset: 'audio' as const, missing: [range], message: 'Offline.' };
    backend.emit(
      'sync.progress',
      snapshot({
        ...range,
        updatedAt: 2,
        state: 'withGaps',
        done: 8,
        total: 8,
        fetched: 4,
        failures: [missingAudio],
      }),
    );
    const ended = sync.get('s1')!;
    expect(sync.active).toBeNull();
    expect(fake.cache.summary).toHaveBeenCalledTimes(1);
    expect(syncOutcome(ended)).toBe('gaps');
    // Half the requests got their data, though every request counts as done.
    expect(syncFraction(ended)).toBe(0.5);
    expect(syncProgressText(ended)).toBe('4 of 8 requests fetched · 3.4 MB');
  });

  it('resumes a sync with gaps and follows it again', async () => {
    fake.sync.list.mockResolvedValueOnce([snapshot({ state: 'withGaps', done: 40, total: 40 })]);
    fake.sync.resume.mockResolvedValueOnce(snapshot({ updatedAt: 5, state: 'running', done: 38 }));
    const sync = useSyncStore();
    await sync.start();
    expect(sync.active).toBeNull();
    const resumed = await sync.resume('s1');
    expectCalledWith(fake.sync.resume, { id: 's1' });
    expect(resumed.state).toBe('running');
    expect(sync.active?.done).toBe(38);
  });
});
