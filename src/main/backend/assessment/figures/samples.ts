/**
 * A series as samples with a length: an assessment weighs a reading by how much of a period it
 * covers and excludes it when it touches excluded time, so each reading needs its end as well as
 * its start. Also the binary searches every figure uses to find a period's samples without
 * scanning the series again for each of an assessment's ~200 periods.
 */
import type { SeriesChannel, TimeInterval } from '../../../../shared/data';
import { normalize } from '../../core/intervals';

/** `values[i]` (NaN: no reading) was taken over [starts[i], ends[i]); starts ascend. */
export interface Samples {
  starts: Float64Array;
  ends: Float64Array;
  values: Float32Array;
}

/**
 * The channel's readings as samples of `periodMs` each (an instrument's logging interval: 1 s
 * LAeq, 15-min statistics). The starts and values are the channel's own arrays, not copies.
 */
export function samplesOf(channel: SeriesChannel, periodMs: number): Samples {
  if (!(Number.isFinite(periodMs) && periodMs >= 0)) throw new RangeError(`Bad sample length ${periodMs}.`);
  const count = Math.min(channel.times.length, channel.values.length);
  const starts = channel.times.subarray(0, count);
  const ends = new Float64Array(count);
  for (let i = 0; i < count; i++) ends[i] = starts[i]! + periodMs;
  return { starts, ends, values: channel.values.subarray(0, count) };
}

/** The first index whose start is at least `t` (samples.starts.length when none). */
export function firstStartingAtOrAfter(samples: Samples, t: number): number {
  const { starts } = samples;
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index range [from, to) of the samples that start in `range`. */
export function startingIn(samples: Samples, range: TimeInterval): { from: number; to: number } {
  const from = firstStartingAtOrAfter(samples, range.start);
  return { from, to: Math.max(from, firstStartingAtOrAfter(samples, range.end)) };
}

/**
 * The index range [from, to) of the samples that overlap `range`: those starting in it, and before
 * them those that started earlier but end inside it (a series' samples follow one another, so
 * that is at most one or two).
 */
export function overlapping(samples: Samples, range: TimeInterval): { from: number; to: number } {
  const { from: first, to } = startingIn(samples, range);
  let from = first;
  while (from > 0 && samples.ends[from - 1]! > range.start) from--;
  return { from, to: Math.max(from, to) };
}

/**
 * The first of the (normalised) `intervals` that ends after `t`, by binary search;
 * intervals.length when none.
 */
export function firstEndingAfter(intervals: readonly TimeInterval[], t: number): number {
  let lo = 0;
  let hi = intervals.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (intervals[mid]!.end <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether `t` lies in one of the normalised `intervals` (sorted, apart), by binary search. */
export function liesIn(intervals: readonly TimeInterval[], t: number): boolean {
  const interval = intervals[firstEndingAfter(intervals, t)];
  return interval !== undefined && interval.start <= t;
}

/**
 * 1 where a sample overlaps any of the excluded intervals, 0 elsewhere. Any overlap excludes the
 * whole sample — the conservative rule: a 15-min LAeq with one windy minute in it is not a clean
 * 15-min LAeq, and the reading cannot be split. A sample without length (start = end) counts as
 * the instant it was taken. The intervals are merged and sorted first, then each sample finds its
 * neighbour by binary search: O(m log m + n log m).
 */
export function exclusionMask(samples: Samples, excluded: readonly TimeInterval[]): Uint8Array {
  const { starts, ends } = samples;
  const mask = new Uint8Array(starts.length);
  const cuts = normalize(excluded);
  if (cuts.length === 0) return mask;
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i]!;
    const end = ends[i]!;
    const cut = cuts[firstEndingAfter(cuts, start)];
    if (cut !== undefined && (cut.start < end || cut.start <= start)) mask[i] = 1;
  }
  return mask;
}

/** Whether sample `i` counts: it has a reading and is not masked. */
export function isCounted(values: Float32Array, mask: Uint8Array | null | undefined, i: number): boolean {
  const v = values[i]!;
  return v === v && (mask == null || mask[i] !== 1);
}
