/**
 * The standard periods of an assessment in the site's own time: the day (07–23), evening (19–23)
 * and night (23–07) that noise conditions and Lden are written for, each local hour, and each
 * calendar day (for 24-h particulate means). They follow the wall clock, so the periods of the
 * days the clocks change are shorter or longer: in Europe/London the night into Sun 29 Mar 2026
 * lasts 7 h and that day 23 h; 25 Oct 2026 has 25 hours, its 01:00 twice. Labels name that
 * repeated hour with its UTC offset so the two rows of an hourly table can be told apart.
 */
import { TZDate, tzOffset } from '@date-fns/tz';
import { format } from 'date-fns';
import type { TimeInterval } from '../../../../shared/data';

export type StandardPeriod = 'day' | 'evening' | 'night' | 'denDay' | 'hour' | 'calendarDay';

export interface SitePeriod {
  kind: StandardPeriod;
  /** The part of the period inside the range asked for. */
  start: number;
  end: number;
  /** Site-local date (YYYY-MM-DD) the period starts on (a night: the evening it starts). */
  date: string;
  /** E.g. "Tue 24 Nov 2026, night 23:00–07:00", "24 Nov 13:00"; " (part)" when clipped to the range. */
  label: string;
  /** True when clipped by the range. */
  partial: boolean;
  /** The whole period, before clipping (what coverage is a fraction of). */
  whole: TimeInterval;
}

/** A period of each local date, in hours from the date's midnight (past 24: the next day). */
const DAILY_SPANS: Record<
  Exclude<StandardPeriod, 'hour'>,
  { from: number; to: number; name: string | null }
