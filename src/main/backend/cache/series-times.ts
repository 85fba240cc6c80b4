/**
 * How the `times` blob of a `cache_series` row is encoded (its `times_codec` column, migration 3).
 *
 * Time history is nearly always evenly spaced (1 s, 100 ms, …) apart from the odd outage, and 8
 * bytes per sample for times cost twice as much as the Float32 values themselves: a week of 1 s
 * data held 4.7 MB of times for 2.3 MB of values, and writing them was most of the cost of storing
 * a response. So a block keeps its times as evenly spaced runs whenever that is smaller.
 *
 * - 0 (`TIMES_RAW`): one little-endian Float64 per sample, epoch ms.
 * - 1 (`TIMES_EVEN`): two little-endian Float64 values, the first time and the step; sample i is
 *   at `first + i * step`. One run: a block without a gap.
 * - 2 (`TIMES_RUNS`): runs between gaps, three little-endian Float64 values each — first time, step,
 *   count — in time order; sample i of a run is at `first + i * step`. A week with an outage is two
 *   runs, 48 bytes.
 *
 * A run is used only when its formula gives back every stored time bit for bit (floating point:
 * 0.1-ms steps, or a step that does not divide evenly, can drift), so decoding always returns
 * exactly the times that were stored; raw is kept when runs would not be smaller.
 */

export const TIMES_RAW = 0;
export const TIMES_EVEN = 1;
export const TIMES_RUNS = 2;
export type TimesCodec = typeof TIMES_RAW | typeof TIMES_EVEN | typeof TIMES_RUNS;

export interface EncodedTimes {
  codec: TimesCodec;
  blob: Buffer;
}

/** Sample i of an evenly spaced run; encoder and decoder must compute it the same way. */
const evenTime = (first: number, step: number, i: number) => first + i * step;

const RUN_BYTES = 24;

interface Run {
  first: number;
  step: number;
  count: number;
}

/**
 * The evenly spaced runs that give back `times` exactly, or null when more than `maxRuns` would be
 * needed (or a time cannot be given back, such as a -0 at the start of a run).
 */
function evenRuns(times: Float64Array, maxRuns: number): Run[] | null {
  const runs: Run[] = [];
  let start = 0;
  while (start < times.length) {
    if (runs.length === maxRuns) return null;
    const first = times[start]!;
    // Object.is, not ===: exact to the bit, so a stored -0 is never given back as +0.
    if (!Object.is(evenTime(first, 0, 0), first)) return null;
    const next = times[start + 1];
    const step = next === undefined ? 0 : next - first;
    let count = 1;
    if (step > 0 && Number.isFinite(step)) {
      // === per sample (Object.is was a third of storing a week), and Object.is only where === cannot
      // tell: at zero, where -0 and +0 are equal but not the same bits.
      for (let i = start + count; i < times.length; i++, count++) {
        const time = times[i]!;
        const expected = evenTime(first, step, count);
        if (time !== expected || (time === 0 && !Object.is(time, expected))) break;
      }
    }
    runs.push({ first, step: count > 1 ? step : 0, count });
    start += count;
  }
  return runs;
}

/** The blob for a block's times (sorted ascending): evenly spaced runs when smaller, raw otherwise. */
export function encodeTimes(times: Float64Array): EncodedTimes {
  const rawBytes = times.byteLength;
  // Fewer runs than this are smaller than raw (one run takes 16 bytes, more take 24 each).
  const maxRuns = Math.ceil(rawBytes / RUN_BYTES) - 1;
  const runs = times.length > 2 ? evenRuns(times, Math.max(1, maxRuns)) : null;
  if (runs !== null && runs.length === 1) {
    const blob = Buffer.alloc(16);
    blob.writeDoubleLE(runs[0]!.first, 0);
    blob.writeDoubleLE(runs[0]!.step, 8);
    return { codec: TIMES_EVEN, blob };
  }
  if (runs !== null) {
    const blob = Buffer.alloc(runs.length * RUN_BYTES);
    runs.forEach((run, r) => {
      blob.writeDoubleLE(run.first, r * RUN_BYTES);
      blob.writeDoubleLE(run.step, r * RUN_BYTES + 8);
      blob.writeDoubleLE(run.count, r * RUN_BYTES + 16);
    });
    return { codec: TIMES_RUNS, blob };
  }
  return { codec: TIMES_RAW, blob: Buffer.from(times.buffer, times.byteOffset, rawBytes) };
}

/**
 * The times of a stored block without decoding them all: sample i's time, and samples [from, to)
 * written into `out` at `offset`. Evenly spaced blocks (nearly all) are computed where needed, so a
 * read of part of a week neither allocates nor fills the times it leaves out; others are decoded.
 */
export function storedTimes(
  codec: number,
  blob: Buffer,
  count: number,
): {
  at: (i: number) => number;
  copy: (out: Float64Array, offset: number, from: number, to: number) => void;
} {
  if (codec === TIMES_EVEN && blob.byteLength === 16) {
    const first = blob.readDoubleLE(0);
    const step = blob.readDoubleLE(8);
    return {
      at: (i) => evenTime(first, step, i),
      copy: (out, offset, from, to) => {
        for (let i = from; i < to; i++) out[offset + i - from] = evenTime(first, step, i);
      },
    };
  }
  const times = decodeTimes(codec, blob, count);
  return {
    at: (i) => times[i]!,
    copy: (out, offset, from, to) => out.set(times.subarray(from, to), offset),
  };
}

function unknownEncoding(codec: number, blob: Buffer): Error {
  return new Error(`Cached series times in an unknown encoding (codec ${codec}, ${blob.byteLength} bytes).`);
}

/**
 * The times of a stored block. Raw blobs are viewed in place when aligned (copied otherwise: SQLite's
 * buffers need not be 8-byte aligned); runs are regenerated into a new array.
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
  if (codec === TIMES_RUNS && blob.byteLength > 0 && blob.byteLength % RUN_BYTES === 0) {
    const times = new Float64Array(count);
    let at = 0;
    for (let offset = 0; offset < blob.byteLength; offset += RUN_BYTES) {
      const first = blob.readDoubleLE(offset);
      const step = blob.readDoubleLE(offset + 8);
      const runCount = blob.readDoubleLE(offset + 16);
      if (!Number.isSafeInteger(runCount) || runCount < 1 || at + runCount > count) {
        throw unknownEncoding(codec, blob);
      }
      for (let i = 0; i < runCount; i++) times[at + i] = evenTime(first, step, i);
      at += runCount;
    }
    if (at !== count) throw unknownEncoding(codec, blob);
    return times;
  }
  throw unknownEncoding(codec, blob);
}
