/**
 * A visit's photos in the data folder: `visits/<account>/<visit>/<photo>.<ext>` (the picture as the
 * engineer chose it) and `<photo>-thumb.jpg` (the thumbnail the renderer drew of it, shown in the
 * visit and printed on the sheet). Each file is written through a temporary name, so a photo is
 * either whole or absent, and a crash's leftover is removed at the next start.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from '../core/json-file-store';
import { writeThroughPart, type UnfinishedFiles } from '../core/unfinished-files';

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** The folder of one visit's photos. Ids are checked by the contract (letters, digits, - and _). */
export function photoFolder(dataDir: string, accountId: string, visitId: string): string {
  return join(dataDir, 'visits', accountId, visitId);
}

const thumbnailName = (photoId: string) => `${photoId}-thumb.jpg`;

export interface PhotoToStore {
  folder: string;
  id: string;
  /** The picture's type by its bytes (`image/jpeg`, …). */
  type: string;
  image: Uint8Array;
  thumbnail: Uint8Array;
  unfinished: UnfinishedFiles;
}

/** Writes the picture and its thumbnail; answers the picture's file name. Neither is left half-written. */
export async function storePhoto(photo: PhotoToStore): Promise<string> {
  const { folder, id, unfinished } = photo;
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const storedName = `${id}.${EXTENSIONS[photo.type] ?? 'img'}`;
  const what = 'a visit photo';
  await writeThroughPart({ path: join(folder, storedName), what, unfinished }, (handle) =>
    handle.writeFile(photo.image),
  );
  try {
    await writeThroughPart({ path: join(folder, thumbnailName(id)), what, unfinished }, (handle) =>
      handle.writeFile(photo.thumbnail),
    );
  } catch (error) {
    await rm(join(folder, storedName), { force: true });
    throw error;
  }
  return storedName;
}

/** The thumbnail's bytes; null when the file is missing (removed by hand, a restored record). */
export async function readThumbnail(folder: string, photoId: string): Promise<Buffer | null> {
  try {
    return await readFile(join(folder, thumbnailName(photoId)));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

export async function removePhotoFiles(folder: string, storedName: string, photoId: string): Promise<void> {
  await rm(join(folder, storedName), { force: true });
  await rm(join(folder, thumbnailName(photoId)), { force: true });
}
