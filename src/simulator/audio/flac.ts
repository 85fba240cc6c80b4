/**
 * A small FLAC encoder for 16-bit mono: fixed-predictor subframes (orders 0–4) with partitioned
 * Rice residuals, or verbatim when that is smaller; the frame header's CRC-8 and the frame's
 * CRC-16. Enough for valid, compressed FLAC (https://www.rfc-editor.org/rfc/rfc9639).
 */
import { BitWriter, crc16, crc8 } from './bits';

/** Samples per frame (every frame but the last). */
export const FLAC_BLOCK_SIZE = 4096;
const BITS_PER_SAMPLE = 16;
const MAX_PARTITION_ORDER = 4;
/** The largest Rice parameter with 4-bit parameters (15 is the escape code). */
const MAX_RICE = 14;

/** Sample-rate codes of the frame header (RFC 9639, 9.1.2); others are taken from STREAMINFO. */
const SAMPLE_RATE_CODES: Readonly<Record<number, number>> = {
  8000: 0b0100,
  16000: 0b0101,
  22050: 0b0110,
  24000: 0b0111,
  32000: 0b1000,
  44100: 0b1001,
  48000: 0b1010,
};

export interface StreamInfo {
  sampleRate: number;
  totalSamples: number;
  /** Smallest and largest frame in bytes; 0 = unknown. */
  minFrameBytes: number;
  maxFrameBytes: number;
  /** MD5 of the decoded samples (16-bit little-endian); all zero = unknown. */
  md5?: Uint8Array;
}

/** A metadata block: header (last-block flag, type, length) and body. */
function metadataBlock(type: number, body: Uint8Array, last: boolean): Uint8Array {
  const out = new Uint8Array(4 + body.length);
  out[0] = (last ? 0x80 : 0) | type;
  out[1] = (body.length >>> 16) & 0xff;
  out[2] = (body.length >>> 8) & 0xff;
  out[3] = body.length & 0xff;
  out.set(body, 4);
  return out;
}

/** The STREAMINFO block (34 bytes of body), mono 16-bit. */
export function streamInfoBlock(info: StreamInfo, last: boolean): Uint8Array {
  const w = new BitWriter(64);
  const lastBlock = info.totalSamples % FLAC_BLOCK_SIZE || FLAC_BLOCK_SIZE;
  // The minimum block size does not count the last block, unless it is the only one.
  const minBlock = info.totalSamples > FLAC_BLOCK_SIZE ? FLAC_BLOCK_SIZE : lastBlock;
  w.write(minBlock, 16);
  w.write(info.totalSamples > FLAC_BLOCK_SIZE ? FLAC_BLOCK_SIZE : lastBlock, 16);
  w.write(info.minFrameBytes, 24);
  w.write(info.maxFrameBytes, 24);
  w.write(info.sampleRate, 20);
  w.write(0, 3); // channels − 1
  w.write(BITS_PER_SAMPLE - 1, 5);
  w.write(Math.floor(info.totalSamples / 2 ** 32), 4);
  w.write(info.totalSamples >>> 0, 32);
  w.bytes(info.md5 ?? new Uint8Array(16));
  return metadataBlock(0, w.view().slice(), last);
}

/** A VORBIS_COMMENT block: the vendor string and `NAME=value` comments, little-endian lengths. */
export function vorbisCommentBlock(vendor: string, comments: readonly string[], last: boolean): Uint8Array {
  const encoder = new TextEncoder();
  const parts = [vendor, ...comments].map((text) => encoder.encode(text));
  const size = 4 + (parts[0] as Uint8Array).length + 4 + parts.slice(1).reduce((n, p) => n + 4 + p.length, 0);
  const body = new Uint8Array(size);
  const view = new DataView(body.buffer);
  let at = 0;
  const put = (bytes: Uint8Array) => {
    view.setUint32(at, bytes.length, true);
    body.set(bytes, at + 4);
    at += 4 + bytes.length;
  };
  put(parts[0] as Uint8Array);
  view.setUint32(at, comments.length, true);
  at += 4;
  for (const part of parts.slice(1)) put(part);
  return metadataBlock(4, body, last);
}

