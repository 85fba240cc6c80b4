/**
 * Readers of the audio formats the demo service answers with, written for the tests from the
 * specifications (RIFF/WAVE, RFC 9639 FLAC, RFC 3533 Ogg with the FLAC mapping, ADTS), with their
 * own bit-by-bit checksums: nothing here is shared with the encoder it checks. CI has no ffmpeg,
 * so a FLAC decoder (for the subframe kinds the demo service writes) stands in for one.
 */
import { createHash } from 'node:crypto';

const ascii = (bytes: Uint8Array, at: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(at, at + length));

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** CRC with an MSB-first polynomial of `width` bits, initial 0, bit by bit. */
function crc(width: number, poly: number, bytes: Uint8Array): number {
  let value = 0n;
  const top = 1n << BigInt(width - 1);
  const mask = (1n << BigInt(width)) - 1n;
  for (const byte of bytes) {
    value ^= BigInt(byte) << BigInt(width - 8);
    for (let b = 0; b < 8; b++)
      value = value & top ? ((value << 1n) ^ BigInt(poly)) & mask : (value << 1n) & mask;
  }
  return Number(value);
}
export const crc8 = (bytes: Uint8Array) => crc(8, 0x07, bytes);
export const crc16 = (bytes: Uint8Array) => crc(16, 0x8005, bytes);
export const crc32 = (bytes: Uint8Array) => crc(32, 0x04c11db7, bytes);

// --- WAV ----------------------------------------------------------------------------------------

export interface Wav {
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  samples: Int16Array;
}

export function readWav(bytes: Uint8Array): Wav {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WAVE') throw new Error('not RIFF/WAVE');
  if (view.getUint32(4, true) !== bytes.length - 8) throw new Error('RIFF size does not match the file');
  let at = 12;
  let fmt: Omit<Wav, 'samples'> | null = null;
  while (at + 8 <= bytes.length) {
    const id = ascii(bytes, at, 4);
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ') {
      fmt = {
        format: view.getUint16(at + 8, true),
        channels: view.getUint16(at + 10, true),
        sampleRate: view.getUint32(at + 12, true),
        bitsPerSample: view.getUint16(at + 22, true),
      };
    } else if (id === 'data') {
      if (!fmt) throw new Error('data before fmt');
      if (at + 8 + size !== bytes.length) throw new Error('data size does not match the file');
      const samples = new Int16Array(size / 2);
      for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(at + 8 + i * 2, true);
      return { ...fmt, samples };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error('no data chunk');
}

// --- FLAC ---------------------------------------------------------------------------------------

class BitReader {
  private bit = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private byte = 0,
  ) {}

  read(bits: number): number {
    let value = 0;
    for (let i = 0; i < bits; i++) {
      if (this.byte >= this.bytes.length) throw new Error('read past the end');
      value = value * 2 + (((this.bytes[this.byte] as number) >> (7 - this.bit)) & 1);
      if (++this.bit === 8) {
        this.bit = 0;
        this.byte++;
      }
    }
    return value;
  }

  signed(bits: number): number {
    const value = this.read(bits);
    return value >= 2 ** (bits - 1) ? value - 2 ** bits : value;
  }

  unary(): number {
    let zeros = 0;
    while (this.read(1) === 0) zeros++;
    return zeros;
  }

  align(): void {
    if (this.bit !== 0) {
      this.bit = 0;
      this.byte++;
    }
  }

  get position(): number {
    return this.byte;
  }
}

export interface StreamInfo {
  minBlock: number;
  maxBlock: number;
  minFrame: number;
  maxFrame: number;
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  totalSamples: number;
  md5: string;
}

export function readStreamInfo(body: Uint8Array): StreamInfo {
  const r = new BitReader(body);
  return {
    minBlock: r.read(16),
    maxBlock: r.read(16),
    minFrame: r.read(24),
    maxFrame: r.read(24),
    sampleRate: r.read(20),
    channels: r.read(3) + 1,
    bitsPerSample: r.read(5) + 1,
    totalSamples: r.read(36),
    md5: Buffer.from(body.subarray(18, 34)).toString('hex'),
  };
}

