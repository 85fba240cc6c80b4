/**
 * How an assessment report writes a time or a value, the same in the PDF, the workbook and the CSV
 * files: times in the site's zone on a `SiteClock` (its UTC offset stated once, a time with another
 * offset saying its own) or as ISO 8601, durations in hours and minutes, and numbers rounded as the
 * report states them: dB to 0.1, PPV to 0.01 mm/s (0.001 below 1), VDV to 0.001, µg/m³ to 0.1.
 */
import { tz, type TZDate } from '@date-fns/tz';
import { format, startOfMonth } from 'date-fns';
import { limitText } from '../../../../shared/assessment-summary';
import { unitDecimals } from '../../../../shared/assessment-units';
import { dbText } from '../../../../shared/format';
import { isRepeatedWallTime } from '../figures/site-periods';

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

// ---- time ---------------------------------------------------------------------------------------

/** Times in the site's zone, 24-hour; a time whose UTC offset is not the report's says its own. */
export class SiteClock {
  readonly zone: string;
  /** The offset at the start of the period ("+00:00"): the one the report states once. */
  readonly offset: string;
  private readonly context: (value: Date | number | string) => TZDate;

  constructor(timeZone: string, start: number) {
    this.zone = timeZone;
    this.context = tz(timeZone);
    this.offset = this.offsetAt(start);
  }

  /** "+01:00" */
  offsetAt(time: number): string {
    return format(time, 'xxx', { in: this.context });
  }

  /**
   * A time with its offset when it is not the report's, and always in the hour the autumn clock
   * change repeats (01:00 BST and 01:00 GMT read alike without it).
   */
  private withOffset(time: number, text: string): string {
    const offset = this.offsetAt(time);
    return offset === this.offset && !isRepeatedWallTime(time, this.zone) ? text : `${text} (UTC${offset})`;
  }

  /** "Mon 23 Nov 2026 00:00"; `bare` leaves out the offset, where the text around it says it. */
  long(time: number, bare = false): string {
    const text = format(time, 'EEE d MMM yyyy HH:mm', { in: this.context });
    return bare ? text : this.withOffset(time, text);
  }

  /** "Mon 23 Nov 00:00", for tables within the period. */
  short(time: number): string {
    return this.withOffset(time, format(time, 'EEE d MMM HH:mm', { in: this.context }));
  }

  /** "Mon 23 Nov 14:05:12" */
  seconds(time: number): string {
    return this.withOffset(time, format(time, 'EEE d MMM HH:mm:ss', { in: this.context }));
  }

  /**
   * When a highest value was reached, to its data's resolution: "Sat 28 Nov 2026 01:47:13" when
   * known to the second, else its interval ("Sat 28 Nov 2026 01:45–02:00"), never an interval's
   * start as a moment; with the year, as an exceedance is cited on its own.
   */
  moment(time: number, stepMs: number | undefined): string {
    return this.withOffset(
      time,
      `${format(time, 'EEE d MMM yyyy', { in: this.context })} ${this.timeOfDay(time, stepMs)}`,
    );
  }

  /** The time of day of `moment`: "01:47:13" to the second, else the interval "01:45–02:00". */
  timeOfDay(time: number, stepMs: number | undefined): string {
    if (stepMs === undefined || stepMs <= 1000) return format(time, 'HH:mm:ss', { in: this.context });
    return `${this.hhmm(time)}–${this.hhmm(time + stepMs)}`;
  }

  /** "2026-11-23T00:00:00+00:00": site time with its offset, for the spreadsheets. */
  iso(time: number): string {
    return format(time, "yyyy-MM-dd'T'HH:mm:ssxxx", { in: this.context });
  }

  /** Local hour and minute of an instant, for the chart's ticks. */
  hourMinute(time: number): { hour: number; minute: number } {
    const local = this.context(time);
    return { hour: local.getHours(), minute: local.getMinutes() };
  }

  /** "2026-11": the site-time month of an instant, for grouping and the spreadsheets. */
  monthIso(time: number): string {
    return format(time, 'yyyy-MM', { in: this.context });
  }

