/** Bit packing and the checksums of the audio containers (FLAC's CRC-8 and CRC-16, Ogg's CRC-32). */

/** Writes big-endian bit fields, most significant bit first, into a growing byte buffer. */
export class BitWriter {
  private buffer: Uint8Array;
  private length = 0;
  /** Bits not yet written out (fewer than 8), right-aligned. */
  private pending = 0;
  private pendingBits = 0;

  constructor(capacity = 4096) {
    this.buffer = new Uint8Array(capacity);
  }

  /** Writes the low `bits` bits of `value` (0 ≤ bits ≤ 32; `value` taken as unsigned). */
  write(value: number, bits: number): void {
    if (bits > 24) {
      this.write(Math.floor(value / 65536) & 0xffff, bits - 16);
      this.write(value & 0xffff, 16);
      return;
    }
    if (bits === 0) return;
    this.pending = (this.pending << bits) | (value & ((1 << bits) - 1));
    this.pendingBits += bits;
    if (this.pendingBits >= 8) this.flushBytes();
  }

  /** Writes `count` zero bits. */
  zeros(count: number): void {
    let left = count;
    while (left > 0) {
      const bits = Math.min(left, 24);
      this.write(0, bits);
      left -= bits;
    }
  }

  /** Writes whole bytes; the writer must be on a byte boundary. */
  bytes(data: Uint8Array): void {
    if (this.pendingBits !== 0) throw new Error('bytes() needs a byte boundary');
    this.reserve(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
  }

  /** Pads with zero bits to the next byte boundary. */
  align(): void {
    if (this.pendingBits > 0) this.write(0, 8 - this.pendingBits);
  }

  /** Bytes written so far (on a byte boundary). */
  get byteLength(): number {
    return this.length;
  }

  /** A view of the bytes written so far; the writer must be on a byte boundary. */
  view(): Uint8Array {
    if (this.pendingBits !== 0) throw new Error('view() needs a byte boundary');
    return this.buffer.subarray(0, this.length);
  }

  private flushBytes(): void {
    this.reserve(4);
    while (this.pendingBits >= 8) {
      this.pendingBits -= 8;
      this.buffer[this.length++] = (this.pending >>> this.pendingBits) & 0xff;
    }
    this.pending &= (1 << this.pendingBits) - 1;
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }
}

function msbTable(bits: 8 | 16 | 32, poly: number): Uint32Array {
  const table = new Uint32Array(256);
  const top = 2 ** (bits - 1);
  const mask = 2 ** bits - 1;
  for (let i = 0; i < 256; i++) {
    let crc = i * 2 ** (bits - 8);
    for (let b = 0; b < 8; b++) {
      crc = crc >= top ? ((crc * 2) ^ poly) >>> 0 : crc * 2;
      crc = (crc & mask) >>> 0;
    }
    table[i] = crc;
  }
  return table;
}

const CRC8 = msbTable(8, 0x07);
const CRC16 = msbTable(16, 0x8005);
const CRC32 = msbTable(32, 0x04c11db7);

/** FLAC's frame header CRC-8 (polynomial x^8 + x^2 + x + 1, initial 0). */
export function crc8(data: Uint8Array, start = 0, end = data.length): number {
  let crc = 0;
  for (let i = start; i < end; i++) crc = CRC8[crc ^ (data[i] as number)] as number;
  return crc;
}

/** FLAC's frame CRC-16 (polynomial x^16 + x^15 + x^2 + 1, initial 0). */
export function crc16(data: Uint8Array, start = 0, end = data.length): number {
  let crc = 0;
  for (let i = start; i < end; i++) {
    crc = ((crc << 8) & 0xffff) ^ (CRC16[(crc >>> 8) ^ (data[i] as number)] as number);
  }
  return crc;
}

/** Ogg's page CRC-32 (polynomial 0x04C11DB7, initial 0, no reflection, no final xor). */
export function oggCrc32(data: Uint8Array, start = 0, end = data.length): number {
  let crc = 0;
  for (let i = start; i < end; i++) {
    crc = ((crc << 8) ^ (CRC32[((crc >>> 24) ^ (data[i] as number)) & 0xff] as number)) >>> 0;
  }
  return crc;
}
