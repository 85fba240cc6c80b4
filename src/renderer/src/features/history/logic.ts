/** The instrument's history on screen: the range of months to read. */
import { subMonths } from 'date-fns';

/** Ranges offered, in months back from now. */
export const HISTORY_RANGE_MONTHS = [3, 12, 24] as const;
export type HistoryRangeMonths = (typeof HISTORY_RANGE_MONTHS)[number];
export const DEFAULT_HISTORY_MONTHS: HistoryRangeMonths = 12;

export function historyRange(months: HistoryRangeMonths, nowMs: number): { start: number; end: number } {
  return { start: subMonths(new Date(nowMs), months).getTime(), end: nowMs };
}

export function rangeLabel(months: HistoryRangeMonths): string {
  return months === 12 ? 'Last 12 months' : months === 24 ? 'Last 24 months' : 'Last 3 months';
}
