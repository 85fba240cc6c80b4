/**
 * A visit's photos in the data folder: `visits/<account>/<visit>/<photo>.<ext>` (the picture as the
 * engineer chose it) and `<photo>-thumb.jpg` (the thumbnail the renderer drew of it, shown in the
 * visit and printed on the sheet). Each file is written through a temporary name, so a file is
 * either whole or absent, and a crash's leftover temporary file is removed at the next start.
 *
 * A photo is three writes — the picture, the thumbnail, then the visit's record — so a FieldDesk
 * stopped between them (a crash, a kill, a power cut) leaves files no record names. At the next
 * start `sweepVisitPhotos` settles them, before any request can add a photo:
 *
 * - a picture and its thumbnail, both whole and both checking out, of a visit that exists, are
 *   added back to the visit: the engineer asked for the photo and all of it was kept (this is also
 *   what brings back a photo added after the backup that a damaged records file was restored from);
 * - a picture without its thumbnail (or a thumbnail without its picture) is removed: the thumbnail
 *   is drawn by the renderer from the picture the engineer chose, so it cannot be made here;
 * - the folder of a visit that no longer exists (deleted, its folder's removal cut short) is
 *   removed — except when the records were restored from a backup at this start: then a missing
 *   visit may be one the backup is too old to hold, and its photos are moved aside, not lost.
 *
 * What was done is said once, in words, by visit. Only names FieldDesk makes are touched (an id of
 * letters, digits, - and _; a picture's extension or `-thumb.jpg`); anything else in the folders,
 * and anything not a plain file or folder, is left alone. When the records cannot be read nothing
 * is touched: what is unreferenced cannot be told apart then.
 */
