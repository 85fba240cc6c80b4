/**
 * Whether bytes are a picture, read by their structure rather than their first bytes: a file that
 * starts like a JPEG may be three bytes long, or a JPEG with an HTML page and a ZIP archive after it
 * (a polyglot, opened as something else by whatever looks at its end). So each format is walked
 * from its start to its own end marker, and every byte must belong to it:
 *
 * - JPEG: segment by segment to a frame header (SOF: the dimensions), through each scan's entropy
 *   data (stuffed bytes and restart markers) to EOI;
 * - PNG: chunk by chunk, each CRC checked, IHDR first (the dimensions), IDAT before IEND;
 * - GIF: header, colour tables, extensions and images (their data sub-blocks) to the trailer;
 * - WebP: the RIFF chunks its RIFF size holds, the first a VP8, VP8L or VP8X (the dimensions).
 *
 * Anything after the end is refused, except what cameras themselves write after a JPEG: further
 * whole JPEGs (the Multi-Picture Format's gain maps and depth maps of today's phones, checked the
 * same way), a motion photo's MP4 (ISO boxes filling the rest exactly) or Samsung's trailer (its
 * directory accounting for the rest exactly).
 *
 * Why not a library: image-size reads dimensions from the header but does not walk to the end, so
 * a cut-off file or a polyglot passes it; jpeg-js and pngjs decode every pixel (seconds and hundreds
 * of MB in the main process for a 24 MiB photo) and neither says what follows the picture's end. The
 * pixels themselves are decoded by the renderer, which draws the thumbnail.
 */
import { crc32 } from 'node:zlib';

export type PictureType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export interface Picture {
  type: PictureType;
  width: number;
  height: number;
}

/**
 * `picture` when the bytes check out; `unknown` when they are none of the four formats;
 * `unreadable` with the problem in words, completing "… is not a picture FieldDesk can read: ".
 */
export type PictureReading =
  | { kind: 'picture'; picture: Picture }
  | { kind: 'unknown' }
  | { kind: 'unreadable'; type: PictureType; problem: string };

/** A side past this is no photo (JPEG's own limit; no camera or phone comes near it). */
export const PICTURE_MAX_SIDE = 65_535;
/** Pixels past this are no photo FieldDesk decodes (a 200-megapixel phone photo is 0.2 billion). */
export const PICTURE_MAX_PIXELS = 268_435_456;
/** Further pictures after a JPEG's end (MPF images): phones write one or two. */
const APPENDED_JPEGS_MAX = 8;

const number = (n: number): string => n.toLocaleString('en-GB');

export const PICTURE_PROBLEMS = {
  endsBefore: 'it ends before its image data',
  endsPartway: 'it ends partway through its image data',
  trailing: (bytes: number) =>
    `it has ${number(bytes)} ${bytes === 1 ? 'byte' : 'bytes'} of something else after the picture`,
  damaged: (format: string, at: number) => `its ${format} structure is damaged at byte ${number(at)}`,
  checksum: (at: number) => `its PNG data is damaged (a checksum does not match at byte ${number(at)})`,
  noSize: (width: number, height: number) => `it says it is ${number(width)} × ${number(height)} pixels`,
  tooLarge: (width: number, height: number) =>
    `it says it is ${number(width)} × ${number(height)} pixels, more than FieldDesk can show`,
} as const;

/** Thrown inside a walk; the caller turns it into an `unreadable` answer. */
class Unreadable extends Error {}

function fail(problem: string): never {
  throw new Unreadable(problem);
}

const startsWith = (b: Uint8Array, at: number, prefix: readonly number[]): boolean =>
  b.length >= at + prefix.length && prefix.every((value, i) => b[at + i] === value);

const ascii = (b: Uint8Array, at: number, length: number): string =>
  String.fromCharCode(...b.subarray(at, at + length));

