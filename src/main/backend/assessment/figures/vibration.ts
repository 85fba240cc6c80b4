/**
 * Vibration figures: the peak particle velocity of a period with its frequency, judged against
 * the DIN 4150-3 guideline for the building's kind (the frequency decides the value), and the
 * vibration dose value (BS 6472-1), which adds up over a period as the fourth root of the sum of
 * fourth powers — so a day's VDV comes from its intervals' VDVs, never from their mean.
 */
import type { DinLine } from '../../../../shared/assessment';
import type { TimeInterval } from '../../../../shared/data';
import { isCounted, startingIn, type Samples } from './samples';

/** Table 1's guideline PPV (mm/s) at 10, 50 and 100 Hz for each line (1–10 Hz: the 10 Hz value). */
const DIN_CORNERS: Record<DinLine, readonly [number, number, number]> = {
  1: [20, 40, 50],
  2: [5, 15, 20],
  3: [3, 8, 10],
};

/**
 * DIN 4150-3:2016 table 1, short-term vibration at the foundation, guideline PPV (mm/s) at a
 * frequency; straight lines between the corner frequencies 10, 50 and 100 Hz (as the standard's
 * figure draws them on linear axes); below 10 Hz the 1–10 Hz value, above 100 Hz the 100 Hz value.
 * Line 1 commercial/industrial 20/20–40/40–50/50; line 2 dwellings 5/5–15/15–20/20; line 3
 * sensitive 3/3–8/8–10/10.
 */
export function dinGuideline(frequencyHz: number, line: DinLine): number {
  if (!(frequencyHz >= 0)) throw new RangeError(`No DIN 4150-3 guideline at ${frequencyHz} Hz.`);
  const [at10, at50, at100] = DIN_CORNERS[line];
  if (frequencyHz <= 10) return at10;
  if (frequencyHz <= 50) return at10 + ((at50 - at10) * (frequencyHz - 10)) / 40;
  if (frequencyHz <= 100) return at50 + ((at100 - at50) * (frequencyHz - 50)) / 50;
  return at100;
}

/** The kinds of building of table 1's lines, as a report names them. */
export const DIN_LINE_LABELS: Record<DinLine, string> = {
  1: 'Line 1: commercial, industrial and similar buildings',
  2: 'Line 2: dwellings and similar buildings',
  3: 'Line 3: buildings particularly sensitive to vibration (e.g. listed buildings)',
};

/**
 * The highest PPV of the samples starting in the range, when it was and its frequency: the
 * frequency sample at the same index (or, should the two series not line up, the one taken at the
 * same time); null frequency when there is none.
 */
export function peakPpv(
  ppv: Samples,
  frequency: Samples,
  range: TimeInterval,
  mask?: Uint8Array | null,
): { value: number; frequency: number | null; time: number } | null {
  const { starts, values } = ppv;
  const { from, to } = startingIn(ppv, range);
  let best = -1;
  for (let i = from; i < to; i++) {
    if (isCounted(values, mask, i) && (best < 0 || values[i]! > values[best]!)) best = i;
  }
  if (best < 0) return null;
  const time = starts[best]!;
  let at = best;
  if (frequency.starts[at] !== time) {
    const { from: same, to: after } = startingIn(frequency, { start: time, end: time + 1 });
    at = same < after && frequency.starts[same] === time ? same : -1;
  }
  const hz = at < 0 ? NaN : frequency.values[at]!;
  return { value: values[best]!, frequency: Number.isNaN(hz) ? null : hz, time };
}

/** VDV combines as the fourth root of the sum of fourth powers (BS 6472-1). NaN skipped; null without values. */
export function combineVdv(values: Iterable<number>): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    sum += v ** 4;
    n++;
  }
  return n === 0 ? null : sum ** 0.25;
}

/** The VDV of the range from the interval VDVs starting in it (masked samples and NaN skipped). */
export function vdvOver(
  samples: Samples,
  range: TimeInterval,
  mask?: Uint8Array | null,
): { value: number | null; readings: number } {
  const { values } = samples;
  const { from, to } = startingIn(samples, range);
  let sum = 0;
  let readings = 0;
  for (let i = from; i < to; i++) {
    if (!isCounted(values, mask, i)) continue;
    sum += values[i]! ** 4;
    readings++;
  }
  return { value: readings === 0 ? null : sum ** 0.25, readings };
}
