/**
 * Evenly spaced time ticks on a zone's clock: every 2 h on the even hours, every 15 min on the
 * quarter hours, each day at midnight; midnight ticks are major (they carry the date). Chart.js
 * spaces its own ticks evenly but then skips some to fit, keeping the major ones, which leaves
 * uneven gaps (11:00, 13:00, 15:00, 18:00); these are chosen to fit in the first place.
 */
import type { Scale } from 'chart.js';
import { setHours, startOfDay } from 'date-fns';
import { zoneOptions, type DisplayZone } from './time';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Steps a reader counts in, smallest first. */
const STEPS = [
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
  28 * DAY,
] as const;

export interface TimeTick {
  value: number;
  major: boolean;
}

/** The smallest step giving at most `maxTicks` ticks over `spanMs`. */
export function tickStep(spanMs: number, maxTicks: number): number {
  const wanted = spanMs / Math.max(1, maxTicks);
  return STEPS.find((step) => step >= wanted) ?? STEPS[STEPS.length - 1]!;
}

/**
 * Ticks from `min` to `max` every `tickStep` on `zone`'s clock, counted from each day's midnight in
 * that zone (so 2-hourly ticks fall on even hours, across a daylight-saving change too).
 */
export function zoneTicks(min: number, max: number, zone: DisplayZone, maxTicks: number): TimeTick[] {
  if (!(max > min)) return [];
  const step = tickStep(max - min, maxTicks);
  const options = zoneOptions(zone);
  const midnight = (time: number) => startOfDay(time, options).getTime();
  const ticks: TimeTick[] = [];
  if (step >= DAY) {
    // Whole days: midnights, every n-th counted from the first midnight at or after `min`. The
    // n-th midnight on is n days and an hour on, snapped back to its midnight: 23 or 25 hours a
    // day when the clocks change, and a year's axis is a dozen steps, not 365.
    const days = Math.round(step / DAY);
    let day = midnight(min) < min ? midnight(min + DAY + HOUR) : midnight(min);
    for (let i = 0; day <= max && i < 10_000; i++) {
      ticks.push({ value: day, major: true });
      day = midnight(day + days * DAY + HOUR);
    }
    return ticks;
  }
  // Within a day: each day's midnight plus whole steps, so the counting starts again every midnight.
  // Steps of hours are wall-clock hours (06:00, 12:00 on a 25-hour day as on any other).
  const seen = new Set<number>();
  for (let day = midnight(min); day <= max; day = midnight(day + DAY + HOUR)) {
    const next = midnight(day + DAY + HOUR);
    for (let k = 0; ; k++) {
      const t = step >= HOUR ? setHours(day, (k * step) / HOUR, options).getTime() : day + k * step;
      if (t >= next || t > max || (step >= HOUR && k * step >= DAY)) break;
      if (t >= min && !seen.has(t)) {
        seen.add(t);
        ticks.push({ value: t, major: t === day });
      }
    }
  }
  return ticks;
}

/** Pixels a time label needs with room around it ("24 Nov" in bold, "10:00:05"). */
const TICK_SPACING_PX = 96;

/**
 * Chart.js x-axis options that replace the time scale's ticks with `zoneTicks` (no skipping
 * afterwards, so the spacing stays even).
 */
export function evenTimeTicks(zone: DisplayZone) {
  return {
    afterBuildTicks: (scale: Scale) => {
      const fit = Math.max(2, Math.floor(scale.width / TICK_SPACING_PX));
      scale.ticks = zoneTicks(scale.min, scale.max, zone, fit);
    },
  };
}
