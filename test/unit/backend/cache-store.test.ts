/**
 * The data cache on a temp database: migration 2 (fresh, re-open, upgrade from 1), storing and
 * reading binary series blocks (evenly spaced times stored compactly) and records, replacing what a new response overlaps without ever
 * keeping a sample twice, coverage, the summary and clearing, and the canonical parameter key.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { canonicalParameters } from '../../../src/main/backend/cache/cache-key';
import {
  createCacheStore,
  type CacheKey,
  type CachedData,
} from '../../../src/main/backend/cache/cache-store';
import { DATABASE_FILE_NAME, MIGRATIONS, openDatabase } from '../../../src/main/backend/core/database';
import { TIMES_EVEN, TIMES_RAW } from '../../../src/main/backend/cache/series-times';
import type { RecordTable, SeriesChannel } from '../../../src/shared/data';
import { useTempDatabaseFolder } from './temp-database';

const dir = useTempDatabaseFolder();

const open = () => dir.open();

const LATEST = MIGRATIONS.length;

/** Same length and bytes (a fast check for arrays of a week of samples). */
function expectSameArray(actual: Float64Array | Float32Array, expected: Float64Array | Float32Array): void {
  expect(actual.constructor).toBe(expected.constructor);
  expect(actual.length).toBe(expected.length);
  const bytes = (a: Float64Array | Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  expect(bytes(actual).equals(bytes(expected))).toBe(true);
}

const KEY: CacheKey = {
  accountId: 'acc-1',
  serial: 'QT1',
  dataset: 'noiseTimeHistory',
  params: 'values=LAeq',
};

function series(start: number, end: number, step = 1000, name = 'LAeq'): SeriesChannel {
  const times: number[] = [];
  for (let t = Math.ceil(start / step) * step; t <= end; t += step) times.push(t);
  return {
    name,
    unit: 'dB',
    times: Float64Array.from(times),
    values: Float32Array.from(times, (t) => t / 1000),
  };
}

const data = (channel: SeriesChannel): CachedData => ({ series: [channel], records: null });

function tables(db: Database.Database): string[] {
  return (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{
      name: string;
    }>
  ).map((r) => r.name);
}

describe('migration 2 (data cache and site sync)', () => {
  it('creates the cache and sync tables on a fresh database, and re-opening changes nothing', () => {
    const first = open();
    expect(first.version).toBe(LATEST);
    expect(tables(first.db)).toEqual(
      expect.arrayContaining(['cache_keys', 'cache_chunks', 'cache_series', 'sync_runs', 'sync_chunks']),
    );
    first.close();
    const again = open();
    expect(again.version).toBe(LATEST);
    expect(
      (
        again.db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as Array<{
          version: number;
        }>
      ).map((r) => r.version),
    ).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('upgrades a database at migration 1, keeping its action history', () => {
    const old = openDatabase(dir.path, { migrations: MIGRATIONS.slice(0, 1) });
    expect(old.version).toBe(1);
    old.db
      .prepare(
        `INSERT INTO action_history (id, account_id, serial, action, state, started_at, finished_at, message)
         VALUES ('op-1', 'acc-1', 'QT1', 'SIC', 'succeeded', 1, 2, 'ok')`,
      )
      .run();
    expect(tables(old.db)).not.toContain('cache_chunks');
    old.close();

    const upgraded = open();
    expect(upgraded.version).toBe(LATEST);
    expect(tables(upgraded.db)).toContain('cache_chunks');
    // Kept, under the name it waits under until records.db has read it (migration 9).
    expect(upgraded.db.prepare('SELECT COUNT(*) AS n FROM moved_action_history').get()).toEqual({ n: 1 });
    expect(upgraded.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('cascades: removing a key removes its chunks and series', () => {
    const { db } = open();
    const store = createCacheStore(db);
    store.store(KEY, { start: 0, end: 10_000 }, data(series(0, 10_000)), 50_000);
    store.clear('acc-1');
    expect(db.prepare('SELECT COUNT(*) AS n FROM cache_series').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM cache_chunks').get()).toEqual({ n: 0 });
  });
});

describe('cache store', () => {
  it('stores series as one binary block per chunk and channel and reads them back as typed arrays', () => {
    const { db } = open();
    const store = createCacheStore(db);
    const channel = series(0, 3_600_000);
    store.store(KEY, { start: 0, end: 3_600_000 }, data(channel), 4_000_000);
    expect(db.prepare('SELECT COUNT(*) AS n FROM cache_series').get()).toEqual({ n: 1 });
    const row = db
      .prepare('SELECT count, times_codec AS codec, length(times) AS t, length(vals) AS v FROM cache_series')
      .get();
    // The sample at the exclusive end (3,600,000) is not part of the chunk; evenly spaced times
    // are stored as the first time and the step.
    expect(row).toEqual({ count: 3600, codec: TIMES_EVEN, t: 16, v: 3600 * 4 });

    const read = store.read(KEY, { start: 0, end: 3_600_000 });
    expect(read.series).toHaveLength(1);
    expect(read.series[0]!.times).toBeInstanceOf(Float64Array);
    expect(read.series[0]!.values).toBeInstanceOf(Float32Array);
    expect(read.series[0]!.times.length).toBe(3600);
    expect(read.series[0]!.times[3599]).toBe(3_599_000);
    expect(read.series[0]!.values[10]).toBe(Math.fround(10));
    expect(read.chunks).toEqual([
      expect.objectContaining({ start: 0, end: 3_600_000, fetchedAt: 4_000_000 }),
    ]);
  });

  it('stores a week of evenly spaced 1 s times in far fewer than 8 bytes a sample and reads it back identically', () => {
    const { db } = open();
    const store = createCacheStore(db);
    const start = Date.UTC(2025, 2, 3);
    const week = { start, end: start + 7 * 86_400_000 };
    const channel = series(week.start, week.end);
    channel.values = Float32Array.from(channel.times, (_, i) => 40 + ((i * 7919) % 500) / 10);
    const samples = 7 * 86_400;
    const result = store.store(KEY, week, data(channel), week.end);
    const stored = db
      .prepare('SELECT times_codec AS codec, length(times) AS t, length(vals) AS v FROM cache_series')
      .all();
    expect(stored).toEqual([{ codec: TIMES_EVEN, t: 16, v: samples * 4 }]);
    // The cache summary counts the bytes stored: the values and 16 bytes of times.
    expect(result.bytes).toBe(16 + samples * 4);
    expect(result.bytes).toBeLessThan(samples * 5);
    expect(store.summary(KEY.accountId).totalBytes).toBe(16 + samples * 4);

    const read = store.read(KEY, week);
    expect(read.series).toHaveLength(1);
    const back = read.series[0]!;
    expectSameArray(back.times, channel.times.subarray(0, samples));
    expectSameArray(back.values, channel.values.subarray(0, samples));
    // A part of it, cut from the middle of the block, is exact too.
    const part = store.read(KEY, { start: start + 86_400_000 + 500, end: start + 2 * 86_400_000 });
    expectSameArray(part.series[0]!.times, channel.times.subarray(86_401, 2 * 86_400));
    expectSameArray(part.series[0]!.values, channel.values.subarray(86_401, 2 * 86_400));
  });

  it('keeps uneven times raw, and a chunk cut from an even block (or an uneven one) reads back the same', () => {
    const { db } = open();
    const store = createCacheStore(db);
    const even = series(0, 100_000);
    const uneven: SeriesChannel = {
      name: 'LAFMax',
      unit: 'dB',
      times: Float64Array.from([0, 1000, 2500, 4000, 60_000, 99_000]),
      values: Float32Array.from([1, 2, 3, 4, 5, 6]),
    };
    store.store(KEY, { start: 0, end: 100_000 }, { series: [even, uneven], records: null }, 1000);
    const codecs = () =>
      db
        .prepare(
          'SELECT s.name, s.count, s.times_codec AS codec FROM cache_series s JOIN cache_chunks c ON c.id = s.chunk_id ORDER BY c.start_ms, s.position',
        )
        .all();
    expect(codecs()).toEqual([
      { name: 'LAeq', count: 100, codec: TIMES_EVEN },
      { name: 'LAFMax', count: 6, codec: TIMES_RAW },
    ]);
    // Replacing the middle cuts both blocks in two: the pieces are re-encoded, still exact.
    store.store(KEY, { start: 2000, end: 50_000 }, { series: [series(2000, 50_000)], records: null }, 2000);
    expect(codecs()).toEqual([
      { name: 'LAeq', count: 2, codec: TIMES_RAW },
      { name: 'LAFMax', count: 2, codec: TIMES_RAW },
      { name: 'LAeq', count: 48, codec: TIMES_EVEN },
      { name: 'LAeq', count: 50, codec: TIMES_EVEN },
      { name: 'LAFMax', count: 2, codec: TIMES_RAW },
    ]);
    const read = store.read(KEY, { start: 0, end: 100_000 });
    expect([...read.series[0]!.times]).toEqual(Array.from({ length: 100 }, (_, i) => i * 1000));
    expect([...read.series[1]!.times]).toEqual([0, 1000, 60_000, 99_000]);
    expect([...read.series[1]!.values]).toEqual([1, 2, 5, 6]);
  });

  it('reads only [start, end) of a range inside stored chunks', () => {
    const { db } = open();
    const store = createCacheStore(db);
    store.store(KEY, { start: 0, end: 100_000 }, data(series(0, 100_000)), 1e6);
    store.store(KEY, { start: 100_000, end: 200_000 }, data(series(100_000, 200_000)), 1e6);
    const read = store.read(KEY, { start: 50_500, end: 150_000 });
    const times = read.series[0]!.times;
    expect(times[0]).toBe(51_000);
    expect(times[times.length - 1]).toBe(149_000);
    expect(times.length).toBe(99);
    expect(store.covered(KEY, { start: 0, end: 300_000 })).toEqual([{ start: 0, end: 200_000 }]);
  });

  it('replaces what a new response overlaps: no sample is ever kept twice (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 1, max: 50 })), {
          minLength: 1,
          maxLength: 8,
        }),
        (writes) => {
          const database = openDatabase(dir.path, { fileName: `prop-${Math.random()}.db` });
          try {
            const store = createCacheStore(database.db);
            const expected = new Set<number>();
            writes.forEach(([start, length], index) => {
              const interval = { start: start * 1000, end: (start + length) * 1000 };
              store.store(KEY, interval, data(series(interval.start, interval.end)), 1e9 + index);
              for (let t = interval.start; t < interval.end; t += 1000) expected.add(t);
            });
            const read = store.read(KEY, { start: 0, end: 200_000 });
            const times = [...(read.series[0]?.times ?? [])];
            expect(times).toEqual([...expected].sort((a, b) => a - b));
            // Coverage is exactly what was stored, and no two chunks overlap.
            const chunks = store.chunks(KEY, { start: 0, end: 200_000 });
            for (let i = 1; i < chunks.length; i++)
              expect(chunks[i]!.start).toBeGreaterThanOrEqual(chunks[i - 1]!.end);
          } finally {
            database.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps the fetch time of each part: a refresh replaces only the part it fetched', () => {
    const { db } = open();
    const store = createCacheStore(db);
    store.store(KEY, { start: 0, end: 100_000 }, data(series(0, 100_000)), 1000);
    const fresh = series(60_000, 100_000);
    fresh.values.fill(99);
    store.store(KEY, { start: 60_000, end: 100_000 }, data(fresh), 2000);
    const chunks = store.chunks(KEY, { start: 0, end: 100_000 });
    expect(chunks.map((c) => [c.start, c.end, c.fetchedAt])).toEqual([
      [0, 60_000, 1000],
      [60_000, 100_000, 2000],
    ]);
    const read = store.read(KEY, { start: 0, end: 100_000 });
    expect(read.series[0]!.times.length).toBe(100);
    expect(read.series[0]!.values[59]).toBe(59);
    expect(read.series[0]!.values[60]).toBe(99);
  });

  it('splits a response at splitAt into a settled and an open chunk', () => {
    const { db } = open();
    const store = createCacheStore(db);
    const result = store.store(KEY, { start: 0, end: 100_000 }, data(series(0, 100_000)), 100_000, {
      splitAt: 70_000,
    });
    expect(result.chunkIds).toHaveLength(2);
    expect(store.chunks(KEY, { start: 0, end: 100_000 }).map((c) => [c.start, c.end])).toEqual([
      [0, 70_000],
      [70_000, 100_000],
    ]);
    expect(store.read(KEY, { start: 0, end: 100_000 }).series[0]!.times.length).toBe(100);
  });

  it('stores records as a table per chunk and reads the rows of the range once', () => {
    const { db } = open();
    const store = createCacheStore(db);
    const key: CacheKey = { ...KEY, dataset: 'calibrations', params: '' };
    const table = (times: number[]): RecordTable => ({
      timeKey: 'time',
      columns: [
        { key: 'time', label: 'Time', unit: null, type: 'time' },
        { key: 'status', label: 'Status', unit: null, type: 'text' },
      ],
      rows: times.map((time) => ({ time, status: 'Success' })),
    });
    store.store(key, { start: 0, end: 100 }, { series: [], records: table([0, 50, 100]) }, 1000);
    store.store(key, { start: 100, end: 200 }, { series: [], records: table([100, 150, 200]) }, 1000);
    const read = store.read(key, { start: 0, end: 200 });
    expect(read.series).toEqual([]);
    expect(read.records?.rows.map((r) => r.time)).toEqual([0, 50, 100, 150]);
    expect(store.read(key, { start: 60, end: 160 }).records?.rows.map((r) => r.time)).toEqual([100, 150]);
    // The table says which column is the time; a row whose time is not epoch ms is kept once, with
    // the part of its chunk that starts where the chunk starts, never guessed from its text.
    store.store(
      key,
      { start: 200, end: 400 },
      {
        series: [],
        records: { timeKey: 'time', columns: [], rows: [{ time: new Date(300).toISOString() }] },
      },
      1000,
    );
    expect(store.read(key, { start: 200, end: 400 }).records?.rows).toHaveLength(1);
    expect(store.read(key, { start: 250, end: 400 }).records?.rows).toHaveLength(0);
  });

  it('keeps an empty response as coverage (the service has nothing there)', () => {
    const { db } = open();
    const store = createCacheStore(db);
    store.store(KEY, { start: 0, end: 1000 }, { series: [], records: null }, 5000);
    expect(store.covered(KEY, { start: 0, end: 1000 })).toEqual([{ start: 0, end: 1000 }]);
    expect(store.read(KEY, { start: 0, end: 1000 }).series).toEqual([]);
  });

  it('summarises per instrument and dataset and clears one instrument or the whole account', () => {
    const { db } = open();
    const store = createCacheStore(db);
    store.store(KEY, { start: 0, end: 10_000 }, data(series(0, 10_000)), 20_000);
    store.store(
      { ...KEY, params: 'values=LAFMax' },
      { start: 10_000, end: 20_000 },
      data(series(10_000, 20_000)),
      30_000,
    );
    store.store({ ...KEY, serial: 'QT2' }, { start: 0, end: 5000 }, data(series(0, 5000)), 20_000);
    store.store({ ...KEY, accountId: 'acc-2' }, { start: 0, end: 5000 }, data(series(0, 5000)), 20_000);

    const summary = store.summary('acc-1');
    expect(summary.instruments.map((i) => i.serial)).toEqual(['QT1', 'QT2']);
    const qt1 = summary.instruments[0]!;
    // Bytes stored: per block 4 a value and 16 for its evenly spaced times.
    expect(qt1.datasets).toEqual([
      {
        dataset: 'noiseTimeHistory',
        bytes: 2 * (16 + 10 * 4),
        covered: [{ start: 0, end: 20_000 }],
        lastFetchedAt: 30_000,
      },
    ]);
    expect(summary.totalBytes).toBe(2 * (16 + 10 * 4) + (16 + 5 * 4));

    store.clear('acc-1', 'QT1');
    expect(store.summary('acc-1').instruments.map((i) => i.serial)).toEqual(['QT2']);
    store.clear('acc-1');
    expect(store.summary('acc-1')).toEqual({ totalBytes: 0, instruments: [] });
    expect(store.summary('acc-2').instruments).toHaveLength(1);
  });

  it('writes nothing when the transaction fails part-way (data and coverage together)', () => {
    const { db } = open();
    const store = createCacheStore(db);
    expect(() =>
      store.store(KEY, { start: 0, end: 10_000 }, data(series(0, 10_000)), 20_000, {
        alsoInTransaction: () => {
          throw new Error('disk full');
        },
      }),
    ).toThrow('disk full');
    expect(store.covered(KEY, { start: 0, end: 10_000 })).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM cache_series').get()).toEqual({ n: 0 });
  });

  it('the database file is in WAL mode and passes integrity_check after use', () => {
    const database = open();
    createCacheStore(database.db).store(KEY, { start: 0, end: 10_000 }, data(series(0, 10_000)), 20_000);
    database.close();
    const raw = new Database(join(dir.path, DATABASE_FILE_NAME));
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      raw.close();
    }
  });
});

describe('canonical parameters', () => {
  it('gives equal queries the same key whatever the order or the defaults written out', () => {
    expect(canonicalParameters('noiseTimeHistory', { values: ['LAFMax', 'LAeq'] })).toBe(
      canonicalParameters('noiseTimeHistory', { values: ['LAeq', 'LAFMax', 'LAeq'] }),
    );
    expect(canonicalParameters('noiseMeasurements', {})).toBe(
      canonicalParameters('noiseMeasurements', { values: ['LAeq', 'LCPeak', 'LAFMax'] }),
    );
    expect(canonicalParameters('noiseTimeHistory', { values: ['LAeq'], period: 'PT1S' })).toBe(
      canonicalParameters('noiseTimeHistory', { values: ['LAeq'] }),
    );
    expect(canonicalParameters('weather', { period: 'PT60S' })).toBe(
      canonicalParameters('weather', { period: 'PT1M' }),
    );
    expect(canonicalParameters('frequencyMeasurements', {})).toBe(
      canonicalParameters('frequencyMeasurements', { bands: 'Octave', weighting: 'Z' }),
    );
  });

  it('keeps different meanings apart and ignores options a dataset does not take', () => {
    expect(canonicalParameters('noiseTimeHistory', { values: ['LAeq'] })).not.toBe(
      canonicalParameters('noiseTimeHistory', { values: ['LAFMax'] }),
    );
    expect(canonicalParameters('noiseMeasurements', { period: 'PT15M' })).not.toBe(
      canonicalParameters('noiseMeasurements', { period: 'PT1H' }),
    );
    expect(canonicalParameters('calibrations', { values: ['LAeq'], bands: 'Third', period: 'PT1M' })).toBe(
      '',
    );
  });
});
