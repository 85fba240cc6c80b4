/** Noise figures against values worked out by hand (each calculation in a comment). */
import { describe, expect, it } from 'vitest';
import {
  countEventsAbove,
  exceededLevel,
  lden,
  leq,
  maxLevel,
  meanOfIntervals,
} from '../../../src/main/backend/assessment/figures/noise-figures';
import { exclusionMask, type Samples } from '../../../src/main/backend/assessment/figures/samples';
import { sitePeriods } from '../../../src/main/backend/assessment/figures/site-periods';
import { channelFigures } from '../../../src/shared/series-figures';

const MIN = 60_000;
const HOUR = 3_600_000;
const utc = (iso: string) => Date.parse(iso);

/** Samples of `lengthMs` each, one after another from `start`. */
function series(start: number, lengthMs: number, values: readonly number[]): Samples {
  const starts = Float64Array.from(values, (_, i) => start + i * lengthMs);
  return { starts, ends: starts.map((s) => s + lengthMs), values: Float32Array.from(values) };
}

describe('leq', () => {
  it('is the energetic mean of whole samples', () => {
    // Two 30-min samples of 60 and 70 dB: 10·log10((10^6 + 10^7)/2) = 10·log10(5.5·10^6) = 67.40 dB.
    const samples = series(0, 30 * MIN, [60, 70]);
    const figure = leq(samples, { start: 0, end: 60 * MIN });
    expect(figure.value).toBeCloseTo(67.404, 3);
    expect(figure.seconds).toBe(3600);
    expect(figure.readings).toBe(2);
  });

  it('weighs a sample by the part of it inside the range', () => {
    // Range from 15 min: 15 min of the 60 dB sample and all 30 min of the 70 dB one:
    // 10·log10((15·10^6 + 30·10^7)/45) = 10·log10(7·10^6) = 68.45 dB over 2700 s.
    const samples = series(0, 30 * MIN, [60, 70]);
    const figure = leq(samples, { start: 15 * MIN, end: 60 * MIN });
    expect(figure.value).toBeCloseTo(68.451, 3);
    expect(figure.seconds).toBe(2700);
    expect(figure.readings).toBe(2);
  });

  it('leaves out excluded samples and missing readings', () => {
    // Four 15-min samples 50, 60, 70, 80 dB. All: 10·log10((10^5+10^6+10^7+10^8)/4) = 74.44 dB.
    // With the 80 excluded: 10·log10((10^5 + 10^6 + 10^7)/3) = 10·log10(3.7·10^6) = 65.68 dB.
    const samples = series(0, 15 * MIN, [50, 60, 70, 80]);
    const range = { start: 0, end: HOUR };
    expect(leq(samples, range).value).toBeCloseTo(74.437, 3);
    const mask = exclusionMask(samples, [{ start: 50 * MIN, end: 52 * MIN }]);
    const valid = leq(samples, range, mask);
    expect(valid.value).toBeCloseTo(65.682, 3);
    expect(valid.seconds).toBe(45 * 60);
    expect(valid.readings).toBe(3);
    // A NaN counts as no reading: 50 and 70 left → 10·log10((10^5+10^7)/2) = 10·log10(5.05·10^6) = 67.03 dB.
    const gappy = series(0, 15 * MIN, [50, NaN, 70]);
    expect(leq(gappy, { start: 0, end: 45 * MIN }).value).toBeCloseTo(67.033, 3);
    expect(leq(gappy, { start: 15 * MIN, end: 30 * MIN })).toEqual({ value: null, seconds: 0, readings: 0 });
  });
});

