/**
 * Pictures read by their structure (visits/picture-check.ts): a real photo and small pictures made
 * by real encoders (ImageMagick, cwebp) are read with their dimensions; every cut-off copy of them,
 * anything appended to them (a polyglot's HTML and ZIP included), a damaged checksum and absurd
 * dimensions are refused in words. What phones write after a JPEG — further JPEGs (gain maps, depth
 * maps), a motion photo's MP4, Samsung's trailer — is a part of the picture, not something else.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  PICTURE_MAX_PIXELS,
  PICTURE_PROBLEMS,
  readPicture,
  type PictureReading,
} from '../../../src/main/backend/visits/picture-check';

const PHOTO = readFileSync(join(__dirname, '../../fixtures/site-photo-mast.jpg'));
/** 3 × 2 pixels each, as the encoders wrote them (`convert -strip`, `cwebp`, `cwebp -lossless`). */
const SMALL = {
  png: 'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACAQMAAACnuvRZAAAABlBMVEX/AAAAAP9sof2OAAAADElEQVQI12NgYHAAAABEAEFGrHeUAAAAAElFTkSuQmCC',
  gif: 'R0lGODlhAwACAPAAAP8AAAAA/yH5BAAAAAAALAAAAAADAAIAAAIDhBFQADs=',
  webpLossless: 'UklGRiAAAABXRUJQVlA4TBMAAAAvAkAAAA8Q87//8x8OXnAQ0f8IAA==',
  webpLossy:
    'UklGRk4AAABXRUJQVlA4IEIAAABwAgCdASoDAAIAAgA0JagCdLoAyQDJAAX3+G2YAP723iVZX//Bz3/7IcfwV4wvx11//hfaAn/5Af/4X2gJ/8eQAAA=',
  webpAlpha:
    'UklGRl4AAABXRUJQVlA4WAoAAAAQAAAAAgAAAQAAQUxQSAcAAAAAgICAgICAAFZQOCAwAAAA0AEAnQEqAwACAAIANCWgAnS6AfgAA7AA/vDEC/8guWF1yNf/ID/kB/yA//jyAAAA',
} as const;
const small = (name: keyof typeof SMALL) => Buffer.from(SMALL[name], 'base64');

const problemOf = (reading: PictureReading): string =>
  reading.kind === 'unreadable' ? reading.problem : `not refused (${reading.kind})`;

/** Where the JPEG's first scan (SOS) starts. */
const sosAt = (jpeg: Buffer): number => jpeg.indexOf(Buffer.from([0xff, 0xda]));

/** ISO boxes: `ftyp` then `mdat`, as a motion photo's MP4 begins and holds its frames. */
function mp4(payload: number): Buffer {
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from('ftypisom'), Buffer.alloc(4)]);
  const mdat = Buffer.alloc(8 + payload, 7);
  mdat.writeUInt32BE(mdat.length, 0);
  mdat.write('mdat', 4, 'latin1');
  return Buffer.concat([ftyp, mdat]);
}

/** Samsung's trailer as ExifTool reads it: data blocks, then `SEFH` with entries pointing back, `<length>SEFT`. */
function samsungTrailer(): Buffer {
  const block = (type: number, name: string, value: string) => {
    const head = Buffer.alloc(8);
    head.writeUInt16LE(0, 0);
    head.writeUInt16LE(type, 2);
    head.writeUInt32LE(name.length, 4);
    return Buffer.concat([head, Buffer.from(name, 'latin1'), Buffer.from(value, 'latin1')]);
  };
  const blocks = [
    block(0x0a01, 'Image_UTC_Data', '1764300000000'),
    block(0x0b41, 'Camera_Info', 'x'.repeat(40)),
  ];
  const data = Buffer.concat(blocks);
  const directory = Buffer.alloc(12 + 12 * blocks.length);
  directory.write('SEFH', 0, 'latin1');
  directory.writeUInt32LE(107, 4);
  directory.writeUInt32LE(blocks.length, 8);
  let start = 0;
  blocks.forEach((b, i) => {
    const entry = 12 + 12 * i;
    directory.writeUInt16LE(b.readUInt16LE(2), entry + 2);
    directory.writeUInt32LE(data.length - start, entry + 4); // back from the directory to the block
    directory.writeUInt32LE(b.length, entry + 8);
    start += b.length;
  });
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(directory.length, 0);
  tail.write('SEFT', 4, 'latin1');
  return Buffer.concat([data, directory, tail]);
}

