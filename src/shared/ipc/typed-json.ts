/**
 * JSON that keeps typed arrays. Electron IPC carries `Float64Array`/`Float32Array` natively
 * (structured clone); the browser harness speaks JSON, where a typed array would become an
 * object of indexed keys (and NaN would become null). The harness encodes each one as
 * `{ "$typed": "f64" | "f32", "base64": "…" }` (its little-endian bytes) and the browser bridge
 * restores it. Plain code only (no Buffer, btoa or DOM), so it runs in Node and the browser alike.
 */

type TypedTag = 'f64' | 'f32';

export interface EncodedTypedArray {
  $typed: TypedTag;
  base64: string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** Byte order of this machine; the wire format is always little-endian. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

const ALPHABET_CODES = Uint8Array.from(ALPHABET, (char) => char.charCodeAt(0));
const PAD = 61; // '='
/** Characters per `String.fromCharCode` call: fast, and well under every engine's argument limit. */
const CHARS_PER_CALL = 8_192;

export function bytesToBase64(bytes: Uint8Array): string {
  // Written as character codes, then turned into text in large slices: per-character string
  // building is an order of magnitude slower for the megabytes of a week of samples.
  const codes = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  const full = bytes.length - (bytes.length % 3);
  let out = 0;
  for (let i = 0; i < full; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    codes[out++] = ALPHABET_CODES[n >>> 18] as number;
    codes[out++] = ALPHABET_CODES[(n >>> 12) & 63] as number;
    codes[out++] = ALPHABET_CODES[(n >>> 6) & 63] as number;
    codes[out++] = ALPHABET_CODES[n & 63] as number;
  }
  const rest = bytes.length - full;
  if (rest > 0) {
    const n = ((bytes[full] as number) << 16) | (rest === 2 ? (bytes[full + 1] as number) << 8 : 0);
    codes[out++] = ALPHABET_CODES[n >>> 18] as number;
    codes[out++] = ALPHABET_CODES[(n >>> 12) & 63] as number;
    codes[out++] = rest === 2 ? (ALPHABET_CODES[(n >>> 6) & 63] as number) : PAD;
    codes[out++] = PAD;
  }
  const parts: string[] = [];
  for (let i = 0; i < codes.length; i += CHARS_PER_CALL) {
    // `apply` takes any array-like; a spread of a typed array is several times slower.
    parts.push(String.fromCharCode.apply(null, codes.subarray(i, i + CHARS_PER_CALL) as unknown as number[]));
  }
  return parts.join('');
}

function decodeChar(text: string, index: number): number {
  const code = text.charCodeAt(index);
  const value = code < 128 ? (DECODE[code] as number) : -1;
  if (value < 0) throw new TypeError('Not base64: unexpected character.');
  return value;
}

export function base64ToBytes(text: string): Uint8Array {
  if (text.length % 4 !== 0) throw new TypeError('Not base64: the length is not a multiple of 4.');
  let padding = 0;
  if (text.length > 0 && text.charCodeAt(text.length - 1) === PAD) padding++;
  if (text.length > 1 && text.charCodeAt(text.length - 2) === PAD) padding++;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  const fullGroups = padding > 0 ? text.length - 4 : text.length;
  let out = 0;
  for (let i = 0; i < fullGroups; i += 4) {
    const n =
      (decodeChar(text, i) << 18) |
      (decodeChar(text, i + 1) << 12) |
      (decodeChar(text, i + 2) << 6) |
      decodeChar(text, i + 3);
    bytes[out++] = n >>> 16;
    bytes[out++] = (n >>> 8) & 0xff;
    bytes[out++] = n & 0xff;
  }
  if (padding > 0) {
    const third = padding === 1 ? decodeChar(text, fullGroups + 2) << 6 : 0;
    const n = (decodeChar(text, fullGroups) << 18) | (decodeChar(text, fullGroups + 1) << 12) | third;
    bytes[out++] = n >>> 16;
    if (padding === 1) bytes[out++] = (n >>> 8) & 0xff;
  }
  return bytes;
}

function littleEndianBytes(array: Float64Array | Float32Array): Uint8Array {
  const view = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  if (LITTLE_ENDIAN) return view;
  const copy = new Uint8Array(array.byteLength);
  const data = new DataView(copy.buffer);
  const f64 = array instanceof Float64Array;
  for (let i = 0; i < array.length; i++) {
    if (f64) data.setFloat64(i * 8, array[i] as number, true);
    else data.setFloat32(i * 4, array[i] as number, true);
  }
  return copy;
}

export function encodeTypedArray(array: Float64Array | Float32Array): EncodedTypedArray {
  return {
    $typed: array instanceof Float64Array ? 'f64' : 'f32',
    base64: bytesToBase64(littleEndianBytes(array)),
  };
}

export function decodeTypedArray(encoded: EncodedTypedArray): Float64Array | Float32Array {
  const bytes = base64ToBytes(encoded.base64);
  const size = encoded.$typed === 'f64' ? 8 : 4;
  if (bytes.length % size !== 0) throw new TypeError(`Not a ${encoded.$typed} array: ${bytes.length} bytes.`);
  // `bytes` owns a fresh buffer starting at 0, so it can back the typed array directly.
  if (LITTLE_ENDIAN) {
    return encoded.$typed === 'f64' ? new Float64Array(bytes.buffer) : new Float32Array(bytes.buffer);
  }
  const data = new DataView(bytes.buffer);
  const count = bytes.length / size;
  if (encoded.$typed === 'f64') {
    const out = new Float64Array(count);
    for (let i = 0; i < count; i++) out[i] = data.getFloat64(i * 8, true);
    return out;
  }
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = data.getFloat32(i * 4, true);
  return out;
}

function isEncodedTypedArray(value: unknown): value is EncodedTypedArray {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    (record['$typed'] === 'f64' || record['$typed'] === 'f32') &&
    typeof record['base64'] === 'string' &&
    Object.keys(record).length === 2
  );
}

/** `JSON.stringify` replacer: typed arrays become their tagged encoding. */
export function typedJsonReplacer(_key: string, value: unknown): unknown {
  return value instanceof Float64Array || value instanceof Float32Array ? encodeTypedArray(value) : value;
}

/** `JSON.parse` reviver: tagged encodings become typed arrays again. */
export function typedJsonReviver(_key: string, value: unknown): unknown {
  return isEncodedTypedArray(value) ? decodeTypedArray(value) : value;
}

export function stringifyTypedJson(value: unknown): string {
  return JSON.stringify(value, typedJsonReplacer);
}

export function parseTypedJson(text: string): unknown {
  return JSON.parse(text, typedJsonReviver);
}
