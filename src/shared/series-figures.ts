/**
 * Exact figures of a channel over a range, from every reading (never from the points a chart
 * draws), as its kind of quantity makes sense of them (shared/quantities.ts): how many readings,
 * the lowest and highest with their times, and
 * - levels: the energetic mean (Leq = 10·log10 of the mean of 10^(L/10)) and the statistical
 *   levels L10 and L90 of the readings;
 * - exposure levels (LAE): the total exposure, 10·log10 of the sum of 10^(L/10);
 * - peaks and maxima (LCPeak, LAFMax, PPV): nothing more (the highest is their figure);
 * - doses (VDV): the range's own VDV, the fourth root of the sum of fourth powers (BS 6472-1);
 * - counters (running totals): the increase over the range and the last value, never a mean;
 * - directions (wind): the mean direction, from unit vectors (350° and 10° make 0°, not 180°);
 * - signal quality and plain quantities: the arithmetic mean.
 *
 * L10 and L90 by nearest rank: LN is the lowest level reached or exceeded by N % of the readings
 * (sorted from the highest, the reading at rank ⌈N·n/100⌉). From 1-second time history this is
 * the usual estimate; the instrument's own statistical values (LAF10, LAF90) come from its
 * fast-weighted levels and can differ by a few tenths.
 */
import { toEnergy, toLevel } from './acoustics';
import type { SeriesChannel, TimeInterval } from './data';
import { quantityOf, type Precision, type QuantityKind } from './quantities';

export interface ChannelFigures {
  name: string;
  /** The channel's label, or its name. */
  label: string;
  unit: string | null;
  /** What kind of quantity the channel is, and how its values are written (quantities.ts). */
  kind: QuantityKind;
  /** Null for a channel nothing declares: as its values came. */
  precision: Precision | null;
  /** Readings in the range (gaps and missing readings not counted). */
  readings: number;
  /** When the first and last reading in the range were taken (epoch ms), or null without readings. */
  first: number | null;
  last: number | null;
  min: { value: number; time: number } | null;
  max: { value: number; time: number } | null;
  /** The last reading in the range and when: a counter's running total at the range's end. */
  latest: { value: number; time: number } | null;
  /**
   * The mean, where the kind has one: energetic (Leq) for levels, arithmetic for signal quality
   * and plain quantities, the mean direction for degrees (359° and 1° average to 0°, not 180°;
   * null when the directions cancel out). Null for peaks, exposures and doses, and without readings.
   */
  mean: number | null;
  /** How `mean` was formed; null for kinds without a mean. */
  meanKind: 'energetic' | 'circular' | 'arithmetic' | null;
  /**
   * The range's total, where the kind adds up: the total exposure of exposure levels (energy sum,
   * dB), the VDV of doses (fourth root of the sum of fourth powers), the increase of a counter
   * (see `counterIncrease`). Null otherwise.
   */
  total: number | null;
  totalKind: 'energySum' | 'fourthPower' | 'increase' | null;
  /** Only for levels: the level reached or exceeded by 10 % and by 90 % of the readings. */
  l10: number | null;
  l90: number | null;
}

/** Nearest rank from the top: the ⌈N·n/100⌉-th highest reading (at least the first). */
const rankOf = (percent: number, n: number) => Math.max(1, Math.ceil((percent / 100) * n));

/** Bins of the first radix pass: the top 16 bits of a float's order-preserving key. */
const BINS = 1 << 16;

/**
 * A float32's bits as an unsigned key in the order of the values: positive floats with the sign
 * bit set, negative ones with every bit flipped (so -1 < -0 < +0 < 1 as keys too).
 */
const orderKey = (bits: number) => (bits ^ ((bits >> 31) | 0x80000000)) >>> 0;

/** The float32 whose order key is `key` (the inverse of `orderKey`). */
function valueOfKey(key: number): number {
  const word = new Uint32Array(1);
  word[0] = key & 0x80000000 ? key ^ 0x80000000 : ~key;
  return new Float32Array(word.buffer)[0]!;
}

/**
 * The k-th smallest readings (0-based) of `values[from..to)` (NaN not counted) for one or two
 * ranks `ks`, by radix selection on the floats' order keys: one pass counts the top 16 bits, a
 * second counts the low 16 bits of the readings in the bins the ranks fall into, which pins each
 * rank to one exact value. Two passes, no copy and no sort, whatever the data (quickselect on a
 * week of 1 s levels took several times as long). `high` is the first pass when the caller
 * already counted it; `n` the number of readings.
 */
