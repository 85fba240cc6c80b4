/**
 * The instrument history's records read through the cache: the rows of the cached datasets
 * `calibrations`, `calibrationLog` and `sic` (a RecordTable whose time column, `timeKey`, is epoch ms; see
 * service/parse/record-specs.ts) turned back into the typed records the history shows.
 *
 * Rows come from disk, so nothing about them is trusted: a row without a readable time is
 * dropped, a missing text is empty and a missing or unreadable number is null.
 */
import type { CellValue, DataReadResult, RecordTable, TimeInterval } from '../../../shared/data';
import { FieldDeskError } from '../../../shared/errors';
import type { CalibrationLogEntry, CalibrationRecord, SicRecord } from '../../../shared/operations';
import { gaps, normalize } from '../core/intervals';

type Row = Record<string, CellValue>;

const timeOf = (row: Row, timeKey: string): number | null => {
  const time = row[timeKey];
  return typeof time === 'number' && Number.isFinite(time) ? time : null;
};
const textOf = (row: Row, key: string): string => {
  const value = row[key];
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
};
const numberOf = (row: Row, key: string): number | null => {
  const value = row[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
};

/** The rows that have a time, with it, oldest first (stable for equal times). */
function timedRows(table: RecordTable | null): Array<{ row: Row; time: number }> {
  const rows: Array<{ row: Row; time: number }> = [];
  if (table === null) return rows;
  for (const row of table.rows) {
    const time = timeOf(row, table.timeKey);
    if (time !== null) rows.push({ row, time });
  }
  return rows.sort((a, b) => a.time - b.time);
}

export function calibrationRecordsOf(serial: string, table: RecordTable | null): CalibrationRecord[] {
  return timedRows(table).map(({ row, time }) => ({
    instrument: serial,
    time,
    status: textOf(row, 'status'),
    level: numberOf(row, 'level'),
    offset: numberOf(row, 'offset'),
  }));
}

export function calibrationLogEntriesOf(serial: string, table: RecordTable | null): CalibrationLogEntry[] {
  return timedRows(table).map(({ row, time }) => ({
    instrument: serial,
    time,
    user: textOf(row, 'user'),
    message: textOf(row, 'message'),
  }));
}

export function sicRecordsOf(serial: string, table: RecordTable | null): SicRecord[] {
  return timedRows(table).map(({ row, time }) => ({
    instrument: serial,
    time,
    status: textOf(row, 'status'),
    _500Hz: numberOf(row, '_500Hz'),
    _1KHz: numberOf(row, '_1KHz'),
    _8KHz: numberOf(row, '_8KHz'),
  }));
}

/**
 * The failure to throw when a read answered nothing at all: every part of the range that has
 * happened (up to `now`) is missing. Showing "no calibrations in this range" then would be
 * wrong, so the history shows the reason as an error, as it did before reads went through the
 * cache (a key without the scope keeps its calm "no records with this key" notice). Null when
 * anything was answered, from the cache or the service.
 */
export function nothingAnswered(
  result: Pick<DataReadResult, 'query' | 'provenance'>,
  now: number,
): FieldDeskError | null {
  const { provenance, query } = result;
  if (provenance.source !== 'partial' || provenance.cachedAt !== null) return null;
  const range: TimeInterval = { start: query.start, end: Math.min(query.end, now) };
  if (range.end <= range.start) return null;
  const answered = gaps(range, normalize(provenance.missing));
  return answered.length === 0 ? FieldDeskError.fromData(provenance.reason) : null;
}
