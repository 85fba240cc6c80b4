/** A dataset's record table: newest first, a page at a time, times shown in the chosen zone. */
import type { CellValue, RecordTable } from '../../../../shared/data';
import { tableSlice, type TableSlice } from '../../ui/table-slice';
import { exactTimeText, type DisplayZone } from '../../ui/time';

export const RECORD_PAGE_SIZE = 200;

type Column = RecordTable['columns'][number];

const TIME_KEYS = ['time', 'starttime', 'start', 'timestamp', 'endtime', 'end'];

const isTimeKey = (key: string): boolean => TIME_KEYS.includes(key.toLowerCase()) || /time$/i.test(key);

/** The column records are ordered by: the first of the usual time columns. */
export function timeColumnKey(table: RecordTable): string | null {
  for (const wanted of TIME_KEYS) {
    const column = table.columns.find((c) => c.key.toLowerCase() === wanted);
    if (column) return column.key;
  }
  return null;
}

/** Every column holding times (start, end, audio time…), shown as dates in the chosen zone. */
export function timeColumnKeys(table: RecordTable): Set<string> {
  return new Set(table.columns.filter((c) => isTimeKey(c.key) && c.unit === null).map((c) => c.key));
}

function timeValue(value: CellValue | undefined): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/** Rows newest first, by the time column; without one, the reverse of the order received. */
export function recordsNewestFirst(table: RecordTable): RecordTable['rows'] {
  const key = timeColumnKey(table);
  if (key === null) return [...table.rows].reverse();
  return table.rows
    .map((row, index) => ({ row, index, t: timeValue(row[key]) ?? Number.NEGATIVE_INFINITY }))
    .sort((a, b) => b.t - a.t || b.index - a.index)
    .map((entry) => entry.row);
}

/** The first `shown` rows and how many remain (see `RECORD_PAGE_SIZE`). */
export function recordSlice<T>(rows: readonly T[], shown: number): TableSlice<T> {
  return tableSlice(rows, false, shown);
}

/** A column is right-aligned when every reading in it is a number. */
export function isNumericColumn(rows: RecordTable['rows'], key: string): boolean {
  let any = false;
  for (const row of rows) {
    const value = row[key];
    if (value === null || value === undefined) continue;
    if (typeof value !== 'number') return false;
    any = true;
  }
  return any;
}

export function headerText(column: Column): string {
  return column.unit ? `${column.label} (${column.unit})` : column.label;
}

/** The "no reading" mark; never 0, never blank. */
export const NO_READING = '—';

const numberFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 4, useGrouping: false });

export function cellText(value: CellValue | undefined, isTime: boolean, zone: DisplayZone): string {
  if (value === null || value === undefined) return NO_READING;
  if (isTime) {
    const ms = timeValue(value);
    return ms === null ? String(value) : exactTimeText(ms, zone);
  }
  if (typeof value === 'number') return Number.isNaN(value) ? NO_READING : numberFormat.format(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return value;
}
