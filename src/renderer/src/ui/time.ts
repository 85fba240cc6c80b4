/**
 * ui — what every feature shows the same way: states, banners, pills, icons, dialogs, progress,
 * tables and charts' base, and how times, durations, counts and tones read (this file, words.ts, tone.ts).
 */
// How times and durations read on screen: date-fns patterns on a 24-hour clock, in local time or
// in the zone the user chose for data. Times inside the app are epoch milliseconds.
import { format, formatDuration, intervalToDuration, startOfDay } from 'date-fns';
import { DURATION_LOCALE } from '../../../shared/format';
import { tz } from '@date-fns/tz';
import type { TimeInterval } from '../../../shared/data';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** An IANA time-zone name, as every site zone is ("Europe/London", "Etc/GMT-3"). */
export type SiteZone = `${string}/${string}`;

/**
 * The zone times are shown in: the laptop's own (`local`), `utc`, or a site's IANA zone. The
 * user's choice between site, UTC and laptop time resolves to one of these (see `resolveZone`).
 */
export type DisplayZone = 'local' | 'utc' | SiteZone;

/** What the user picks times to be shown in. */
export type ZoneChoice = 'site' | 'utc' | 'local';

export const ZONE_CHOICE_LABELS: Readonly<Record<ZoneChoice, string>> = {
  site: 'Site',
  utc: 'UTC',
  local: 'Laptop',
};

/** The zone a choice shows times in; site time without a known site zone falls back to UTC. */
export function resolveZone(choice: ZoneChoice, site: SiteZone | null): DisplayZone {
  if (choice === 'site') return site ?? 'utc';
  return choice;
}

export const isSiteZone = (zone: string): zone is SiteZone => /^[A-Za-z_+-]+\/[A-Za-z0-9_+/-]+$/.test(zone);