const u16be = (b: Uint8Array, at: number): number => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number): number => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number): number => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32be = (b: Uint8Array, at: number): number =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const u32le = (b: Uint8Array, at: number): number =>
  (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

const JPEG_START = [0xff, 0xd8, 0xff] as const;
const PNG_START = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;

function typeOf(b: Uint8Array): PictureType | null {
  if (startsWith(b, 0, JPEG_START)) return 'image/jpeg';
  if (startsWith(b, 0, PNG_START)) return 'image/png';
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'image/webp';
  return null;
}

function checkSize(width: number, height: number): void {
  if (width < 1 || height < 1) fail(PICTURE_PROBLEMS.noSize(width, height));
  if (width > PICTURE_MAX_SIDE || height > PICTURE_MAX_SIDE || width * height > PICTURE_MAX_PIXELS)
    fail(PICTURE_PROBLEMS.tooLarge(width, height));
}

interface Walked {
  /** The offset just past the picture's end marker. */
  end: number;
  width: number;
  height: number;
}

// ---- JPEG ---------------------------------------------------------------------------------------

/** Frame headers (SOF0–SOF15 less DHT C4, JPG C8 and DAC CC): they carry the dimensions. */
const isFrameHeader = (marker: number): boolean =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Walks one JPEG from `start` (its SOI) to just past its EOI. */
function walkJpeg(b: Uint8Array, start: number): Walked {
  let pos = start + 2;
  let size: { width: number; height: number } | null = null;
  let scanned = false;
  function cut(): never {
    return fail(scanned ? PICTURE_PROBLEMS.endsPartway : PICTURE_PROBLEMS.endsBefore);
  }
  for (;;) {
    if (pos >= b.length) cut();
    if (b[pos] !== 0xff) fail(PICTURE_PROBLEMS.damaged('JPEG', pos));
    // Any number of 0xFF may stand before a marker (fill bytes).
    while (b[pos] === 0xff) pos += 1;
    if (pos >= b.length) cut();
    const marker = b[pos]!;
    const at = pos - 1;
    pos += 1;
    if (marker === 0xd9) {
      if (!scanned || size === null) fail(PICTURE_PROBLEMS.endsBefore);
      return { end: pos, ...size };
    }
    // SOI again, a restart marker outside a scan, or no marker at all: not a JPEG's structure.
    if (marker === 0xd8 || marker === 0x00 || (marker >= 0xd0 && marker <= 0xd7))
      fail(PICTURE_PROBLEMS.damaged('JPEG', at));
    if (marker === 0x01) continue; // TEM: stands alone.
    if (pos + 2 > b.length) cut();
    const length = u16be(b, pos);
    if (length < 2) fail(PICTURE_PROBLEMS.damaged('JPEG', at));
    const segmentEnd = pos + length;
    if (segmentEnd > b.length) cut();
    if (isFrameHeader(marker) && size === null) {
      const components = length >= 8 ? b[pos + 7]! : 0;
      if (components < 1 || length !== 8 + 3 * components) fail(PICTURE_PROBLEMS.damaged('JPEG', at));
      size = { width: u16be(b, pos + 5), height: u16be(b, pos + 3) };
      checkSize(size.width, size.height);
    }
    pos = segmentEnd;
    if (marker === 0xda) {
      // A scan before its frame header has no picture to belong to.
      if (size === null) fail(PICTURE_PROBLEMS.damaged('JPEG', at));
      scanned = true;
      pos = endOfEntropyData(b, pos);
    }
  }
}

/** The offset of the marker that ends a scan's entropy-coded data. */
function endOfEntropyData(b: Uint8Array, from: number): number {
  let pos = from;
  for (;;) {
    const ff = b.indexOf(0xff, pos);
    if (ff < 0 || ff + 1 >= b.length) return fail(PICTURE_PROBLEMS.endsPartway);
    const next = b[ff + 1]!;
    // 0xFF00 is a stuffed 0xFF byte of data; 0xFFD0–D7 restart markers belong to the scan.
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) pos = ff + 2;
    else if (next === 0xff) pos = ff + 1;
    else return ff;
  }
}

/** A motion photo's video: ISO boxes, `ftyp` first, that fill `b` from `from` to its end exactly. */
function isVideoTrailer(b: Uint8Array, from: number): boolean {
  let pos = from;
  let first = true;
  while (pos < b.length) {
    if (pos + 8 > b.length) return false;
    const type = ascii(b, pos + 4, 4);
    if (!/^[\x20-\x7e]{4}$/.test(type) || (first && type !== 'ftyp')) return false;
    let size = u32be(b, pos);
    if (size === 1) {
      if (pos + 16 > b.length) return false;
      size = u32be(b, pos + 8) * 2 ** 32 + u32be(b, pos + 12);
    } else if (size === 0) {
      size = b.length - pos;
    }
    if (size < 8 || pos + size > b.length) return false;
    pos += size;
    first = false;
  }
  return !first;
}

