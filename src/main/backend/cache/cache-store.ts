/**
 * The data cache in SQLite (tables of migrations 2 and 3 in `db.ts`).
 *
 * - One key per (account, instrument, dataset, canonical parameters) in `cache_keys`.
 * - One `cache_chunks` row per stored response: its [start_ms, end_ms) is what it covers, so the
 *   coverage IS the set of stored chunks. A chunk and its data are written in one transaction:
 *   the cache can never claim coverage it has no data for, whenever the process dies.
 * - Series as binary blocks: one `cache_series` row per chunk and channel, values as Float32
 *   (little-endian, the layout of the typed arrays) and times as Float64 per sample or, when evenly
 *   spaced, just the first time and the step (`times_codec`, see `series-times.ts`). Records as JSON
 *   per chunk.
 * - Chunks of one key never overlap, and a chunk holds only samples inside its interval: storing a
 *   response first cuts whatever it replaces out of older chunks, so a read never sees a sample
 *   twice (the still-open recent interval is fetched again and replaces the old copy).
 */
import type {
  CacheSummary,
  CachedDatasetSummary,
  Dataset,
  RecordTable,
  SeriesChannel,
  TimeInterval,
} from '../../../shared/data';
import type { SqliteDatabase } from '../core/database';
import type { DamagedRows } from '../core/damaged-rows';
import { normalize, subtract } from '../core/intervals';
import {
  asBlob,
  assemble,
  joinTables,
  parseRecords,
  sliceChannel,
  sliceRecords,
  tidyChannel,
  toFloat32,
  type SeriesRow,
} from './cache-blocks';
import { decodeTimes, encodeTimes } from './series-times';

export interface CacheKey {
  accountId: string;
  serial: string;
  dataset: Dataset;
  /** From `canonicalParameters`. */
  params: string;
}

export interface ChunkMeta {
  id: number;
  start: number;
  end: number;
  fetchedAt: number;
  /** Bytes stored (series blocks and records JSON). */
  bytes: number;
}

export interface CachedData {
  series: SeriesChannel[];
  records: RecordTable | null;
}

export interface StoreOptions {
  /**
   * Store the response as two chunks split here (the settled part and the still-open recent part),
   * so a later refresh of the open part leaves the settled part alone.
   */
  splitAt?: number;
  /** More writes that must commit or fail together with the data (e.g. a sync chunk marked done). */
  alsoInTransaction?: () => void;
}

export interface StoreResult {
  chunkIds: number[];
  /** Bytes stored. */
  bytes: number;
}

export interface CacheStore {
  /** Stored chunks of a key overlapping `range`, oldest start first. */
  chunks(key: CacheKey, range: TimeInterval): ChunkMeta[];
  /** What a key covers within `range` (normalised). */
  covered(key: CacheKey, range: TimeInterval): TimeInterval[];
  /** The parameter strings cached for one dataset of one instrument (what offline derivations may use). */
  paramsOf(accountId: string, serial: string, dataset: Dataset): string[];
  /** Stores one response for `interval` (data outside it is dropped), replacing what it overlaps. */
  store(
    key: CacheKey,
    interval: TimeInterval,
    data: CachedData,
    fetchedAt: number,
    options?: StoreOptions,
  ): StoreResult;
  /** The stored data within [range.start, range.end), series joined in time order. */
  read(key: CacheKey, range: TimeInterval): CachedData & { chunks: ChunkMeta[] };
  summary(accountId: string): CacheSummary;
  /** Removes everything cached for an account, or for one of its instruments. */
  clear(accountId: string, serial?: string): void;
}

function sliceData(data: CachedData, piece: TimeInterval, keepUntimed: boolean): CachedData {
  return {
    series: data.series.map((channel) => sliceChannel(channel, piece.start, piece.end)),
    records: data.records === null ? null : sliceRecords(data.records, piece.start, piece.end, keepUntimed),
  };
}

// ---- the store ---------------------------------------------------------------------------------

interface ChunkRow {
  id: number;
  start_ms: number;
  end_ms: number;
  fetched_at: number;
  bytes: number;
  records_json: string | null;
}

const toMeta = (row: ChunkRow): ChunkMeta => ({
  id: row.id,
  start: row.start_ms,
  end: row.end_ms,
  fetchedAt: row.fetched_at,
  bytes: row.bytes,
});

