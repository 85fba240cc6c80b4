/**
 * A site as one file, for teams without a server: `<site>.fielddesk-site`, a zip holding
 * `manifest.json` (format "fielddesk-site", a version, the site with its rules, exclusions, limits,
 * cover and positions, its visits, the calibrators their calibrations named) and each visit photo
 * with its thumbnail under `photos/<visit>/`.
 *
 * Reading one trusts nothing: the file's size, the number of entries, each entry's and the whole's
 * unpacked size and packing ratio (a zip bomb), every path (only the names FieldDesk writes: no
 * `..`, no absolute or Windows paths), the format and its version (a newer FieldDesk's is refused
 * with that reason), every record against the schema records.db reads with, and every picture
 * (it must decode, and be the photo its visit names). Any failure refuses the whole file, in words,
 * before anything is written.
 */
import { strToU8, unzipSync, zipSync, type UnzipFileInfo } from 'fflate';
import { z } from 'zod';
import { FieldDeskError } from '../../../shared/errors';
import type { Site } from '../../../shared/assessment';
import { SITE_FILE_MAX_BYTES } from '../../../shared/team';
import type { Calibrator } from '../../../shared/calibrators';
import type { SiteVisit } from '../../../shared/visits';
import { storedSiteSchema } from '../assessment/site-store';
import { storedCalibratorSchema } from '../calibrators/calibrator-store';
import { readPicture } from '../visits/picture-check';
import { storedVisitSchema } from '../visits/visit-store';

export const SITE_FILE_EXTENSION = '.fielddesk-site';
export const SITE_FILE_FORMAT = 'fielddesk-site';
export const SITE_FILE_VERSION = 1;

const MB = 1024 * 1024;
export const SITE_FILE_LIMITS = {
  /** The file itself. */
  fileBytes: SITE_FILE_MAX_BYTES,
  entries: 4_000,
  manifestBytes: 16 * MB,
  /** One photo (the visit's own limit is lower). */
  entryBytes: 64 * MB,
  /** Everything unpacked. */
  totalBytes: 1_024 * MB,
  /** Unpacked to packed: photos barely pack, JSON some 10×; a bomb packs thousands. */
  ratio: 200,
} as const;

/** The records of a site file, as this laptop's records keep them but without an account. */
export interface SiteFileContent {
  exportedAt: number;
  exportedBy: string;
  site: Omit<Site, 'accountId'>;
  visits: Array<Omit<SiteVisit, 'accountId'>>;
  calibrators: Array<Omit<Calibrator, 'lastUsedAt'>>;
  /** Each photo's picture and thumbnail, by `photos/<visit>/<name>`. */
  photos: Map<string, Uint8Array>;
}

export const photoPath = (visitId: string, name: string): string => `photos/${visitId}/${name}`;
export const thumbnailPath = (visitId: string, photoId: string): string =>
  photoPath(visitId, `${photoId}-thumb.jpg`);

const PHOTO_ENTRY = /^photos\/[A-Za-z0-9_-]{1,64}\/[A-Za-z0-9_-]{1,64}(-thumb\.jpg|\.(jpg|png|gif|webp))$/;

const manifestHeadSchema = z.object({
  format: z.literal(SITE_FILE_FORMAT),
  version: z.number().int().min(1),
});
const manifestSchema = z.object({
  format: z.literal(SITE_FILE_FORMAT),
  version: z.literal(SITE_FILE_VERSION),
  exportedAt: z.number(),
  exportedBy: z.string().max(200),
  site: z.record(z.string(), z.unknown()),
  visits: z.array(z.record(z.string(), z.unknown())).max(2_000),
  calibrators: z.array(z.record(z.string(), z.unknown())).max(500),
});

const refuse = (reason: string): never => {
  throw new FieldDeskError('invalidInput', `This is not a site file FieldDesk can import: ${reason}.`);
};

/** The file's bytes: the manifest first, then the photos (stored as they are: pictures do not pack). */
export function writeSiteFile(content: SiteFileContent): Uint8Array {
  const manifest = {
    format: SITE_FILE_FORMAT,
    version: SITE_FILE_VERSION,
    exportedAt: content.exportedAt,
    exportedBy: content.exportedBy,
    site: content.site,
    visits: content.visits,
    calibrators: content.calibrators,
  };
  const entries: Record<string, [Uint8Array, { level: 0 | 6 }]> = {
    'manifest.json': [strToU8(JSON.stringify(manifest, null, 1)), { level: 6 }],
  };
  for (const [path, bytes] of content.photos) entries[path] = [bytes, { level: 0 }];
  return zipSync(entries);
}