/**
 * Samsung's trailer (as ExifTool reads it): it ends with a directory `SEFH … <length> SEFT` whose
 * entries point back at data blocks; the earliest block must start exactly at `from`, so every
 * byte after the picture is the trailer's.
 */
function isSamsungTrailer(b: Uint8Array, from: number): boolean {
  const end = b.length;
  if (end - from < 20 || ascii(b, end - 4, 4) !== 'SEFT') return false;
  const length = u32le(b, end - 8);
  const directory = end - 8 - length;
  if (length < 12 || directory < from || ascii(b, directory, 4) !== 'SEFH') return false;
  const count = u32le(b, directory + 8);
  if (count < 1 || 12 + 12 * count > length) return false;
  let earliest = 0;
  for (let i = 0; i < count; i++) {
    const entry = directory + 12 + 12 * i;
    const back = u32le(b, entry + 4);
    const size = u32le(b, entry + 8);
    if (back > directory - from || size < 8 || size > back) return false;
    earliest = Math.max(earliest, back);
  }
  return directory - earliest === from;
}

function readJpeg(b: Uint8Array): Walked {
  const picture = walkJpeg(b, 0);
  let pos = picture.end;
  for (let n = 0; n < APPENDED_JPEGS_MAX && pos < b.length && startsWith(b, pos, JPEG_START); n++) {
    try {
      pos = walkJpeg(b, pos).end;
    } catch (error) {
      // Not a whole picture after all: what follows is counted as something else.
      if (!(error instanceof Unreadable)) throw error;
      break;
    }
  }
  if (pos < b.length && !isVideoTrailer(b, pos) && !isSamsungTrailer(b, pos))
    fail(PICTURE_PROBLEMS.trailing(b.length - pos));
  return picture;
}

// ---- PNG ----------------------------------------------------------------------------------------

function walkPng(b: Uint8Array): Walked {
  let pos: number = PNG_START.length;
  let size: { width: number; height: number } | null = null;
  let imageData = false;
  function cut(): never {
    return fail(imageData ? PICTURE_PROBLEMS.endsPartway : PICTURE_PROBLEMS.endsBefore);
  }
  for (;;) {
    if (pos + 8 > b.length) cut();
    const length = u32be(b, pos);
    const type = ascii(b, pos + 4, 4);
    if (length > 0x7fffffff || !/^[A-Za-z]{4}$/.test(type)) fail(PICTURE_PROBLEMS.damaged('PNG', pos));
    const dataAt = pos + 8;
    const next = dataAt + length + 4;
    if (type === 'IDAT') imageData = true;
    if (next > b.length) cut();
    if (crc32(b.subarray(pos + 4, dataAt + length)) !== u32be(b, dataAt + length))
      fail(PICTURE_PROBLEMS.checksum(pos));
    if (size === null) {
      if (type !== 'IHDR' || length !== 13) fail(PICTURE_PROBLEMS.damaged('PNG', pos));
      size = { width: u32be(b, dataAt), height: u32be(b, dataAt + 4) };
      checkSize(size.width, size.height);
    } else if (type === 'IEND') {
      if (!imageData) fail(PICTURE_PROBLEMS.endsBefore);
      return { end: next, ...size };
    }
    pos = next;
  }
}

// ---- GIF ----------------------------------------------------------------------------------------

function walkGif(b: Uint8Array): Walked {
  if (b.length < 13) fail(PICTURE_PROBLEMS.endsBefore);
  const width = u16le(b, 6);
  const height = u16le(b, 8);
  checkSize(width, height);
  const colourTable = (flags: number): number => ((flags & 0x80) === 0 ? 0 : 3 * (1 << ((flags & 7) + 1)));
  let pos = 13 + colourTable(b[10]!);
  let images = 0;
  function cut(): never {
    return fail(images > 0 ? PICTURE_PROBLEMS.endsPartway : PICTURE_PROBLEMS.endsBefore);
  }
  /** Data sub-blocks: a length byte and that many bytes, to a zero length. */
  const skipSubBlocks = (): void => {
    for (;;) {
      if (pos >= b.length) cut();
      const n = b[pos]!;
      pos += 1 + n;
      if (n === 0) return;
    }
  };
  for (;;) {
    if (pos >= b.length) cut();
    const introducer = b[pos]!;
    if (introducer === 0x3b) {
      if (images === 0) fail(PICTURE_PROBLEMS.endsBefore);
      return { end: pos + 1, width, height };
    }
    if (introducer === 0x21) {
      pos += 2;
      skipSubBlocks();
    } else if (introducer === 0x2c) {
      if (pos + 10 > b.length) cut();
      images += 1;
      pos += 10 + colourTable(b[pos + 9]!);
      if (pos >= b.length) cut();
      const codeSize = b[pos]!;
      if (codeSize < 2 || codeSize > 11) fail(PICTURE_PROBLEMS.damaged('GIF', pos));
      pos += 1;
      skipSubBlocks();
    } else {
      fail(PICTURE_PROBLEMS.damaged('GIF', pos));
    }
  }
}

