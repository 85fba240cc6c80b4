/**
 * Noise value names and how each is computed from the per-second model, for measurement
 * records (15-minute grid intervals, recalculated to longer periods) and time history samples.
 */
import type { NoiseValueName } from '../../shared/service/limits';
import { toEnergy, toLevel } from '../../shared/acoustics';
import { SECONDS_PER_GRID, weightedLevels, type IntervalSeconds } from './interval-seconds';
import { OFFSET, SUBSAMPLES, type SubsecondPatterns } from './subsecond-patterns';

export type ValueSpec =
  | { name: NoiseValueName; kind: 'leq' | 'exposure'; w: number }
  | { name: NoiseValueName; kind: 'lex8' }
  | { name: NoiseValueName; kind: 'max'; w: number; offset: number }
  | { name: NoiseValueName; kind: 'stat'; percent: number }
  | { name: NoiseValueName; kind: 'leqT'; windowSec: number };

const W: Record<string, number> = { A: 0, C: 1, Z: 2 };
const TIME_WEIGHTING: Record<string, number> = { F: OFFSET.fast, S: OFFSET.slow, I: OFFSET.impulse };

/** Moving-average windows of LeqT1Max and LeqT2Max on the demo instruments, and their names. */
export const LEQ_T1 = { windowSec: 60, type: 'LAeq,1min' };
export const LEQ_T2 = { windowSec: 300, type: 'LAeq,5min' };

export function valueSpec(name: NoiseValueName): ValueSpec {
  let m = /^L([ACZ])eq$/.exec(name);
  if (m) return { name, kind: 'leq', w: W[m[1] as string] as number };
  m = /^L([ACZ])E$/.exec(name);
  if (m) return { name, kind: 'exposure', w: W[m[1] as string] as number };
  if (name === 'LEX8') return { name, kind: 'lex8' };
  m = /^L([ACZ])Peak$/.exec(name);
  if (m)
    return {
      name,
      kind: 'max',
      w: W[m[1] as string] as number,
      offset: m[1] === 'A' ? OFFSET.peakA : OFFSET.peakCZ,
    };
  m = /^L([ACZ])([FSI])Max$/.exec(name);
  if (m)
    return {
      name,
      kind: 'max',
      w: W[m[1] as string] as number,
      offset: TIME_WEIGHTING[m[2] as string] as number,
    };
  m = /^LAF(\d+)$/.exec(name);
  if (m) return { name, kind: 'stat', percent: Number(m[1]) };
  if (name === 'LeqT1Max') return { name, kind: 'leqT', windowSec: LEQ_T1.windowSec };
  if (name === 'LeqT2Max') return { name, kind: 'leqT', windowSec: LEQ_T2.windowSec };
  throw new Error(`Unknown noise value ${name}.`);
}

/** Time history carries per-sample levels: no statistics, moving averages or daily exposure. */
export const isTimeHistoryValue = (name: NoiseValueName): boolean => {
  const kind = valueSpec(name).kind;
  return kind === 'leq' || kind === 'exposure' || kind === 'max';
};

const EXPOSURE_8H = toLevel(8 * 3600);

/** What one grid interval contributes to a measurement record: energies or maxima per value. */
export interface IntervalValues {
  durationSec: number;
  /** Per value: mean energy (leq/exposure/lex8 kinds) or level (max, stat, leqT kinds). */
  values: Float64Array;
  overload: boolean;
}

/** Level above which the demo instruments flag an overload (LCPeak, dB). */
const OVERLOAD_PEAK = 135;

