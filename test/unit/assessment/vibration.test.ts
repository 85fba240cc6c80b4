/** DIN 4150-3 guideline values, peak PPV and VDV against values worked out by hand. */
import { describe, expect, it } from 'vitest';
import type { Samples } from '../../../src/main/backend/assessment/figures/samples';
import {
  DIN_LINE_LABELS,
  combineVdv,
  dinGuideline,
  peakPpv,
  vdvOver,
} from '../../../src/main/backend/assessment/figures/vibration';

function series(start: number, lengthMs: number, values: readonly number[]): Samples {
  const starts = Float64Array.from(values, (_, i) => start + i * lengthMs);
  return { starts, ends: starts.map((s) => s + lengthMs), values: Float32Array.from(values) };
}

describe('dinGuideline (DIN 4150-3:2016 table 1)', () => {
  it('gives the table values at the corner frequencies, flat below 10 Hz and above 100 Hz', () => {
    // Frequencies 1, 10, 50, 100, 150 Hz → line 1: 20, 20, 40, 50, 50; line 2: 5, 5, 15, 20, 20;
    // line 3: 3, 3, 8, 10, 10 mm/s.
    const at = (line: 1 | 2 | 3) => [1, 10, 50, 100, 150].map((hz) => dinGuideline(hz, line));
    expect(at(1)).toEqual([20, 20, 40, 50, 50]);
    expect(at(2)).toEqual([5, 5, 15, 20, 20]);
    expect(at(3)).toEqual([3, 3, 8, 10, 10]);
  });

  it('draws straight lines between them', () => {
    // Line 2 at 30 Hz: 5 + (15 − 5)·(30 − 10)/(50 − 10) = 5 + 10·0.5 = 10 mm/s.
    expect(dinGuideline(30, 2)).toBeCloseTo(10, 9);
    // Line 1 at 75 Hz: 40 + (50 − 40)·(75 − 50)/(100 − 50) = 40 + 5 = 45 mm/s.
    expect(dinGuideline(75, 1)).toBeCloseTo(45, 9);
    // Line 3 at 30 Hz: 3 + 5·0.5 = 5.5; at 75 Hz: 8 + 2·0.5 = 9 mm/s.
    expect(dinGuideline(30, 3)).toBeCloseTo(5.5, 9);
    expect(dinGuideline(75, 3)).toBeCloseTo(9, 9);
    // Line 2 at 20 Hz: 5 + 10·(10/40) = 7.5 mm/s.
    expect(dinGuideline(20, 2)).toBeCloseTo(7.5, 9);
  });

  it('refuses a frequency that is not one', () => {
    expect(() => dinGuideline(NaN, 2)).toThrow(RangeError);
    expect(() => dinGuideline(-5, 2)).toThrow(RangeError);
  });

  it('names each line', () => {
    expect(Object.keys(DIN_LINE_LABELS)).toEqual(['1', '2', '3']);
    expect(DIN_LINE_LABELS[2]).toMatch(/dwellings/i);
  });
});

describe('peakPpv', () => {
  // 1-s PPVs 1.2, 3.5, 2.0, 5.0 mm/s with their dominant frequencies 12, 40, 8, 60 Hz.
  const ppv = series(0, 1000, [1.2, 3.5, 2.0, 5.0]);
  const frequency = series(0, 1000, [12, 40, 8, 60]);

  it('is the highest PPV starting in the range, with the frequency of the same sample', () => {
    // [0, 3 s): 1.2, 3.5, 2.0 → 3.5 mm/s at 40 Hz, at 1 s.
    const peak = peakPpv(ppv, frequency, { start: 0, end: 3000 });
    expect(peak?.value).toBeCloseTo(3.5, 6);
    expect(peak?.frequency).toBe(40);
    expect(peak?.time).toBe(1000);
  });

  it('leaves out the excluded samples', () => {
    const mask = Uint8Array.from([0, 1, 0, 0]); // 3.5 excluded → 2.0 mm/s at 8 Hz
    const peak = peakPpv(ppv, frequency, { start: 0, end: 3000 }, mask);
    expect(peak?.value).toBeCloseTo(2.0, 6);
    expect(peak?.frequency).toBe(8);
    expect(peakPpv(ppv, frequency, { start: 10_000, end: 20_000 })).toBeNull();
  });

  it('finds the frequency by time when the two series do not line up, null when there is none', () => {
    // Frequencies only from 1 s: 40, NaN, 60 → the peak at 3 s (5.0 mm/s) is at 60 Hz.
    const later = series(1000, 1000, [40, NaN, 60]);
    expect(peakPpv(ppv, later, { start: 0, end: 4000 })?.frequency).toBe(60);
    // At 2 s the frequency is NaN: no frequency.
    const mask = Uint8Array.from([0, 1, 0, 1]);
    expect(peakPpv(ppv, later, { start: 0, end: 4000 }, mask)).toMatchObject({ frequency: null, time: 2000 });
    expect(peakPpv(ppv, series(0, 1000, []), { start: 0, end: 4000 })?.frequency).toBeNull();
  });
});

describe('VDV', () => {
  it('combines as the fourth root of the sum of fourth powers', () => {
    // (0.1^4 + 0.2^4)^(1/4) = (0.0001 + 0.0016)^(1/4) = 0.0017^(1/4) = 0.2031.
    expect(combineVdv([0.1, 0.2])).toBeCloseTo(0.20305, 4);
    // One value is itself; NaN is no reading; nothing → null.
    expect(combineVdv([0.35])).toBeCloseTo(0.35, 9);
    expect(combineVdv([0.1, NaN, 0.2])).toBeCloseTo(0.20305, 4);
    expect(combineVdv([])).toBeNull();
  });

  it('forms the VDV of a range from the interval VDVs starting in it', () => {
    const samples = series(0, 15 * 60_000, [0.1, 0.2, 0.3]);
    const range = { start: 0, end: 45 * 60_000 };
    // (0.0001 + 0.0016 + 0.0081)^(1/4) = 0.0098^(1/4) = 0.3146.
    const all = vdvOver(samples, range);
    expect(all.value).toBeCloseTo(0.31463, 4);
    expect(all.readings).toBe(3);
    // The 0.3 excluded: 0.2031 from two readings.
    expect(vdvOver(samples, range, Uint8Array.from([0, 0, 1]))).toEqual({
      value: expect.closeTo(0.20305, 4) as number,
      readings: 2,
    });
    expect(vdvOver(samples, { start: 50 * 60_000, end: 60 * 60_000 })).toEqual({ value: null, readings: 0 });
  });
});
