/**
 * Building series (typed arrays) from readings visited in time order, with the gap convention:
 * one NaN where readings stop before the next starts, and at the edges of the fetched interval.
 */
import type { SeriesChannel, TimeInterval } from '../../../../shared/data';

/** Slack when comparing sample times (ms): times with 7 fractional digits are rounded to ms. */
export const TOLERANCE_MS = 1;

export type Visit = (time: number, end: number, value: number) => void;
/** Visits samples in time order (duplicates and overlaps allowed: the builder drops them). */
export type SampleWalk = (visit: Visit) => void;

function runSamples(
  walk: SampleWalk,
  range: TimeInterval | null,
  markers: boolean,
  out: (time: number, value: number) => void,
): void {
  let lastTime = -Infinity;
  let lastEnd = Number.NaN;
  let any = false;
  walk((time, end, value) => {
    if (time <= lastTime) return;
    if (markers) {
      if (any) {
        if (time > lastEnd + TOLERANCE_MS) out(lastEnd, Number.NaN);
      } else if (range !== null && time >= range.start + (end - time)) {
        out(range.start, Number.NaN);
      }
    }
    out(time, value);
    lastTime = time;
    lastEnd = end;
    any = true;
  });
  if (markers && any && range !== null && lastEnd < range.end - TOLERANCE_MS) out(lastEnd, Number.NaN);
}

/**
 * One pass into arrays of `capacity` (an upper bound of samples plus markers, known from the
 * block lengths or the row count), trimmed to the exact length when markers or duplicates left
 * room. No per-sample objects.
 */
export function buildChannel(
  name: string,
  unit: string | null,
  walk: SampleWalk,
  range: TimeInterval | null,
  markers: boolean,
  capacity: number,
): SeriesChannel {
  let times = new Float64Array(capacity);
  let values = new Float32Array(capacity);
  let k = 0;
  runSamples(walk, range, markers, (time, value) => {
    times[k] = time;
    values[k] = value;
    k++;
  });
  if (k < capacity) {
    times = times.slice(0, k);
    values = values.slice(0, k);
  }
  return { name, unit, times, values };
}
