/**
 * How the `times` blob of a `cache_series` row is encoded (its `times_codec` column, migration 3).
 *
 * Time history is nearly always evenly spaced (1 s, 100 ms, …), and 8 bytes per sample for times
 * cost twice as much as the Float32 values themselves: a week of 1 s data held 4.7 MB of times for
 * 2.3 MB of values, and writing them was most of the cost of storing a response. So an evenly
 * spaced block keeps only its first time and its step.
 *
 * - 0 (`TIMES_RAW`): one little-endian Float64 per sample, epoch ms.
 * - 1 (`TIMES_EVEN`): two little-endian Float64 values, the first time and the step; sample i is
 *   at `first + i * step`. Used only when that formula gives back every stored time bit for bit
 *   (floating point: 0.1-ms steps, or a step that does not divide evenly, can drift), so decoding
 *   always returns exactly the times that were stored.
 */

export const TIMES_RAW = 0;
export const TIMES_EVEN = 1;
export type TimesCodec = typeof TIMES_RAW | typeof TIMES_EVEN;

export interface EncodedTimes {
  codec: TimesCodec;
  blob: Buffer;
}

/** Sample i of an evenly spaced block; encoder and decoder must compute it the same way. */
const evenTime = (first: number, step: number, i: number) => first + i * step;

/** The blob for a block's times (sorted ascending): compact when evenly spaced, raw otherwise. */
export function encodeTimes(times: Float64Array): EncodedTimes {
  const count = times.length;
  // Two samples or fewer take no more room raw.
  if (count > 2) {
    const first = times[0]!;
    const step = times[1]! - first;
    let even = step > 0 && Number.isFinite(step);
    // Object.is, not ===: exact to the bit, so even a stored -0 is given back as -0.
    for (let i = 0; even && i < count; i++) even = Object.is(evenTime(first, step, i), times[i]!);
    if (even) {
      const blob = Buffer.alloc(16);
      blob.writeDoubleLE(first, 0);
      blob.writeDoubleLE(step, 8);
      return { codec: TIMES_EVEN, blob };
    }
  }
  return { codec: TIMES_RAW, blob: Buffer.from(times.buffer, times.byteOffset, times.byteLength) };
}

/**
 * The times of a stored block. Raw blobs are viewed in place when aligned (copied otherwise: SQLite's
 * buffers need not be 8-byte aligned); evenly spaced ones are regenerated into a new array.
 */
export function decodeTimes(codec: number, blob: Buffer, count: number): Float64Array {
  if (codec === TIMES_RAW) {
    if (blob.byteOffset % 8 === 0) return new Float64Array(blob.buffer, blob.byteOffset, blob.byteLength / 8);
    const copy = new Float64Array(blob.byteLength / 8);
    new Uint8Array(copy.buffer).set(blob);
    return copy;
  }
  if (codec === TIMES_EVEN && blob.byteLength === 16) {
    const first = blob.readDoubleLE(0);
    const step = blob.readDoubleLE(8);
    const times = new Float64Array(count);
    for (let i = 0; i < count; i++) times[i] = evenTime(first, step, i);
    return times;
  }
  throw new Error(`Cached series times in an unknown encoding (codec ${codec}, ${blob.byteLength} bytes).`);
}
