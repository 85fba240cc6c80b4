/** Samples and the exclusion mask: by hand on small series, and against a plain check of every pair. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { exclusionMask, samplesOf, type Samples } from '../../../src/main/backend/assessment/figures/samples';

const MIN = 60_000;

describe('samplesOf', () => {
  it('gives each reading its end, one sample length after its start', () => {
    const channel = {
      name: 'LAeq',
      unit: 'dB',
      times: Float64Array.from([0, 15 * MIN, 30 * MIN]),
      values: Float32Array.from([50, NaN, 70]),
    };
    const samples = samplesOf(channel, 15 * MIN);
    expect([...samples.starts]).toEqual([0, 15 * MIN, 30 * MIN]);
    expect([...samples.ends]).toEqual([15 * MIN, 30 * MIN, 45 * MIN]);
    expect([...samples.values]).toEqual([50, NaN, 70]);
    expect(() => samplesOf(channel, -1)).toThrow(RangeError);
  });
});

describe('exclusionMask', () => {
  // Four 15-min samples: [0,15) [15,30) [30,45) [45,60) minutes.
  const samples = samplesOf(
    {
      name: 'LAeq',
      unit: 'dB',
      times: Float64Array.from([0, 15, 30, 45], (m) => m * MIN),
      values: new Float32Array(4),
    },
    15 * MIN,
  );

  it('excludes every sample an interval overlaps, however little', () => {
    // [20, 31) min overlaps [15,30) and, by one minute, [30,45).
    expect([...exclusionMask(samples, [{ start: 20 * MIN, end: 31 * MIN }])]).toEqual([0, 1, 1, 0]);
    // [0, 15) ends where the second sample starts: only the first.
    expect([...exclusionMask(samples, [{ start: 0, end: 15 * MIN }])]).toEqual([1, 0, 0, 0]);
    // One millisecond inside the last sample.
    expect([...exclusionMask(samples, [{ start: 60 * MIN - 1, end: 70 * MIN }])]).toEqual([0, 0, 0, 1]);
  });

  it('takes the intervals unsorted, overlapping or empty', () => {
    const excluded = [
      { start: 50 * MIN, end: 55 * MIN },
      { start: 30 * MIN, end: 30 * MIN }, // empty: excludes nothing
      { start: 48 * MIN, end: 52 * MIN },
      { start: -5 * MIN, end: 1 },
    ];
    expect([...exclusionMask(samples, excluded)]).toEqual([1, 0, 0, 1]);
    expect([...exclusionMask(samples, [])]).toEqual([0, 0, 0, 0]);
  });

  it('agrees with checking every sample against every interval', () => {
    const span = fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 20 }));
    fc.assert(
      fc.property(
        fc.array(span, { maxLength: 30 }),
        fc.array(span, { maxLength: 8 }),
        (rawSamples, rawCuts) => {
          const sorted = [...rawSamples].sort((a, b) => a[0] - b[0]);
          const s: Samples = {
            starts: Float64Array.from(sorted, ([start]) => start),
            ends: Float64Array.from(sorted, ([start, length]) => start + length),
            values: new Float32Array(sorted.length),
          };
          const cuts = rawCuts.map(([start, length]) => ({ start, end: start + length }));
          const mask = exclusionMask(s, cuts);
          sorted.forEach(([start, length], i) => {
            const end = start + length;
            const hit = cuts.some(
              (c) =>
                c.end > c.start &&
                (length > 0 ? c.start < end && c.end > start : c.start <= start && c.end > start),
            );
            expect(mask[i]).toBe(hit ? 1 : 0);
          });
        },
      ),
    );
  });

  // How fast is for the benchmarks (no timing is asserted here): this checks the count at full size.
  it('masks a week of 1-s samples against a thousand intervals', () => {
    const n = 604_800;
    const week = samplesOf(
      {
        name: 'LAeq',
        unit: 'dB',
        times: Float64Array.from({ length: n }, (_, i) => i * 1000),
        values: new Float32Array(n),
      },
      1000,
    );
    // Every 600 s, 10 s excluded: [600k, 600k+10) s for k = 0…1007 → 10 samples each.
    const cuts = Array.from({ length: 1008 }, (_, k) => ({ start: k * 600_000, end: k * 600_000 + 10_000 }));
    const mask = exclusionMask(week, cuts);
    expect(mask.reduce((sum, m) => sum + m, 0)).toBe(1008 * 10);
  });
});