export function intervalValues(
  iv: IntervalSeconds,
  specs: readonly ValueSpec[],
  patterns: SubsecondPatterns,
): IntervalValues {
  const levels = new Map<number, Float64Array>();
  const levelsOf = (w: number): Float64Array => {
    let out = levels.get(w);
    if (!out) {
      out = weightedLevels(iv, w, new Float64Array(SECONDS_PER_GRID));
      levels.set(w, out);
    }
    return out;
  };
  const maxOf = (w: number, offset: number): number => {
    const l = levelsOf(w);
    const maxima = patterns.maxima[offset] as Float64Array;
    let max = -Infinity;
    for (let i = 0; i < SECONDS_PER_GRID; i++) {
      const v = (l[i] as number) + (maxima[iv.pattern[i] as number] as number);
      if (v > max) max = v;
    }
    return max;
  };
  const meanEnergy = (w: number): number => {
    const l = levelsOf(w);
    let sum = 0;
    for (let i = 0; i < SECONDS_PER_GRID; i++) sum += toEnergy(l[i] as number);
    return sum / SECONDS_PER_GRID;
  };
  let sorted: Float64Array | null = null;
  const values = new Float64Array(specs.length);
  specs.forEach((spec, index) => {
    switch (spec.kind) {
      case 'leq':
      case 'exposure':
        values[index] = meanEnergy(spec.w);
        break;
      case 'lex8':
        values[index] = meanEnergy(0);
        break;
      case 'max':
        values[index] = maxOf(spec.w, spec.offset);
        break;
      case 'stat': {
        sorted ??= Float64Array.from(iv.la).sort();
        // LAFn: the level exceeded n % of the time.
        const rank = Math.min(
          SECONDS_PER_GRID - 1,
          Math.floor(((100 - spec.percent) / 100) * SECONDS_PER_GRID),
        );
        values[index] = sorted[rank] as number;
        break;
      }
      case 'leqT': {
        const e = Float64Array.from(iv.la, toEnergy);
        let window = 0;
        let best = 0;
        for (let i = 0; i < SECONDS_PER_GRID; i++) {
          window += e[i] as number;
          if (i >= spec.windowSec) window -= e[i - spec.windowSec] as number;
          if (i >= spec.windowSec - 1 && window > best) best = window;
        }
        values[index] = toLevel(best / spec.windowSec);
        break;
      }
    }
  });
  return { durationSec: SECONDS_PER_GRID, values, overload: maxOf(1, OFFSET.peakCZ) > OVERLOAD_PEAK };
}

/**
 * Combines grid intervals into one record's values: energetic mean for Leq, energetic sum for
 * exposures, maximum for maxima, peaks and moving averages. Statistics come only from single
 * intervals (the caller refuses them with a period).
 */
export function combineIntervals(parts: readonly IntervalValues[], specs: readonly ValueSpec[]): number[] {
  const totalSec = parts.reduce((sum, part) => sum + part.durationSec, 0);
  return specs.map((spec, index) => {
    if (spec.kind === 'max' || spec.kind === 'stat' || spec.kind === 'leqT') {
      return parts.reduce((max, part) => Math.max(max, part.values[index] as number), -Infinity);
    }
    const energySeconds = parts.reduce(
      (sum, part) => sum + (part.values[index] as number) * part.durationSec,
      0,
    );
    const leq = toLevel(energySeconds / totalSec);
    if (spec.kind === 'leq') return leq;
    const exposure = leq + toLevel(totalSec);
    return spec.kind === 'exposure' ? exposure : exposure - EXPOSURE_8H;
  });
}

/**
 * Per-second (or per 100 ms) sample levels of one time history value for a grid interval:
 * the levels a sample of `periodMs` is built from. Returns an array of
 * SECONDS_PER_GRID * (1000 / resolutionMs) values.
 */
export function intervalSampleLevels(
  iv: IntervalSeconds,
  spec: ValueSpec,
  patterns: SubsecondPatterns,
  subsecond: boolean,
): Float64Array {
  if (spec.kind === 'stat' || spec.kind === 'leqT' || spec.kind === 'lex8') {
    throw new Error(`${spec.name} has no time history.`);
  }
  const levels = weightedLevels(iv, spec.w, new Float64Array(SECONDS_PER_GRID));
  const offsetKind = spec.kind === 'max' ? spec.offset : OFFSET.leq;
  if (!subsecond) {
    if (spec.kind !== 'max') return levels;
    const maxima = patterns.maxima[offsetKind] as Float64Array;
    for (let i = 0; i < SECONDS_PER_GRID; i++)
      levels[i] = (levels[i] as number) + (maxima[iv.pattern[i] as number] as number);
    return levels;
  }
  const offsets = patterns.offsets[offsetKind] as Float64Array;
  const out = new Float64Array(SECONDS_PER_GRID * SUBSAMPLES);
  for (let i = 0; i < SECONDS_PER_GRID; i++) {
    const base = levels[i] as number;
    const p = (iv.pattern[i] as number) * SUBSAMPLES;
    for (let j = 0; j < SUBSAMPLES; j++) out[i * SUBSAMPLES + j] = base + (offsets[p + j] as number);
  }
  return out;
}
