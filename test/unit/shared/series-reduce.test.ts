/**
 * The chart reduction keeps what a pixel column can show (its lowest and highest reading, and a
 * break where readings are missing), and the range figures are exact, from every reading.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { minMaxReduce } from '../../../src/shared/series-reduce';
import { channelFigures, selectKth } from '../../../src/shared/series-figures';

const T0 = Date.UTC(2026, 10, 16);

describe('min-max reduction', () => {
  it('keeps the highest and the lowest reading of every pixel column (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.float({ min: 0, max: 140, noNaN: true }), fc.constant(Number.NaN)), {
          minLength: 1,
          maxLength: 3000,
        }),
        fc.integer({ min: 1, max: 200 }),
        (readings, columns) => {
          const values = Float32Array.from(readings);
          const times = Float64Array.from(values, (_, i) => T0 + i * 1000);
          const range = { start: T0, end: T0 + values.length * 1000 };
          const reduced = minMaxReduce(times, values, range, columns);
          const span = range.end - range.start;
          const columnOf = (t: number) => Math.min(columns - 1, Math.floor(((t - T0) / span) * columns));
          // Per column: the extremes of the input are among the kept points of that column.
          const wanted = new Map<number, { min: number; max: number; gap: boolean }>();
          values.forEach((v, i) => {
            const c = columnOf(times[i]!);
            const w = wanted.get(c) ?? { min: Infinity, max: -Infinity, gap: false };
            if (Number.isNaN(v)) w.gap = true;
            else {
              w.min = Math.min(w.min, v);
              w.max = Math.max(w.max, v);
            }
            wanted.set(c, w);
          });
          const kept = new Map<number, number[]>();
          reduced.times.forEach((t, i) => {
            const list = kept.get(columnOf(t)) ?? [];
            list.push(reduced.values[i]!);
            kept.set(columnOf(t), list);
          });
          for (const [c, w] of wanted) {
            const got = kept.get(c) ?? [];
            if (w.max > -Infinity) {
              expect(got).toContain(w.max);
              expect(got).toContain(w.min);
            }
          }
          // In time order, and never more than three points a column (one more for a leading gap).
          for (let i = 1; i < reduced.times.length; i++)
            expect(reduced.times[i]!).toBeGreaterThan(reduced.times[i - 1]!);
          expect(reduced.times.length).toBeLessThanOrEqual(Math.max(2 * columns, 3 * columns + 1));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reduces a week of 1 s readings to a few thousand points, keeping a one-second peak and the gap', () => {
    const count = 604_800;
    const values = new Float32Array(count).fill(50);
    values[123_457] = 120;
    values[400_000] = 20;
    for (let i = 300_000; i < 303_600; i++) values[i] = Number.NaN;
    const times = Float64Array.from({ length: count }, (_, i) => T0 + i * 1000);
    const reduced = minMaxReduce(times, values, { start: T0, end: T0 + count * 1000 }, 1366);
    expect(reduced.times.length).toBeLessThan(3 * 1366);
    const readings = [...reduced.values].filter((v) => !Number.isNaN(v));
    expect(Math.max(...readings)).toBe(120);
    expect(Math.min(...readings)).toBe(20);
    const gapTimes = [...reduced.times].filter((_, i) => Number.isNaN(reduced.values[i]!));
    expect(gapTimes.length).toBeGreaterThan(0);
    expect(gapTimes.every((t) => t >= T0 + 300_000_000 && t < T0 + 303_600_000)).toBe(true);
  });

  it('passes a short series through, a run of missing readings kept once', () => {
    const reduced = minMaxReduce(
      Float64Array.from([1, 2, 3, 4, 5]),
      Float32Array.from([50, Number.NaN, Number.NaN, 52, 53]),
      { start: 0, end: 10 },
      100,
    );
    expect([...reduced.times]).toEqual([1, 2, 4, 5]);
    expect(Number.isNaN(reduced.values[1]!)).toBe(true);
  });
});

describe('range figures', () => {
  it('averages wind directions around the compass: 350° and 10° make north, not south', () => {
    const direction = (degrees: number[]) => ({
      name: 'windDirection',
      unit: '°',
      times: Float64Array.from(degrees, (_, i) => T0 + i * 1000),
      values: Float32Array.from(degrees),
    });
    const range = { start: T0, end: T0 + 10_000 };
    const north = channelFigures(direction([350, 10]), range);
    expect(north.meanKind).toBe('circular');
    expect(Math.min(north.mean!, 360 - north.mean!)).toBeLessThan(1e-6);
    expect(channelFigures(direction([80, 100, Number.NaN]), range).mean).toBeCloseTo(90, 6);
    // Opposite winds in equal measure have no prevailing direction.
    expect(channelFigures(direction([90, 270]), range).mean).toBeNull();
    // Nor a highest or lowest: 350° and 10° are 20° apart, not 340°.
    expect(north.min).toBeNull();
    expect(north.max).toBeNull();
    expect(north.latest?.value).toBe(10);
  });

  const level = (values: number[], step = 1000) => ({
    name: 'LAeq',
    unit: 'dB',
    times: Float64Array.from(values, (_, i) => T0 + i * step),
    values: Float32Array.from(values),
  });

  it('averages levels energetically: 60 dB and 70 dB make 67.40 dB, not 65', () => {
    const figures = channelFigures(level([60, 70]), { start: T0, end: T0 + 2000 });
    // 10·log10((10^6 + 10^7) / 2) = 67.4036…
    expect(figures.mean).toBeCloseTo(67.4036, 3);
    expect(figures.meanKind).toBe('energetic');
    expect(figures.max).toEqual({ value: 70, time: T0 + 1000 });
    expect(figures.min).toEqual({ value: 60, time: T0 });
  });

  it('gives L10 and L90 by nearest rank: of 41…50 dB, L10 is 50 and L90 is 42', () => {
    const figures = channelFigures(level([45, 41, 50, 43, 48, 42, 47, 44, 49, 46]), {
      start: T0,
      end: T0 + 10_000,
    });
    expect(figures.l10).toBe(50);
    expect(figures.l90).toBe(42);
    // Of 20 readings 1…20, 10 % is 2 readings: L10 = 19; 90 % is 18: L90 = 3.
    const twenty = channelFigures(level(Array.from({ length: 20 }, (_, i) => 20 - i)), {
      start: T0,
      end: T0 + 20_000,
    });
    expect([twenty.l10, twenty.l90]).toEqual([19, 3]);
  });

  it('selects the k-th smallest reading as sorting would (property), whatever the order', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: 300, max: 1200 }).map((tenths) => tenths / 10),
          { minLength: 1, maxLength: 400 },
        ),
        fc.nat(),
        (levels, pick) => {
          const k = pick % levels.length;
          const sorted = Float32Array.from(levels).sort();
          expect(selectKth(Float32Array.from(levels), k)).toBe(sorted[k]);
        },
      ),
      { numRuns: 300 },
    );
    // Already sorted and all alike: still right (and not quadratic).
    const week = Float32Array.from({ length: 604_800 }, (_, i) => 40 + i / 100_000);
    expect(selectKth(week.slice(), 544_320)).toBe(week[544_320]);
    expect(selectKth(new Float32Array(1000).fill(55), 900)).toBe(55);
  });

  it('gives L10, L90, the extremes and the count as sorting every reading in the range would (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.float({ min: -50, max: 140, noNaN: true }),
            fc.constant(Number.NaN),
            fc.constant(-0),
            fc.constant(0),
          ),
          { minLength: 1, maxLength: 500 },
        ),
        fc.nat(),
        fc.nat(),
        (readings, a, b) => {
          const channel = level(readings);
          const [from, to] = [a % readings.length, b % readings.length].sort((x, y) => x - y) as [
            number,
            number,
          ];
          const range = { start: T0 + from * 1000, end: T0 + (to + 1) * 1000 };
          const inRange = [...channel.values.subarray(from, to + 1)].filter((v) => !Number.isNaN(v));
          const figures = channelFigures(channel, range);
          expect(figures.readings).toBe(inRange.length);
          if (inRange.length === 0) {
            expect(figures.l10).toBeNull();
            return;
          }
          const sorted = Float32Array.from(inRange).sort();
          const n = sorted.length;
          expect(figures.l10).toBe(sorted[n - Math.max(1, Math.ceil(0.1 * n))]);
          expect(figures.l90).toBe(sorted[n - Math.max(1, Math.ceil(0.9 * n))]);
          // The first of equal extremes is kept: -0 and +0 are equal readings, so compare with ===.
          expect(figures.min?.value === sorted[0]).toBe(true);
          expect(figures.max?.value === sorted[n - 1]).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts only readings inside the range, never gaps, and averages other units arithmetically', () => {
    const wind = {
      name: 'Wind speed',
      unit: 'm/s',
      times: Float64Array.from([T0 - 1000, T0, T0 + 1000, T0 + 2000, T0 + 3000]),
      values: Float32Array.from([99, 2, Number.NaN, 4, 99]),
    };
    const figures = channelFigures(wind, { start: T0, end: T0 + 3000 });
    expect(figures).toMatchObject({ readings: 2, mean: 3, meanKind: 'arithmetic', l10: null, l90: null });
    expect(figures.first).toBe(T0);
    expect(figures.last).toBe(T0 + 2000);
    const none = channelFigures(wind, { start: T0 + 1000, end: T0 + 2000 });
    expect(none).toMatchObject({ readings: 0, mean: null, min: null, max: null, first: null });
  });
});