  /** "Nov 2026" */
  monthName(time: number): string {
    return format(time, 'MMM yyyy', { in: this.context });
  }

  /** The first instant of the site-time month of `time`. */
  monthStart(time: number): number {
    return startOfMonth(this.context(time)).getTime();
  }

  hhmm(time: number): string {
    return format(time, 'HH:mm', { in: this.context });
  }

  dayShort(time: number): string {
    return format(time, 'EEE d MMM', { in: this.context });
  }

  /**
   * "(Europe/London, UTC+00:00)", or with each change of offset within the period, in the wall time
   * after it: "(Europe/London, UTC+01:00, and UTC+00:00 from Sun 25 Oct 2026 01:00)".
   */
  zoneText(start: number, end: number): string {
    const changes = offsetChanges(this, start, end).map(
      (change) => `UTC${this.offsetAt(change)} from ${this.long(change, true)}`,
    );
    if (changes.length === 0) return `(${this.zone}, UTC${this.offset})`;
    return `(${this.zone}, UTC${this.offset}, and ${changes.join(', and ')})`;
  }
}

/** The instants within [start, end) where the zone's offset changes, to the minute. */
function offsetChanges(clock: SiteClock, start: number, end: number): number[] {
  const changes: number[] = [];
  let previous = start;
  let offset = clock.offsetAt(start);
  for (let t = start + HOUR; t < end + HOUR; t += HOUR) {
    const at = Math.min(t, end);
    const next = clock.offsetAt(at);
    if (next !== offset) {
      let [lo, hi] = [previous, at];
      while (hi - lo > MINUTE) {
        const mid = lo + Math.max(1, Math.floor((hi - lo) / 2 / MINUTE)) * MINUTE;
        if (clock.offsetAt(mid) === offset) lo = mid;
        else hi = mid;
      }
      changes.push(hi);
      offset = next;
    }
    previous = at;
  }
  return changes;
}

/** "2026-11-23T00:00:00.000Z" */
export const isoUtc = (time: number): string => new Date(time).toISOString();

/**
 * When a highest value was reached, for the spreadsheets: its second, or the interval that held it
 * as an ISO 8601 interval ("2026-11-28T01:45:00.000Z/2026-11-28T02:00:00.000Z"), never an interval's
 * start written as if it were the moment.
 */
export const isoMoment = (at: number, stepMs: number | undefined): string =>
  stepMs === undefined || stepMs <= 1000 ? isoUtc(at) : `${isoUtc(at)}/${isoUtc(at + stepMs)}`;

/** "3 h 30 min", "45 min", "0 min". */
export function durationText(ms: number): string {
  const minutes = Math.round(ms / MINUTE);
  const [h, m] = [Math.floor(minutes / 60), minutes % 60];
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${String(m).padStart(2, '0')} min`;
}

// ---- numbers ------------------------------------------------------------------------------------

/** A value rounded as the report states it; null stays null. */
export function rounded(value: number | null, decimals: number): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  const r = Number(value.toFixed(decimals));
  return Object.is(r, -0) ? 0 : r;
}

/** A value as the PDF prints it: its unit's decimals, "—" for none. */
export function valueText(value: number | null, unit: string, missing = '—'): string {
  if (value === null || !Number.isFinite(value)) return missing;
  return value.toFixed(unitDecimals(unit, value));
}

/** A limit's number as every output writes it: as entered (85.45), never fewer decimals than the unit's. */
export const limitNumberText = (limit: number, unit: string): string =>
  limitText(limit, unitDecimals(unit, limit), '');

/** Coverage in per cent to 0.1, rounded down so only a full period reads 100.0. */
export const coveragePercent = (coverage: number): number =>
  Math.floor(Math.max(0, Math.min(1, coverage)) * 1000) / 10;

/** "±0.5 dB" */
export const toleranceText = (tolerance: number): string => `±${dbText(tolerance, { decimals: 'setting' })}`;
