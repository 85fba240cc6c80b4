/**
 * Answers with typed arrays as one binary frame. Electron IPC carries `Float64Array`/`Float32Array`
 * natively (structured clone); the browser harness speaks HTTP, where JSON would turn a typed array
 * into an object of indexed keys (and NaN into null). So the harness sends an answer that holds
 * typed arrays as a frame, and the bridge gets them back as views on the bytes it received:
 *
 *   "FDB1"                 4 bytes, what this is (and its version)
 *   JSON length            uint32 little-endian: bytes of UTF-8 JSON that follow
 *   data length            uint32 little-endian: bytes of array data after the JSON's padding
 *   JSON                   the answer, each typed array replaced by { "$typed": "f64" | "f32",
 *                          "offset": bytes into the data, "length": elements }
 *   padding                zero bytes up to a multiple of 8 from the frame's start
 *   data                   each array's little-endian bytes, each starting at a multiple of 8
 *
 * A frame is checked whole before anything is taken from it: a wrong tag, a length that does not
 * add up (a truncated frame), or a reference outside the data is an error saying so, never a crash
 * or numbers read from the wrong place. Plain code only (no Buffer or DOM), so it runs in Node and
 * the browser alike.
 */

export type TypedKind = 'f64' | 'f32';

/** How the JSON part of a frame refers to one typed array. */
export interface TypedArrayReference {
  $typed: TypedKind;
  /** Bytes from the start of the data part (a multiple of 8). */
  offset: number;
  /** Elements. */
  length: number;
}

export const FRAME_CONTENT_TYPE = 'application/octet-stream';

const MAGIC = [0x46, 0x44, 0x42, 0x31]; // "FDB1"
const HEADER_BYTES = 12;
const ALIGN = 8;

/** Byte order of this machine; the frame is always little-endian. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

const alignUp = (n: number) => Math.ceil(n / ALIGN) * ALIGN;
const sizeOf = (kind: TypedKind) => (kind === 'f64' ? 8 : 4);

export class FrameError extends Error {
  constructor(problem: string) {
    super(`Not a readable FieldDesk frame: ${problem}.`);
    this.name = 'FrameError';
  }
}

/** The array's bytes in little-endian order (a view of them on little-endian machines). */
function littleEndianBytes(array: Float64Array | Float32Array): Uint8Array {
  const view = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  if (LITTLE_ENDIAN) return view;
  const copy = new Uint8Array(array.byteLength);
  const data = new DataView(copy.buffer);
  for (let i = 0; i < array.length; i++) {
    if (array instanceof Float64Array) data.setFloat64(i * 8, array[i]!, true);
    else data.setFloat32(i * 4, array[i]!, true);
  }
  return copy;
}

/**
 * The answer as a frame, or as plain JSON text when it holds no typed array (one JSON pass
 * either way: the typed arrays are collected while it is written).
 */
/**
 * An answer whose JSON is longer than this goes as a frame even without typed arrays: bytes the
 * browser hands over as they are (no text decoding on the page's thread, nor by an attached
 * inspector), for the page to parse in its worker.
 */
export const LARGE_ANSWER_CHARS = 512 * 1024;

export function encodeAnswer(value: unknown): { json: string } | { frame: Uint8Array<ArrayBuffer> } {
  const arrays: Array<Float64Array | Float32Array> = [];
  let dataBytes = 0;
  const json = JSON.stringify(value, (_key, item: unknown) => {
    if (!(item instanceof Float64Array || item instanceof Float32Array)) return item;
    const reference: TypedArrayReference = {
      $typed: item instanceof Float64Array ? 'f64' : 'f32',
      offset: dataBytes,
      length: item.length,
    };
    arrays.push(item);
    dataBytes = alignUp(dataBytes + item.byteLength);
    return reference;
  });
  if (arrays.length === 0 && json.length < LARGE_ANSWER_CHARS) return { json };
  const text = new TextEncoder().encode(json);
  const dataStart = alignUp(HEADER_BYTES + text.byteLength);
  const frame = new Uint8Array(dataStart + dataBytes);
  frame.set(MAGIC, 0);
  const header = new DataView(frame.buffer);
  header.setUint32(4, text.byteLength, true);
  header.setUint32(8, dataBytes, true);
  frame.set(text, HEADER_BYTES);
  let at = dataStart;
  for (const array of arrays) {
    frame.set(littleEndianBytes(array), at);
    at = alignUp(at + array.byteLength);
  }
  return { frame };
}

function isReference(value: unknown): value is Record<string, unknown> & { $typed: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && '$typed' in value;
}

/** One typed array of the frame: a view on its bytes where they are aligned, a copy where not. */
function typedArrayAt(
  buffer: ArrayBufferLike,
  start: number,
  reference: TypedArrayReference,
): Float64Array | Float32Array {
  const { $typed: kind, length } = reference;
  const size = sizeOf(kind);
  if (LITTLE_ENDIAN && start % size === 0) {
    return kind === 'f64' ? new Float64Array(buffer, start, length) : new Float32Array(buffer, start, length);
  }
  const data = new DataView(buffer, start, length * size);
  const out = kind === 'f64' ? new Float64Array(length) : new Float32Array(length);
  for (let i = 0; i < length; i++)
    out[i] = kind === 'f64' ? data.getFloat64(i * 8, true) : data.getFloat32(i * 4, true);
  return out;
}

/**
 * The answer in a frame, its typed arrays as views on `input`'s bytes (copied only when `input`
 * starts at an offset that leaves them unaligned). Throws `FrameError` for anything malformed.
 */
export function decodeFrame(input: ArrayBuffer | Uint8Array): unknown {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (bytes.byteLength < HEADER_BYTES)
    throw new FrameError(`${bytes.byteLength} bytes, too short for its header`);
  if (MAGIC.some((byte, i) => bytes[i] !== byte)) throw new FrameError('it does not start with FDB1');
  const header = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  const jsonBytes = header.getUint32(4, true);
  const dataBytes = header.getUint32(8, true);
  const dataStart = alignUp(HEADER_BYTES + jsonBytes);
  if (dataStart + dataBytes !== bytes.byteLength) {
    throw new FrameError(`it says ${dataStart + dataBytes} bytes but has ${bytes.byteLength} (cut short?)`);
  }
  let json: unknown;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(
      bytes.subarray(HEADER_BYTES, HEADER_BYTES + jsonBytes),
    );
    json = JSON.parse(text);
  } catch {
    throw new FrameError('its JSON part does not read');
  }
  const revive = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = revive(value[i]);
      return value;
    }
    if (typeof value !== 'object' || value === null) return value;
    if (isReference(value)) return arrayOf(value);
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = revive(record[key]);
    return record;
  };
  const arrayOf = (reference: Record<string, unknown>): Float64Array | Float32Array => {
    const { $typed: kind, offset, length } = reference;
    if (kind !== 'f64' && kind !== 'f32') throw new FrameError(`an array of unknown kind ${String(kind)}`);
    if (Object.keys(reference).length !== 3) throw new FrameError('an array reference with other fields');
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length)) {
      throw new FrameError('an array reference without a whole offset and length');
    }
    const [at, count] = [offset as number, length as number];
    if (at < 0 || count < 0 || at % ALIGN !== 0 || at + count * sizeOf(kind) > dataBytes) {
      throw new FrameError(`an array of ${count} ${kind} at ${at} outside its ${dataBytes} bytes of data`);
    }
    return typedArrayAt(bytes.buffer, bytes.byteOffset + dataStart + at, {
      $typed: kind,
      offset: at,
      length: count,
    });
  };
  return revive(json);
}