describe('Lday, Levening, Lnight and Lden on the day the clocks go back (Europe/London, 25 Oct 2026)', () => {
  // Hourly samples from Sat 24 Oct 07:00 BST (06:00Z) to Sun 25 Oct 07:00 GMT (07:00Z): 25 hours.
  // Lden day 07–19 BST (06Z–18Z): 12 × 60 dB; evening 19–23 BST (18Z–22Z): 4 × 50 dB;
  // night 23 BST–07 GMT (22Z–07Z): 9 hours, all 45 dB but the one from 02:00Z at 55 dB.
  const night = [45, 45, 45, 45, 55, 45, 45, 45, 45];
  const samples = series(utc('2026-10-24T06:00Z'), HOUR, [
    ...Array(12).fill(60),
    ...Array(4).fill(50),
    ...night,
  ]);
  const range = { start: utc('2026-10-24T06:00Z'), end: utc('2026-10-25T07:00Z') };
  const only = (kind: 'day' | 'evening' | 'night' | 'denDay') => {
    const periods = sitePeriods(range, 'Europe/London', kind).filter((p) => p.date === '2026-10-24');
    expect(periods).toHaveLength(1);
    return periods[0]!;
  };

  it('forms each period from its own hours, the night from all 9', () => {
    expect(leq(samples, only('denDay')).value).toBeCloseTo(60, 6);
    expect(leq(samples, only('evening')).value).toBeCloseTo(50, 6);
    // Lnight: 10·log10((8·10^4.5 + 10^5.5)/9) = 10·log10((8 + 10)·10^4.5/9) = 45 + 10·log10(2) = 48.01 dB.
    const lnight = leq(samples, only('night'));
    expect(lnight.seconds).toBe(9 * 3600);
    expect(lnight.value).toBeCloseTo(48.0103, 3);
    // LAeq,day 07–23: 10·log10((12·10^6 + 4·10^5)/16) = 10·log10(775,000) = 58.89 dB.
    expect(leq(samples, only('day')).value).toBeCloseTo(58.893, 3);
  });

  it("gives Lden by the directive's formula", () => {
    // Lden = 10·lg(1/24·(12·10^(60/10) + 4·10^((50+5)/10) + 8·10^((48.0103+10)/10)))
    //      = 10·lg((12,000,000 + 4·316,227.8 + 8·632,455.5)/24) = 10·lg(18,324,555/24)
    //      = 10·lg(763,523) = 58.83 dB.
    const ld = leq(samples, only('denDay')).value;
    const le = leq(samples, only('evening')).value;
    const ln = leq(samples, only('night')).value;
    expect(lden(ld, le, ln)).toBeCloseTo(58.828, 2);
  });
});

describe('lden', () => {
  it('follows the formula and needs all three levels', () => {
    // 60/50/45: 10·lg((12·10^6 + 4·10^5.5 + 8·10^5.5)/24) = 10·lg((12·10^6 + 12·316,227.8)/24)
    //         = 10·lg(658,113.9) = 58.18 dB.
    expect(lden(60, 50, 45)).toBeCloseTo(58.183, 3);
    // Equal weighted levels (Ld = Le + 5 = Ln + 10 = 70) give that level back: 70.
    expect(lden(70, 65, 60)).toBeCloseTo(70, 9);
    expect(lden(null, 50, 45)).toBeNull();
    expect(lden(60, null, 45)).toBeNull();
    expect(lden(60, 50, null)).toBeNull();
  });
});

describe('maxLevel', () => {
  it('is the highest sample starting in the range, excluded ones left out', () => {
    const samples = series(0, 15 * MIN, [50, 80, 70, 80, 90]);
    // The 90 starts at 60 min, outside [0, 60 min); 80 twice: the first, at 15 min.
    expect(maxLevel(samples, { start: 0, end: 60 * MIN })).toEqual({ value: 80, time: 15 * MIN });
    const mask = exclusionMask(samples, [{ start: 20 * MIN, end: 50 * MIN }]); // the 80s at 15 and 45 min, the 70
    expect(maxLevel(samples, { start: 0, end: 60 * MIN }, mask)).toEqual({ value: 50, time: 0 });
    expect(maxLevel(samples, { start: 75 * MIN, end: 90 * MIN })).toBeNull();
  });
});

describe('meanOfIntervals', () => {
  it('is the arithmetic mean of the interval values starting in the range', () => {
    // Four 15-min LAF90s 40, 42, 44, 50: (40+42+44+50)/4 = 44; with the 50 excluded (40+42+44)/3 = 42.
    const samples = series(0, 15 * MIN, [40, 42, 44, 50]);
    const range = { start: 0, end: HOUR };
    expect(meanOfIntervals(samples, range)).toEqual({ value: 44, seconds: 3600, readings: 4 });
    const mask = exclusionMask(samples, [{ start: 50 * MIN, end: 70 * MIN }]);
    expect(meanOfIntervals(samples, range, mask)).toEqual({ value: 42, seconds: 2700, readings: 3 });
    // From 10 min: the sample starting at 0 does not belong; (42+44+50)/3 = 45.33.
    expect(meanOfIntervals(samples, { start: 10 * MIN, end: HOUR }).value).toBeCloseTo(45.333, 3);
    expect(meanOfIntervals(samples, { start: 2 * HOUR, end: 3 * HOUR }).value).toBeNull();
  });
});

