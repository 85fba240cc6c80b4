/**
 * The harness's binary frame: typed arrays keep their type, length and every bit (NaN included),
 * land as views on the received bytes when aligned, and a malformed frame is refused with a reason.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  decodeFrame,
  encodeAnswer,
  FrameError,
  LARGE_ANSWER_CHARS,
} from '../../../src/shared/ipc/binary-frame';

function frameOf(value: unknown): Uint8Array {
  const answer = encodeAnswer(value);
  if (!('frame' in answer)) throw new Error('expected a frame');
  return answer.frame;
}

/** The frame as a fresh ArrayBuffer starting at 0, as `response.arrayBuffer()` gives it. */
const received = (frame: Uint8Array) => frame.slice().buffer;

describe('binary frame', () => {
  it('keeps an answer without typed arrays as plain JSON', () => {
    expect(encodeAnswer({ ok: true, value: { a: [1, 'x', null] } })).toEqual({
      json: '{"ok":true,"value":{"a":[1,"x",null]}}',
    });
  });

  it('sends a large answer without typed arrays as a frame too, read back equal', () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      hour: i,
      label: `row ${i}`,
      level: 40 + (i % 30) / 10,
    }));
    const answer = { ok: true, value: { rows } };
    expect(JSON.stringify(answer).length).toBeGreaterThan(LARGE_ANSWER_CHARS);
    expect(decodeFrame(received(frameOf(answer)))).toEqual(answer);
    // Just below the size it stays text.
    const small = { ok: true, value: 'x'.repeat(LARGE_ANSWER_CHARS - 100) };
    expect('json' in encodeAnswer(small)).toBe(true);
  });

  it('round-trips typed arrays of odd lengths among other values, as aligned views on the bytes', () => {
    const times = Float64Array.from([1_763_000_000_000, 1_763_000_001_000, 1_763_000_002_000]);
    const values = Float32Array.from([52.5, Number.NaN, -0, Infinity, 1e-40]); // 5 × 4 bytes: odd
    const empty = new Float32Array(0);
    const answer = {
      ok: true,
      value: {
        series: [
          { name: 'LAeq', unit: 'dB', times, values },
          { name: 'x', times: empty, values },
        ],
      },
    };
    const buffer = received(frameOf(answer));
    const back = decodeFrame(buffer) as typeof answer;
    const [first, second] = back.value.series as [
      (typeof answer.value.series)[0],
      (typeof answer.value.series)[0],
    ];
    expect(first.name).toBe('LAeq');
    expect(first.times).toBeInstanceOf(Float64Array);
    expect([...first.times]).toEqual([...times]);
    expect(first.values).toBeInstanceOf(Float32Array);
    // Bit for bit: NaN stays NaN, -0 stays -0, a subnormal stays itself.
    expect(new Uint32Array(first.values.buffer, first.values.byteOffset, 5)).toEqual(
      new Uint32Array(values.buffer),
    );
    // No copies: views on the received buffer, every one aligned.
    expect(first.times.buffer).toBe(buffer);
    expect(first.values.buffer).toBe(buffer);
    expect(first.times.byteOffset % 8).toBe(0);
    expect(second.times).toHaveLength(0);
    expect([...second.values]).toEqual([...first.values]);
  });

  it('round-trips any typed arrays, at any alignment of the bytes it is given (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.array(fc.double(), { maxLength: 9 })), { maxLength: 6 }),
        fc.integer({ min: 0, max: 7 }),
        (arrays, shift) => {
          const typed = arrays.map(([wide, numbers]) =>
            wide ? Float64Array.from(numbers) : Float32Array.from(numbers),
          );
          const frame = frameOf({ typed, extra: new Float64Array(1) });
          // Bytes that start `shift` bytes into their buffer: the arrays must then be copied, not viewed.
          const shifted = new Uint8Array(frame.byteLength + shift);
          shifted.set(frame, shift);
          const back = decodeFrame(shifted.subarray(shift)) as { typed: Array<Float64Array | Float32Array> };
          back.typed.forEach((array, i) => {
            const sent = typed[i]!;
            expect(array.constructor).toBe(sent.constructor);
            expect(new Uint8Array(array.buffer, array.byteOffset, array.byteLength)).toEqual(
              new Uint8Array(sent.buffer),
            );
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a truncated frame, a padded one, and one that is not a frame, saying why', () => {
    const frame = frameOf({ ok: true, value: new Float64Array([1, 2, 3]) });
    for (const cut of [0, 5, 11, 12, frame.byteLength - 8, frame.byteLength - 1]) {
      expect(() => decodeFrame(received(frame.subarray(0, cut))), `cut at ${cut}`).toThrow(FrameError);
    }
    expect(() => decodeFrame(received(frame.subarray(0, frame.byteLength - 1)))).toThrow(/cut short/);
    const longer = new Uint8Array(frame.byteLength + 8);
    longer.set(frame);
    expect(() => decodeFrame(received(longer))).toThrow(/says \d+ bytes but has/);
    expect(() => decodeFrame(new TextEncoder().encode('{"ok":true,"value":1}'))).toThrow(/FDB1/);
  });

  it('refuses references outside the data, misaligned, of unknown kind or with a JSON part that does not read', () => {
    const forge = (json: string, dataBytes: number): Uint8Array => {
      const text = new TextEncoder().encode(json);
      const start = Math.ceil((12 + text.byteLength) / 8) * 8;
      const frame = new Uint8Array(start + dataBytes);
      frame.set([0x46, 0x44, 0x42, 0x31]);
      new DataView(frame.buffer).setUint32(4, text.byteLength, true);
      new DataView(frame.buffer).setUint32(8, dataBytes, true);
      frame.set(text, 12);
      return frame;
    };
    const ref = (fields: string) => `{"ok":true,"value":{${fields}}}`;
    expect(decodeFrame(forge(ref('"$typed":"f64","offset":8,"length":1'), 16))).toEqual({
      ok: true,
      value: new Float64Array(1),
    });
    expect(() => decodeFrame(forge(ref('"$typed":"f64","offset":8,"length":2'), 16))).toThrow(/outside/);
    expect(() => decodeFrame(forge(ref('"$typed":"f32","offset":4,"length":1'), 16))).toThrow(/outside/);
    expect(() => decodeFrame(forge(ref('"$typed":"f32","offset":-8,"length":1'), 16))).toThrow(/outside/);
    expect(() => decodeFrame(forge(ref('"$typed":"i32","offset":0,"length":1'), 16))).toThrow(/unknown kind/);
    expect(() => decodeFrame(forge(ref('"$typed":"f32","offset":0,"length":1.5'), 16))).toThrow(/whole/);
    expect(() => decodeFrame(forge(ref('"$typed":"f32","offset":0,"length":1,"x":1'), 16))).toThrow(
      /other fields/,
    );
    expect(() => decodeFrame(forge('{"ok":tru', 0))).toThrow(/JSON part/);
  });
});
