import { describe, expect, it } from 'vitest';
import { markNear, eventMarkText, marksIn } from '../../../src/renderer/src/features/data/event-marks';

const T0 = Date.UTC(2026, 10, 20, 9, 0);
const marks = [
  { start: T0 + 60_000, end: T0 + 90_000, trigger: 'Level over threshold', level: 78.44 },
  { start: T0 - 120_000, end: T0 - 60_000, trigger: 'Before the range', level: 70 },
  { start: T0 - 10_000, end: T0 + 5_000, trigger: 'Across the start', level: null },
  { start: T0 + 3_600_000, end: null, trigger: 'Manual trigger', level: 65 },
];
const range = { start: T0, end: T0 + 3_600_000 };

describe('event marks', () => {
  it('keeps the events that touch the range, oldest first', () => {
    expect(marksIn(marks, range).map((m) => m.trigger)).toEqual(['Across the start', 'Level over threshold']);
  });

  it('says the trigger and the level to a tenth of a dB', () => {
    expect(eventMarkText(marks[0]!)).toBe('Level over threshold, 78.4 dB');
    expect(eventMarkText(marks[2]!)).toBe('Across the start');
  });

  it('points at the mark whose line is nearest the pointer, within a few pixels', () => {
    const xOf = (time: number) => (time - T0) / 1000; // a pixel a second
    const inRange = marksIn(marks, range);
    expect(markNear(inRange, xOf, 61)).toBe(marks[0]); // 1 px from the line at 60 s
    expect(markNear(inRange, xOf, -12)).toBe(marks[2]); // the line before the range starts
    expect(markNear(inRange, xOf, 30)).toBeNull(); // between lines: nothing
    expect(markNear(inRange, xOf, 75)).toBeNull(); // inside a span, far from its line
  });
});