/** Whether `zone` is a zone this browser can show times in (a saved choice may be from another version). */
export function isUsableZone(zone: unknown): zone is SiteZone {
  if (typeof zone !== 'string' || !isSiteZone(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const UTC = tz('UTC');
const zoneContexts = new Map<SiteZone, ReturnType<typeof tz>>();

/** date-fns options that read a time in `zone` (none for the laptop's own zone). */
export function zoneOptions(zone: DisplayZone): { in?: ReturnType<typeof tz> } {
  if (zone === 'local') return {};
  if (zone === 'utc') return { in: UTC };
  let context = zoneContexts.get(zone);
  if (!context) {
    context = tz(zone);
    zoneContexts.set(zone, context);
  }
  return { in: context };
}

/** `epochMs` in a date-fns pattern, read in `zone`. */
export function formatIn(epochMs: number, pattern: string, zone: DisplayZone = 'local'): string {
  return format(epochMs, pattern, zoneOptions(zone));
}

/** The first millisecond of the day `epochMs` falls on, in `zone`. */
export function startOfDayIn(epochMs: number, zone: DisplayZone): number {
  return startOfDay(epochMs, zoneOptions(zone)).getTime();
}

/** "UTC+01:00", "UTC-05:00", "UTC+00:00": the offset of `zone` at `epochMs`, as engineers write it. */
export function utcOffsetText(epochMs: number, zone: DisplayZone): string {
  if (zone === 'utc') return 'UTC';
  return `UTC${formatIn(epochMs, 'xxx', zone)}`;
}

/**
 * After a time: " UTC" in UTC, " UTC+01:00" in a site's zone (the offset at that time, so a range
 * across a daylight-saving change says which side it is on); laptop times go without.
 */
export function zoneSuffix(zone: DisplayZone, epochMs: number = Date.now()): string {
  if (zone === 'local') return '';
  return ` ${utcOffsetText(epochMs, zone)}`;
}

/** How a zone is named in titles: "UTC", "Europe/London (UTC+00:00)", "laptop time". */
export function zoneName(zone: DisplayZone, epochMs: number = Date.now()): string {
  if (zone === 'utc') return 'UTC';
  if (zone === 'local') return `laptop time, ${utcOffsetText(epochMs, 'local')}`;
  return `${zone.replace(/_/g, ' ')}, ${utcOffsetText(epochMs, zone)}`;
}

/** "10:42", for "Showing what was loaded at 10:42" and "fetched 14:42 UTC". */
export const clockText = (epochMs: number, zone: DisplayZone = 'local'): string =>
  formatIn(epochMs, 'HH:mm', zone);

/** Date and time to the minute, for detail fields: "2026-03-04 10:42". */
export const minuteTimeText = (epochMs: number): string => formatIn(epochMs, 'yyyy-MM-dd HH:mm');

/** Date and time to the second, for table cells and hover titles: "2026-03-04 10:42:07". */
export const exactTimeText = (epochMs: number, zone: DisplayZone = 'local'): string =>
  formatIn(epochMs, 'yyyy-MM-dd HH:mm:ss', zone);

// ---- durations --------------------------------------------------------------------------------

const DURATION_UNITS = ['years', 'months', 'days', 'hours', 'minutes'] as const;

/**
 * The time from `start` to `end` in words, in its largest whole unit, to the nearest minute and
 * at least one: "1 min", "3 hours", "5 days", "4 months". The renderer's one duration in words,
 * for "… ago" and "about … left"; calendar-aware, so months are months.
 */
export function durationText(start: number, end: number): string {
  const minutes = Math.max(1, Math.round((end - start) / MINUTE_MS));
  const duration = intervalToDuration({ start, end: start + minutes * MINUTE_MS });
  const unit = DURATION_UNITS.find((u) => (duration[u] ?? 0) > 0) ?? 'minutes';
  return formatDuration({ [unit]: duration[unit] ?? 0 }, { format: [unit], locale: DURATION_LOCALE });
}

/** "just now", "2 min ago", "3 hours ago", "5 days ago", "4 months ago". */
export function relativeTimeText(then: number, now: number): string {
  return now - then < 45_000 ? 'just now' : `${durationText(then, now)} ago`;
}

/**
 * "Last refreshed 2 min ago" / "Not refreshed yet"; after a refresh that failed (`failedAt`, later
 * than the last success), that it failed and when the last successful one was: "Refresh failed just
 * now; last refreshed 2 min ago" — never "Last refreshed just now" for a refresh that did not happen.
 */
export function lastRefreshedText(
  fetchedAt: number | null,
  now: number,
  failedAt: number | null = null,
): string {
  const last = fetchedAt === null ? null : relativeTimeText(fetchedAt, now);
  if (failedAt !== null && (fetchedAt === null || failedAt >= fetchedAt)) {
    return `Refresh failed ${relativeTimeText(failedAt, now)}; ${last === null ? 'not refreshed yet' : `last refreshed ${last}`}`;
  }
  return last === null ? 'Not refreshed yet' : `Last refreshed ${last}`;
}

/** "0:18", "1:05", "1:02:03": elapsed time in whole seconds, as a stopwatch shows it. */
export function stopwatchText(ms: number): string {
  const whole = Math.max(0, Math.floor(ms / 1000) * 1000);
  return formatIn(whole, whole >= HOUR_MS ? 'H:mm:ss' : 'm:ss', 'utc');
}

// ---- intervals in a chosen zone ---------------------------------------------------------------

const sameIn = (a: number, b: number, pattern: string, zone: DisplayZone): boolean =>
  formatIn(a, pattern, zone) === formatIn(b, pattern, zone);

/** Whether `epochMs` falls on `now`'s day in `zone`. */
export const isSameDay = (epochMs: number, now: number, zone: DisplayZone): boolean =>
  sameIn(epochMs, now, 'yyyy-MM-dd', zone);

/**
 * A time as a clock shows it when it is today in `zone` ("14:03"), else with its full date
 * ("22 Nov 2026 14:03"), so a time of another day, or year, never reads as today's.
 */
export function dayTimeText(epochMs: number, zone: DisplayZone, now: number): string {
  return formatIn(epochMs, isSameDay(epochMs, now, zone) ? 'HH:mm' : 'd MMM yyyy HH:mm', zone);
}

/**
 * A range read in `zone`. Entirely within `now`'s day it says only the times ("14:00 – 18:00");
 * otherwise every date it says is full, year included, so a range of another day or year never
 * reads as today's or this year's: "12 Nov 2026 14:00 – 18:00", "12 Nov 2026 22:00 – 13 Nov 2026
 * 02:00". With seconds when both ends fall in the same minute ("12 Nov 2026 14:00:05 – 14:00:40").
 */
export function intervalText({ start, end }: TimeInterval, zone: DisplayZone, now: number): string {
  const sameDay = sameIn(start, end, 'yyyy-MM-dd', zone);
  const date = sameDay && isSameDay(start, now, zone) ? '' : 'd MMM yyyy ';
  // Across a daylight-saving change each end says its own offset.
  const startSuffix = zoneSuffix(zone, start) === zoneSuffix(zone, end) ? '' : zoneSuffix(zone, start);
  const clock = sameDay && sameIn(start, end, 'HH:mm', zone) ? 'HH:mm:ss' : 'HH:mm';
  const endText = formatIn(end, sameDay ? clock : `${date}${clock}`, zone);
  return `${formatIn(start, `${date}${clock}`, zone)}${startSuffix} – ${endText}${zoneSuffix(zone, end)}`;
}

/**
 * A covered range, short, with its year: "12–19 Nov 2026", "28 Oct – 3 Nov 2026", "28 Dec 2025 –
 * 3 Jan 2026"; under two days it keeps the times, as `intervalText` says them ("21 Nov 2026 14:00 –
 * 22 Nov 2026 14:00"). The end is exclusive, so a range ending at midnight ends on the day before.
 */
export function coveredText(interval: TimeInterval, zone: DisplayZone, now: number): string {
  if (interval.end - interval.start < 2 * DAY_MS) return intervalText(interval, zone, now);
  const from = interval.start;
  const to = Math.max(interval.start, interval.end - 1);
  if (!sameIn(from, to, 'yyyy', zone)) {
    return `${formatIn(from, 'd MMM yyyy', zone)} – ${formatIn(to, 'd MMM yyyy', zone)}`;
  }
  const year = formatIn(to, 'yyyy', zone);
  if (sameIn(from, to, 'MM', zone)) {
    const days = sameIn(from, to, 'd', zone)
      ? formatIn(from, 'd', zone)
      : `${formatIn(from, 'd', zone)}–${formatIn(to, 'd', zone)}`;
    return `${days} ${formatIn(to, 'MMM', zone)} ${year}`;
  }
  return `${formatIn(from, 'd MMM', zone)} – ${formatIn(to, 'd MMM', zone)} ${year}`;
}