function selectRanks(
  values: Float32Array,
  from: number,
  to: number,
  ks: readonly [number] | readonly [number, number],
  n: number,
  high?: Uint32Array,
): number[] {
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  if (high === undefined) {
    high = new Uint32Array(BINS);
    for (let i = from; i < to; i++) if (!Number.isNaN(values[i]!)) high[orderKey(bits[i]!) >>> 16]!++;
  }
  const counted = high;
  // Which top bin each rank lies in, and its rank among the readings of that bin.
  const wanted = ks.map((k) => {
    if (!(Number.isInteger(k) && k >= 0 && k < n))
      throw new RangeError(`No reading of rank ${k} among ${n}.`);
    let below = 0;
    let bin = 0;
    while (below + counted[bin]! <= k) below += counted[bin++]!;
    return { bin, rest: k - below };
  });
  const binA = wanted[0]!.bin;
  const binB = wanted[1]?.bin ?? binA;
  const lowA = new Uint32Array(BINS);
  const lowB = binB === binA ? lowA : new Uint32Array(BINS);
  for (let i = from; i < to; i++) {
    const v = values[i]!;
    if (v !== v) continue; // NaN
    const key = orderKey(bits[i]!);
    const bin = key >>> 16;
    if (bin === binA) lowA[key & 0xffff]!++;
    else if (bin === binB) lowB[key & 0xffff]!++;
  }
  return wanted.map(({ bin, rest }) => {
    const low = bin === binA ? lowA : lowB;
    let below = 0;
    let lowBits = 0;
    while (below + low[lowBits]! <= rest) below += low[lowBits++]!;
    return valueOfKey(((bin << 16) | lowBits) >>> 0);
  });
}

/**
 * Below this many readings, sorting a copy is quicker than the two passes of `selectRanks`, whose
 * counts span 65,536 bins whatever the readings (an hour of 1 s levels is 3,600).
 */
const SORT_BELOW = 16_384;

/** The k-th smallest value (0-based) of `values` (NaN not counted), as sorting them would give it. */
export function selectKth(values: Float32Array, k: number): number {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i]!)) n++;
  if (n >= SORT_BELOW) return selectRanks(values, 0, values.length, [k], n)[0]!;
  if (!(Number.isInteger(k) && k >= 0 && k < n)) throw new RangeError(`No reading of rank ${k} among ${n}.`);
  const sorted = new Float32Array(n);
  let m = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i]!)) sorted[m++] = values[i]!;
  return sorted.sort()[k]!;
}

/** Slots of the energy memo (see channelFigures). */
const MEMO_SLOTS = 4096;
/** Bits no reading looked up ever has (a NaN's): an empty memo slot. */
const EMPTY_SLOT = 0x7fc00000;