export interface FlacFrame {
  number: number;
  blockSize: number;
  sampleRate: number;
  bytes: number;
  samples: Int16Array;
}

/** Decodes one 16-bit mono frame at `at`; checks sync, reserved bits, CRC-8 and CRC-16. */
export function decodeFlacFrame(bytes: Uint8Array, at: number): FlacFrame {
  const r = new BitReader(bytes, at);
  if (r.read(15) !== 0x7ffc) throw new Error(`no frame sync at ${at}`);
  if (r.read(1) !== 0) throw new Error('variable block size not expected');
  const sizeCode = r.read(4);
  const rateCode = r.read(4);
  if (r.read(4) !== 0) throw new Error('not mono');
  if (r.read(3) !== 0b100) throw new Error('not 16-bit');
  if (r.read(1) !== 0) throw new Error('reserved bit set');
  // Coded number (UTF-8-like).
  const lead = r.read(8);
  let more = 0;
  while ((lead << more) & 0x80) more++;
  let number = more === 0 ? lead : lead & (0xff >> (more + 1));
  for (let i = 1; i < more; i++) {
    const next = r.read(8);
    if ((next & 0xc0) !== 0x80) throw new Error('bad coded number');
    number = number * 64 + (next & 0x3f);
  }
  let blockSize: number;
  if (sizeCode === 0b0110) blockSize = r.read(8) + 1;
  else if (sizeCode === 0b0111) blockSize = r.read(16) + 1;
  else if (sizeCode >= 0b1000) blockSize = 256 << (sizeCode - 8);
  else throw new Error(`block size code ${sizeCode} not expected`);
  const rates: Record<number, number> = { 0b0100: 8000, 0b0101: 16000, 0b0110: 22050, 0b1001: 44100 };
  const sampleRate = rates[rateCode] ?? 0;
  const headerEnd = r.position;
  if (r.read(8) !== crc8(bytes.subarray(at, headerEnd))) throw new Error(`frame ${number}: CRC-8 mismatch`);

  if (r.read(1) !== 0) throw new Error('subframe padding bit set');
  const type = r.read(6);
  if (r.read(1) !== 0) throw new Error('wasted bits not expected');
  const samples = new Int16Array(blockSize);
  if (type === 0) {
    samples.fill(r.signed(16));
  } else if (type === 1) {
    for (let i = 0; i < blockSize; i++) samples[i] = r.signed(16);
  } else if (type >= 8 && type <= 12) {
    const order = type - 8;
    const residual = new Array<number>(blockSize).fill(0);
    for (let i = 0; i < order; i++) samples[i] = r.signed(16);
    const method = r.read(2);
    if (method > 1) throw new Error('reserved residual coding method');
    const partitionOrder = r.read(4);
    const parts = 2 ** partitionOrder;
    let n = order;
    for (let p = 0; p < parts; p++) {
      const count = blockSize / parts - (p === 0 ? order : 0);
      const k = r.read(method === 0 ? 4 : 5);
      const escape = method === 0 ? 15 : 31;
      if (k === escape) throw new Error('escape partitions not expected');
      for (let i = 0; i < count; i++) {
        const u = r.unary() * 2 ** k + r.read(k);
        residual[n++] = u % 2 === 0 ? u / 2 : -(u + 1) / 2;
      }
    }
    const x: number[] = Array.from(samples.subarray(0, order));
    const coefficients = [[], [1], [2, -1], [3, -3, 1], [4, -6, 4, -1]][order] as number[];
    for (let i = order; i < blockSize; i++) {
      let prediction = 0;
      coefficients.forEach((c, j) => (prediction += c * (x[i - 1 - j] as number)));
      x[i] = prediction + (residual[i] as number);
      if ((x[i] as number) < -32768 || (x[i] as number) > 32767) throw new Error('sample out of range');
    }
    samples.set(x);
  } else {
    throw new Error(`subframe type ${type} not expected`);
  }
  r.align();
  const end = r.position;
  const crc = r.read(16);
  if (crc !== crc16(bytes.subarray(at, end))) throw new Error(`frame ${number}: CRC-16 mismatch`);
  return { number, blockSize, sampleRate, bytes: end + 2 - at, samples };
}

