/**
 * Min-max reduction of a time series for a chart of a given width, where the data is (the backend
 * reduces a cached week before it crosses to the window; the window only draws). Each pixel column
 * keeps its lowest and highest reading in time order, so every noise peak the screen can show
 * survives, plus one NaN where the column held a missing reading, so the line still breaks there.
 * (Chart.js's own min-max decimation drops NaN points, which would draw lines across gaps.)
 */
import type { TimeInterval } from './data';

export interface ReducedSeries {
  times: Float64Array;
  values: Float32Array;
}

/**
 * The reduced series: at most three points per column (min, max, a gap marker), in time order.
 * Series of at most two points per column pass through (runs of NaN kept once). `times` ascend.
 */
export function minMaxReduce(
  times: Float64Array,
  values: Float32Array,
  range: TimeInterval,
  columns: number,
): ReducedSeries {
  const count = Math.min(times.length, values.length);
  const outTimes = new Float64Array(Math.min(count, 3 * columns + 1));
  const outValues = new Float32Array(outTimes.length);
  let n = 0;
  const push = (x: number, y: number): void => {
    // One NaN is enough to break the line; runs of them add nothing.
    if (Number.isNaN(y) && n > 0 && Number.isNaN(outValues[n - 1]!)) return;
    outTimes[n] = x;
    outValues[n] = y;
    n++;
  };
  if (count <= 2 * columns) {
    for (let i = 0; i < count; i++) push(times[i]!, values[i]!);
    return { times: outTimes.slice(0, n), values: outValues.slice(0, n) };
  }
  const span = Math.max(1, range.end - range.start);
  const columnOf = (t: number) =>
    Math.min(columns - 1, Math.max(0, Math.floor(((t - range.start) / span) * columns)));
  /** The first index from `from` whose column is after `column` (columns never decrease with time). */
  const endOfColumn = (from: number, column: number): number => {
    let lo = from;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (columnOf(times[mid]!) <= column) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  // Column by column: its samples found by binary search, then one plain scan for its extremes
  // (the column of every sample is never computed: that was most of the cost on a week).
  for (let from = 0; from < count;) {
    const to = endOfColumn(from + 1, columnOf(times[from]!));
    let minIndex = -1;
    let maxIndex = -1;
    let gapIndex = -1;
    for (let i = from; i < to; i++) {
      const v = values[i]!;
      if (v !== v) {
        // NaN: a missing reading.
        if (gapIndex < 0) gapIndex = i;
      } else if (minIndex < 0) {
        minIndex = maxIndex = i;
      } else if (v < values[minIndex]!) {
        minIndex = i;
      } else if (v > values[maxIndex]!) {
        maxIndex = i;
      }
    }
    // The (up to three) kept samples of the column, in time order.
    const kept = [minIndex, maxIndex, gapIndex].filter((i, k, all) => i >= 0 && all.indexOf(i) === k);
    kept.sort((a, b) => a - b);
    for (const i of kept) push(times[i]!, i === gapIndex ? Number.NaN : values[i]!);
    from = to;
  }
  return { times: outTimes.slice(0, n), values: outValues.slice(0, n) };
}