/** `damaged`: where a stored table that cannot be read is said (left out unsaid without it). */
export function createCacheStore(db: SqliteDatabase, damaged?: DamagedRows): CacheStore {
  const findKey = db.prepare<[string, string, string, string], { id: number }>(
    'SELECT id FROM cache_keys WHERE account_id = ? AND serial = ? AND dataset = ? AND params = ?',
  );
  const insertKey = db.prepare(
    'INSERT INTO cache_keys (account_id, serial, dataset, params) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const overlapping = db.prepare<[number, number, number], ChunkRow>(
    `SELECT id, start_ms, end_ms, fetched_at, bytes, records_json FROM cache_chunks
     WHERE key_id = ? AND end_ms > ? AND start_ms < ? ORDER BY start_ms`,
  );
  const overlappingMeta = db.prepare<[number, number, number], ChunkRow>(
    `SELECT id, start_ms, end_ms, fetched_at, bytes, NULL AS records_json FROM cache_chunks
     WHERE key_id = ? AND end_ms > ? AND start_ms < ? ORDER BY start_ms`,
  );
  // A chunk's series by its primary key, in position order without a sort. Not one join over the
  // chunks ordered by (start, position): SQLite sorted that in a temporary B-tree, copying every
  // blob into it (25–60 ms for a week of 1 s levels, whose raw read takes under 1 ms).
  const seriesOfChunk = db.prepare<[number, number, number], SeriesRow>(
    `SELECT chunk_id, position, name, unit, count, times, times_codec, vals, ? AS start_ms, ? AS end_ms
     FROM cache_series WHERE chunk_id = ? ORDER BY position`,
  );
  const insertChunk = db.prepare(
    'INSERT INTO cache_chunks (key_id, start_ms, end_ms, fetched_at, bytes, records_json) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertSeries = db.prepare(
    `INSERT INTO cache_series (chunk_id, position, name, unit, count, times, times_codec, vals)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const deleteChunk = db.prepare('DELETE FROM cache_chunks WHERE id = ?');
  const summaryRows = db.prepare<
    [string],
    { serial: string; dataset: string; start_ms: number; end_ms: number; fetched_at: number; bytes: number }
  >(
    `SELECT k.serial, k.dataset, c.start_ms, c.end_ms, c.fetched_at, c.bytes
     FROM cache_chunks c JOIN cache_keys k ON k.id = c.key_id
     WHERE k.account_id = ? ORDER BY k.serial, k.dataset, c.start_ms`,
  );
  const paramsRows = db.prepare<[string, string, string], { params: string }>(
    `SELECT k.params FROM cache_keys k WHERE k.account_id = ? AND k.serial = ? AND k.dataset = ?
     AND EXISTS (SELECT 1 FROM cache_chunks c WHERE c.key_id = k.id) ORDER BY k.params`,
  );
  const clearAccount = db.prepare('DELETE FROM cache_keys WHERE account_id = ?');
  const clearInstrument = db.prepare('DELETE FROM cache_keys WHERE account_id = ? AND serial = ?');

  function keyId(key: CacheKey, create: boolean): number | null {
    const args = [key.accountId, key.serial, key.dataset, key.params] as const;
    const found = findKey.get(...args);
    if (found !== undefined || !create) return found?.id ?? null;
    insertKey.run(...args);
    return findKey.get(...args)?.id ?? null;
  }

  function loadChunk(row: ChunkRow): CachedData {
    return {
      series: seriesOfChunk.all(row.start_ms, row.end_ms, row.id).map((s) => ({
        name: s.name,
        unit: s.unit,
        times: decodeTimes(s.times_codec, s.times, s.count),
        values: toFloat32(s.vals),
      })),
      records: parseRecords(row.records_json, { table: 'cache_chunks', id: row.id, damaged }),
    };
  }

  /** Inserts one chunk with its data (already within `interval`); returns its id and the bytes stored. */
  function insert(id: number, interval: TimeInterval, data: CachedData, fetchedAt: number) {
    const recordsJson = data.records === null ? null : JSON.stringify(data.records);
    const blocks = data.series.map((channel) => {
      const count = Math.min(channel.times.length, channel.values.length);
      return {
        channel,
        count,
        times: encodeTimes(channel.times.subarray(0, count)),
        vals: asBlob(channel.values.subarray(0, count)),
      };
    });
    let bytes = recordsJson === null ? 0 : Buffer.byteLength(recordsJson);
    for (const block of blocks) bytes += block.times.blob.byteLength + block.vals.byteLength;
    const chunkId = Number(
      insertChunk.run(id, interval.start, interval.end, fetchedAt, bytes, recordsJson).lastInsertRowid,
    );
    blocks.forEach(({ channel, count, times, vals }, position) => {
      insertSeries.run(chunkId, position, channel.name, channel.unit, count, times.blob, times.codec, vals);
    });
    return { chunkId, bytes };
  }

  /** Cuts `interval` out of the key's chunks: chunks inside go, chunks across its edges are trimmed. */
  function cutOut(id: number, interval: TimeInterval): void {
    for (const row of overlapping.all(id, interval.start, interval.end)) {
      if (row.start_ms >= interval.start && row.end_ms <= interval.end) {
        deleteChunk.run(row.id);
        continue;
      }
      const data = loadChunk(row); // before the delete, which takes its series with it
      deleteChunk.run(row.id);
      const pieces = subtract([{ start: row.start_ms, end: row.end_ms }], [interval]);
      pieces.forEach((piece) => {
        insert(id, piece, sliceData(data, piece, piece.start === row.start_ms), row.fetched_at);
      });
    }
  }

  const store = db.transaction(
    (key: CacheKey, interval: TimeInterval, data: CachedData, fetchedAt: number, options: StoreOptions) => {
      const id = keyId(key, true);
      if (id === null) throw new Error('cache key could not be created');
      cutOut(id, interval);
      const split = options.splitAt;
      const pieces =
        split !== undefined && split > interval.start && split < interval.end
          ? [
              { start: interval.start, end: split },
              { start: split, end: interval.end },
            ]
          : [interval];
      const tidy: CachedData = { series: data.series.map(tidyChannel), records: data.records };
      const result: StoreResult = { chunkIds: [], bytes: 0 };
      pieces.forEach((piece, index) => {
        const { chunkId, bytes } = insert(id, piece, sliceData(tidy, piece, index === 0), fetchedAt);
        result.chunkIds.push(chunkId);
        result.bytes += bytes;
      });
      options.alsoInTransaction?.();
      return result;
    },
  );

  function chunks(key: CacheKey, range: TimeInterval): ChunkMeta[] {
    const id = keyId(key, false);
    return id === null ? [] : overlappingMeta.all(id, range.start, range.end).map(toMeta);
  }

  return {
    chunks,

    covered(key, range) {
      return normalize(
        chunks(key, range).map((c) => ({
          start: Math.max(c.start, range.start),
          end: Math.min(c.end, range.end),
        })),
      );
    },

    paramsOf(accountId, serial, dataset) {
      return paramsRows.all(accountId, serial, dataset).map((row) => row.params);
    },

    store(key, interval, data, fetchedAt, options = {}) {
      if (!(interval.end > interval.start)) return { chunkIds: [], bytes: 0 };
      return store.immediate(key, interval, data, fetchedAt, options);
    },

    read(key, range) {
      const id = keyId(key, false);
      if (id === null) return { series: [], records: null, chunks: [] };
      // One read transaction, so a concurrent write cannot slip between the two queries.
      return db.transaction(() => {
        const chunkRows = overlapping.all(id, range.start, range.end);
        const seriesRows = chunkRows.flatMap((row) => seriesOfChunk.all(row.start_ms, row.end_ms, row.id));
        const tables: RecordTable[] = [];
        for (const row of chunkRows) {
          const table = parseRecords(row.records_json, { table: 'cache_chunks', id: row.id, damaged });
          if (table === null) continue;
          const inside = row.start_ms >= range.start && row.end_ms <= range.end;
          tables.push(
            inside ? table : sliceRecords(table, range.start, range.end, row.start_ms >= range.start),
          );
        }
        return {
          series: assemble(seriesRows, range),
          records: joinTables(tables),
          chunks: chunkRows.map(toMeta),
        };
      })();
    },

    summary(accountId) {
      const instruments = new Map<
        string,
        Map<string, { bytes: number; intervals: TimeInterval[]; last: number }>
      >();
      for (const row of summaryRows.all(accountId)) {
        let datasets = instruments.get(row.serial);
        if (datasets === undefined) instruments.set(row.serial, (datasets = new Map()));
        let entry = datasets.get(row.dataset);
        if (entry === undefined) datasets.set(row.dataset, (entry = { bytes: 0, intervals: [], last: 0 }));
        entry.bytes += row.bytes;
        entry.intervals.push({ start: row.start_ms, end: row.end_ms });
        entry.last = Math.max(entry.last, row.fetched_at);
      }
      let totalBytes = 0;
      const summary: CacheSummary = { totalBytes: 0, instruments: [] };
      for (const [serial, datasets] of instruments) {
        const list: CachedDatasetSummary[] = [...datasets].map(([dataset, entry]) => ({
          dataset: dataset as Dataset,
          bytes: entry.bytes,
          covered: normalize(entry.intervals),
          lastFetchedAt: entry.last,
        }));
        const bytes = list.reduce((sum, d) => sum + d.bytes, 0);
        totalBytes += bytes;
        summary.instruments.push({ accountId, serial, bytes, datasets: list });
      }
      summary.totalBytes = totalBytes;
      return summary;
    },

    clear(accountId, serial) {
      if (serial === undefined) clearAccount.run(accountId);
      else clearInstrument.run(accountId, serial);
    },
  };
}