/** `fLaC`, STREAMINFO and a VORBIS_COMMENT: the start of a native FLAC file. */
export function flacHeader(info: StreamInfo, vendor: string, comments: readonly string[]): Uint8Array {
  const blocks = [
    new TextEncoder().encode('fLaC'),
    streamInfoBlock(info, false),
    vorbisCommentBlock(vendor, comments, true),
  ];
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const block of blocks) {
    out.set(block, at);
    at += block.length;
  }
  return out;
}

/** FLAC's UTF-8-like coding of the frame number (up to 31 bits, 1–6 bytes). */
function writeCodedNumber(w: BitWriter, value: number): void {
  if (value < 0x80) {
    w.write(value, 8);
    return;
  }
  const bytes = value < 0x800 ? 2 : value < 0x10000 ? 3 : value < 0x200000 ? 4 : value < 0x4000000 ? 5 : 6;
  const lead = (0xff00 >> bytes) & 0xff;
  w.write(lead | (value >>> (6 * (bytes - 1))), 8);
  for (let i = bytes - 2; i >= 0; i--) w.write(0x80 | ((value >>> (6 * i)) & 0x3f), 8);
}

/** Residual of the fixed predictor of `order` at sample i (i ≥ order). */
function residual(x: Int16Array, i: number, order: number): number {
  switch (order) {
    case 0:
      return x[i] as number;
    case 1:
      return (x[i] as number) - (x[i - 1] as number);
    case 2:
      return (x[i] as number) - 2 * (x[i - 1] as number) + (x[i - 2] as number);
    case 3:
      return (x[i] as number) - 3 * (x[i - 1] as number) + 3 * (x[i - 2] as number) - (x[i - 3] as number);
    default:
      return (
        (x[i] as number) -
        4 * (x[i - 1] as number) +
        6 * (x[i - 2] as number) -
        4 * (x[i - 3] as number) +
        (x[i - 4] as number)
      );
  }
}

/** The fixed-predictor order with the smallest total absolute residual. */
function bestOrder(x: Int16Array): number {
  const n = x.length;
  if (n <= 4) return 0;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  for (let i = 4; i < n; i++) {
    const e0 = x[i] as number;
    const e1 = e0 - (x[i - 1] as number);
    const e2 = e1 - ((x[i - 1] as number) - (x[i - 2] as number));
    const d3 = (x[i - 1] as number) - 2 * (x[i - 2] as number) + (x[i - 3] as number);
    const e3 = e2 - d3;
    const d4 =
      (x[i - 1] as number) - 3 * (x[i - 2] as number) + 3 * (x[i - 3] as number) - (x[i - 4] as number);
    const e4 = e3 - d4;
    s0 += Math.abs(e0);
    s1 += Math.abs(e1);
    s2 += Math.abs(e2);
    s3 += Math.abs(e3);
    s4 += Math.abs(e4);
  }
  const sums = [s0, s1, s2, s3, s4];
  let best = 0;
  for (let order = 1; order <= 4; order++) if ((sums[order] as number) < (sums[best] as number)) best = order;
  return best;
}

/** The Rice parameter for a partition whose folded residuals sum to `sum` over `count` values. */
function riceParameter(sum: number, count: number): number {
  if (count === 0 || sum <= count) return 0;
  return Math.min(MAX_RICE, Math.max(0, Math.floor(Math.log2((sum / count) * Math.LN2))));
}

/** Bits of `count` values summing to `sum` at Rice parameter k (an estimate of the quotients). */
const riceBits = (sum: number, count: number, k: number): number =>
  count * (k + 1) + Math.floor(sum / 2 ** k) + count / 2;

