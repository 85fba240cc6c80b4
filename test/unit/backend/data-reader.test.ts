/**
 * Cache-aware reads with a fake data client counting every request: a covered range makes none,
 * a partly covered one fetches only the gaps, the open recent interval is fetched again online and
 * not offline, and every answer says where it came from.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCacheStore, type CacheStore } from '../../../src/main/backend/cache/cache-store';
import {
  dataRefetchAfterMs,
  readDataset,
  type ReadContext,
} from '../../../src/main/backend/data/read-through-cache';
import { openDatabase, type FieldDeskDatabase } from '../../../src/main/backend/core/database';
import type { DatasetQuery } from '../../../src/shared/data';
import { FieldDeskError } from '../../../src/shared/errors';
import { fakeDataSource, levelAt, offlineError, type FakeSource } from './fake-data-source';
import { makeTempDir } from './helpers';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** "Now" in these tests: a fixed clock far from the ranges read unless a test says otherwise. */
const T0 = Date.UTC(2025, 5, 1);

let dir: { path: string; remove(): Promise<void> };
let database: FieldDeskDatabase;
let store: CacheStore;
let clock: number;

beforeEach(async () => {
  dir = await makeTempDir();
  database = openDatabase(dir.path);
  store = createCacheStore(database.db);
  clock = T0;
});

afterEach(async () => {
  database.close();
  await dir.remove();
});

const query = (start: number, end: number, over: Partial<DatasetQuery> = {}): DatasetQuery => ({
  serial: 'QT1',
  dataset: 'noiseTimeHistory',
  start,
  end,
  options: { values: ['LAeq'] },
  ...over,
});

function context(source: FakeSource | null, over: Partial<ReadContext> = {}): ReadContext {
  return { store, source, now: () => clock, accountId: 'acc-1', offline: null, ...over };
}

const offline = offlineError().toData();

