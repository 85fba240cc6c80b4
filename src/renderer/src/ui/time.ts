/**
 * How times read on screen, in local time or in the zone the user chose for data. Times inside
 * the app are epoch milliseconds.
 */
import { format } from 'date-fns';
import type { TimeInterval } from '../../../shared/data';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** "just now", "2 min ago", "3 hours ago", "5 days ago", "4 months ago". */
export function relativeTimeText(then: number, now: number): string {
  const elapsed = now - then;
  if (elapsed < 45_000) return 'just now';
  if (elapsed < HOUR_MS) return `${Math.max(1, Math.round(elapsed / MINUTE_MS))} min ago`;
  if (elapsed < DAY_MS) return plural(Math.floor(elapsed / HOUR_MS), 'hour');
  if (elapsed < 60 * DAY_MS) return plural(Math.floor(elapsed / DAY_MS), 'day');
  return plural(Math.floor(elapsed / (30 * DAY_MS)), 'month');
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}

/** "Last refreshed 2 min ago" / "Not refreshed yet". */
export function lastRefreshedText(fetchedAt: number | null, now: number): string {
  return fetchedAt === null ? 'Not refreshed yet' : `Last refreshed ${relativeTimeText(fetchedAt, now)}`;
}

/** "10:42", for "Showing what was loaded at 10:42". */
export function clockText(epochMs: number): string {
  return format(new Date(epochMs), 'HH:mm');
}

/** Local date and time to the minute, for detail fields: "2026-03-04 10:42". */
export function minuteTimeText(epochMs: number): string {
  return format(new Date(epochMs), 'yyyy-MM-dd HH:mm');
}

/** Full local date and time for hover titles: "2026-03-04 10:42:07". */
export function exactTimeText(epochMs: number): string {
  return format(new Date(epochMs), 'yyyy-MM-dd HH:mm:ss');
}

// ---- in a chosen zone -----------------------------------------------------------------------

/** Times on screen are the user's choice; site time comes later. */
export type DisplayZone = 'local' | 'utc';

export const ZONE_LABELS: Readonly<Record<DisplayZone, string>> = { local: 'Local', utc: 'UTC' };

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

interface WallClock {
  year: number;
  /** 0–11 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(epochMs: number, zone: DisplayZone): WallClock {
  const d = new Date(epochMs);
  return zone === 'utc'
    ? {
        year: d.getUTCFullYear(),
        month: d.getUTCMonth(),
        day: d.getUTCDate(),
        hour: d.getUTCHours(),
        minute: d.getUTCMinutes(),
        second: d.getUTCSeconds(),
      }
    : {
        year: d.getFullYear(),
        month: d.getMonth(),
        day: d.getDate(),
        hour: d.getHours(),
        minute: d.getMinutes(),
        second: d.getSeconds(),
      };
}

const two = (n: number): string => String(n).padStart(2, '0');
export const zoneSuffix = (zone: DisplayZone): string => (zone === 'utc' ? ' UTC' : '');

/** "14:05" */
export function clockIn(epochMs: number, zone: DisplayZone): string {
  const w = wallClock(epochMs, zone);
  return `${two(w.hour)}:${two(w.minute)}`;
}

/** "12 Nov" */
export function dayIn(epochMs: number, zone: DisplayZone): string {
  const w = wallClock(epochMs, zone);
  return `${w.day} ${MONTHS[w.month]}`;
}

/** "12 Nov 14:05" */
export function dayMinuteIn(epochMs: number, zone: DisplayZone): string {
  return `${dayIn(epochMs, zone)} ${clockIn(epochMs, zone)}`;
}

/** "2026-11-12 14:05:09", for table cells and tooltips. */
export function fullTimeIn(epochMs: number, zone: DisplayZone): string {
  const w = wallClock(epochMs, zone);
  return `${w.year}-${two(w.month + 1)}-${two(w.day)} ${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
}

const sameDay = (a: WallClock, b: WallClock): boolean =>
  a.year === b.year && a.month === b.month && a.day === b.day;

/** "14:05:09" */
function clockSecondsIn(epochMs: number, zone: DisplayZone): string {
  const w = wallClock(epochMs, zone);
  return `${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
}

/**
 * "12 Nov 14:00 – 18:00", or "12 Nov 22:00 – 13 Nov 02:00" across midnight; with seconds when
 * both ends fall in the same minute ("12 Nov 14:00:05 – 14:00:40").
 */
export function intervalText(interval: TimeInterval, zone: DisplayZone): string {
  const from = wallClock(interval.start, zone);
  const to = wallClock(interval.end, zone);
  if (sameDay(from, to) && clockIn(interval.start, zone) === clockIn(interval.end, zone)) {
    const start = `${dayIn(interval.start, zone)} ${clockSecondsIn(interval.start, zone)}`;
    return `${start} – ${clockSecondsIn(interval.end, zone)}${zoneSuffix(zone)}`;
  }
  const end = sameDay(from, to) ? clockIn(interval.end, zone) : dayMinuteIn(interval.end, zone);
  return `${dayMinuteIn(interval.start, zone)} – ${end}${zoneSuffix(zone)}`;
}

/**
 * A covered range, short: "12–19 Nov", "28 Oct – 3 Nov", "28 Dec 2025 – 3 Jan 2026"; under two
 * days it keeps the times ("21 Nov 14:00 – 22 Nov 14:00"). The end is exclusive, so a range
 * ending at midnight ends on the day before. The year shows when it is not `now`'s year.
 */
export function coveredText(interval: TimeInterval, zone: DisplayZone, now: number): string {
  if (interval.end - interval.start < 2 * DAY_MS) return intervalText(interval, zone);
  const from = wallClock(interval.start, zone);
  const to = wallClock(Math.max(interval.start, interval.end - 1), zone);
  const thisYear = wallClock(now, zone).year;
  const year = (w: WallClock): string => (w.year === thisYear ? '' : ` ${w.year}`);
  if (from.year !== to.year) {
    return `${from.day} ${MONTHS[from.month]} ${from.year} – ${to.day} ${MONTHS[to.month]} ${to.year}`;
  }
  if (from.month === to.month) {
    const days = from.day === to.day ? `${from.day}` : `${from.day}–${to.day}`;
    return `${days} ${MONTHS[from.month]}${year(to)}`;
  }
  return `${from.day} ${MONTHS[from.month]} – ${to.day} ${MONTHS[to.month]}${year(to)}`;
}

/** The value of an `<input type="datetime-local">` showing `epochMs` in `zone`. */
export function toInputValue(epochMs: number, zone: DisplayZone): string {
  const w = wallClock(epochMs, zone);
  return `${w.year}-${two(w.month + 1)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}`;
}

/** Reads an `<input type="datetime-local">` value as a time in `zone`; null when incomplete. */
export function fromInputValue(value: string, zone: DisplayZone): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms =
    zone === 'utc'
      ? Date.UTC(year, month - 1, day, hour, minute, second)
      : new Date(year, month - 1, day, hour, minute, second).getTime();
  return Number.isFinite(ms) ? ms : null;
}
