/**
 * The instrument's history on screen: the range to read, and long tables cut to their newest rows.
 */
import { subMonths } from 'date-fns';

/** Ranges offered, in months back from now. */
export const HISTORY_RANGE_MONTHS = [3, 12, 24] as const;
export type HistoryRangeMonths = (typeof HISTORY_RANGE_MONTHS)[number];
export const DEFAULT_HISTORY_MONTHS: HistoryRangeMonths = 12;

/** Tables show this many newest rows until "Show all" is pressed. */
export const TABLE_ROW_LIMIT = 50;

export function historyRange(months: HistoryRangeMonths, nowMs: number): { start: number; end: number } {
  return { start: subMonths(new Date(nowMs), months).getTime(), end: nowMs };
}

export function rangeLabel(months: HistoryRangeMonths): string {
  return months === 12 ? 'Last 12 months' : months === 24 ? 'Last 24 months' : 'Last 3 months';
}

/** A copy sorted newest first by `key` (the input is left alone). */
export function newestFirst<T>(rows: readonly T[], key: (row: T) => number): T[] {
  return [...rows].sort((a, b) => key(b) - key(a));
}

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
  const plural = slice.total === 1 ? noun : nounPlural;
  if (slice.hidden === 0) return `${slice.total} ${plural}.`;
  return `Showing the latest ${slice.rows.length} of ${slice.total} ${plural}.`;
}
