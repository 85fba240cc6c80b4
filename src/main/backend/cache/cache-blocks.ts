/**
 * Series and record tables as the cache keeps them, without the database: putting a channel in
 * time order, cutting channels and tables to an interval, joining tables, and converting between
 * typed arrays and the stored blocks (`assemble` joins the blocks a read returns). Pure functions,
 * kept apart from the SQLite store so they can be read and tested on their own.
 */
import type { RecordTable, SeriesChannel, TimeInterval } from '../../../shared/data';
import { reportDamaged, type StoredValue } from '../core/damaged-rows';
import { decodeTimes, storedTimes } from './series-times';

/** First index whose time is >= t (times sorted ascending). */
export function lowerBound(times: Float64Array, t: number): number {
  return lowerBoundOf((i) => times[i]!, times.length, t);
}

/** First index below `count` whose time (`at`) is >= t, times ascending. */
function lowerBoundOf(at: (i: number) => number, count: number, t: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at(mid) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The channel sorted by time with repeated times kept once (first wins); the same object when already so. */
export function tidyChannel(channel: SeriesChannel): SeriesChannel {
  const { times, values } = channel;
  let clean = true;
  for (let i = 1; i < times.length; i++) {
    if (!(times[i]! > times[i - 1]!)) {
      clean = false;
      break;
    }
  }
  if (clean) return channel;
  const order = Array.from({ length: times.length }, (_, i) => i)
    .filter((i) => Number.isFinite(times[i]!))
    .sort((a, b) => times[a]! - times[b]! || a - b);
  const keep: number[] = [];
  for (const i of order) if (keep.length === 0 || times[keep[keep.length - 1]!] !== times[i]) keep.push(i);
  return {
    name: channel.name,
    unit: channel.unit,
    times: Float64Array.from(keep, (i) => times[i]!),
    values: Float32Array.from(keep, (i) => values[i] ?? Number.NaN),
  };
}

/** The samples of a (tidy) channel within [start, end), sharing memory with it. */
export function sliceChannel(channel: SeriesChannel, start: number, end: number): SeriesChannel {
  const from = lowerBound(channel.times, start);
  const to = lowerBound(channel.times, end);
  return {
    name: channel.name,
    unit: channel.unit,
    times: channel.times.subarray(from, to),
    values: channel.values.subarray(from, Math.max(from, Math.min(to, channel.values.length))),
  };
}

/**
 * The rows of a table whose time (its `timeKey` column) lies in [start, end). Rows without a
 * readable time belong to the piece that starts where their chunk starts (`keepUntimed`), so
 * cutting a chunk neither loses nor doubles them.
 */
export function sliceRecords(
  table: RecordTable,
  start: number,
  end: number,
  keepUntimed: boolean,
): RecordTable {
  const { timeKey } = table;
  return {
    timeKey,
    columns: table.columns,
    rows: table.rows.filter((row) => {
      const t = row[timeKey];
      return typeof t === 'number' && Number.isFinite(t) ? t >= start && t < end : keepUntimed;
    }),
  };
}

/** Joins tables of one dataset: its time column, columns in first-seen order by key, rows in order. */
export function joinTables(tables: readonly RecordTable[]): RecordTable | null {
  const first = tables[0];
  if (first === undefined) return null;
  const columns: RecordTable['columns'] = [];
  const seen = new Set<string>();
  const rows: RecordTable['rows'] = [];
  for (const table of tables) {
    for (const column of table.columns) {
      if (!seen.has(column.key)) {
        seen.add(column.key);
        columns.push(column);
      }
    }
    for (const row of table.rows) rows.push(row);
  }
  return { timeKey: first.timeKey, columns, rows };
}

/** The bytes of a Float32Array, as stored (no copy). */
export const asBlob = (array: Float32Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

/** A copy as a Float32Array (SQLite's buffers need not be aligned). */
export function toFloat32(blob: Buffer): Float32Array {
  const out = new Float32Array(blob.byteLength / 4);
  new Uint8Array(out.buffer).set(blob);
  return out;
}

/** A stored series block (a `cache_series` row) with the interval of its chunk. */
export interface SeriesRow {
  chunk_id: number;
  position: number;
  name: string;
  unit: string | null;
  count: number;
  times: Buffer;
  times_codec: number;
  vals: Buffer;
  start_ms: number;
  end_ms: number;
}

/**
 * A stored table (migration 4 gave every stored table its time column and column types); null when
 * there is none, or when it cannot be read — then reported as `from` says (unsaid without it).
 */
export function parseRecords(json: string | null, from?: StoredValue): RecordTable | null {
  if (json === null) return null;
  let parsed: Partial<RecordTable> | null;
  try {
    parsed = JSON.parse(json) as Partial<RecordTable> | null;
  } catch (error) {
    reportDamaged(from, error);
    return null;
  }
  // Checked by hand, not with a schema: a read of months joins many of these, and a schema copies each.
  if (typeof parsed?.timeKey === 'string' && Array.isArray(parsed.columns) && Array.isArray(parsed.rows))
    return parsed as RecordTable;
  reportDamaged(from, 'not a stored table (its time column, columns or rows are missing)');
  return null;
}

/** Whether a view spans all of its memory, so handing it over (structured clone) carries nothing else. */
const ownsWholeBuffer = (view: ArrayBufferView) =>
  view.byteOffset === 0 && view.buffer.byteLength === view.byteLength;

/** Joins the stored blocks of each channel within [range.start, range.end) into typed arrays. */
export function assemble(rows: readonly SeriesRow[], range: TimeInterval): SeriesChannel[] {
  interface Piece {
    row: SeriesRow;
    times: ReturnType<typeof storedTimes>;
    vals: Buffer;
    from: number;
    to: number;
  }
  const channels = new Map<string, { unit: string | null; pieces: Piece[]; total: number }>();
  for (const row of rows) {
    let channel = channels.get(row.name);
    if (channel === undefined) channels.set(row.name, (channel = { unit: row.unit, pieces: [], total: 0 }));
    channel.unit ??= row.unit;
    // Times found where needed, not decoded whole: a block cut to the range or joined to others is
    // copied from them anyway (see `storedTimes`).
    const times = storedTimes(row.times_codec, row.times, row.count);
    let from = 0;
    let to = row.count;
    if (row.start_ms < range.start || row.end_ms > range.end) {
      from = lowerBoundOf(times.at, row.count, range.start);
      to = lowerBoundOf(times.at, row.count, range.end);
    }
    if (to > from) {
      channel.pieces.push({ row, times, vals: row.vals, from, to });
      channel.total += to - from;
    }
  }
  return [...channels].map(([name, channel]) => {
    const only = channel.pieces.length === 1 ? channel.pieces[0]! : null;
    if (only !== null && only.from === 0 && only.to === only.row.count && ownsWholeBuffer(only.vals)) {
      const times = decodeTimes(only.row.times_codec, only.row.times, only.row.count);
      // One whole block (the usual case for a week): the times as decoded (SQLite's buffer for raw
      // times, a new array for evenly spaced ones) and the values in SQLite's buffer, no copy.
      if (ownsWholeBuffer(times)) {
        return { name, unit: channel.unit, times, values: new Float32Array(only.vals.buffer, 0, only.to) };
      }
    }
    const times = new Float64Array(channel.total);
    const values = new Float32Array(channel.total);
    const valueBytes = new Uint8Array(values.buffer);
    let offset = 0;
    for (const piece of channel.pieces) {
      piece.times.copy(times, offset, piece.from, piece.to);
      valueBytes.set(piece.vals.subarray(piece.from * 4, piece.to * 4), offset * 4);
      offset += piece.to - piece.from;
    }
    return { name, unit: channel.unit, times, values };
  });
}
