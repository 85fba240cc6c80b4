/**
 * Answers a read fetched but did not store, because records of them could not be read (they are
 * not whole, so the cache must not hold them as covered): what was read of them is still shown,
 * put into the cached data where the cache holds nothing, in time order.
 */
import type { RecordTable, SeriesChannel, TimeInterval } from '../../../shared/data';
import type { CachedData } from '../cache/cache-store';
import { joinTables, sliceChannel, sliceRecords, tidyChannel } from '../cache/cache-blocks';
import { subtract } from '../core/intervals';

export interface UnstoredAnswer {
  /** Where its data is shown: the parts of its interval the cache held nothing for. */
  shownIn: TimeInterval[];
  data: CachedData;
}

function concatenate(name: string, unit: string | null, pieces: SeriesChannel[]): SeriesChannel {
  const filled = pieces.filter((p) => p.times.length > 0).sort((a, b) => a.times[0]! - b.times[0]!);
  const total = filled.reduce((sum, p) => sum + p.times.length, 0);
  const times = new Float64Array(total);
  const values = new Float32Array(total);
  let offset = 0;
  for (const piece of filled) {
    times.set(piece.times, offset);
    values.set(piece.values.subarray(0, piece.times.length), offset);
    offset += piece.times.length;
  }
  return { name, unit, times, values };
}

/** The cached data with what was read of the unstored answers put in where they are shown. */
export function withUnstored(cached: CachedData, unstored: readonly UnstoredAnswer[]): CachedData {
  const shown = unstored.flatMap((answer) => answer.shownIn.map((interval) => ({ interval, answer })));
  if (shown.length === 0) return cached;
  const everywhere: TimeInterval = { start: -Infinity, end: Infinity };
  const cachedParts = subtract(
    [everywhere],
    shown.map((s) => s.interval),
  );

  const names: Array<{ name: string; unit: string | null }> = [];
  const seen = new Set<string>();
  for (const channel of [...cached.series, ...unstored.flatMap((a) => a.data.series)]) {
    if (seen.has(channel.name)) continue;
    seen.add(channel.name);
    names.push({ name: channel.name, unit: channel.unit });
  }
  const series = names.map(({ name, unit }) => {
    const pieces: SeriesChannel[] = [];
    const fromCache = cached.series.find((c) => c.name === name);
    if (fromCache !== undefined) {
      for (const part of cachedParts) pieces.push(sliceChannel(fromCache, part.start, part.end));
    }
    for (const { interval, answer } of shown) {
      const fetched = answer.data.series.find((c) => c.name === name);
      if (fetched !== undefined)
        pieces.push(sliceChannel(tidyChannel(fetched), interval.start, interval.end));
    }
    return concatenate(name, unit, pieces);
  });

  const tables: RecordTable[] = [];
  if (cached.records !== null) {
    const table = cached.records;
    // Rows without a readable time stay once, with the first part.
    cachedParts.forEach((part, i) => tables.push(sliceRecords(table, part.start, part.end, i === 0)));
  }
  for (const { interval, answer } of shown) {
    if (answer.data.records !== null) {
      tables.push(sliceRecords(answer.data.records, interval.start, interval.end, false));
    }
  }
  const records = joinTables(tables);
  if (records !== null) {
    const key = records.timeKey;
    // Stable: rows of one time keep their order.
    records.rows.sort((a, b) => (a[key] as number) - (b[key] as number));
    for (const row of records.rows) for (const column of records.columns) row[column.key] ??= null;
  }
  return { series, records };
}
