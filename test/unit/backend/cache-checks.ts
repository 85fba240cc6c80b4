/** Checks of a cache database that must hold whatever happened to the process that wrote it. */
import { expect } from 'vitest';
import type Database from 'better-sqlite3';
import { canonicalParameters } from '../../../src/main/backend/cache/cache-key';
import { gaps, normalize } from '../../../src/main/backend/core/intervals';
import { decodeTimes, TIMES_EVEN, TIMES_RAW, TIMES_RUNS } from '../../../src/main/backend/cache/series-times';
import type { Dataset, DatasetOptions } from '../../../src/shared/data';

/**
 * - `PRAGMA integrity_check` is ok and foreign keys hold;
 * - every series block has as many samples as it says (times raw, 8 bytes each, or evenly spaced,
 *   16 bytes in all), all inside its chunk's interval, in order;
 * - chunks of one key never overlap (so no sample can be read twice);
 * - every sync chunk marked fetched is covered by stored chunks (the mark never runs ahead of the data).
 */
export function checkCacheConsistency(db: Database.Database): void {
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  expect(db.pragma('foreign_key_check')).toEqual([]);

  const blocks = db
    .prepare(
      `SELECT s.count, s.times, s.times_codec, s.vals, c.start_ms, c.end_ms FROM cache_series s
       JOIN cache_chunks c ON c.id = s.chunk_id`,
    )
    .all() as Array<{
    count: number;
    times: Buffer;
    times_codec: number;
    vals: Buffer;
    start_ms: number;
    end_ms: number;
  }>;
  for (const block of blocks) {
    expect([TIMES_RAW, TIMES_EVEN, TIMES_RUNS]).toContain(block.times_codec);
    if (block.times_codec === TIMES_RAW) expect(block.times.byteLength).toBe(block.count * 8);
    if (block.times_codec === TIMES_EVEN) expect(block.times.byteLength).toBe(16);
    // Runs of first, step and count, and only where smaller than raw.
    if (block.times_codec === TIMES_RUNS) {
      expect(block.times.byteLength % 24).toBe(0);
      expect(block.times.byteLength).toBeLessThan(block.count * 8);
    }
    expect(block.vals.byteLength).toBe(block.count * 4);
    const times = decodeTimes(block.times_codec, block.times, block.count);
    expect(times.length).toBe(block.count);
    for (let i = 0; i < times.length; i++) {
      const t = times[i]!;
      if (t < block.start_ms || t >= block.end_ms) throw new Error(`sample ${t} outside its chunk`);
      if (i > 0 && !(t > times[i - 1]!)) throw new Error(`samples out of order at ${t}`);
    }
  }

  const chunks = db
    .prepare('SELECT key_id, start_ms, end_ms FROM cache_chunks ORDER BY key_id, start_ms')
    .all() as Array<{ key_id: number; start_ms: number; end_ms: number }>;
  for (let i = 1; i < chunks.length; i++) {
    const [a, b] = [chunks[i - 1]!, chunks[i]!];
    if (a.key_id === b.key_id && b.start_ms < a.end_ms) throw new Error('overlapping chunks');
  }

  const fetched = db
    .prepare(
      `SELECT r.account_id, c.serial, c.dataset, c.options_json, c.start_ms, c.end_ms
       FROM sync_chunks c JOIN sync_runs r ON r.id = c.sync_id WHERE c.state = 'fetched'`,
    )
    .all() as Array<{
    account_id: string;
    serial: string;
    dataset: Dataset;
    options_json: string;
    start_ms: number;
    end_ms: number;
  }>;
  const coverage = db.prepare(
    `SELECT c.start_ms AS start, c.end_ms AS end FROM cache_chunks c JOIN cache_keys k ON k.id = c.key_id
     WHERE k.account_id = ? AND k.serial = ? AND k.dataset = ? AND k.params = ?`,
  );
  for (const row of fetched) {
    const params = canonicalParameters(
      row.dataset,
      (JSON.parse(row.options_json) as DatasetOptions | null) ?? {},
    );
    const covered = normalize(
      coverage.all(row.account_id, row.serial, row.dataset, params) as Array<{ start: number; end: number }>,
    );
    const last = covered.at(-1)?.end ?? row.start_ms;
    // A chunk reaching into the future is covered up to when it was fetched.
    const missing = gaps(
      { start: row.start_ms, end: Math.min(row.end_ms, Math.max(last, row.start_ms)) },
      covered,
    );
    expect(missing, `${row.serial} ${row.dataset} marked fetched without data`).toEqual([]);
    expect(covered.length).toBeGreaterThan(0);
  }
}
