/**
 * The hourly levels as the report and the app's hourly table both state them: every level with the
 * hour's excluded time left out, the kept share, and the LAeq of all the hour's readings marked
 * where it includes excluded time — one wording, one mark, one rule for both.
 */
import type { HourlyRow } from './assessment';

/** The mark on an hour's all-data LAeq when it includes excluded time. */
export const INCLUDES_EXCLUDED_MARK = '*';

/** What the hourly table's columns hold, said beside it in the report and on screen. */
export const HOURLY_NOTE = `LAeq, LAFMax, LA10 and LA90 are each formed with the hour's excluded time left out; Kept is the share of the hour read and not excluded. The last column is the LAeq of all the hour's readings: ${INCLUDES_EXCLUDED_MARK} marks an hour where it includes excluded time.`;

/**
 * Whether an hour's all-data LAeq includes time the other levels leave out: the hour had excluded
 * time (its minutes are rounded, so a few seconds left out show as a different kept LAeq).
 */
export const includesExcludedTime = (h: HourlyRow): boolean =>
  h.laeq !== null && (h.excludedMinutes > 0 || h.laeq !== h.laeqValid);

/** "63.2*" for an all-data LAeq that includes excluded time; `dB` writes the number. */
export const allDataText = (h: HourlyRow, dB: (value: number | null) => string): string =>
  `${dB(h.laeq)}${includesExcludedTime(h) ? INCLUDES_EXCLUDED_MARK : ''}`;
