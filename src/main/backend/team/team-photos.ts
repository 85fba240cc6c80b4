/**
 * A visit's photos travel with its record as attachments: each picture and its thumbnail, read from
 * the data folder when the visit is sent (those already attached kept as stubs, not sent again),
 * and written whole on the receiving laptop before the visit that names them is kept.
 */
import type { Logger } from '../core/log';
import type { JsonRecord } from './team-documents';
import type { Doc, TeamDatabase } from './team-revisions';

/** A visit's photo files in the data folder (team-service.ts checks every name). */
export interface VisitPhotoFiles {
  has(visitId: string, name: string): Promise<boolean>;
  read(visitId: string, name: string): Promise<Uint8Array | null>;
  /** Writes a photo file whole (never half-written under its name). */
  write(visitId: string, name: string, bytes: Uint8Array): Promise<void>;
}

/** The files of a visit's photos: each picture and its thumbnail. */
function photoFiles(record: JsonRecord): string[] {
  const photos = Array.isArray(record['photos']) ? (record['photos'] as Array<Record<string, unknown>>) : [];
  return photos.flatMap((photo) =>
    typeof photo['storedName'] === 'string' && typeof photo['id'] === 'string'
      ? [photo['storedName'], `${photo['id']}-thumb.jpg`]
      : [],
  );
}

const PICTURE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};
const pictureTypeOf = (name: string): string =>
  PICTURE_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

/** The attachments of a visit's new version: its photo files, those already attached as stubs. */
export async function photoAttachments(
  photos: VisitPhotoFiles,
  log: Logger,
  visitId: string,
  record: JsonRecord,
  winner: Doc | null,
): Promise<Record<string, unknown>> {
  const attachments: Record<string, unknown> = {};
  for (const name of photoFiles(record)) {
    const attached = winner?._attachments?.[name];
    if (attached !== undefined) {
      attachments[name] = attached;
      continue;
    }
    const bytes = await photos.read(visitId, name);
    if (bytes === null) log.warn('a visit photo to send is missing from the data folder', { visitId, name });
    else attachments[name] = { content_type: pictureTypeOf(name), data: Buffer.from(bytes) };
  }
  return attachments;
}

/** Writes the photo files a received visit names that this laptop does not have yet. */
export async function receivePhotos(
  db: TeamDatabase,
  photos: VisitPhotoFiles,
  log: Logger,
  docId: string,
  visitId: string,
  winner: Doc,
): Promise<void> {
  if (winner.record === null) return;
  for (const name of photoFiles(winner.record)) {
    if (await photos.has(visitId, name)) continue;
    if (winner._attachments?.[name] === undefined) {
      log.warn('a received visit names a photo that did not come with it', { visitId, name });
      continue;
    }
    await photos.write(visitId, name, await db.getAttachment(docId, name, { rev: winner._rev }));
  }
}
