/**
 * A visit photo prepared in the renderer, where the browser decodes the picture (the backend has
 * no image library): its thumbnail (the longer side at most THUMBNAIL_EDGE_PX, a JPEG, kept beside
 * the photo and printed on the visit sheet) and, when the user asks for it, a reduced copy.
 */
import { FieldDeskError } from '../../../../shared/errors';
import { bytesText } from '../../../../shared/format';
import { PHOTO_MAX_BYTES, THUMBNAIL_EDGE_PX } from '../../../../shared/visits';

/** A file's bytes as base64, in chunks (a spread of a whole photo would overflow the call stack). */
export async function fileBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** The longer side of a reduced copy (px): sharp on a laptop's screen and on the sheet, a megabyte or two. */
export const REDUCED_EDGE_PX = 2560;

/** The picture decoded (turned as the camera meant), or a plain message when the browser cannot. */
async function decode(file: File): Promise<ImageBitmap> {
  if (file.size > PHOTO_MAX_BYTES)
    throw new FieldDeskError(
      'invalidInput',
      `“${file.name}” is ${bytesText(file.size)}; FieldDesk keeps photos up to ${bytesText(PHOTO_MAX_BYTES)}. Export a smaller copy from the phone or camera.`,
    );
  try {
    return await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    // The browser cannot decode it (a HEIC from a phone, a document, a damaged file).
    throw new FieldDeskError(
      'invalidInput',
      `FieldDesk cannot read “${file.name}” as a picture. Add JPEG, PNG, GIF or WebP photos (a phone's HEIC photo can be shared as JPEG).`,
    );
  }
}

/** A picture's size with its longer side at most `edge` px: never enlarged. */
export function scaledSize(width: number, height: number, edge: number): { width: number; height: number } {
  const scale = Math.min(1, edge / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The picture drawn with its longer side at most `edge` px, on a canvas. */
function drawScaled(picture: ImageBitmap, edge: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  Object.assign(canvas, scaledSize(picture.width, picture.height, edge));
  const context = canvas.getContext('2d');
  if (context === null) throw new FieldDeskError('internal', 'FieldDesk could not draw the photo.');
  context.drawImage(picture, 0, 0, canvas.width, canvas.height);
  return canvas;
}

/** A photo ready to be kept: its bytes as base64 (the file's, or a reduced copy's) and its thumbnail. */
export interface PreparedPhoto {
  imageBase64: string;
  thumbnail: { base64: string; dataUrl: string };
  /** Whether a reduced copy is kept instead of the file. */
  reduced: boolean;
}

/**
 * Reads a photo to keep: its thumbnail, and the file itself or — `reduce`, when the picture is
 * larger than REDUCED_EDGE_PX — a reduced JPEG copy (a 17 MB phone photo becomes about 1 MB, read
 * and checked in a fraction of the time).
 */
export async function preparePhoto(file: File, reduce: boolean): Promise<PreparedPhoto> {
  const picture = await decode(file);
  try {
    const thumbnailUrl = drawScaled(picture, THUMBNAIL_EDGE_PX).toDataURL('image/jpeg', 0.82);
    const thumbnail = { base64: thumbnailUrl.slice(thumbnailUrl.indexOf(',') + 1), dataUrl: thumbnailUrl };
    if (!reduce || Math.max(picture.width, picture.height) <= REDUCED_EDGE_PX)
      return { imageBase64: await fileBase64(file), thumbnail, reduced: false };
    const copy = await new Promise<Blob | null>((resolve) =>
      drawScaled(picture, REDUCED_EDGE_PX).toBlob(resolve, 'image/jpeg', 0.88),
    );
    if (copy === null) throw new FieldDeskError('internal', `FieldDesk could not reduce “${file.name}”.`);
    return { imageBase64: await fileBase64(copy), thumbnail, reduced: true };
  } finally {
    picture.close();
  }
}
