/**
 * The site's exclusion rules turned into excluded time: windy or wet spells from the weather
 * channels (and, for wind, the time without a reading), the time from a failed calibration or SIC
 * until the next passed one, the gaps where the instrument sent nothing and the spells it flagged
 * as overloaded. Each gives sorted intervals merged where they overlap or touch, ready for
 * `exclusionMask`.
 */
import type { TimeInterval } from '../../../../shared/data';
import { normalize } from '../../core/intervals';
import { overlapping, type Samples } from './samples';

/** Sorted, merged (overlapping or touching intervals joined), empty ones dropped: core/intervals' `normalize`. */
export { normalize as mergeIntervals } from '../../core/intervals';

/**
 * Contiguous runs of samples whose value satisfies `excluded` (e.g. wind > 5), merged where they
 * touch; with the highest value of each run. Samples without a reading (NaN) are never excluded
 * by value, so they end a run.
 */
export function thresholdPeriods(
  samples: Samples,
  excluded: (value: number) => boolean,
): Array<TimeInterval & { peak: number }> {
  const { starts, ends, values } = samples;
  const runs: Array<TimeInterval & { peak: number }> = [];
  for (let i = 0; i < starts.length; i++) {
    const value = values[i]!;
    if (Number.isNaN(value) || !excluded(value)) continue;
    const start = starts[i]!;
    const end = Math.max(start, ends[i]!);
    const last = runs[runs.length - 1];
    if (last !== undefined && start <= last.end) {
      last.end = Math.max(last.end, end);
      last.peak = Math.max(last.peak, value);
    } else {
      runs.push({ start, end, peak: value });
    }
  }
  return runs.filter((run) => run.end > run.start);
}

/**
 * The time in `range` that no reading covers: between samples, before the first and after the last,
 * and under samples without a reading (NaN). What the wind rule cannot judge: no wind reading is
 * not calm. Exact to the samples' own lengths (no tolerance, unlike `gapPeriods`).
 */
export function unreadPeriods(samples: Samples, range: TimeInterval): TimeInterval[] {
  const { starts, ends, values } = samples;
  const { from, to } = overlapping(samples, range);
  const unread: TimeInterval[] = [];
  let readUntil = range.start;
  const unreadUntil = (next: number) => {
    const end = Math.min(next, range.end);
    if (end > readUntil) unread.push({ start: readUntil, end });
  };
  for (let i = from; i < to; i++) {
    if (Number.isNaN(values[i]!)) continue;
    unreadUntil(starts[i]!);
    readUntil = Math.max(readUntil, ends[i]!);
  }
  unreadUntil(range.end);
  return unread;
}

/**
 * From each failed check until the next passed check of the same kind (or the range's end),
 * clipped to the range; `failedAt` is the first failure of the spell (also when it was before
 * the range). Further failures within a spell do not start another.
 */
export function failedCheckPeriods(
  checks: ReadonlyArray<{ time: number; passed: boolean; kind: 'calibration' | 'sic' }>,
  range: TimeInterval,
): Array<TimeInterval & { kind: 'calibration' | 'sic'; failedAt: number }> {
  const periods: Array<TimeInterval & { kind: 'calibration' | 'sic'; failedAt: number }> = [];
  const failingSince = new Map<'calibration' | 'sic', number>();
  const close = (kind: 'calibration' | 'sic', failedAt: number, until: number) => {
    const start = Math.max(failedAt, range.start);
    const end = Math.min(until, range.end);
    if (end > start) periods.push({ start, end, kind, failedAt });
  };
  const inOrder = [...checks].sort((a, b) => a.time - b.time);
  for (const check of inOrder) {
    if (check.time >= range.end) break;
    const since = failingSince.get(check.kind);
    if (!check.passed && since === undefined) failingSince.set(check.kind, check.time);
    if (check.passed && since !== undefined) {
      close(check.kind, since, check.time);
      failingSince.delete(check.kind);
    }
  }
  for (const [kind, since] of failingSince) close(kind, since, range.end);
  return periods.sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * Where the instrument sent nothing: gaps between samples (and at the range's ends) longer than
 * twice the nominal sample length, clipped to the range. A sample without a reading (NaN) counts
 * as nothing sent.
 */
export function gapPeriods(samples: Samples, range: TimeInterval, nominalMs: number): TimeInterval[] {
  return unreadPeriods(samples, range).filter((gap) => gap.end - gap.start > 2 * nominalMs);
}

/** Runs of samples flagged true (overload), merged where they touch. */
export function flaggedPeriods(
  starts: Float64Array,
  ends: Float64Array,
  flags: ReadonlyArray<boolean | null>,
): TimeInterval[] {
  const flagged: TimeInterval[] = [];
  const count = Math.min(starts.length, ends.length, flags.length);
  for (let i = 0; i < count; i++) if (flags[i] === true) flagged.push({ start: starts[i]!, end: ends[i]! });
  return normalize(flagged);
}
