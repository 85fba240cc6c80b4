import { describe, expect, it, vi } from 'vitest';
import {
  eventAnnotations,
  eventMarkText,
  marksIn,
} from '../../../src/renderer/src/features/data/event-marks';

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

  it('draws a start line for every event and a span where it has an end; a click opens that event', () => {
    const open = vi.fn();
    const annotations = eventAnnotations(marks, range, open);
    const lines = Object.values(annotations).filter((a) => a.type === 'line');
    const spans = Object.values(annotations).filter((a) => a.type === 'box');
    expect(lines.map((a) => (a as { value: number }).value)).toEqual([T0 - 10_000, T0 + 60_000]);
    expect(spans.map((a) => [(a as { xMin: number }).xMin, (a as { xMax: number }).xMax])).toEqual([
      [T0 - 10_000, T0 + 5_000],
      [T0 + 60_000, T0 + 90_000],
    ]);
    const click = lines[1]!.click as unknown as () => boolean;
    click();
    expect(open).toHaveBeenCalledWith(marks[0]);
  });
});
