import { describe, expect, it } from 'vitest';
import {
  eventMarkText,
  laneItemAt,
  laneItems,
  laneItemSpan,
  laneItemText,
  marksIn,
} from '../../../src/renderer/src/features/data/event-marks';
import { eventMarkOf } from '../../../src/shared/event-marks';

const T0 = Date.UTC(2026, 10, 20, 9, 0);
const mark = (start: number, end: number | null, trigger: string, overall: number[] = []) => ({
  start,
  end,
  trigger,
  level: 75,
  overall,
});
const marks = [
  mark(T0 + 60_000, T0 + 90_000, 'Level over threshold', [78.2, 87, 107.1]),
  mark(T0 - 120_000, T0 - 60_000, 'Before the range'),
  mark(T0 - 10_000, T0 + 5_000, 'Across the start'),
  mark(T0 + 3_600_000, null, 'Manual trigger'),
];
const range = { start: T0, end: T0 + 3_600_000 };
const plot = { left: 0, right: 3600 };
/** A pixel a second from the range's start. */
const xOf = (time: number) => (time - T0) / 1000;

describe('event marks in a lane', () => {
  it('keeps the events that touch the range, oldest first', () => {
    expect(marksIn(marks, range).map((m) => m.trigger)).toEqual(['Across the start', 'Level over threshold']);
  });

  it("reads an event record's overall list, gaps left out", () => {
    const read = eventMarkOf({
      startTime: T0,
      endTime: T0 + 5000,
      name: 'LAeq > 75 dB',
      level: 75,
      overall: '78.2, –, 107.1',
    });
    expect(read?.overall).toEqual([78.2, 107.1]);
    expect(eventMarkOf({ startTime: T0, name: 'x' })?.overall).toEqual([]);
  });

  it('says the trigger, the start to the second in the zone shown, the duration and the overall values, named as undocumented', () => {
    expect(eventMarkText(marks[0]!, 'utc')).toBe(
      'Level over threshold · started 2026-11-20 09:01:00 UTC, lasted 30 s · overall values (undocumented) 78.2 / 87.0 / 107.1',
    );
    // A site's zone says its offset at that moment.
    expect(eventMarkText(marks[0]!, 'Europe/Berlin')).toContain('started 2026-11-20 10:01:00 UTC+01:00');
    expect(eventMarkText(marks[2]!, 'utc')).toContain('no overall values reported');
  });

  it('gathers events that crowd at the zoom shown into one block with their count, and keeps apart those that do not', () => {
    const crowd = [
      mark(T0 + 100_000, T0 + 102_000, 'a'),
      mark(T0 + 104_000, T0 + 105_000, 'b'),
      mark(T0 + 108_000, T0 + 109_000, 'c'),
      mark(T0 + 500_000, T0 + 560_000, 'd'),
    ];
    const items = laneItems(crowd, xOf, plot);
    expect(items.map((item) => item.marks.map((m) => m.trigger))).toEqual([['a', 'b', 'c'], ['d']]);
    expect(items[1]).toMatchObject({ left: 500, right: 560 });
    // Zoomed in ten times, the same three stand apart.
    const zoomed = laneItems(crowd, (time) => ((time - T0) / 1000) * 10, { left: 0, right: 36_000 });
    expect(zoomed).toHaveLength(4);
    expect(laneItemText(items[0]!, 'utc')).toBe(
      '3 noise events, 2026-11-20 09:01:40 UTC – 2026-11-20 09:01:49 UTC · click to zoom in to them',
    );
    // A cluster's click zooms to its events with room either side.
    expect(laneItemSpan(items[0]!)).toEqual({ start: T0 + 40_000, end: T0 + 169_000 });
  });

  it('draws a short event wide enough to point at, and finds the block under the pointer', () => {
    const items = laneItems([mark(T0 + 1000, T0 + 1000, 'short')], xOf, plot);
    expect(items[0]!.right - items[0]!.left).toBeGreaterThanOrEqual(6);
    expect(laneItemAt(items, 3)).toBe(items[0]);
    expect(laneItemAt(items, 40)).toBeNull();
  });
});
