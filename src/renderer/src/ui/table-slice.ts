/** Long tables newest first, cut to their newest rows until "Show all" (history tables, record pages). */
import { countOf } from './words';

/** Tables show this many newest rows until "Show all" is pressed. */
export const TABLE_ROW_LIMIT = 50;

export interface TableSlice<T> {
  rows: T[];
  /** How many rows "Show all" would add. */
  hidden: number;
  total: number;
}

/** The first `limit` rows (the caller sorted them newest first), or all of them. */
export function tableSlice<T>(rows: readonly T[], showAll: boolean, limit = TABLE_ROW_LIMIT): TableSlice<T> {
  const shown = showAll ? [...rows] : rows.slice(0, limit);
  return { rows: shown, hidden: rows.length - shown.length, total: rows.length };
}

/** "Showing the latest 50 of 312 calibrations." / "12 calibrations." */
export function sliceText(slice: TableSlice<unknown>, noun: string, nounPlural = `${noun}s`): string {
  const total = countOf(slice.total, noun, nounPlural);
  return slice.hidden === 0 ? `${total}.` : `Showing the latest ${slice.rows.length} of ${total}.`;
}

/** A copy sorted newest first by `key` (the input is left alone). */
export function newestFirst<T>(rows: Iterable<T>, key: (row: T) => number): T[] {
  return [...rows].sort((a, b) => key(b) - key(a));
}