import { mkdir, readdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { VISIT_PHOTOS_MAX, type SiteVisit, type VisitPhoto } from '../../../shared/visits';
import { errorCode } from '../core/file-basics';
import type { Logger } from '../core/log';
import type { NoticeBoard } from '../core/notices';
import { writeThroughPart, type UnfinishedFiles } from '../core/unfinished-files';
import { RECORDS_NOTICE } from '../records/records-database';
import { readPicture, type PictureType } from './picture-check';
import { visitTitle } from './visit-sheet';
import type { VisitStore } from './visit-store';

const EXTENSIONS: Readonly<Record<PictureType, string>> = {
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
  /** The picture's type, as its bytes were read (picture-check.ts). */
  type: PictureType;
  image: Uint8Array;
  thumbnail: Uint8Array;
  unfinished: UnfinishedFiles;
}

/** Writes the picture and its thumbnail; answers the picture's file name. Neither is left half-written. */
export async function storePhoto(photo: PhotoToStore): Promise<string> {
  const { folder, id, unfinished } = photo;
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const storedName = `${id}.${EXTENSIONS[photo.type]}`;
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

/** A stored photo as a `data:` URL, its type from its name; null when the file is missing. */
export async function readPhotoDataUrl(folder: string, storedName: string): Promise<string | null> {
  const extension = storedName.slice(storedName.lastIndexOf('.') + 1);
  const type = (Object.keys(EXTENSIONS) as PictureType[]).find((t) => EXTENSIONS[t] === extension);
  try {
    const bytes = await readFile(join(folder, storedName));
    return `data:${type ?? 'image/jpeg'};base64,${bytes.toString('base64')}`;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

export async function removePhotoFiles(folder: string, storedName: string, photoId: string): Promise<void> {
  await rm(join(folder, storedName), { force: true });
  await rm(join(folder, thumbnailName(photoId)), { force: true });
}

// ---- the sweep at start -------------------------------------------------------------------------

/** The notice that says what the sweep did (core/notices.ts). */
export const VISIT_PHOTOS_NOTICE_ID = 'visit-photos-unfinished';
/** Where the photos of visits a restored backup does not hold are moved (in the data folder). */
export const SET_ASIDE_FOLDER = 'visits-set-aside';
/** A re-attached photo's name: the name the engineer chose was in the record that was never written. */
export const ADDED_BACK_NAME = 'Photo added back';

const ID = '[A-Za-z0-9_-]{1,64}';
const FOLDER_NAME = new RegExp(`^${ID}$`);
const THUMBNAIL_FILE = new RegExp(`^(${ID})-thumb\\.jpg$`);
const PICTURE_FILE = new RegExp(`^(${ID})\\.(jpg|png|gif|webp|img)$`);
/** `writeThroughPart`'s temporary names (core/unfinished-files.ts). */
const TEMPORARY_SUFFIX = /\.fielddesk-[0-9a-f]{8}\.part$/;

/** The photo a file of a visit folder belongs to, by its name; null for a name FieldDesk does not make. */
function photoOfFile(name: string): { id: string; thumbnail: boolean } | null {
  const thumbnail = THUMBNAIL_FILE.exec(name);
  if (thumbnail !== null) return { id: thumbnail[1]!, thumbnail: true };
  const picture = PICTURE_FILE.exec(name);
  return picture === null ? null : { id: picture[1]!, thumbnail: false };
}

export interface PhotoSweepDeps {
  dataDir: string;
  visits: VisitStore;
  notices: NoticeBoard;
  log: Logger;
  now: () => number;
  /**
   * The temporary files the sweep of unfinished files just removed: one in a visit's folder is a
   * photo whose picture or thumbnail was being written when FieldDesk stopped.
   */
  removedParts: readonly string[];
}

export interface PhotoSweep {
  /** Those of `removedParts` this sweep's notice tells of (the general notice need not name them). */
  accounted: Set<string>;
}

interface VisitOutcome {
  visit: SiteVisit;
  addedBack: number;
  removed: number;
}

/** Settles the photo files no visit record names (see the top of this file); says what it did. */
export async function sweepVisitPhotos(deps: PhotoSweepDeps): Promise<PhotoSweep> {
  const { dataDir, log } = deps;
  const root = join(dataDir, 'visits');
  const accounted = new Set<string>();
  const partsByFolder = new Map<string, string[]>();
  for (const path of deps.removedParts) {
    const folder = dirname(path);
    if (dirname(dirname(folder)) !== root) continue;
    partsByFolder.set(folder, [...(partsByFolder.get(folder) ?? []), path]);
  }
  const restored = deps.notices.list().some((notice) => notice.id === RECORDS_NOTICE.restored);
  const outcomes: VisitOutcome[] = [];
  const missing: string[] = [];
  const setAsideTo = join(
    dataDir,
    SET_ASIDE_FOLDER,
    new Date(deps.now()).toISOString().replace(/[:.]/g, '-'),
  );
  let setAside = 0;

  for (const account of await foldersIn(root, log)) {
    for (const visitId of await foldersIn(join(root, account), log)) {
      const folder = join(root, account, visitId);
      let visit: SiteVisit | null;
      try {
        visit = deps.visits.get(account, visitId);
      } catch (error) {
        // The records cannot be read: no file can be told unreferenced. Looked at again next start.
        log.warn('visit photos not swept: the records are unavailable', { error });
        return { accounted };
      }
      try {
        if (visit === null) {
          if (restored) {
            await mkdir(join(setAsideTo, account), { recursive: true, mode: 0o700 });
            await rename(folder, join(setAsideTo, account, visitId));
            setAside += 1;
          } else {
            await rm(folder, { recursive: true, force: true });
            missing.push(visitId);
          }
          continue;
        }
        const parts = partsByFolder.get(folder) ?? [];
        const outcome = await settleVisitFolder(deps, folder, visit, parts);
        if (outcome !== null) {
          outcomes.push(outcome);
          for (const part of parts) accounted.add(part);
        }
      } catch (error) {
        // One folder that cannot be settled (a permission, a disk error) leaves the others to settle.
        log.warn('a visit’s photo folder could not be settled', { folder, error });
      }
    }
    // An account folder left empty goes too; one with anything in it stays.
    await rmdir(join(root, account)).catch(() => undefined);
  }
  if (missing.length > 0) log.info('photo folders of deleted visits removed', { visits: missing });
  if (setAside > 0) log.warn('photos of visits the restored records lack moved aside', { to: setAsideTo });

  const message = sweepText(outcomes, setAside, setAsideTo);
  if (message !== null) {
    const tone = setAside > 0 || outcomes.some((o) => o.removed > 0) ? 'warning' : 'info';
    deps.notices.raise({ id: VISIT_PHOTOS_NOTICE_ID, tone, message });
  }
  return { accounted };
}

/** Real folders (not links) in `folder` with a name FieldDesk makes; none when it does not exist. */
async function foldersIn(folder: string, log: Logger): Promise<string[]> {
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() && FOLDER_NAME.test(e.name)).map((e) => e.name);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT')
      log.warn('a folder of visit photos could not be read', { folder, error });
    return [];
  }
}

/** Adds back or removes one visit's unreferenced photos; null when there were none. */
async function settleVisitFolder(
  deps: PhotoSweepDeps,
  folder: string,
  visit: SiteVisit,
  parts: readonly string[],
): Promise<VisitOutcome | null> {
  const known = new Set(visit.photos.map((photo) => photo.id));
  const pictures = new Map<string, string>();
  const thumbnails = new Set<string>();
  const found = new Set<string>();
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const of = photoOfFile(entry.name);
    if (of === null || known.has(of.id)) continue;
    if (of.thumbnail) thumbnails.add(of.id);
    else pictures.set(of.id, entry.name);
    found.add(of.id);
  }
  // A temporary file the unfinished sweep removed names a photo too (the only trace of one whose
  // picture was still being written).
  for (const part of parts) {
    const of = photoOfFile(basename(part).replace(TEMPORARY_SUFFIX, ''));
    if (of !== null && !known.has(of.id)) found.add(of.id);
  }
  if (found.size === 0) return null;

  const addedBack: VisitPhoto[] = [];
  let removed = 0;
  for (const id of [...found].sort()) {
    const picture = pictures.get(id);
    if (
      picture !== undefined &&
      thumbnails.has(id) &&
      visit.photos.length + addedBack.length < VISIT_PHOTOS_MAX
    ) {
      const photo = await checkedPhoto(folder, id, picture);
      if (photo !== null) {
        addedBack.push(photo);
        continue;
      }
    }
    if (picture !== undefined) await rm(join(folder, picture), { force: true });
    await rm(join(folder, thumbnailName(id)), { force: true });
    removed += 1;
  }
  if (addedBack.length > 0) {
    const photos = [...visit.photos, ...addedBack].sort((a, b) => a.addedAt - b.addedAt);
    deps.visits.put({ ...visit, photos, updatedAt: deps.now() });
  }
  return { visit, addedBack: addedBack.length, removed };
}

/** The photo record of a picture and thumbnail found whole on disk; null when either does not check out. */
async function checkedPhoto(folder: string, id: string, picture: string): Promise<VisitPhoto | null> {
  // Both were checked when added; read again, so nothing cut short or changed since is shown.
  const [image, thumbnail] = await Promise.all([
    readFile(join(folder, picture)),
    readFile(join(folder, thumbnailName(id))),
  ]);
  const read = readPicture(image);
  const thumb = readPicture(thumbnail);
  if (read.kind !== 'picture' || thumb.kind !== 'picture' || thumb.picture.type !== 'image/jpeg') return null;
  const extension = EXTENSIONS[read.picture.type];
  if (!picture.endsWith(`.${extension}`)) return null;
  const info = await stat(join(folder, picture));
  return {
    id,
    fileName: `${ADDED_BACK_NAME}.${extension}`,
    caption: '',
    storedName: picture,
    bytes: image.length,
    addedAt: Math.round(info.mtimeMs),
  };
}

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** "28 Nov 2026": the day as the engineer's computer counts it, as the visit sheet does. */
const dayText = (time: number): string =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }).format(time);

