/** Excluded time from the weather, checks, gaps and overload flags, against intervals worked out by hand. */
import { describe, expect, it } from 'vitest';
import {
  failedCheckPeriods,
  flaggedPeriods,
  gapPeriods,
  mergeIntervals,
  thresholdPeriods,
} from '../../../src/main/backend/assessment/figures/exclusion-rules';
import type { Samples } from '../../../src/main/backend/assessment/figures/samples';

const MIN = 60_000;

/** 1-min samples from minute `from`: [m, m+1) min. */
function minutes(values: readonly number[], from = 0): Samples {
  const starts = Float64Array.from(values, (_, i) => (from + i) * MIN);
  return { starts, ends: starts.map((s) => s + MIN), values: Float32Array.from(values) };
}

/** 1-min samples at the given minutes. */
function at(minuteList: readonly number[], value = 1): Samples {
  const starts = Float64Array.from(minuteList, (m) => m * MIN);
  return {
    starts,
    ends: starts.map((s) => s + MIN),
    values: new Float32Array(minuteList.length).fill(value),
  };
}

describe('thresholdPeriods', () => {
  it('gives the runs above the limit, merged where the samples touch, with their highest value', () => {
    // Wind by minute: 3, 6, 7.2, 4, –, 8, 9, 2 m/s; above 5 m/s: minutes 1–2 and 5–6 (the NaN at 4 is no reading).
    const wind = minutes([3, 6, 7.2, 4, NaN, 8, 9, 2]);
    const runs = thresholdPeriods(wind, (v) => v > 5);
    expect(runs.map((r) => [r.start / MIN, r.end / MIN])).toEqual([
      [1, 3],
      [5, 7],
    ]);
    expect(runs[0]!.peak).toBeCloseTo(7.2, 5);
    expect(runs[1]!.peak).toBe(9);
    expect(thresholdPeriods(wind, (v) => v > 50)).toEqual([]);
  });

  it('does not join runs a sample apart', () => {
    // Rain at minutes 0 and 2, none at 1: two runs [0,1) and [2,3).
    const rain = minutes([0.2, 0, 0.4]);
    expect(thresholdPeriods(rain, (v) => v > 0).map((r) => [r.start / MIN, r.end / MIN, r.peak])).toEqual([
      [0, 1, expect.closeTo(0.2, 6)],
      [2, 3, expect.closeTo(0.4, 6)],
    ]);
  });
});

describe('failedCheckPeriods', () => {
  it('runs from a failed check to the next passed one of its kind, clipped to the range', () => {
    const range = { start: 0, end: 100 };
    const checks = [
      { time: 50, passed: false, kind: 'calibration' as const }, // fails again: [50, 100) to the end
      { time: -10, passed: false, kind: 'calibration' as const }, // failed before the range…
      { time: 20, passed: true, kind: 'calibration' as const }, // …until 20: [0, 20)
      { time: 30, passed: false, kind: 'sic' as const },
      { time: 35, passed: true, kind: 'calibration' as const }, // another kind: does not end the SIC's
      { time: 40, passed: true, kind: 'sic' as const }, // [30, 40)
      { time: 60, passed: false, kind: 'calibration' as const }, // already failing since 50
      { time: 120, passed: true, kind: 'calibration' as const }, // after the range
      { time: 110, passed: false, kind: 'sic' as const }, // after the range: nothing
    ];
    expect(failedCheckPeriods(checks, range)).toEqual([
      { start: 0, end: 20, kind: 'calibration', failedAt: -10 },
      { start: 30, end: 40, kind: 'sic', failedAt: 30 },
      { start: 50, end: 100, kind: 'calibration', failedAt: 50 },
    ]);
  });

  it('gives nothing for passes only, or a failure put right before the range', () => {
    const checks = [
      { time: -50, passed: false, kind: 'sic' as const },
      { time: -20, passed: true, kind: 'sic' as const },
      { time: 10, passed: true, kind: 'calibration' as const },
    ];
    expect(failedCheckPeriods(checks, { start: 0, end: 100 })).toEqual([]);
  });
});

describe('gapPeriods', () => {
  it('finds gaps longer than two samples, also at the range ends', () => {
    // 1-min samples at minutes 0, 1, 2, 6, 7 and 10; range [−3, 15) min.
    // Start: [−3, 0) = 3 min > 2 → gap. 3 → 6: [3, 6) = 3 min → gap. 8 → 10: 2 min, not more → none.
    // End: [11, 15) = 4 min → gap.
    const samples = at([0, 1, 2, 6, 7, 10]);
    expect(gapPeriods(samples, { start: -3 * MIN, end: 15 * MIN }, MIN)).toEqual([
      { start: -3 * MIN, end: 0 },
      { start: 3 * MIN, end: 6 * MIN },
      { start: 11 * MIN, end: 15 * MIN },
    ]);
    // Range [1, 9) min: [3, 6) and the end [8, 9) is only 1 min.
    expect(gapPeriods(samples, { start: MIN, end: 9 * MIN }, MIN)).toEqual([
      { start: 3 * MIN, end: 6 * MIN },
    ]);
    // A range without samples is one gap.
    expect(gapPeriods(samples, { start: 20 * MIN, end: 30 * MIN }, MIN)).toEqual([
      { start: 20 * MIN, end: 30 * MIN },
    ]);
  });

  it('counts a sample without a reading as nothing sent', () => {
    // Minutes 0–5 with 1–3 NaN: nothing from 1 to 4 → [1, 4) = 3 min → gap.
    const samples = minutes([5, NaN, NaN, NaN, 5, 5]);
    expect(gapPeriods(samples, { start: 0, end: 6 * MIN }, MIN)).toEqual([{ start: MIN, end: 4 * MIN }]);
  });
});

describe('flaggedPeriods', () => {
  it('gives the runs of samples flagged true', () => {
    const starts = Float64Array.from([0, 1, 2, 3, 4, 5], (m) => m * MIN);
    const ends = starts.map((s) => s + MIN);
    // Flags: no, yes, yes, unknown, yes, no → [1, 3) and [4, 5) min.
    expect(flaggedPeriods(starts, ends, [false, true, true, null, true, false])).toEqual([
      { start: MIN, end: 3 * MIN },
      { start: 4 * MIN, end: 5 * MIN },
    ]);
    expect(flaggedPeriods(starts, ends, [])).toEqual([]);
  });
});

describe('mergeIntervals', () => {
  it('sorts, joins overlapping and touching intervals and drops empty ones', () => {
    expect(
      mergeIntervals([
        { start: 5, end: 10 },
        { start: 0, end: 5 },
        { start: 12, end: 12 },
        { start: 11, end: 13 },
        { start: 12, end: 14 },
      ]),
    ).toEqual([
      { start: 0, end: 10 },
      { start: 11, end: 14 },
    ]);
  });
});
