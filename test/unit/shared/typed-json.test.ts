import { describe, expect, it } from 'vitest';
import {
  base64ToBytes,
  bytesToBase64,
  decodeTypedArray,
  encodeTypedArray,
  parseTypedJson,
  stringifyTypedJson,
} from '../../../src/shared/ipc/typed-json';

describe('typed JSON', () => {
  it('encodes base64 exactly as the standard alphabet does, for every padding length', () => {
    for (const text of ['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar']) {
      const bytes = new TextEncoder().encode(text);
      const encoded = bytesToBase64(bytes);
      expect(encoded).toBe(Buffer.from(text).toString('base64'));
      expect([...base64ToBytes(encoded)]).toEqual([...bytes]);
    }
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(bytesToBase64(all)).toBe(Buffer.from(all).toString('base64'));
  });

  it('refuses text that is not base64', () => {
    expect(() => base64ToBytes('abc')).toThrow(/multiple of 4/);
    expect(() => base64ToBytes('ab$=')).toThrow(/unexpected character/);
  });

  it('writes the little-endian bytes of the array', () => {
    const encoded = encodeTypedArray(new Float32Array([1]));
    expect(encoded).toEqual({ $typed: 'f32', base64: Buffer.from([0, 0, 0x80, 0x3f]).toString('base64') });
  });

  it('round-trips Float64Array and Float32Array inside a result, NaN and infinities included', () => {
    const times = new Float64Array([Date.UTC(2026, 10, 12), Date.UTC(2026, 10, 12, 0, 0, 1), 1.5e12 + 0.25]);
    const values = new Float32Array([54.3, Number.NaN, -Infinity]);
    const result = { ok: true, value: { series: [{ name: 'LAeq', unit: 'dB', times, values }], note: null } };

    const text = stringifyTypedJson(result);
    expect(text).toContain('"$typed":"f64"');
    const back = parseTypedJson(text) as typeof result;
    const channel = back.value.series[0]!;
    expect(channel.times).toBeInstanceOf(Float64Array);
    expect(channel.values).toBeInstanceOf(Float32Array);
    expect([...channel.times]).toEqual([...times]);
    expect(channel.values[0]).toBe(values[0]);
    expect(Number.isNaN(channel.values[1])).toBe(true);
    expect(channel.values[2]).toBe(-Infinity);
    expect(back.value.note).toBeNull();
  });

  it('round-trips a week of 1 s samples (604,800) without loss', () => {
    const count = 604_800;
    const times = new Float64Array(count);
    const values = new Float32Array(count);
    for (let i = 0; i < count; i++) {
      times[i] = 1_763_000_000_000 + i * 1000;
      values[i] = i % 1000 === 0 ? Number.NaN : 40 + ((i * 7919) % 600) / 10;
    }
    const back = parseTypedJson(stringifyTypedJson({ times, values })) as {
      times: Float64Array;
      values: Float32Array;
    };
    expect(back.times.length).toBe(count);
    expect(back.values.length).toBe(count);
    expect(Buffer.from(back.times.buffer).equals(Buffer.from(times.buffer))).toBe(true);
    expect(Buffer.from(back.values.buffer).equals(Buffer.from(values.buffer))).toBe(true);
  });

  it('leaves look-alike objects alone and rejects a tag whose bytes do not fit', () => {
    const lookAlike = { $typed: 'f64', base64: 'AAAA', extra: 1 };
    expect(parseTypedJson(JSON.stringify(lookAlike))).toEqual(lookAlike);
    expect(parseTypedJson('{"$typed":"i32","base64":"AAAA"}')).toEqual({ $typed: 'i32', base64: 'AAAA' });
    expect(() => decodeTypedArray({ $typed: 'f64', base64: 'AAAA' })).toThrow(/3 bytes/);
  });
});