interface Partitioning {
  order: number;
  parameters: number[];
  bits: number;
}

/** The partition order (0–4) and parameters that code the folded residuals in the fewest bits. */
function choosePartitions(folded: Uint32Array, blockSize: number, predictorOrder: number): Partitioning {
  let best: Partitioning | null = null;
  for (let p = 0; p <= MAX_PARTITION_ORDER; p++) {
    const parts = 1 << p;
    if (blockSize % parts !== 0 || blockSize / parts <= predictorOrder) break;
    const size = blockSize / parts;
    const parameters: number[] = [];
    let bits = 0;
    for (let j = 0; j < parts; j++) {
      const from = j === 0 ? predictorOrder : j * size;
      const to = (j + 1) * size;
      let sum = 0;
      for (let i = from; i < to; i++) sum += folded[i] as number;
      const k = riceParameter(sum, to - from);
      parameters.push(k);
      bits += 4 + riceBits(sum, to - from, k);
    }
    if (best === null || bits < best.bits) best = { order: p, parameters, bits };
  }
  return best ?? { order: 0, parameters: [0], bits: Infinity };
}

/**
 * One frame: `samples` (at most `FLAC_BLOCK_SIZE`) of 16-bit mono at `sampleRate`, numbered
 * `frameNumber` in a fixed-block-size stream.
 */
export function encodeFlacFrame(samples: Int16Array, frameNumber: number, sampleRate: number): Uint8Array {
  const n = samples.length;
  const w = new BitWriter(n * 2 + 64);
  // Header: sync, fixed block size; block size and sample rate codes; mono, 16 bits.
  w.write(0xfff8, 16);
  const sizeCode = n === FLAC_BLOCK_SIZE ? 0b1100 : n <= 256 ? 0b0110 : 0b0111;
  const rateCode = SAMPLE_RATE_CODES[sampleRate] ?? 0;
  w.write((sizeCode << 4) | rateCode, 8);
  w.write((0b0000 << 4) | (0b100 << 1), 8);
  writeCodedNumber(w, frameNumber);
  if (sizeCode === 0b0110) w.write(n - 1, 8);
  else if (sizeCode === 0b0111) w.write(n - 1, 16);
  w.write(crc8(w.view()), 8);

  // Subframe: the fixed predictor when it beats verbatim.
  const order = bestOrder(samples);
  const folded = new Uint32Array(n);
  for (let i = order; i < n; i++) {
    const e = residual(samples, i, order);
    folded[i] = e >= 0 ? 2 * e : -2 * e - 1;
  }
  const partitions = n > order ? choosePartitions(folded, n, order) : null;
  const fixedBits = partitions === null ? Infinity : 8 + order * 16 + 6 + partitions.bits;
  if (fixedBits >= 8 + n * 16) {
    w.write(0b00000010, 8); // verbatim
    for (let i = 0; i < n; i++) w.write((samples[i] as number) & 0xffff, 16);
  } else {
    const chosen = partitions as Partitioning;
    w.write((0b001000 | order) << 1, 8);
    for (let i = 0; i < order; i++) w.write((samples[i] as number) & 0xffff, 16);
    w.write(0b00, 2); // Rice, 4-bit parameters
    w.write(chosen.order, 4);
    const size = n >> chosen.order;
    chosen.parameters.forEach((k, j) => {
      w.write(k, 4);
      const from = j === 0 ? order : j * size;
      const to = (j + 1) * size;
      const mask = (1 << k) - 1;
      for (let i = from; i < to; i++) {
        const u = folded[i] as number;
        // Unary quotient (zeros, then a one), then the k low bits.
        w.zeros(Math.floor(u / 2 ** k));
        w.write((1 << k) | (u & mask), k + 1);
      }
    });
  }
  w.align();
  const crc = crc16(w.view());
  w.write(crc, 16);
  return w.view().slice();
}