function unpack(bytes: Uint8Array): Record<string, Uint8Array> {
  if (bytes.length > SITE_FILE_LIMITS.fileBytes)
    refuse(
      `it is ${Math.round(bytes.length / MB)} MB, more than the ${SITE_FILE_LIMITS.fileBytes / MB} MB a site file may be`,
    );
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) refuse('it is not a zip file');
  let entries = 0;
  let total = 0;
  const check = (file: UnzipFileInfo): boolean => {
    entries++;
    if (entries > SITE_FILE_LIMITS.entries) refuse(`it holds more than ${SITE_FILE_LIMITS.entries} files`);
    if (file.name.endsWith('/')) return false; // a folder entry holds nothing
    if (file.name !== 'manifest.json' && !PHOTO_ENTRY.test(file.name))
      refuse(`it holds "${file.name.slice(0, 120)}", a path a site file never has`);
    const limit =
      file.name === 'manifest.json' ? SITE_FILE_LIMITS.manifestBytes : SITE_FILE_LIMITS.entryBytes;
    if (file.originalSize > limit)
      refuse(
        `"${file.name}" unpacks to ${Math.round(file.originalSize / MB)} MB, more than ${limit / MB} MB`,
      );
    total += file.originalSize;
    if (total > SITE_FILE_LIMITS.totalBytes)
      refuse(`it unpacks to more than ${SITE_FILE_LIMITS.totalBytes / MB} MB`);
    if (file.originalSize > 1_024 && file.originalSize > file.size * SITE_FILE_LIMITS.ratio)
      refuse(
        `"${file.name}" unpacks to ${Math.round(file.originalSize / Math.max(1, file.size))} times its packed size (a zip bomb)`,
      );
    return true;
  };
  try {
    // Each entry is unpacked into a buffer of its declared size: one that lies comes out cut short
    // and fails its checks below, never larger than the limits allowed.
    return unzipSync(bytes, { filter: check });
  } catch (error) {
    if (error instanceof FieldDeskError) throw error;
    return refuse(`it is damaged (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Reads and checks a site file; throws `invalidInput` with the reason when anything is wrong. */
export function readSiteFile(bytes: Uint8Array): SiteFileContent {
  const files = unpack(bytes);
  const manifestBytes = files['manifest.json'];
  if (manifestBytes === undefined) return refuse('it has no manifest.json');
  let manifestJson: unknown;
  try {
    manifestJson = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(manifestBytes));
  } catch {
    return refuse('its manifest.json is not readable JSON');
  }
  const head = manifestHeadSchema.safeParse(manifestJson);
  if (!head.success) return refuse('its manifest does not say it is a FieldDesk site file');
  if (head.data.version > SITE_FILE_VERSION)
    throw new FieldDeskError(
      'invalidInput',
      `This site file was written by a newer FieldDesk (format version ${head.data.version}; this one reads version ${SITE_FILE_VERSION}). Update FieldDesk to import it.`,
    );
  const manifest = manifestSchema.safeParse(manifestJson);
  if (!manifest.success)
    return refuse(`its manifest is not as FieldDesk writes it (${manifest.error.issues[0]?.message})`);

  const record = <T>(
    schema: z.ZodType<T>,
    value: Record<string, unknown>,
    what: string,
    extra: object,
  ): T => {
    const parsed = schema.safeParse({ ...value, ...extra });
    return parsed.success
      ? parsed.data
      : refuse(
          `${what} is not as FieldDesk keeps it (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`,
        );
  };
  const { accountId: _site, ...site } = record(storedSiteSchema, manifest.data.site, 'its site', {
    accountId: '',
  });
  const visits = manifest.data.visits.map((value, index) => {
    const { accountId: _visit, ...visit } = record(storedVisitSchema, value, `its visit ${index + 1}`, {
      accountId: '',
    });
    if (visit.site?.id !== site.id) refuse(`its visit ${index + 1} is not a visit to ${site.name}`);
    return visit;
  });
  const calibrators = manifest.data.calibrators.map((value, index) =>
    record(storedCalibratorSchema, value, `its calibrator ${index + 1}`, {}),
  );

  // Every photo a visit names is there, decodes, and is the size the visit says; nothing else is.
  const photos = new Map<string, Uint8Array>();
  for (const visit of visits)
    for (const photo of visit.photos) {
      for (const path of [photoPath(visit.id, photo.storedName), thumbnailPath(visit.id, photo.id)]) {
        const picture = files[path];
        if (picture === undefined) return refuse(`the photo "${photo.fileName}" of a visit is missing`);
        const reading = readPicture(picture);
        if (reading.kind !== 'picture')
          refuse(
            `the photo "${photo.fileName}" is not a picture FieldDesk can read${reading.kind === 'unreadable' ? `: ${reading.problem}` : ''}`,
          );
        photos.set(path, picture);
      }
      if (files[photoPath(visit.id, photo.storedName)]!.length !== photo.bytes)
        refuse(`the photo "${photo.fileName}" is not the size its visit says`);
    }
  const extra = Object.keys(files).find((name) => name !== 'manifest.json' && !photos.has(name));
  if (extra !== undefined) refuse(`it holds "${extra}", which no visit names`);
  return {
    exportedAt: manifest.data.exportedAt,
    exportedBy: manifest.data.exportedBy,
    site,
    visits,
    calibrators,
    photos,
  };
}
