/**
 * Exact figures of a channel over a range, from every reading (never from the points a chart
 * draws): how many readings, the lowest and highest with their times, the mean — energetic for
 * levels in dB (Leq = 10·log10 of the mean of 10^(L/10)) — and, for levels, the statistical
 * levels L10 and L90 of the readings.
 *
 * L10 and L90 by nearest rank: LN is the lowest level reached or exceeded by N % of the readings
 * (sorted from the highest, the reading at rank ⌈N·n/100⌉). From 1-second time history this is
 * the usual estimate; the instrument's own statistical values (LAF10, LAF90) come from its
 * fast-weighted levels and can differ by a few tenths.
 */
import type { SeriesChannel, TimeInterval } from './data';

export interface ChannelFigures {
  name: string;
  /** The channel's label, or its name. */
  label: string;
  unit: string | null;
  /** Readings in the range (gaps and missing readings not counted). */
  readings: number;
  /** When the first and last reading in the range were taken (epoch ms), or null without readings. */
  first: number | null;
  last: number | null;
  min: { value: number; time: number } | null;
  max: { value: number; time: number } | null;
  /** The energetic mean (Leq) for dB, the arithmetic mean otherwise. */
  mean: number | null;
  /** How `mean` was formed. */
  meanKind: 'energetic' | 'arithmetic';
  /** Only for dB: the level reached or exceeded by 10 % and by 90 % of the readings. */
  l10: number | null;
  l90: number | null;
}

/** Nearest rank from the top: the ⌈N·n/100⌉-th highest reading (at least the first). */
const rankOf = (percent: number, n: number) => Math.max(1, Math.ceil((percent / 100) * n));

/**
 * The k-th smallest value (0-based) of `values`, which it reorders: Hoare's selection with a
 * median-of-three pivot, linear on average — a week of 1 s readings is not sorted for two levels.
 */
export function selectKth(values: Float32Array, k: number): number {
  let low = 0;
  let high = values.length - 1;
  while (high > low) {
    const middle = (low + high) >>> 1;
    // Median of three as the pivot, so sorted or constant runs do not make it quadratic.
    const [a, b, c] = [values[low]!, values[middle]!, values[high]!];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i] = values[j]!;
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) high = j;
    else if (k >= i) low = i;
    else return values[k]!;
  }
  return values[k]!;
}

export function channelFigures(channel: SeriesChannel, range: TimeInterval): ChannelFigures {
  const { times, values } = channel;
  const isLevel = channel.unit === 'dB';
  const inRange = new Float32Array(values.length);
  let n = 0;
  let sum = 0;
  let first: number | null = null;
  let last: number | null = null;
  let min: ChannelFigures['min'] = null;
  let max: ChannelFigures['max'] = null;
  for (let i = 0; i < values.length; i++) {
    const t = times[i]!;
    const v = values[i]!;
    if (Number.isNaN(v) || t < range.start || t >= range.end) continue;
    inRange[n++] = v;
    sum += isLevel ? 10 ** (v / 10) : v;
    first ??= t;
    last = t;
    if (min === null || v < min.value) min = { value: v, time: t };
    if (max === null || v > max.value) max = { value: v, time: t };
  }
  const mean = n === 0 ? null : isLevel ? 10 * Math.log10(sum / n) : sum / n;
  let l10: number | null = null;
  let l90: number | null = null;
  if (isLevel && n > 0) {
    const readings = inRange.subarray(0, n);
    l10 = selectKth(readings, n - rankOf(10, n));
    l90 = selectKth(readings, n - rankOf(90, n));
  }
  return {
    name: channel.name,
    label: channel.label ?? channel.name,
    unit: channel.unit,
    readings: n,
    first,
    last,
    min,
    max,
    mean,
    meanKind: isLevel ? 'energetic' : 'arithmetic',
    l10,
    l90,
  };
}
