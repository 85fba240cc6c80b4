/**
 * A visit photo made ready to keep, in the backend: its structure checked (picture-check.ts), its
 * pixels decoded by libvips (sharp), its thumbnail drawn (the longer side at most
 * THUMBNAIL_EDGE_PX, a JPEG, turned as the camera meant) and — when the user asks for reduced
 * copies — a JPEG with its longer side at most REDUCED_EDGE_PX in place of the camera's file.
 *
 * Here rather than in the renderer: the desktop app reads a chosen photo from its path in the main
 * process, so the picture never crosses to the renderer and back as text, and the thumbnail the
 * sheet prints is made by one code for every way a photo arrives.
 */
import pLimit from 'p-limit';
import sharp from 'sharp';
import { REDUCED_EDGE_PX, THUMBNAIL_EDGE_PX } from '../../../shared/visits';
import { PICTURE_MAX_PIXELS, readPicture, type Picture, type PictureType } from './picture-check';

export interface PreparedPicture {
  /** What is kept: the file's own bytes, or the reduced copy. */
  image: Buffer;
  type: PictureType;
  /** The thumbnail, a JPEG. */
  thumbnail: Buffer;
  /** Whether `image` is a reduced copy rather than the file. */
  reduced: boolean;
}

/** Why a photo cannot be kept, in words that complete "“name” …" (the handler says the rest). */
export type PictureRefusal =
  | { kind: 'notPicture' }
  | { kind: 'unreadable'; problem: string }
  | { kind: 'tooLarge'; width: number; height: number }
  | { kind: 'undecodable' };

export class PictureRefused extends Error {
  constructor(
    readonly refusal: PictureRefusal,
    options?: ErrorOptions,
  ) {
    super(refusal.kind, options);
  }
}

/** JPEG qualities: a thumbnail only has to be recognised; a reduced copy is looked at closely. */
const THUMBNAIL_QUALITY = 82;
const REDUCED_QUALITY = 88;

/**
 * Pixels decoded at most, by format. A JPEG is decoded already shrunk (libjpeg scales while it
 * decodes), so a 200-megapixel phone photo costs little; PNG, GIF and WebP decode whole, a GIF's
 * frame as RGBA, so a small file could ask for gigabytes: no site photo in those is this large.
 */
const MAX_PIXELS: Readonly<Record<PictureType, number>> = {
  'image/jpeg': PICTURE_MAX_PIXELS,
  'image/png': 64_000_000,
  'image/gif': 16_000_000,
  'image/webp': 64_000_000,
};

/** One photo decoded at a time, whatever asks: decoding is the memory-hungry part. */
const decoding = pLimit(1);
let configured = false;

/**
 * A picture's pixels, turned by its orientation tag. Decoded in the main process, so strictly:
 * a decoder's warning (damaged data) fails it, as sharp advises for input that is not ours.
 */
function pixelsOf(bytes: Buffer, picture: Picture) {
  if (!configured) {
    // libvips keeps recent operations and their pixels for reuse: nothing here is decoded twice.
    sharp.cache(false);
    configured = true;
  }
  return sharp(bytes, { failOn: 'warning', limitInputPixels: MAX_PIXELS[picture.type] }).rotate();
}

/** The picture with its longer side at most `edge` px (never enlarged), as a JPEG. */
function scaledJpeg(bytes: Buffer, picture: Picture, edge: number, quality: number): Promise<Buffer> {
  return pixelsOf(bytes, picture)
    .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality })
    .toBuffer();
}

/**
 * The photo ready to keep, or `PictureRefused` saying why not. `reduce`: keep a reduced JPEG when
 * the picture is larger than REDUCED_EDGE_PX (a 17 MB phone photo becomes about 1 MB).
 */
export async function preparePicture(bytes: Buffer, reduce: boolean): Promise<PreparedPicture> {
  const read = readPicture(bytes);
  if (read.kind === 'unknown') throw new PictureRefused({ kind: 'notPicture' });
  if (read.kind === 'unreadable') throw new PictureRefused({ kind: 'unreadable', problem: read.problem });
  const picture = read.picture;
  const { type, width, height } = picture;
  if (width * height > MAX_PIXELS[type]) throw new PictureRefused({ kind: 'tooLarge', width, height });
  try {
    return await decoding(async () => {
      const thumbnail = await scaledJpeg(bytes, picture, THUMBNAIL_EDGE_PX, THUMBNAIL_QUALITY);
      if (!reduce || Math.max(width, height) <= REDUCED_EDGE_PX)
        return { image: bytes, type, thumbnail, reduced: false };
      const image = await scaledJpeg(bytes, picture, REDUCED_EDGE_PX, REDUCED_QUALITY);
      return { image, type: 'image/jpeg' as const, thumbnail, reduced: true };
    });
  } catch (cause) {
    // Its structure is sound but libvips cannot decode its pixels (a damaged scan, an unusual coding).
    throw new PictureRefused({ kind: 'undecodable' }, { cause });
  }
}
