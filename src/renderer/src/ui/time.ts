/** How times read on screen. Times inside the app are epoch milliseconds. */
import { format } from 'date-fns';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "2 min ago", "3 hours ago", "5 days ago", "4 months ago". */
export function relativeTimeText(then: number, now: number): string {
  const elapsed = now - then;
  if (elapsed < 45_000) return 'just now';
  if (elapsed < HOUR) return `${Math.max(1, Math.round(elapsed / MINUTE))} min ago`;
  if (elapsed < DAY) return plural(Math.floor(elapsed / HOUR), 'hour');
  if (elapsed < 60 * DAY) return plural(Math.floor(elapsed / DAY), 'day');
  return plural(Math.floor(elapsed / (30 * DAY)), 'month');
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