/** A PNG chunk with its CRC. */
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

/** The small PNG with its IHDR saying `width` × `height` (checksum made right). */
function pngSized(width: number, height: number): Buffer {
  const png = small('png');
  const ihdr = Buffer.from(png.subarray(16, 29));
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  return Buffer.concat([png.subarray(0, 8), chunk('IHDR', ihdr), png.subarray(33)]);
}

/** The photo with its frame header saying `width` × `height`. */
function jpegSized(width: number, height: number): Buffer {
  const jpeg = Buffer.from(PHOTO);
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  jpeg.writeUInt16BE(height, sof + 5);
  jpeg.writeUInt16BE(width, sof + 7);
  return jpeg;
}

describe('a picture read by its structure', () => {
  it('reads the real photo and pictures from real encoders, with their dimensions', () => {
    expect(readPicture(PHOTO)).toEqual({
      kind: 'picture',
      picture: { type: 'image/jpeg', width: 640, height: 480 },
    });
    const expected = {
      png: 'image/png',
      gif: 'image/gif',
      webpLossless: 'image/webp',
      webpLossy: 'image/webp',
      webpAlpha: 'image/webp',
    } as const;
    for (const [name, type] of Object.entries(expected)) {
      expect(readPicture(small(name as keyof typeof SMALL)), name).toEqual({
        kind: 'picture',
        picture: { type, width: 3, height: 2 },
      });
    }
  });

  it('refuses a 3-byte “JPEG” and every cut-off copy, saying whether the image data had begun', () => {
    expect(readPicture(Buffer.from([0xff, 0xd8, 0xff]))).toEqual({
      kind: 'unreadable',
      type: 'image/jpeg',
      problem: 'it ends before its image data',
    });
    expect(problemOf(readPicture(PHOTO.subarray(0, sosAt(PHOTO))))).toBe(PICTURE_PROBLEMS.endsBefore);
    expect(problemOf(readPicture(PHOTO.subarray(0, PHOTO.length - 500)))).toBe(PICTURE_PROBLEMS.endsPartway);
    // No cut of any of them is taken as a picture.
    for (const whole of [PHOTO, ...Object.keys(SMALL).map((n) => small(n as keyof typeof SMALL))]) {
      for (let n = 0; n < whole.length; n++)
        expect(readPicture(whole.subarray(0, n)).kind).not.toBe('picture');
    }
  });

  it('refuses a JPEG/HTML/ZIP polyglot, counting what follows the picture', () => {
    const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    const zip = Buffer.from(zipSync({ 'readme.txt': strToU8('not a photo') }));
    const polyglot = Buffer.concat([PHOTO, html, zip]);
    const extra = html.length + zip.length;
    expect(problemOf(readPicture(polyglot))).toBe(
      `it has ${extra.toLocaleString('en-GB')} bytes of something else after the picture`,
    );
    expect(PICTURE_PROBLEMS.trailing(1234)).toBe('it has 1,234 bytes of something else after the picture');
    expect(PICTURE_PROBLEMS.trailing(1)).toBe('it has 1 byte of something else after the picture');
    // The same after each of the other formats' end.
    for (const name of Object.keys(SMALL) as Array<keyof typeof SMALL>) {
      expect(problemOf(readPicture(Buffer.concat([small(name), html]))), name).toBe(
        PICTURE_PROBLEMS.trailing(html.length),
      );
    }
  });

  it('takes what phones write after a JPEG: further JPEGs, a motion photo’s MP4, Samsung’s trailer', () => {
    const read = { kind: 'picture', picture: { type: 'image/jpeg', width: 640, height: 480 } };
    // An Ultra HDR photo: the picture, then its gain map (a JPEG of its own).
    expect(readPicture(Buffer.concat([PHOTO, jpegSized(160, 120)]))).toEqual(read);
    expect(readPicture(Buffer.concat([PHOTO, PHOTO, mp4(5000)]))).toEqual(read);
    expect(readPicture(Buffer.concat([PHOTO, samsungTrailer()]))).toEqual(read);

    // Each only when whole, and only when it accounts for every byte.
    const cutGainMap = PHOTO.subarray(0, PHOTO.length - 100);
    expect(problemOf(readPicture(Buffer.concat([PHOTO, cutGainMap])))).toBe(
      PICTURE_PROBLEMS.trailing(cutGainMap.length),
    );
    const video = mp4(5000);
    expect(problemOf(readPicture(Buffer.concat([PHOTO, video.subarray(0, video.length - 1)])))).toBe(
      PICTURE_PROBLEMS.trailing(video.length - 1),
    );
    const html = Buffer.from('<html></html>');
    expect(problemOf(readPicture(Buffer.concat([PHOTO, html, samsungTrailer()])))).toBe(
      PICTURE_PROBLEMS.trailing(html.length + samsungTrailer().length),
    );
    expect(problemOf(readPicture(Buffer.concat([PHOTO, samsungTrailer(), html])))).toBe(
      PICTURE_PROBLEMS.trailing(samsungTrailer().length + html.length),
    );
  });

  it('refuses zero and absurd dimensions', () => {
    expect(problemOf(readPicture(jpegSized(640, 0)))).toBe('it says it is 640 × 0 pixels');
    expect(problemOf(readPicture(pngSized(0, 2)))).toBe('it says it is 0 × 2 pixels');
    expect(problemOf(readPicture(jpegSized(65_535, 65_535)))).toBe(
      'it says it is 65,535 × 65,535 pixels, more than FieldDesk can show',
    );
    expect(problemOf(readPicture(pngSized(100_000, 2)))).toBe(PICTURE_PROBLEMS.tooLarge(100_000, 2));
    const side = Math.floor(Math.sqrt(PICTURE_MAX_PIXELS));
    expect(readPicture(pngSized(side, side)).kind).toBe('picture');
  });

  it('refuses a PNG whose checksum does not match, and one with no image data', () => {
    const png = small('png');
    const damaged = Buffer.from(png);
    damaged[png.indexOf('IDAT') + 5]! ^= 0x01;
    expect(problemOf(readPicture(damaged))).toBe(PICTURE_PROBLEMS.checksum(png.indexOf('IDAT') - 4));
    const withoutData = Buffer.concat([png.subarray(0, 33), chunk('IEND', Buffer.alloc(0))]);
    expect(problemOf(readPicture(withoutData))).toBe(PICTURE_PROBLEMS.endsBefore);
  });

  it('refuses damaged structure in words, and leaves what is no picture at all to its own message', () => {
    const jpeg = Buffer.from(PHOTO);
    jpeg[2 + 2 + jpeg.readUInt16BE(4)] = 0x00; // the second segment's marker byte
    expect(problemOf(readPicture(jpeg))).toMatch(/^its JPEG structure is damaged at byte \d/);
    const gif = Buffer.from(small('gif'));
    gif[gif.length - 1] = 0x00; // the trailer replaced
    expect(problemOf(readPicture(gif))).toMatch(/^its GIF structure is damaged at byte \d/);
    const webp = Buffer.from(small('webpLossy'));
    webp.write('XXXX', 12, 'latin1'); // the first chunk is none of VP8, VP8L, VP8X
    expect(problemOf(readPicture(webp))).toBe(PICTURE_PROBLEMS.damaged('WebP', 12));
    expect(readPicture(Buffer.from('not a photo at all'))).toEqual({ kind: 'unknown' });
    expect(readPicture(Buffer.alloc(0))).toEqual({ kind: 'unknown' });
  });

  it('reads a WebP to the end its RIFF size gives: more is something else, less is cut off', () => {
    const webp = small('webpLossless');
    const longer = Buffer.from(webp);
    longer.writeUInt32LE(webp.readUInt32LE(4) - 2, 4);
    // Its one chunk no longer fits in the RIFF size: the structure itself is wrong.
    expect(problemOf(readPicture(longer))).toBe(PICTURE_PROBLEMS.damaged('WebP', 12));
    const shorter = Buffer.from(webp);
    shorter.writeUInt32LE(webp.readUInt32LE(4) + 10, 4);
    expect(problemOf(readPicture(shorter))).toBe(PICTURE_PROBLEMS.endsPartway);
  });
});
