/**
 * Coverage math: sets of half-open time intervals [start, end) in epoch ms, kept normalised
 * (sorted, non-empty, neither overlapping nor touching). Pure functions; the cache and the sync
 * build on them, and the property tests exercise them directly.
 */
import type { TimeInterval } from '../../../shared/data';

const isNonEmpty = (interval: TimeInterval) => interval.end > interval.start;

/** Sorted, merged (overlapping or touching intervals joined), empty ones dropped. */
export function normalize(intervals: readonly TimeInterval[]): TimeInterval[] {
  const sorted = intervals
    .filter(isNonEmpty)
    .map((i) => ({ start: i.start, end: i.end }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: TimeInterval[] = [];
  for (const interval of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push(interval);
  }
  return merged;
}

/** Everything in `a` or in `b`. */
export function union(a: readonly TimeInterval[], b: readonly TimeInterval[]): TimeInterval[] {
  return normalize([...a, ...b]);
}

/** What of `from` is not in `remove`. */
export function subtract(from: readonly TimeInterval[], remove: readonly TimeInterval[]): TimeInterval[] {
  const cuts = normalize(remove);
  const result: TimeInterval[] = [];
  for (const interval of normalize(from)) {
    let cursor = interval.start;
    for (const cut of cuts) {
      if (cut.end <= cursor) continue;
      if (cut.start >= interval.end) break;
      if (cut.start > cursor) result.push({ start: cursor, end: cut.start });
      cursor = Math.max(cursor, cut.end);
      if (cursor >= interval.end) break;
    }
    if (cursor < interval.end) result.push({ start: cursor, end: interval.end });
  }
  return result;
}

/** What of `a` is also in `b`. */
export function intersect(a: readonly TimeInterval[], b: readonly TimeInterval[]): TimeInterval[] {
  const left = normalize(a);
  const right = normalize(b);
  const result: TimeInterval[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    const x = left[i]!;
    const y = right[j]!;
    const start = Math.max(x.start, y.start);
    const end = Math.min(x.end, y.end);
    if (end > start) result.push({ start, end });
    if (x.end < y.end) i++;
    else j++;
  }
  return result;
}

/** The parts of `range` that `covered` does not cover, in time order. */
export function gaps(range: TimeInterval, covered: readonly TimeInterval[]): TimeInterval[] {
  return subtract([range], covered);
}

/** Total length (ms) of a set of intervals (overlaps counted once). */
export function totalLength(intervals: readonly TimeInterval[]): number {
  return normalize(intervals).reduce((sum, i) => sum + (i.end - i.start), 0);
}

/** Whether `t` lies in one of the intervals. */
export function contains(intervals: readonly TimeInterval[], t: number): boolean {
  return intervals.some((i) => t >= i.start && t < i.end);
}
