/** Synthetic readings for the benches: a channel sampled every `stepMs` over a range. */
import type { SeriesChannel, TimeInterval } from '../src/shared/data';

export function channelOver(
  range: TimeInterval,
  name: string,
  unit: string,
  stepMs: number,
  value: (t: number) => number,
): SeriesChannel {
  const count = Math.floor((range.end - range.start) / stepMs);
  const times = new Float64Array(count);
  const values = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    times[i] = range.start + i * stepMs;
    values[i] = value(times[i]!);
  }
  return { name, unit, times, values };
}