// ---- WebP ---------------------------------------------------------------------------------------

function webpSize(
  b: Uint8Array,
  fourcc: string,
  at: number,
  length: number,
): { width: number; height: number } {
  if (fourcc === 'VP8 ') {
    // A key frame (bit 0 of the frame tag clear), its start code, then 14-bit width and height.
    if (length < 10 || (b[at]! & 1) !== 0 || !startsWith(b, at + 3, [0x9d, 0x01, 0x2a]))
      fail(PICTURE_PROBLEMS.damaged('WebP', at));
    return { width: u16le(b, at + 6) & 0x3fff, height: u16le(b, at + 8) & 0x3fff };
  }
  if (fourcc === 'VP8L') {
    const bits = length >= 5 ? u32le(b, at + 1) : 0;
    if (length < 5 || b[at] !== 0x2f || bits >>> 29 !== 0) fail(PICTURE_PROBLEMS.damaged('WebP', at));
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (fourcc === 'VP8X') {
    if (length < 10) fail(PICTURE_PROBLEMS.damaged('WebP', at));
    return { width: u24le(b, at + 4) + 1, height: u24le(b, at + 7) + 1 };
  }
  return fail(PICTURE_PROBLEMS.damaged('WebP', at - 8));
}

function walkWebp(b: Uint8Array): Walked {
  if (b.length < 12) fail(PICTURE_PROBLEMS.endsBefore);
  const end = 8 + u32le(b, 4);
  const limit = Math.min(end, b.length);
  let pos = 12;
  let size: { width: number; height: number } | null = null;
  let imageData = false;
  function cut(): never {
    return fail(imageData ? PICTURE_PROBLEMS.endsPartway : PICTURE_PROBLEMS.endsBefore);
  }
  while (pos < end) {
    if (pos + 8 > limit) return limit < end ? cut() : fail(PICTURE_PROBLEMS.damaged('WebP', pos));
    const fourcc = ascii(b, pos, 4);
    const length = u32le(b, pos + 4);
    if (fourcc === 'VP8 ' || fourcc === 'VP8L' || fourcc === 'ANMF') imageData = true;
    const dataEnd = pos + 8 + length;
    // Chunks are padded to an even length; a last odd chunk without its pad byte is taken too.
    const next = dataEnd + (length & 1) === end + 1 ? end : dataEnd + (length & 1);
    if (next > limit) return limit < end ? cut() : fail(PICTURE_PROBLEMS.damaged('WebP', pos));
    if (size === null) {
      size = webpSize(b, fourcc, pos + 8, length);
      checkSize(size.width, size.height);
    }
    pos = next;
  }
  if (size === null || !imageData) return fail(PICTURE_PROBLEMS.endsBefore);
  return { end, ...size };
}

// ---- all ----------------------------------------------------------------------------------------

const WALKS: Readonly<Record<PictureType, (b: Uint8Array) => Walked>> = {
  'image/jpeg': readJpeg,
  'image/png': walkPng,
  'image/gif': walkGif,
  'image/webp': walkWebp,
};

/** Reads `bytes` as a picture: its type and dimensions, or what is wrong with it. */
export function readPicture(bytes: Uint8Array): PictureReading {
  const type = typeOf(bytes);
  if (type === null) return { kind: 'unknown' };
  try {
    const walked = WALKS[type](bytes);
    // JPEG answers its own trailing bytes (some are a camera's); the others end at their end.
    if (type !== 'image/jpeg' && walked.end < bytes.length)
      fail(PICTURE_PROBLEMS.trailing(bytes.length - walked.end));
    return { kind: 'picture', picture: { type, width: walked.width, height: walked.height } };
  } catch (error) {
    if (error instanceof Unreadable) return { kind: 'unreadable', type, problem: error.message };
    throw error;
  }
}
