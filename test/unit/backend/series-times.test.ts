/**
 * The encoding of a cached block's times: evenly spaced times shrink to the first time and the step,
 * times with gaps to evenly spaced runs between them, and always come back exactly; anything else
 * (or anything floating point would not give back bit for bit) stays one Float64 per sample.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  decodeTimes,
  encodeTimes,
  storedTimes,
  TIMES_EVEN,
  TIMES_RAW,
  TIMES_RUNS,
} from '../../../src/main/backend/cache/series-times';

const WEEK = 7 * 24 * 3_600_000;
const START = Date.UTC(2025, 2, 3); // a Monday, 00:00 UTC

/** Encodes, then decodes from a copy of the blob at an odd offset, as SQLite may hand it back. */
function roundTrip(times: Float64Array): { codec: number; bytes: number; back: Float64Array } {
  const { codec, blob } = encodeTimes(times);
  const unaligned = Buffer.alloc(blob.byteLength + 1).subarray(1);
  blob.copy(unaligned);
  return { codec, bytes: blob.byteLength, back: decodeTimes(codec, unaligned, times.length) };
}

const bytesOf = (array: Float64Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

/** Bit-for-bit equality (so -0 and 0 differ, and any drift in the last place shows). */
function expectSameBits(actual: Float64Array, expected: Float64Array): void {
  expect(actual.length).toBe(expected.length);
  if (bytesOf(actual).equals(bytesOf(expected))) return;
  const at = expected.findIndex((t, i) => !Object.is(actual[i], t));
  // Written out so that -0 and 0 read differently too (String(-0) is "0").
  const text = (t: number | undefined) => (Object.is(t, -0) ? '-0' : String(t));
  expect(`sample ${at}: ${text(actual[at])}`).toBe(`sample ${at}: ${text(expected[at])}`);
}

const spaced = (first: number, step: number, count: number) =>
  Float64Array.from({ length: count }, (_, i) => first + i * step);

describe('series times codec', () => {
  it('stores a week of 1 s times as 16 bytes and gives every time back exactly', () => {
    const times = spaced(START, 1000, WEEK / 1000);
    const { codec, bytes, back } = roundTrip(times);
    expect(codec).toBe(TIMES_EVEN);
    expect(bytes).toBe(16);
    expectSameBits(back, times);
  });

  it('keeps uneven times raw, 8 bytes a sample, and gives them back exactly', () => {
    const times = Float64Array.from([START, START + 1000, START + 2000, START + 3500, START + 4500]);
    const { codec, bytes, back } = roundTrip(times);
    expect(codec).toBe(TIMES_RAW);
    expect(bytes).toBe(5 * 8);
    expectSameBits(back, times);
  });

  it('stores a week of 1 s times with an outage as two runs, 48 bytes, and gives every time back', () => {
    const week = spaced(START, 1000, WEEK / 1000);
    const outageStart = 3 * 86_400;
    const outageSamples = 5 * 3_600;
    const times = Float64Array.from([
      ...week.subarray(0, outageStart),
      ...week.subarray(outageStart + outageSamples),
    ]);
    const { codec, bytes, back } = roundTrip(times);
    expect(codec).toBe(TIMES_RUNS);
    expect(bytes).toBe(48);
    expectSameBits(back, times);
  });

  it('changes step between runs and keeps single samples between gaps as runs of one', () => {
    const times = Float64Array.from([
      ...spaced(START, 1000, 600),
      START + 900_000,
      ...spaced(START + 1_000_000, 100, 600),
    ]);
    const { codec, bytes, back } = roundTrip(times);
    expect(codec).toBe(TIMES_RUNS);
    expect(bytes).toBe(3 * 24);
    expectSameBits(back, times);
  });

  it('keeps times raw when runs would take as much room (gaps everywhere)', () => {
    const sixSamplesTwoRuns = Float64Array.from([0, 1, 2, 10, 11, 12]);
    expect(roundTrip(sixSamplesTwoRuns).codec).toBe(TIMES_RAW);
    const sevenSamplesTwoRuns = Float64Array.from([0, 1, 2, 3, 10, 11, 12]);
    expect(roundTrip(sevenSamplesTwoRuns)).toMatchObject({ codec: TIMES_RUNS, bytes: 48 });
    expectSameBits(roundTrip(sevenSamplesTwoRuns).back, sevenSamplesTwoRuns);
  });

  it('keeps no samples, one sample and two samples raw (nothing to save) and exact', () => {
    for (const times of [
      new Float64Array(0),
      Float64Array.from([START]),
      Float64Array.from([START, START + 7]),
    ]) {
      const { codec, bytes, back } = roundTrip(times);
      expect(codec).toBe(TIMES_RAW);
      expect(bytes).toBe(times.length * 8);
      expectSameBits(back, times);
    }
  });

  it('is exact for 100 ms steps over a long series, whether the times are integers or tenths', () => {
    const integers = spaced(START, 100, 6_048_000); // a week at 100 ms
    const result = roundTrip(integers);
    expect(result.codec).toBe(TIMES_EVEN);
    expectSameBits(result.back, integers);

    // Fractions of a millisecond as the service would send them (each parsed on its own, not summed).
    // Halves are exact in binary, so first + i * step is too; tenths are not, and the even form is
    // used only if first + i * step still gives every one back bit for bit.
    const halves = Float64Array.from({ length: 200_000 }, (_, i) => Number(`${START + i * 100}.5`));
    const halvesResult = roundTrip(halves);
    expect(halvesResult.codec).toBe(TIMES_EVEN);
    expectSameBits(halvesResult.back, halves);
    const tenths = Float64Array.from({ length: 200_000 }, (_, i) => Number(`${START + i * 100}.1`));
    expectSameBits(roundTrip(tenths).back, tenths);
  });

  it('never stores one even run where floating point would drift from the stored times', () => {
    // 0.1 added up from 0: the sum drifts from i * 0.1 (ten steps give 0.9999999999999999, not 1).
    const summed = new Float64Array(1000);
    for (let i = 1; i < summed.length; i++) summed[i] = summed[i - 1]! + 0.1;
    const summedResult = roundTrip(summed);
    // Runs may still cover stretches that add up exactly; one run never covers them all.
    expect(summedResult.codec).not.toBe(TIMES_EVEN);
    expectSameBits(summedResult.back, summed);

    // 0.1 ms apart as written at epoch magnitude, each parsed on its own: the nearest doubles are
    // not evenly spaced.
    const tenthSteps = Float64Array.from({ length: 200_000 }, (_, i) =>
      Number(`${START + Math.floor(i / 10)}.${i % 10}`),
    );
    const tenthResult = roundTrip(tenthSteps);
    expect(tenthResult.codec).not.toBe(TIMES_EVEN);
    expectSameBits(tenthResult.back, tenthSteps);

    // A third of a millisecond apart, each computed on its own.
    const thirds = Float64Array.from({ length: 1000 }, (_, i) => START + i / 3);
    expect(roundTrip(thirds).codec).not.toBe(TIMES_EVEN);
    expectSameBits(roundTrip(thirds).back, thirds);

    // A -0 first time is not what first + 0 * step gives back (+0), so it stays raw.
    const negativeZero = Float64Array.from([-0, 1, 2, 3]);
    expect(roundTrip(negativeZero).codec).toBe(TIMES_RAW);
    expectSameBits(roundTrip(negativeZero).back, negativeZero);
    // Nor a -0 inside a run, which first + i * step gives back as +0.
    const zeroInside = Float64Array.from([-2, -1, -0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expectSameBits(roundTrip(zeroInside).back, zeroInside);
  });

  it('gives back exactly any strictly increasing times (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 4e12, noNaN: true }),
        fc.oneof(
          fc.constantFrom(1, 10, 100, 1000, 60_000, 0.1, 0.5, 1 / 3, 100.1),
          fc.double({ min: 1e-3, max: 1e6, noNaN: true }),
        ),
        fc.integer({ min: 0, max: 2000 }),
        fc.option(fc.integer({ min: 0, max: 1999 })),
        (first, step, count, nudged) => {
          const times = spaced(first, step, count);
          if (nudged !== null && nudged < count) times[nudged] = times[nudged]! + step / 4;
          const { codec, bytes, back } = roundTrip(times);
          expectSameBits(back, times);
          if (codec === TIMES_EVEN) expect(count).toBeGreaterThan(2);
          if (codec !== TIMES_RAW) expect(bytes).toBeLessThan(count * 8);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses an encoding it does not know', () => {
    expect(() => decodeTimes(3, Buffer.alloc(16), 3)).toThrow(/unknown encoding \(codec 3/);
    expect(() => decodeTimes(TIMES_EVEN, Buffer.alloc(24), 3)).toThrow(/unknown encoding/);
    expect(() => decodeTimes(TIMES_RUNS, Buffer.alloc(16), 3)).toThrow(/unknown encoding/);
    // Runs whose counts do not add up to the block's count are damage, not times.
    const runs = encodeTimes(Float64Array.from([0, 1, 2, 3, 10, 11, 12]));
    expect(() => decodeTimes(runs.codec, runs.blob, 8)).toThrow(/unknown encoding/);
    expect(() => decodeTimes(runs.codec, runs.blob, 6)).toThrow(/unknown encoding/);
  });

  it('reads a stored block in part exactly as decoding it whole (each codec)', () => {
    const even = Float64Array.from({ length: 1000 }, (_, i) => START + i * 1000);
    const gapped = Float64Array.from([...even.subarray(0, 400), ...even.subarray(600).map((t) => t + 5e5)]);
    const uneven = Float64Array.from({ length: 300 }, (_, i) => START + i * i * 7);
    for (const times of [even, gapped, uneven]) {
      const { codec, blob } = encodeTimes(times);
      const decoded = decodeTimes(codec, blob, times.length);
      const stored = storedTimes(codec, blob, times.length);
      for (const i of [0, 1, 250, 299, times.length - 1]) expect(stored.at(i)).toBe(decoded[i]!);
      const part = new Float64Array(140).fill(-1);
      stored.copy(part, 20, 100, 220);
      expect([...part.subarray(20)]).toEqual([...decoded.subarray(100, 220)]);
      expect(part[19]).toBe(-1);
    }
  });
});