> = {
  day: { from: 7, to: 23, name: 'day 07:00–23:00' },
  evening: { from: 19, to: 23, name: 'evening 19:00–23:00' },
  night: { from: 23, to: 31, name: 'night 23:00–07:00' },
  denDay: { from: 7, to: 19, name: 'day 07:00–19:00' },
  calendarDay: { from: 0, to: 24, name: null },
};

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** A date of the calendar, without a time or a zone (month 0–11, as Date counts them). */
interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** `days` later on the calendar (calendar arithmetic in UTC, where every day has 24 h). */
function addCalendarDays(date: CalendarDate, days: number): CalendarDate {
  const moved = new Date(Date.UTC(date.year, date.month, date.day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth(), day: moved.getUTCDate() };
}

/** The site-local calendar date at `time`. */
function localDateAt(time: number, timeZone: string): CalendarDate {
  const local = new TZDate(time, timeZone);
  return { year: local.getFullYear(), month: local.getMonth(), day: local.getDate() };
}

/** Formats a calendar date (as a date of UTC, so no zone can move it). */
const formatDate = (date: CalendarDate, pattern: string) =>
  format(new TZDate(Date.UTC(date.year, date.month, date.day), 'UTC'), pattern);

/**
 * The instant the site's clocks show `hour`:00 on `date` (hour past 24: on a later date). A time
 * the clocks skip gives the instant they skip to.
 */
function wallClock(date: CalendarDate, hour: number, timeZone: string): number {
  const on = addCalendarDays(date, Math.floor(hour / 24));
  return new TZDate(on.year, on.month, on.day, hour % 24, 0, 0, timeZone).getTime();
}

/** The site-local date (YYYY-MM-DD) at `time`. */
export function siteDate(time: number, timeZone: string): string {
  return formatDate(localDateAt(time, timeZone), 'yyyy-MM-dd');
}

/** The site-local date at `time` as a report writes it: "Tue 24 Nov 2026". */
export function siteDateLabel(time: number, timeZone: string): string {
  return formatDate(localDateAt(time, timeZone), 'EEE d MMM yyyy');
}

/** The site-local time at `time` with its UTC offset: "Sun 25 Oct 2026 01:30 +01:00". */
export function siteTimeLabel(time: number, timeZone: string): string {
  return format(new TZDate(time, timeZone), 'EEE d MMM yyyy HH:mm xxx');
}

/**
 * When a highest value was reached, to the resolution of its data: the second where readings are
 * a second or shorter ("at Tue 24 Nov 2026 02:13:47 +00:00"), else the interval it lies in ("in
 * the 15-min interval from Tue 24 Nov 2026 02:00 +00:00"), never an interval's start passed off as
 * the moment.
 */
export function momentLabel(time: number, stepMs: number, timeZone: string): string {
  const zoned = new TZDate(time, timeZone);
  if (stepMs <= 1000) return `at ${format(zoned, 'EEE d MMM yyyy HH:mm:ss xxx')}`;
  const length =
    stepMs % 3_600_000 === 0
      ? `${stepMs / 3_600_000}-h`
      : stepMs % 60_000 === 0
        ? `${stepMs / 60_000}-min`
        : `${stepMs / 1000}-s`;
  return `in the ${length} interval from ${siteTimeLabel(time, timeZone)}`;
}

/** The site's UTC offset at `time` in minutes (east positive), from the zone database. */
const offsetAt = (timeZone: string, time: number) => tzOffset(timeZone, new Date(time));

/** The first instant in (after, until] whose offset differs from the offset at `after` (one must). */
function offsetChangeIn(timeZone: string, after: number, until: number): number {
  const before = offsetAt(timeZone, after);
  let lo = after;
  let hi = until;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(timeZone, mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Milliseconds past the last full hour of the wall clock at `time`, with the offset `offset`. */
const pastTheHour = (time: number, offset: number) => (((time + offset * MINUTE) % HOUR) + HOUR) % HOUR;

/**
 * Where the local hour holding `time` began. Not date-fns' startOfHour: in the hour the clocks
 * repeat, that gives the second 01:00 for a time in the first.
 */
function localHourStart(time: number, timeZone: string): number {
  const offset = offsetAt(timeZone, time);
  const candidate = time - pastTheHour(time, offset);
  // The clocks changed within the hour (by less than an hour): it began with the change.
  return offsetAt(timeZone, candidate) === offset ? candidate : offsetChangeIn(timeZone, candidate, time);
}

/** Where the local hour starting at `start` ends: the next full hour, or a change of the clocks before it. */
function localHourEnd(start: number, timeZone: string): number {
  const offset = offsetAt(timeZone, start);
  const next = start + HOUR - pastTheHour(start, offset);
  return offsetAt(timeZone, next - 1) === offset ? next : offsetChangeIn(timeZone, start, next - 1);
}

/** Whether the clocks show the time of `time` twice that night (the hour they go back over). */
export function isRepeatedWallTime(time: number, timeZone: string): boolean {
  const offset = offsetAt(timeZone, time);
  for (const other of [offsetAt(timeZone, time - 3 * HOUR), offsetAt(timeZone, time + 3 * HOUR)]) {
    if (other === offset) continue;
    const twin = time + (offset - other) * MINUTE; // the same wall time under the other offset
    if (offsetAt(timeZone, twin) === other) return true;
  }
  return false;
}

function clipped(
  kind: StandardPeriod,
  whole: TimeInterval,
  range: TimeInterval,
  date: string,
  label: string,
): SitePeriod {
  const start = Math.max(whole.start, range.start);
  const end = Math.min(whole.end, range.end);
  const partial = start !== whole.start || end !== whole.end;
  return { kind, start, end, date, label: partial ? `${label} (part)` : label, partial, whole: { ...whole } };
}

function hourPeriods(range: TimeInterval, timeZone: string): SitePeriod[] {
  const periods: SitePeriod[] = [];
  for (let start = localHourStart(range.start, timeZone); start < range.end;) {
    const end = localHourEnd(start, timeZone);
    const local = new TZDate(start, timeZone);
    const label = format(local, isRepeatedWallTime(start, timeZone) ? 'd MMM HH:mm xxx' : 'd MMM HH:mm');
    periods.push(clipped('hour', { start, end }, range, format(local, 'yyyy-MM-dd'), label));
    start = end;
  }
  return periods;
}

function dailyPeriods(
  range: TimeInterval,
  timeZone: string,
  kind: Exclude<StandardPeriod, 'hour'>,
): SitePeriod[] {
  const span = DAILY_SPANS[kind];
  const periods: SitePeriod[] = [];
  // From the day before: its night reaches into the range's first date.
  const first = addCalendarDays(localDateAt(range.start, timeZone), -1);
  for (let k = 0; ; k++) {
    const date = addCalendarDays(first, k);
    const start = wallClock(date, span.from, timeZone);
    if (start >= range.end) break;
    const end = wallClock(date, span.to, timeZone);
    if (end <= range.start) continue;
    const day = formatDate(date, 'EEE d MMM yyyy');
    const label = span.name === null ? day : `${day}, ${span.name}`;
    periods.push(clipped(kind, { start, end }, range, formatDate(date, 'yyyy-MM-dd'), label));
  }
  return periods;
}

/**
 * The periods of `kind` in the site's time zone that intersect the range, in time order, clipped
 * to it: day 07:00–23:00, evening 19:00–23:00, night 23:00–07:00 (dated by the evening it
 * starts), denDay 07:00–19:00 (Lden's day), each local hour, calendarDay 00:00–24:00.
 */
export function sitePeriods(range: TimeInterval, timeZone: string, kind: StandardPeriod): SitePeriod[] {
  if (!(Number.isFinite(range.start) && Number.isFinite(range.end)))
    throw new RangeError('A range of finite times is needed.');
  if (Number.isNaN(offsetAt(timeZone, range.start))) throw new RangeError(`Unknown time zone "${timeZone}".`);
  if (range.end <= range.start) return [];
  return kind === 'hour' ? hourPeriods(range, timeZone) : dailyPeriods(range, timeZone, kind);
}
