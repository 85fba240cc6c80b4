/**
 * A stretch drawn across an assessment chart, snapped to the readings of the series drawn, and the
 * times the form shows it at; against boundaries worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import {
  chartStepOf,
  parseSiteTime,
  siteTimeText,
  snapToReadings,
} from '../../../src/renderer/src/features/assessment/logic';

const MIN = 60_000;
const QUARTER = 15 * MIN;
/** Thu 19 Nov 2026 09:00 UTC (also 09:00 in London in winter). */
const T0 = Date.UTC(2026, 10, 19, 9);
/** 15-min readings from 09:00 to 11:45 (the last one ends at 12:00), none at 10:30 and 10:45. */
const TIMES = [0, 1, 2, 3, 4, 5, 8, 9, 10, 11].map((q) => T0 + q * QUARTER);
const at = (hours: number, minutes: number, seconds = 0) => Date.UTC(2026, 10, 19, hours, minutes, seconds);
const snapped = (start: number, end: number) => snapToReadings({ start, end }, TIMES, QUARTER);

describe('snapToReadings', () => {
  it('moves each end to the nearest boundary of the 15-min readings', () => {
    // 09:20 is 5 min past 09:15 and 10 before 09:30: 09:15. 10:08 is 7 min before 10:15: 10:15.
    expect(snapped(at(9, 20), at(10, 8))).toEqual({ start: at(9, 15), end: at(10, 15) });
    // Exactly halfway (09:37:30) goes down; a minute past (09:38:30) goes up.
    expect(snapped(at(9, 37, 30), at(9, 52, 30))).toEqual({ start: at(9, 30), end: at(9, 45) });
    expect(snapped(at(9, 38, 30), at(10, 1))).toEqual({ start: at(9, 45), end: at(10, 0) });
    // Drawn right to left: the same stretch.
    expect(snapped(at(10, 8), at(9, 20))).toEqual({ start: at(9, 15), end: at(10, 15) });
  });

  it('keeps within the readings: before the first is its start, after the last is its end', () => {
    expect(snapped(at(8, 0), at(9, 40))).toEqual({ start: at(9, 0), end: at(9, 45) });
    expect(snapped(at(11, 20), at(14, 0))).toEqual({ start: at(11, 15), end: at(12, 0) });
  });

  it('snaps in a gap to the readings either side of it, stepping on from the last one', () => {
    // No readings 10:30–11:00; 10:40 is nearer 10:45 (a step on from 10:15's reading) than 10:30.
    expect(snapped(at(10, 40), at(11, 5))).toEqual({ start: at(10, 45), end: at(11, 0) });
  });

  it('makes a stretch narrower than a reading the reading under its middle', () => {
    // 09:31–09:36 rounds to 09:30 at both ends: the reading 09:30–09:45 it lies in.
    expect(snapped(at(9, 31), at(9, 36))).toEqual({ start: at(9, 30), end: at(9, 45) });
    // A click after the last reading: that last reading.
    expect(snapped(at(13, 0), at(13, 0))).toEqual({ start: at(11, 45), end: at(12, 0) });
  });

  it('snaps to seconds on 1-s readings, and gives nothing without readings', () => {
    const seconds = Array.from({ length: 600 }, (_, i) => T0 + i * 1000);
    expect(snapToReadings({ start: T0 + 12_400, end: T0 + 30_600 }, seconds, 1000)).toEqual({
      start: T0 + 12_000,
      end: T0 + 31_000,
    });
    expect(snapToReadings({ start: T0, end: T0 + MIN }, [], QUARTER)).toBeNull();
    expect(snapToReadings({ start: T0, end: T0 + MIN }, TIMES, 0)).toBeNull();
  });
});

describe('the length of a chart reading', () => {
  it("is the chart's step, or else the smallest spacing of its readings", () => {
    expect(chartStepOf({ times: TIMES, step: QUARTER })).toBe(QUARTER);
    // A reduced chart keeps readings' own starts: 30 min and 15 min apart, so 15 min.
    expect(chartStepOf({ times: [T0, T0 + 2 * QUARTER, T0 + 3 * QUARTER] })).toBe(QUARTER);
    expect(chartStepOf({ times: [T0] })).toBeNull();
  });
});

describe('times in the form', () => {
  it('are on the site clock, to the minute, or to the second when they have them', () => {
    // 19 Jul 2026 08:15 UTC is 09:15 in London (summer time).
    expect(siteTimeText(Date.UTC(2026, 6, 19, 8, 15), 'Europe/London')).toBe('2026-07-19 09:15');
    expect(siteTimeText(Date.UTC(2026, 6, 19, 8, 15, 31), 'Europe/London')).toBe('2026-07-19 09:15:31');
    expect(parseSiteTime('2026-07-19 09:15:31', 'Europe/London')).toBe(Date.UTC(2026, 6, 19, 8, 15, 31));
    expect(parseSiteTime('2026-07-19 09:15:3', 'Europe/London')).toBeNull();
  });
});
