/**
 * The noise figures of a period, from samples: the energetic mean (LAeq) weighted by time, the
 * highest level, Lden after the EU's Environmental Noise Directive, the mean of an instrument's
 * interval statistics (LAF10, LAF90), the statistical levels LN ranked from a time history and the
 * count of loud events. Each figure takes an optional exclusion mask, so an assessment forms it
 * once from every reading and once from the readings that count.
 *
 * A sample belongs to a period when it starts in it — for the maximum, the ranks and the means of
 * interval values — except in `leq`, which weighs each sample by the part of it inside the period
 * (a 15-min sample at 22:50 gives 10 min to the day and 5 to the night).
 */
import type { TimeInterval } from '../../../../shared/data';
import { selectKth } from '../../../../shared/series-figures';
import { normalize } from '../../core/intervals';
import { toEnergy, toLevel } from '../../../../shared/acoustics';
import { isCounted, liesIn, overlapping, startingIn, type Samples } from './samples';

export interface LevelFigure {
  value: number | null;
  /** Seconds of readings that count within the range. */
  seconds: number;
  readings: number;
}

/** Energetic mean, each sample weighted by the part of it inside the range; masked samples and NaN skipped. */
export function leq(samples: Samples, range: TimeInterval, mask?: Uint8Array | null): LevelFigure {
  const { starts, ends, values } = samples;
  const { from, to } = overlapping(samples, range);
  let weightedEnergy = 0;
  let ms = 0;
  let readings = 0;
  for (let i = from; i < to; i++) {
    if (!isCounted(values, mask, i)) continue;
    const inside = Math.min(ends[i]!, range.end) - Math.max(starts[i]!, range.start);
    if (!(inside > 0)) continue;
    weightedEnergy += inside * toEnergy(values[i]!);
    ms += inside;
    readings++;
  }
  return { value: ms > 0 ? toLevel(weightedEnergy / ms) : null, seconds: ms / 1000, readings };
}

/** The highest level of the samples starting in the range, and when that sample started (the first, if tied). */
export function maxLevel(
  samples: Samples,
  range: TimeInterval,
  mask?: Uint8Array | null,
): { value: number; time: number } | null {
  const { starts, values } = samples;
  const { from, to } = startingIn(samples, range);
  let best = -1;
  for (let i = from; i < to; i++) {
    if (isCounted(values, mask, i) && (best < 0 || values[i]! > values[best]!)) best = i;
  }
  return best < 0 ? null : { value: values[best]!, time: starts[best]! };
}

/**
 * EU END (2002/49/EC Annex I): 10·lg(1/24·(12·10^(Ld/10) + 4·10^((Le+5)/10) + 8·10^((Ln+10)/10)));
 * null if any is null. The weights stay 12, 4 and 8 hours on the days the clocks change, as the
 * directive writes them.
 */
export function lden(day: number | null, evening: number | null, night: number | null): number | null {
  if (day === null || evening === null || night === null) return null;
  return toLevel((12 * toEnergy(day) + 4 * toEnergy(evening + 5) + 8 * toEnergy(night + 10)) / 24);
}

/**
 * Arithmetic mean of interval values (e.g. 15-min LAF90s) whose sample starts in range; for the
 * "intervals" statistics method. `seconds` counts the part of those samples inside the range.
 */
export function meanOfIntervals(
  samples: Samples,
  range: TimeInterval,
  mask?: Uint8Array | null,
): LevelFigure {
  const { starts, ends, values } = samples;
  const { from, to } = startingIn(samples, range);
  let sum = 0;
  let ms = 0;
  let readings = 0;
  for (let i = from; i < to; i++) {
    if (!isCounted(values, mask, i)) continue;
    sum += values[i]!;
    ms += Math.max(0, Math.min(ends[i]!, range.end) - starts[i]!);
    readings++;
  }
  return { value: readings > 0 ? sum / readings : null, seconds: ms / 1000, readings };
}

/** Nearest rank from the top, as series-figures.ts forms L10 and L90: the ⌈N·n/100⌉-th highest (at least the first). */
const rankFromTop = (percent: number, n: number) => Math.max(1, Math.ceil((percent / 100) * n));

/**
 * LN by nearest rank from the readings in range (same convention as series-figures.ts): the level
 * reached or exceeded by N % of the readings — the ⌈N·n/100⌉-th highest. Null without readings.
 */
export function exceededLevel(
  samples: Samples,
  range: TimeInterval,
  percent: number,
  mask?: Uint8Array | null,
): number | null {
  if (!(percent >= 0 && percent <= 100)) throw new RangeError(`No L${percent}: N is 0 to 100.`);
  const { values } = samples;
  const { from, to } = startingIn(samples, range);
  let readings: Float32Array;
  if (mask == null) {
    readings = values.subarray(from, to); // selectKth skips the NaNs itself
  } else {
    readings = new Float32Array(to - from);
    let n = 0;
    for (let i = from; i < to; i++) if (isCounted(values, mask, i)) readings[n++] = values[i]!;
    readings = readings.subarray(0, n);
  }
  let n = 0;
  for (let i = 0; i < readings.length; i++) if (!Number.isNaN(readings[i]!)) n++;
  if (n === 0) return null;
  return selectKth(readings, n - rankFromTop(percent, n));
}

/**
 * The events that start in one of `ranges` (e.g. the nights) with a level of at least `threshold`:
 * `all` of them, and the `valid` ones, which do not start in excluded time. Events without a
 * level are not counted.
 */
export function countEventsAbove(
  events: ReadonlyArray<{ start: number; level: number | null }>,
  ranges: readonly TimeInterval[],
  threshold: number,
  excluded: readonly TimeInterval[] = [],
): { all: number; valid: number } {
  const within = normalize(ranges);
  const cuts = normalize(excluded);
  let all = 0;
  let valid = 0;
  for (const event of events) {
    if (event.level === null || !(event.level >= threshold) || !liesIn(within, event.start)) continue;
    all++;
    if (!liesIn(cuts, event.start)) valid++;
  }
  return { all, valid };
}