describe('data.read through the cache', () => {
  it('fetches a range once, then answers it from the cache without a request', async () => {
    const source = fakeDataSource();
    const start = T0 - 3 * DAY;
    const first = await readDataset(context(source), query(start, start + DAY));
    expect(first.provenance).toEqual({ source: 'fresh', fetchedAt: T0 });
    expect(source.requests).toHaveLength(1);
    const times = first.series[0]!.times;
    expect(times).toBeInstanceOf(Float64Array);
    expect(times.length).toBe(DAY / 1000);
    expect(first.series[0]!.values[5]).toBe(levelAt(start + 5000));

    clock = T0 + 10 * 60_000;
    const second = await readDataset(context(source), query(start, start + DAY));
    expect(source.requests).toHaveLength(1);
    expect(second.provenance).toEqual({ source: 'cached', cachedAt: T0 });
    expect([...second.series[0]!.times]).toEqual([...times]);

    // A smaller range inside is covered too, and an equal query spelt differently shares it.
    await readDataset(
      context(source),
      query(start + HOUR, start + 2 * HOUR, { options: { values: ['LAeq', 'LAeq'], period: 'PT1S' } }),
    );
    expect(source.requests).toHaveLength(1);
  });

  it('fetches only the gaps of a partly covered range', async () => {
    const source = fakeDataSource();
    const start = T0 - 5 * DAY;
    await readDataset(context(source), query(start + DAY, start + 2 * DAY));
    await readDataset(context(source), query(start + 3 * DAY, start + 4 * DAY));
    source.requests.length = 0;
    const result = await readDataset(context(source), query(start, start + 5 * DAY));
    expect(source.requests.map((r) => [r.start - start, r.end - start])).toEqual([
      [0, DAY],
      [2 * DAY, 3 * DAY],
      [4 * DAY, 5 * DAY],
    ]);
    const times = result.series[0]!.times;
    expect(times.length).toBe((5 * DAY) / 1000);
    for (let i = 1; i < times.length; i++)
      if (!(times[i]! > times[i - 1]!)) throw new Error(`not increasing at ${i}`);
    expect(result.provenance.source).toBe('cached');
  });

  it('fetches the still-open recent interval again when online, and not when offline', async () => {
    const source = fakeDataSource({ now: () => clock });
    const start = T0 - DAY;
    await readDataset(context(source), query(start, T0 + DAY));
    expect(source.requests.map((r) => [r.start, r.end])).toEqual([[start, T0]]);

    clock = T0 + 5 * 60_000;
    source.requests.length = 0;
    const online = await readDataset(context(source), query(start, T0 + DAY));
    // The last hour before the first fetch is open, plus what happened since.
    expect(source.requests.map((r) => [r.start, r.end])).toEqual([[T0 - HOUR, clock]]);
    expect(online.series[0]!.times.length).toBe((DAY + 5 * 60_000) / 1000);
    // Mostly the cache, and it says which part was fetched again, and when.
    // ...and when the part that may still change was fetched, which a data view refreshes by.
    expect(online.provenance).toEqual({
      source: 'cached',
      cachedAt: T0,
      refreshed: { intervals: [{ start: T0 - HOUR, end: clock }], fetchedAt: clock },
      openFetchedAt: clock,
    });

    clock = T0 + 10 * 60_000;
    source.requests.length = 0;
    const offlineRead = await readDataset(context(source, { offline }), query(start, T0 + 5 * 60_000));
    expect(source.requests).toHaveLength(0);
    expect(offlineRead.provenance).toEqual({
      source: 'cached',
      cachedAt: T0,
      openFetchedAt: T0 + 5 * 60_000,
    });
  });

  it('says when the open part was fetched, and nothing of it for a settled range', async () => {
    const source = fakeDataSource({ now: () => clock });
    const recent = await readDataset(context(source), query(T0 - 6 * HOUR, T0));
    expect(recent.provenance).toEqual({ source: 'fresh', fetchedAt: T0, openFetchedAt: T0 });
    clock = T0 + 2 * 60_000;
    const view = { refetchAfterMs: dataRefetchAfterMs(5) };
    const cached = await readDataset(context(source, view), query(T0 - 6 * HOUR, T0));
    expect(cached.provenance).toEqual({ source: 'cached', cachedAt: T0, openFetchedAt: T0 });
    // Last week was fetched long after it ended: settled, so there is nothing to refresh.
    const settled = await readDataset(context(source), query(T0 - 7 * DAY, T0 - 6 * DAY));
    expect(settled.provenance).toEqual({ source: 'fresh', fetchedAt: clock });
    expect((await readDataset(context(source), query(T0 - 7 * DAY, T0 - 6 * DAY))).provenance).toEqual({
      source: 'cached',
      cachedAt: clock,
    });
  });

  it("for data views, fetches an open interval again once older than the user's refresh age, never under a minute", async () => {
    expect(dataRefetchAfterMs(5)).toBe(5 * 60_000);
    expect(dataRefetchAfterMs(120)).toBe(2 * HOUR);
    // Whatever a setting says, a zoom step a moment later answers from the cache.
    expect(dataRefetchAfterMs(0)).toBe(60_000);
    const source = fakeDataSource({ now: () => clock });
    const view = { refetchAfterMs: dataRefetchAfterMs(5) };
    await readDataset(context(source, view), query(T0 - DAY, T0));
    source.requests.length = 0;
    clock = T0 + 5 * 60_000 - 1;
    await readDataset(context(source, view), query(T0 - DAY, T0));
    expect(source.requests).toHaveLength(0);
    clock = T0 + 5 * 60_000;
    const refreshed = await readDataset(context(source, view), query(T0 - DAY, T0));
    expect(source.requests.map((r) => [r.start, r.end])).toEqual([[T0 - HOUR, T0]]);
    expect(refreshed.provenance).toMatchObject({ source: 'cached', openFetchedAt: clock });
  });

  it('for data views, fetches an open interval again only a minute after fetching it, and what arrived since', async () => {
    const source = fakeDataSource({ now: () => clock });
    const view = { refetchAfterMs: 60_000 };
    const start = T0 - DAY;
    await readDataset(context(source, view), query(start, T0 + DAY));
    clock = T0 + 30_000;
    source.requests.length = 0;
    const again = await readDataset(context(source, view), query(start, T0 + DAY));
    expect(source.requests.map((r) => [r.start, r.end])).toEqual([[T0, clock]]);
    expect(again.series[0]!.times.length).toBe((DAY + 30_000) / 1000);
    // A range inside what was just fetched: no request at all.
    source.requests.length = 0;
    await readDataset(context(source, view), query(T0 - 2 * HOUR, T0 - HOUR / 2));
    expect(source.requests).toHaveLength(0);
    // Without it (the instrument history) the open hour is asked again at once.
    await readDataset(context(source), query(T0 - 2 * HOUR, T0 - HOUR / 2));
    expect(source.requests.map((r) => [r.start, r.end])).toEqual([[T0 - HOUR, T0 - HOUR / 2]]);
  });

  it('answers offline from the cache: cached when covered, partial with the reason when not', async () => {
    const source = fakeDataSource();
    const start = T0 - 10 * DAY;
    await readDataset(context(source), query(start, start + DAY));
    source.requests.length = 0;

    const covered = await readDataset(context(source, { offline }), query(start, start + DAY));
    expect(covered.provenance).toEqual({ source: 'cached', cachedAt: T0 });
    const partly = await readDataset(context(source, { offline }), query(start, start + 2 * DAY));
    expect(partly.provenance).toEqual({
      source: 'partial',
      cachedAt: T0,
      missing: [{ start: start + DAY, end: start + 2 * DAY }],
      reason: offline,
    });
    expect(partly.series[0]!.times.length).toBe(DAY / 1000);
    const nothing = await readDataset(context(source, { offline }), query(start - 2 * DAY, start - DAY));
    expect(nothing.provenance).toMatchObject({
      source: 'partial',
      cachedAt: null,
      reason: { code: 'offline' },
    });
    expect(nothing.series).toEqual([]);
    expect(source.requests).toHaveLength(0);
  });

  it('offline, the time since the last fetch is the end of the copy, not a gap in it', async () => {
    const source = fakeDataSource({ now: () => clock });
    await readDataset(context(source), query(T0 - DAY, T0));
    clock = T0 + 2 * 3_600_000;
    const later = await readDataset(context(source, { offline }), query(T0 - DAY, clock));
    expect(later.provenance).toEqual({ source: 'cached', cachedAt: T0, upTo: T0, openFetchedAt: T0 });
    // A gap before the last fetch is still one: data may exist there that was never fetched.
    const earlier = await readDataset(context(source, { offline }), query(T0 - 2 * DAY, clock));
    expect(earlier.provenance).toEqual({
      source: 'partial',
      cachedAt: T0,
      missing: [{ start: T0 - 2 * DAY, end: T0 - DAY }],
      reason: offline,
    });
    // Data fetched long after its end never ends a copy: what follows it was simply not fetched.
    await readDataset(context(source), query(T0 - 4 * DAY, T0 - 3 * DAY));
    const old = await readDataset(context(source, { offline }), query(T0 - 4 * DAY, T0 - 2 * DAY));
    expect(old.provenance).toMatchObject({
      source: 'partial',
      missing: [{ start: T0 - 3 * DAY, end: T0 - 2 * DAY }],
    });
  });

  it('turns a failed fetch into a partial answer with the error as reason, and keeps what it has', async () => {
    let fail = false;
    const source = fakeDataSource({ fault: () => (fail ? offlineError() : null) });
    const start = T0 - 10 * DAY;
    await readDataset(context(source), query(start, start + DAY));
    fail = true;
    const result = await readDataset(context(source), query(start - DAY, start + DAY));
    expect(result.provenance).toMatchObject({
      source: 'partial',
      cachedAt: T0,
      missing: [{ start: start - DAY, end: start }],
      reason: { code: 'offline', retryable: true },
    });
    expect(result.series[0]!.times.length).toBe(DAY / 1000);
  });

  it('does not store an answer that failed: coverage only for what was stored', async () => {
    const source = fakeDataSource({
      fault: () => new FieldDeskError('badResponse', 'The service sent a cut-off answer.'),
    });
    const result = await readDataset(context(source), query(T0 - DAY, T0));
    expect(result.provenance).toMatchObject({ source: 'partial', reason: { code: 'badResponse' } });
    expect(
      store.chunks(
        { accountId: 'acc-1', serial: 'QT1', dataset: 'noiseTimeHistory', params: 'values=LAeq' },
        { start: 0, end: T0 * 2 },
      ),
    ).toEqual([]);
  });

  it('throws bad input and cancellation instead of answering', async () => {
    const source = fakeDataSource();
    await expect(readDataset(context(source), query(T0, T0))).rejects.toMatchObject({ code: 'invalidInput' });
    const cancelling = fakeDataSource({ fault: () => new FieldDeskError('cancelled', 'Stopped.') });
    await expect(readDataset(context(cancelling), query(T0 - DAY, T0))).rejects.toMatchObject({
      code: 'cancelled',
    });
  });

  it('a range in the future is answered fresh and empty without a request', async () => {
    const source = fakeDataSource();
    const result = await readDataset(context(source), query(T0 + DAY, T0 + 2 * DAY));
    expect(source.requests).toHaveLength(0);
    expect(result.provenance.source).toBe('fresh');
    expect(result.series).toEqual([]);
  });

  it('reads records datasets through the same cache', async () => {
    const source = fakeDataSource();
    const q = query(T0 - 3 * DAY, T0 - DAY, { dataset: 'calibrations', options: {} });
    const first = await readDataset(context(source), q);
    expect(first.records?.rows).toHaveLength(48);
    const again = await readDataset(context(source, { offline }), q);
    expect(again.records?.rows).toEqual(first.records?.rows);
    expect(again.provenance.source).toBe('cached');
    expect(source.requests).toHaveLength(1);
  });
});