export interface Flac {
  info: StreamInfo;
  comments: string[];
  frames: FlacFrame[];
  samples: Int16Array;
}

/** Metadata blocks (type, body) from `at` to the block flagged last; returns where audio starts. */
function readMetadata(
  bytes: Uint8Array,
  at: number,
): { blocks: Array<{ type: number; body: Uint8Array }>; end: number } {
  const blocks: Array<{ type: number; body: Uint8Array }> = [];
  let last = false;
  // In Ogg, each metadata block is a packet of its own, not flagged last.
  while (!last && at < bytes.length) {
    const header = bytes[at] as number;
    last = (header & 0x80) !== 0;
    const length =
      ((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number);
    blocks.push({ type: header & 0x7f, body: bytes.subarray(at + 4, at + 4 + length) });
    at += 4 + length;
  }
  return { blocks, end: at };
}

export function readVorbisComment(body: Uint8Array): string[] {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const text = (at: number) => {
    const length = view.getUint32(at, true);
    return { value: new TextDecoder().decode(body.subarray(at + 4, at + 4 + length)), next: at + 4 + length };
  };
  const vendor = text(0);
  const count = view.getUint32(vendor.next, true);
  const out = [vendor.value];
  let at = vendor.next + 4;
  for (let i = 0; i < count; i++) {
    const comment = text(at);
    out.push(comment.value);
    at = comment.next;
  }
  return out;
}

function joinSamples(frames: FlacFrame[]): Int16Array {
  const out = new Int16Array(frames.reduce((n, f) => n + f.blockSize, 0));
  let at = 0;
  for (const frame of frames) {
    out.set(frame.samples, at);
    at += frame.blockSize;
  }
  return out;
}

export function readFlac(bytes: Uint8Array): Flac {
  if (ascii(bytes, 0, 4) !== 'fLaC') throw new Error('no fLaC marker');
  const { blocks, end } = readMetadata(bytes, 4);
  if (blocks[0]?.type !== 0) throw new Error('STREAMINFO is not first');
  const info = readStreamInfo(blocks[0].body);
  const comment = blocks.find((b) => b.type === 4);
  const frames: FlacFrame[] = [];
  let at = end;
  while (at < bytes.length) {
    const frame = decodeFlacFrame(bytes, at);
    frames.push(frame);
    at += frame.bytes;
  }
  return {
    info,
    comments: comment ? readVorbisComment(comment.body) : [],
    frames,
    samples: joinSamples(frames),
  };
}

/** Whether two sample arrays hold the same samples, bit for bit. */
export const sameSamples = (a: Int16Array, b: Int16Array): boolean =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

export const md5OfSamples = (samples: Int16Array): string =>
  createHash('md5')
    .update(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength))
    .digest('hex');

// --- Ogg ----------------------------------------------------------------------------------------

export interface OggPage {
  flags: number;
  granule: number;
  serial: number;
  sequence: number;
  packets: Uint8Array[];
  /** Whether the last packet continues on the next page. */
  continued: boolean;
}