/** The first index of `times[0..count)` (ascending) whose time is at least `t`. */
function lowerBound(times: Float64Array, count: number, t: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const RADIANS_PER_DEGREE = Math.PI / 180;

/**
 * The direction of `n` summed unit vectors (`east` = Σ sin θ, `north` = Σ cos θ), 0–360°; null
 * when they cancel out (no prevailing direction). Rounded to a millionth of a degree first, so a
 * mean a hair west of north (−1e-15°) is north (0°), not 360°.
 */
export function directionOfVectors(east: number, north: number, n: number): number | null {
  if (n === 0 || Math.hypot(east, north) / n < 1e-6) return null;
  const degrees = Math.round((Math.atan2(east, north) / RADIANS_PER_DEGREE) * 1e6) / 1e6;
  const mean = (degrees + 360) % 360;
  return mean === 0 ? 0 : mean; // never −0
}

/** The circular mean of directions in degrees: 350° and 10° make 0°; null when they cancel out. */
export function circularMean(directions: Iterable<number>): number | null {
  let east = 0;
  let north = 0;
  let n = 0;
  for (const degrees of directions) {
    if (!Number.isFinite(degrees)) continue;
    east += Math.sin(degrees * RADIANS_PER_DEGREE);
    north += Math.cos(degrees * RADIANS_PER_DEGREE);
    n++;
  }
  return directionOfVectors(east, north, n);
}

/**
 * How much a running total grew between readings `from` and `to` (NaN skipped): the sum of its
 * steps, where a fall is a restart from zero (a monitor's reboot, "data today" at midnight) and
 * counts the new value. 100 → 130 → 160 grew by 60; 100 → 160 → 20 → 50 by 60 + 20 + 30 = 110.
 */
export function counterIncrease(values: Float32Array, from = 0, to = values.length): number {
  let increase = 0;
  let previous = Number.NaN;
  for (let i = from; i < to; i++) {
    const v = values[i]!;
    if (v !== v) continue; // NaN: no reading
    if (previous === previous) increase += v >= previous ? v - previous : v;
    previous = v;
  }
  return increase;
}

/** The figures of the readings in `range`; `times` ascend (as every series here does). */
export function channelFigures(channel: SeriesChannel, range: TimeInterval): ChannelFigures {
  const { times, values } = channel;
  const { kind, precision } = quantityOf(channel);
  // Levels and exposures add up as energies; a direction's mean is a vector's.
  const isEnergy = kind === 'level' || kind === 'exposure';
  const isLevel = kind === 'level';
  const isDose = kind === 'dose';
  const isDirection = kind === 'direction';
  const isCounter = kind === 'counter';
  const hasMean = kind === 'level' || kind === 'signal' || kind === 'plain' || isDirection;
  let east = 0;
  let north = 0;
  const count = Math.min(times.length, values.length);
  // The range's samples by binary search: the loops below then never read a time.
  const from = lowerBound(times, count, range.start);
  const to = Math.max(from, lowerBound(times, count, range.end));
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  // The first radix pass of L10/L90, counted along with the rest.
  const counts = isLevel ? new Uint32Array(BINS) : null;
  // Levels come in steps (0.1 dB): a week of them holds a few hundred distinct values, so each
  // distinct value is counted by its bits and its energy computed once, instead of e^x 604,800
  // times (an exact sum all the same, in another order).
  const memoBits = new Uint32Array(isEnergy ? MEMO_SLOTS : 0).fill(EMPTY_SLOT);
  const memoCount = new Uint32Array(isEnergy ? MEMO_SLOTS : 0);
  const memoEnergy = new Float64Array(isEnergy ? MEMO_SLOTS : 0);
  let n = 0;
  let sum = 0;
  let firstIndex = -1;
  let lastIndex = -1;
  let minIndex = -1;
  let maxIndex = -1;
  for (let i = from; i < to; i++) {
    const v = values[i]!;
    if (v !== v) continue; // NaN: no reading
    n++;
    if (isEnergy) {
      const b = bits[i]!;
      const slot = (b ^ (b >>> 13)) & (MEMO_SLOTS - 1);
      if (memoBits[slot] === b) {
        memoCount[slot]!++;
      } else {
        sum += memoCount[slot]! * memoEnergy[slot]!;
        memoBits[slot] = b;
        memoCount[slot] = 1;
        memoEnergy[slot] = toEnergy(v);
      }
      if (counts !== null) counts[orderKey(b) >>> 16]!++;
    } else if (isDose) {
      const square = v * v;
      sum += square * square;
    } else if (isDirection) {
      east += Math.sin(v * RADIANS_PER_DEGREE);
      north += Math.cos(v * RADIANS_PER_DEGREE);
    } else {
      sum += v;
    }
    if (firstIndex < 0) firstIndex = minIndex = maxIndex = i;
    else if (v < values[minIndex]!) minIndex = i;
    else if (v > values[maxIndex]!) maxIndex = i;
    lastIndex = i;
  }
  for (let slot = 0; slot < memoCount.length; slot++) sum += memoCount[slot]! * memoEnergy[slot]!;
  const mean =
    n === 0 || !hasMean
      ? null
      : isLevel
        ? toLevel(sum / n)
        : isDirection
          ? directionOfVectors(east, north, n)
          : sum / n;
  const total =
    n === 0
      ? null
      : kind === 'exposure'
        ? toLevel(sum)
        : isDose
          ? Math.sqrt(Math.sqrt(sum))
          : isCounter
            ? counterIncrease(values, from, to)
            : null;
  let l10: number | null = null;
  let l90: number | null = null;
  if (counts !== null && n > 0) {
    const ranks = [n - rankOf(10, n), n - rankOf(90, n)] as const;
    [l10, l90] = selectRanks(values, from, to, ranks, n, counts) as [number, number];
  }
  const at = (i: number) => (i < 0 ? null : { value: values[i]!, time: times[i]! });
  return {
    name: channel.name,
    label: channel.label ?? channel.name,
    unit: channel.unit,
    kind,
    precision,
    readings: n,
    first: firstIndex < 0 ? null : times[firstIndex]!,
    last: lastIndex < 0 ? null : times[lastIndex]!,
    // A direction has no highest or lowest: 359° is next to 1°, not far above it.
    min: isDirection ? null : at(minIndex),
    max: isDirection ? null : at(maxIndex),
    latest: at(lastIndex),
    mean,
    meanKind: !hasMean ? null : isLevel ? 'energetic' : isDirection ? 'circular' : 'arithmetic',
    total,
    totalKind: kind === 'exposure' ? 'energySum' : isDose ? 'fourthPower' : isCounter ? 'increase' : null,
    l10,
    l90,
  };
}
