/**
 * Writing a data answer to CSV, as engineers take it into a spreadsheet: UTF-8 with a byte order
 * mark (so Excel reads "µg/m³" and "°" right), times in ISO 8601 UTC under a header that says what
 * they mark (an interval's start, where the service says so), one column per series with its unit
 * in the header (or the record table's columns for datasets without series), every reading at full
 * resolution and at least its channel's precision (a column reads evenly: "59.0" beside "58.1"),
 * plain numbers without thousands separators. Written in chunks to a temporary name and
 * renamed when complete (core/unfinished-files.ts), so a half-written file is never presented as
 * the export and one left by a crash is removed at the next start; a chart's PNG is written the
 * same way.
 */
import type { CellValue, DataReadResult, Dataset, RecordColumn } from '../../../shared/data';
import { RECORD_SPECS, type RecordSpec } from '../service/parse/record-specs';
import { exportValueText, quantityOf } from '../../../shared/quantities';
import { writeThroughPart, type SaveTarget } from '../core/unfinished-files';

/** Rows per write: large enough to be quick, small enough to keep memory flat for a week of 1 s data. */
const ROWS_PER_CHUNK = 5_000;

/** A field as RFC 4180 wants it: quoted when it holds a comma, a quote or a line break. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const isoTime = (epochMs: number): string => new Date(epochMs).toISOString();

function cellText(value: CellValue | undefined, column: RecordColumn): string {
  if (value === null || value === undefined) return '';
  if (column.type === 'time' && typeof value === 'number') return isoTime(value);
  if (column.type === 'number' && typeof value === 'number' && column.precision !== undefined)
    return exportValueText(value, column.precision);
  return String(value);
}

const headerOf = (name: string, unit: string | null) => csvField(unit ? `${name} (${unit})` : name);

/** The byte order mark that tells Excel the file is UTF-8. */
export const UTF8_BOM = '\uFEFF';

/**
 * The time column's header for a dataset's series: what the time marks, as the service's
 * interface says. Measurements, time history samples and environmental records are stamped with
 * their interval's start (`startTime`, a block's `start`); weather and monitor samples carry a
 * `time` the interface does not say is a start or an end (said so); checks happen at an instant.
 */
export function seriesTimeHeader(dataset: Dataset): string {
  const spec = (RECORD_SPECS as Partial<Record<Dataset, RecordSpec>>)[dataset];
  if (spec === undefined) return 'Interval start (UTC)'; // measurements and time history
  if (spec.sampling.kind === 'points') return 'Time (UTC)';
  return spec.timeKey === 'startTime'
    ? 'Interval start (UTC)'
    : csvField('Sample time (UTC, start or end not documented)');
}

/** How far through its rows a `csvLines` walk is, 0…1, updated before each chunk it yields. */
export interface CsvProgress {
  fraction: number;
}

/** The lines of the CSV, header first, produced a chunk at a time. */
export function* csvLines(
  result: DataReadResult,
  progress: CsvProgress = { fraction: 0 },
): Generator<string[]> {
  const { series, records } = result;
  if (series.length === 0) {
    const columns = records?.columns ?? [];
    yield [columns.map((c) => headerOf(c.label, c.type === 'time' ? 'UTC' : c.unit)).join(',')];
    const rows = [...(records?.rows ?? [])].sort(
      (a, b) => Number(a[records!.timeKey] ?? 0) - Number(b[records!.timeKey] ?? 0),
    );
    for (let i = 0; i < rows.length; i += ROWS_PER_CHUNK) {
      progress.fraction = Math.min(1, (i + ROWS_PER_CHUNK) / rows.length);
      yield rows
        .slice(i, i + ROWS_PER_CHUNK)
        .map((row) => columns.map((c) => csvField(cellText(row[c.key], c))).join(','));
    }
    return;
  }
  yield [
    [seriesTimeHeader(result.query.dataset), ...series.map((c) => headerOf(c.label ?? c.name, c.unit))].join(
      ',',
    ),
  ];
  const precisions = series.map((channel) => quantityOf(channel).precision);
  // The series' times merged in order; a time where no series has a reading (a gap marker) is left out.
  const next = series.map(() => 0);
  // Rows come in time order, so the time reached says how far the export is.
  const firsts = series.flatMap((c) => (c.times.length > 0 ? [c.times[0]!] : []));
  const lasts = series.flatMap((c) => (c.times.length > 0 ? [c.times[c.times.length - 1]!] : []));
  const [first, last] = [Math.min(...firsts), Math.max(...lasts)];
  const reached = (time: number) => (last > first ? (time - first) / (last - first) : 1);
  let chunk: string[] = [];
  for (;;) {
    let time = Infinity;
    series.forEach((channel, s) => {
      const t = channel.times[next[s]!];
      if (t !== undefined && t < time) time = t;
    });
    if (time === Infinity) break;
    let any = false;
    const cells = series.map((channel, s) => {
      if (channel.times[next[s]!] !== time) return '';
      const text = exportValueText(channel.values[next[s]!]!, precisions[s] ?? null);
      next[s]! += 1;
      any ||= text !== '';
      return text;
    });
    if (!any) continue;
    chunk.push(`${isoTime(time)},${cells.join(',')}`);
    if (chunk.length === ROWS_PER_CHUNK) {
      progress.fraction = reached(time);
      yield chunk;
      chunk = [];
    }
  }
  progress.fraction = 1;
  if (chunk.length > 0) yield chunk;
}

/**
 * Writes the CSV to the target's path; the data rows and bytes written. `onProgress` hears the fraction done
 * and the rows written after each chunk.
 */
export function writeCsv(
  target: SaveTarget,
  result: DataReadResult,
  onProgress: (fraction: number, rows: number) => void = () => {},
): Promise<{ rows: number; bytes: number }> {
  return writeThroughPart(target, async (handle) => {
    let rows = -1; // the header is not a data row
    let bytes = 0;
    const progress: CsvProgress = { fraction: 0 };
    for (const lines of csvLines(result, progress)) {
      const text = `${rows < 0 ? UTF8_BOM : ''}${lines.join('\r\n')}\r\n`;
      rows += lines.length;
      bytes += Buffer.byteLength(text);
      await handle.write(text);
      onProgress(progress.fraction, Math.max(0, rows));
    }
    return { rows, bytes };
  });
}

/** The eight bytes every PNG file starts with. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export const isPng = (bytes: Uint8Array): boolean =>
  bytes.length > PNG_SIGNATURE.length && Buffer.from(bytes.subarray(0, 8)).equals(PNG_SIGNATURE);

/** Writes an image whole, as the CSV: a listed temporary name, synced, then renamed. */
export function writeImage(target: SaveTarget, bytes: Uint8Array): Promise<void> {
  return writeThroughPart(target, (handle) => handle.writeFile(bytes));
}
