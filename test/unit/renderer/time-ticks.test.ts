import { describe, expect, it } from 'vitest';
import { tickStep, zoneTicks } from '../../../src/renderer/src/ui/time-ticks';
import { exactTimeText } from '../../../src/renderer/src/ui/time';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const clock = (ticks: { value: number }[], zone: 'utc' | 'Europe/London' | 'Asia/Kolkata') =>
  ticks.map((t) => exactTimeText(t.value, zone).slice(5, 16));

describe('time ticks', () => {
  it('chooses the smallest step a reader counts in that fits', () => {
    expect(tickStep(DAY, 12)).toBe(2 * HOUR);
    expect(tickStep(DAY, 30)).toBe(HOUR);
    expect(tickStep(7 * DAY, 10)).toBe(DAY);
    expect(tickStep(60_000, 10)).toBe(10_000);
  });

  it('puts a day of ticks on the even hours, evenly, midnight major', () => {
    const start = Date.UTC(2026, 10, 23, 10, 21);
    const ticks = zoneTicks(start, start + DAY, 'utc', 12);
    expect(clock(ticks, 'utc')).toEqual([
      '11-23 12:00',
      '11-23 14:00',
      '11-23 16:00',
      '11-23 18:00',
      '11-23 20:00',
      '11-23 22:00',
      '11-24 00:00',
      '11-24 02:00',
      '11-24 04:00',
      '11-24 06:00',
      '11-24 08:00',
      '11-24 10:00',
    ]);
    expect(ticks.filter((t) => t.major).map((t) => t.value)).toEqual([Date.UTC(2026, 10, 24)]);
  });

  it("counts from the site's midnight, in a zone half an hour off UTC too", () => {
    const start = Date.UTC(2026, 10, 23, 0, 0);
    const ticks = zoneTicks(start, start + 12 * HOUR, 'Asia/Kolkata', 6);
    expect(clock(ticks, 'Asia/Kolkata')).toEqual([
      '11-23 06:00',
      '11-23 08:00',
      '11-23 10:00',
      '11-23 12:00',
      '11-23 14:00',
      '11-23 16:00',
    ]);
  });

  it('keeps to the wall clock across a daylight-saving change', () => {
    // London leaves summer time at 01:00 UTC on 25 October 2026.
    const start = Date.UTC(2026, 9, 24, 23);
    const ticks = zoneTicks(start, start + 2 * DAY, 'Europe/London', 8);
    expect(clock(ticks, 'Europe/London')).toEqual([
      '10-25 00:00',
      '10-25 06:00',
      '10-25 12:00',
      '10-25 18:00',
      '10-26 00:00',
      '10-26 06:00',
      '10-26 12:00',
      '10-26 18:00',
    ]);
    // Whole days are midnights, 25 hours apart over the change.
    const days = zoneTicks(start, start + 10 * DAY, 'Europe/London', 10);
    expect(days[1]!.value - days[0]!.value).toBe(25 * HOUR);
    expect(clock(days, 'Europe/London').every((t) => t.endsWith('00:00'))).toBe(true);
  });
  it("steps a year in whole weeks of midnights on the site's clock, across both clock changes", () => {
    // 29 Nov 2025 to 29 Nov 2026 in London: 13 ticks fit, so every 28 days from the first midnight.
    const start = Date.UTC(2025, 10, 29);
    const ticks = zoneTicks(start, start + 365 * DAY, 'Europe/London', 13);
    expect(ticks.length).toBeGreaterThanOrEqual(13);
    expect(ticks.every((t) => exactTimeText(t.value, 'Europe/London').endsWith('00:00:00'))).toBe(true);
    const gaps = ticks.slice(1).map((t, i) => Math.round((t.value - ticks[i]!.value) / DAY));
    expect(new Set(gaps)).toEqual(new Set([28]));
    // The first after the spring change is still at midnight in summer time (23:00 UTC).
    expect(clock(ticks, 'Europe/London')).toContain('04-18 00:00');
  });
});
