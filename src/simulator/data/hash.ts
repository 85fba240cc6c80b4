/**
 * Stateless hashing for the demo history: every value is a pure function of (seed, instrument,
 * stream, index), so any stretch of history can be generated on its own, in any order, and a
 * query always gets the same answer.
 */

/** murmur3's 32-bit finaliser: a good avalanche for sequential inputs. */
export function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit key from a string and a number (e.g. a serial number and the seed). */
export function hashString(text: string, seed: number): number {
  let h = fmix((seed ^ 0x9e3779b9) >>> 0);
  for (let i = 0; i < text.length; i++) h = fmix(h ^ Math.imul(text.charCodeAt(i), 0x01000193));
  return h;
}

/** 32 random bits from a key, a stream number and an index (any integer, including negative). */
export function hash32(key: number, stream: number, index: number): number {
  const high = Math.floor(index / 4294967296);
  return fmix(fmix((key ^ Math.imul(stream, 0x27d4eb2f)) >>> 0) ^ (index | 0) ^ Math.imul(high, 0x165667b1));
}

/** Uniform in [0, 1) from a key, a stream number and an index. */
export function unit(key: number, stream: number, index: number): number {
  return hash32(key, stream, index) / 4294967296;
}

/** Uniform in [min, max). */
export const between = (key: number, stream: number, index: number, min: number, max: number): number =>
  min + unit(key, stream, index) * (max - min);

/**
 * Smooth value noise in [-1, 1]: random values at integer points of `x`, eased in between, so
 * a signal sampled every second wanders instead of jumping.
 */
export function valueNoise(key: number, stream: number, x: number): number {
  const i = Math.floor(x);
  const f = x - i;
  const a = unit(key, stream, i) * 2 - 1;
  const b = unit(key, stream, i + 1) * 2 - 1;
  const t = f * f * (3 - 2 * f);
  return a + (b - a) * t;
}

/**
 * The lattice values value noise needs for x = s / scale over seconds [startSec, startSec + n):
 * entry j is the value at lattice point floor(startSec / scale) + j; the last slot holds that
 * first lattice index.
 */
export function lattice(
  key: number,
  stream: number,
  startSec: number,
  n: number,
  scale: number,
): Float64Array {
  const first = Math.floor(startSec / scale);
  const last = Math.floor((startSec + n - 1) / scale) + 1;
  const out = new Float64Array(last - first + 2);
  for (let j = 0; j <= last - first; j++) out[j] = unit(key, stream, first + j) * 2 - 1;
  out[out.length - 1] = first;
  return out;
}

/** Value noise at x = s / scale from a lattice made by `lattice` (the same as `valueNoise`). */
export function sampleLattice(values: Float64Array, s: number, scale: number): number {
  const x = s / scale;
  const i = Math.floor(x);
  const f = x - i;
  const j = i - (values[values.length - 1] as number);
  const a = values[j] as number;
  const b = values[j + 1] as number;
  const t = f * f * (3 - 2 * f);
  return a + (b - a) * t;
}

/** Deterministic stream numbers, one per kind of random quantity, so kinds never share values. */
export const STREAM = {
  outageDay: 1,
  outageStart: 2,
  outageLength: 3,
  stopped: 4,
  levelOffset: 10,
  dayOffset: 11,
  slow: 12,
  medium: 13,
  fast: 14,
  white: 15,
  pattern: 16,
  intervalShape: 17,
  bandJitter: 18,
  eventCount: 20,
  eventStart: 21,
  eventLength: 22,
  eventPeak: 23,
  eventShape: 24,
  eventPeakAt: 25,
  eventTrigger: 26,
  manualEvent: 27,
  audio: 90,
  weather: 30,
  particulates: 40,
  gases: 50,
  vibration: 60,
  nulls: 70,
  monitor: 80,
} as const;