function outcomeText({ visit, addedBack, removed }: VisitOutcome): string {
  const total = addedBack + removed;
  const head =
    `${count(total, 'photo', 'photos')} of the visit of ${dayText(visit.arrivedAt)} at ${visitTitle(visit)} ` +
    `that ${total === 1 ? 'was' : 'were'} being added when FieldDesk stopped`;
  const it = total === 1 ? 'it was' : 'they were';
  if (removed === 0) return `${head}; ${it} added back, named “${ADDED_BACK_NAME}”`;
  if (addedBack === 0)
    return `${head}; ${it} removed, as ${total === 1 ? 'it was' : 'they were'} not kept whole: add ${total === 1 ? 'it' : 'them'} again`;
  return `${head}; ${addedBack} ${addedBack === 1 ? 'was' : 'were'} added back, named “${ADDED_BACK_NAME}”, and ${removed} removed, as not kept whole: add ${removed === 1 ? 'that one' : 'those'} again`;
}

function sweepText(outcomes: readonly VisitOutcome[], setAside: number, setAsideTo: string): string | null {
  const parts: string[] = [];
  if (outcomes.length > 0) parts.push(`FieldDesk found ${outcomes.map(outcomeText).join('; and ')}.`);
  if (setAside > 0)
    parts.push(
      `Your records were restored from a backup that does not hold ${count(setAside, 'visit', 'visits')} whose photos are in the data folder: ` +
        `FieldDesk moved ${setAside === 1 ? 'its' : 'their'} photos to ${setAsideTo}, so none is lost.`,
    );
  return parts.length === 0 ? null : parts.join(' ');
}
