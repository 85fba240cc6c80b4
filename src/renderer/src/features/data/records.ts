/**
 * A dataset's record table as the backend describes it: rows newest first by the table's own time
 * column (`timeKey`), that column first, and every cell shown as its column's type says. Nothing is
 * guessed from column names or values.
 */
import type { CellValue, RecordColumn, RecordTable } from '../../../../shared/data';
import { quantityValueText } from '../../../../shared/quantities';
import { exactTimeText, type DisplayZone } from '../../ui/time';

/** The row's time (epoch ms) from the table's time column; null when the row has none. */
function rowTime(row: RecordTable['rows'][number], timeKey: string): number | null {
  const value = row[timeKey];
  return typeof value === 'number' && !Number.isNaN(value) ? value : null;
}

/**
 * Rows newest first by `table.timeKey`; rows with the same time keep the reverse of the order
 * received, and a row without a time (never sent by the backend) goes last.
 */
export function recordsNewestFirst(table: RecordTable): RecordTable['rows'] {
  return table.rows
    .map((row, index) => ({ row, index, time: rowTime(row, table.timeKey) ?? Number.NEGATIVE_INFINITY }))
    .sort((a, b) => b.time - a.time || b.index - a.index)
    .map((entry) => entry.row);
}

/**
 * The columns with the table's time column first (it stays in place while a wide table scrolls
 * sideways), the others in the order the backend gave them.
 */
export function timeColumnFirst(table: RecordTable): RecordColumn[] {
  const time = table.columns.find((column) => column.key === table.timeKey);
  return time === undefined ? [...table.columns] : [time, ...table.columns.filter((c) => c !== time)];
}

/** Numbers are right-aligned, so their digits line up. */
export const isNumericColumn = (column: RecordColumn): boolean => column.type === 'number';

/** Texts and lists may be long (band levels); they are cut short in the cell, whole in its title. */
export const mayBeLong = (column: RecordColumn): boolean => column.type === 'text' || column.type === 'list';

/**
 * "LAeq (dB)": the unit once in the header rather than in every cell. Time columns say "(UTC)"
 * when times are shown in UTC; local times go without, as everywhere in the app.
 */
export function headerText(column: RecordColumn, zone: DisplayZone): string {
  if (column.unit) return `${column.label} (${column.unit})`;
  return column.type === 'time' && zone === 'utc' ? `${column.label} (UTC)` : column.label;
}

/** The "no reading" mark; never 0, never blank. */
export const NO_READING = '—';

const numberFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 4, useGrouping: false });

/**
 * A reading as the record table shows it, to four decimals at most (a Float32 64.19999694 is 64.2;
 * a VDV of 0.0021 stays 0.0021); the tooltips use it too, so chart and table read alike.
 */
export function readingText(value: number): string {
  return Number.isNaN(value) ? NO_READING : numberFormat.format(value);
}

/**
 * A cell as its column's type says: times in the chosen zone on a 24-hour clock, numbers at their
 * channel's precision (the one the figures and the tooltips use; to four decimals at most for a
 * column without one), flags as Yes/No, lists and texts as sent.
 * A value of another kind than its column's (which the backend does not send) is shown as it is
 * rather than reinterpreted.
 */
export function cellText(value: CellValue | undefined, column: RecordColumn, zone: DisplayZone): string {
  if (value === null || value === undefined) return NO_READING;
  switch (column.type) {
    case 'time':
      return typeof value === 'number' ? exactTimeText(value, zone) : String(value);
    case 'number':
      if (typeof value !== 'number') return String(value);
      return column.precision === undefined || Number.isNaN(value)
        ? readingText(value)
        : quantityValueText(value, column.precision);
    case 'boolean':
      return typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value);
    case 'list':
    case 'text':
      return String(value);
  }
}
