/** What the live view shows of a read: chart points, the current level, and how far behind it is. */
import { describe, expect, it } from 'vitest';
import type { LiveLevels } from '../../../src/shared/live';
import {
  agoText,
  behindText,
  currentReading,
  levelDigits,
  liveChartPoints,
} from '../../../src/renderer/src/features/live/logic';

const T = Date.UTC(2026, 10, 27, 9, 0, 0);

/** Readings every second from `fromMs`, and the NaN marker where they stop (as the backend sends). */
function levels(fromMs: number, values: number[]): LiveLevels {
  const times = Float64Array.from({ length: values.length + 1 }, (_, i) => fromMs + i * 1000);
  return {
    serial: 'QT1',
    times,
    values: Float32Array.from([...values, Number.NaN]),
    sampleMs: 1000,
    fetchedAt: fromMs + values.length * 1000 + 400,
    notes: [],
  };
}

describe('the live view', () => {
  it('charts the last two minutes only', () => {
    const read = levels(
      T - 150_000,
      Array.from({ length: 150 }, (_, i) => 50 + i / 10),
    );
    const points = liveChartPoints(read, T);
    expect(points[0]?.x).toBe(T - 120_000);
    expect(points.at(-1)?.x).toBe(T);
    // The marker where readings stop stays, so the line ends there.
    expect(Number.isNaN(points.at(-1)?.y)).toBe(true);
  });

  it('takes the newest reading, not the marker after it, and says how long ago it ended', () => {
    const read = levels(T, [61.2, 93.9, 94.1]);
    expect(currentReading(read)).toEqual({ level: Math.fround(94.1), endMs: T + 3000 });
    expect(levelDigits(currentReading(read)!.level)).toBe('94.1');
    expect(behindText(read, T + 15_000)).toBe('Newest reading 12 s ago');
    expect(behindText(read, T + 3000 + 125_000)).toBe('Newest reading 2 min 5 s ago');
  });

  it('says when nothing was read yet, and when the read holds no reading', () => {
    expect(behindText(null, T)).toBe('Reading the newest levels…');
    const empty: LiveLevels = { ...levels(T, []), times: new Float64Array(0), values: new Float32Array(0) };
    expect(currentReading(empty)).toBeNull();
    expect(behindText(empty, T)).toBe(
      'No reading in the last 2 min: the instrument is not sending levels now.',
    );
  });

  it('writes ages to the second', () => {
    expect(agoText(400)).toBe('0 s');
    expect(agoText(59_600)).toBe('1 min');
    expect(agoText(61_000)).toBe('1 min 1 s');
  });
});
