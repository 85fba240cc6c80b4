/**
 * A visit photo's thumbnail, drawn in the renderer where the browser decodes the picture (the
 * backend has no image library): the longer side at most THUMBNAIL_EDGE_PX, as a JPEG. The backend
 * keeps it beside the photo and prints it on the visit sheet.
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

/** The thumbnail's size for a picture of `width` × `height`: never enlarged. */
export function thumbnailSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, THUMBNAIL_EDGE_PX / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export async function makeThumbnail(file: File): Promise<{ base64: string; dataUrl: string }> {
  if (file.size > PHOTO_MAX_BYTES)
    throw new FieldDeskError(
      'invalidInput',
      `“${file.name}” is ${bytesText(file.size)}; FieldDesk keeps photos up to ${bytesText(PHOTO_MAX_BYTES)}. Export a smaller copy from the phone or camera.`,
    );
  let picture: ImageBitmap;
  try {
    picture = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    // The browser cannot decode it (a HEIC from a phone, a document, a damaged file).
    throw new FieldDeskError(
      'invalidInput',
      `FieldDesk cannot read “${file.name}” as a picture. Add JPEG, PNG, GIF or WebP photos (a phone's HEIC photo can be shared as JPEG).`,
    );
  }
  const size = thumbnailSize(picture.width, picture.height);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (context === null)
    throw new FieldDeskError('internal', 'FieldDesk could not draw the photo’s thumbnail.');
  context.drawImage(picture, 0, 0, size.width, size.height);
  picture.close();
  const dataUrl = canvas.toDataURL('image/jpeg', 0.82);
  return { base64: dataUrl.slice(dataUrl.indexOf(',') + 1), dataUrl };
}