/** Every page, its CRC checked; packets joined across pages. */
export function readOgg(bytes: Uint8Array): { pages: OggPage[]; packets: Uint8Array[] } {
  const pages: OggPage[] = [];
  const packets: Uint8Array[] = [];
  let partial: number[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (ascii(bytes, at, 4) !== 'OggS') throw new Error(`no OggS at ${at}`);
    const view = new DataView(bytes.buffer, bytes.byteOffset + at);
    if (bytes[at + 4] !== 0) throw new Error('Ogg version is not 0');
    const segments = bytes[at + 26] as number;
    const table = bytes.subarray(at + 27, at + 27 + segments);
    const bodyLength = table.reduce((n, s) => n + s, 0);
    const length = 27 + segments + bodyLength;
    const copy = bytes.slice(at, at + length);
    copy.fill(0, 22, 26);
    if (crc32(copy) !== view.getUint32(22, true)) throw new Error(`page at ${at}: CRC mismatch`);
    const page: OggPage = {
      flags: bytes[at + 5] as number,
      granule: view.getUint32(6, true) + view.getUint32(10, true) * 2 ** 32,
      serial: view.getUint32(14, true),
      sequence: view.getUint32(18, true),
      packets: [],
      continued: (table[segments - 1] ?? 0) === 255,
    };
    let body = at + 27 + segments;
    for (const size of table) {
      partial.push(...bytes.subarray(body, body + size));
      body += size;
      if (size < 255) {
        const packet = new Uint8Array(partial);
        page.packets.push(packet);
        packets.push(packet);
        partial = [];
      }
    }
    pages.push(page);
    at += length;
  }
  return { pages, packets };
}

/** FLAC in Ogg: the mapping header, STREAMINFO, comments, and the frames from the packets. */
export function readOggFlac(bytes: Uint8Array): Flac & { pages: OggPage[] } {
  const { pages, packets } = readOgg(bytes);
  const first = packets[0] as Uint8Array;
  if (first[0] !== 0x7f || ascii(first, 1, 4) !== 'FLAC' || first[5] !== 1 || first[6] !== 0) {
    throw new Error('not the FLAC-to-Ogg mapping 1.0');
  }
  const headerPackets = ((first[7] as number) << 8) | (first[8] as number);
  if (ascii(first, 9, 4) !== 'fLaC') throw new Error('no fLaC in the first packet');
  const info = readStreamInfo(readMetadata(first, 13).blocks[0]!.body);
  const comment = readMetadata(packets[1] as Uint8Array, 0).blocks[0]!;
  if (comment.type !== 4) throw new Error('the second packet is not VORBIS_COMMENT');
  const frames = packets.slice(1 + headerPackets).map((packet) => {
    const frame = decodeFlacFrame(packet, 0);
    if (frame.bytes !== packet.length) throw new Error('a packet holds more than one frame');
    return frame;
  });
  return { info, comments: readVorbisComment(comment.body), frames, samples: joinSamples(frames), pages };
}

// --- ADTS ---------------------------------------------------------------------------------------

export interface AdtsFrame {
  profile: number;
  sampleRateIndex: number;
  channelConfig: number;
  length: number;
  rawBlocks: number;
  protectionAbsent: boolean;
}

export const ADTS_SAMPLE_RATES = [
  96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000,
];

export function readAdts(bytes: Uint8Array): AdtsFrame[] {
  const frames: AdtsFrame[] = [];
  let at = 0;
  while (at < bytes.length) {
    const b = (i: number) => bytes[at + i] as number;
    if (b(0) !== 0xff || (b(1) & 0xf0) !== 0xf0) throw new Error(`no ADTS sync at ${at}`);
    if ((b(1) & 0x06) !== 0) throw new Error('layer is not 0');
    const frame: AdtsFrame = {
      protectionAbsent: (b(1) & 0x01) === 1,
      profile: b(2) >> 6,
      sampleRateIndex: (b(2) >> 2) & 0x0f,
      channelConfig: ((b(2) & 0x01) << 2) | (b(3) >> 6),
      length: ((b(3) & 0x03) << 11) | (b(4) << 3) | (b(5) >> 5),
      rawBlocks: (b(6) & 0x03) + 1,
    };
    if (frame.length < 7 || at + frame.length > bytes.length) throw new Error(`bad frame length at ${at}`);
    frames.push(frame);
    at += frame.length;
  }
  return frames;
}