describe('exceededLevel (nearest rank, as series-figures.ts)', () => {
  // Ten 1-s levels 41…50 dB (shuffled), and a missing reading.
  const levels = [45, 41, 50, 43, NaN, 47, 42, 49, 44, 48, 46];
  const samples = series(0, 1000, levels);
  const range = { start: 0, end: 11_000 };

  it('finds L10 and L90 from every reading', () => {
    // n = 10. L10: rank ⌈0.1·10⌉ = 1 from the top → 50. L90: rank ⌈0.9·10⌉ = 9 from the top → 42.
    expect(exceededLevel(samples, range, 10)).toBe(50);
    expect(exceededLevel(samples, range, 90)).toBe(42);
    // L50: rank 5 from the top → 46. L100: the lowest, 41. L0: at least rank 1, the highest.
    expect(exceededLevel(samples, range, 50)).toBe(46);
    expect(exceededLevel(samples, range, 100)).toBe(41);
    expect(exceededLevel(samples, range, 0)).toBe(50);
  });

  it('finds them without the excluded readings', () => {
    // 50 (at 2 s) and 49 (at 7 s) excluded: 41…48 left, n = 8.
    // L10: rank ⌈0.8⌉ = 1 → 48. L90: rank ⌈7.2⌉ = 8 → the 8th highest of 48…41 = 41.
    const mask = exclusionMask(samples, [
      { start: 2000, end: 3000 },
      { start: 7500, end: 7600 },
    ]);
    expect(exceededLevel(samples, range, 10, mask)).toBe(48);
    expect(exceededLevel(samples, range, 90, mask)).toBe(41);
  });

  it('agrees with the L10 and L90 the data view shows (series-figures.ts)', () => {
    // 1000 levels 30.0…79.9 dB in steps of 0.05 (in float32), in a scrambled order.
    const values = Float32Array.from({ length: 1000 }, (_, i) => 30 + ((i * 337) % 1000) * 0.05);
    const times = Float64Array.from(values, (_, i) => i * 1000);
    const figures = channelFigures({ name: 'LAeq', unit: 'dB', times, values }, { start: 0, end: 1_000_000 });
    const own = { starts: times, ends: times.map((t) => t + 1000), values };
    // n = 1000: L10 is the 100th highest, 30 + 900·0.05 = 75.0; L90 the 900th highest, 30 + 100·0.05 = 35.0.
    expect(exceededLevel(own, { start: 0, end: 1_000_000 }, 10)).toBeCloseTo(75, 4);
    expect(exceededLevel(own, { start: 0, end: 1_000_000 }, 90)).toBeCloseTo(35, 4);
    expect(exceededLevel(own, { start: 0, end: 1_000_000 }, 10)).toBe(figures.l10);
    expect(exceededLevel(own, { start: 0, end: 1_000_000 }, 90)).toBe(figures.l90);
  });

  it('ranks only the readings starting in the range', () => {
    // From 5 s to 9 s: NaN, 47, 42, 49 → n = 3; L90: rank ⌈2.7⌉ = 3 → 42; L10: rank 1 → 49.
    expect(exceededLevel(samples, { start: 4000, end: 8000 }, 90)).toBe(42);
    expect(exceededLevel(samples, { start: 4000, end: 8000 }, 10)).toBe(49);
    expect(exceededLevel(samples, { start: 4000, end: 5000 }, 90)).toBeNull();
    expect(() => exceededLevel(samples, range, 101)).toThrow(RangeError);
  });
});

describe('countEventsAbove', () => {
  it('counts the loud events starting in the ranges, and those outside excluded time', () => {
    const nights = [
      { start: 0, end: 100 },
      { start: 200, end: 300 },
    ];
    const events = [
      { start: 10, level: 70 }, // night, loud
      { start: 20, level: 65 }, // night, exactly the threshold: counts
      { start: 30, level: 64.9 }, // night, too quiet
      { start: 40, level: null }, // no level
      { start: 150, level: 90 }, // not at night
      { start: 100, level: 90 }, // the night's end is not in it
      { start: 250, level: 80 }, // night, loud, but excluded
      { start: 299, level: 66 }, // night, loud
    ];
    // Loud at night: 10, 20, 250, 299 → 4; 250 excluded → 3 valid.
    expect(countEventsAbove(events, nights, 65, [{ start: 240, end: 260 }])).toEqual({ all: 4, valid: 3 });
    expect(countEventsAbove(events, nights, 65)).toEqual({ all: 4, valid: 4 });
    expect(countEventsAbove(events, [], 65)).toEqual({ all: 0, valid: 0 });
  });
});
