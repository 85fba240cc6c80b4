/**
 * Handing a site over as one file (site-file.ts): export the active account's site with its visits,
 * their photos and the calibrators their calibrations named; import one with a preview of what is
 * new, changed or in conflict (changed here after the file's version), then apply it — the photos
 * first, then every record in one journalled transaction, so an import is whole or not at all.
 */
import { isDeepStrictEqual } from 'node:util';
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { FieldDeskError } from '../../../shared/errors';
import type { SiteImportPreview, SiteImportResult, TransferCounts } from '../../../shared/team';
import type { ActionRecord } from '../../../shared/operations';
import type { SiteVisit } from '../../../shared/visits';
import type { SiteStore } from '../assessment/site-store';
import type { CalibratorStore } from '../calibrators/calibrator-store';
import { saveFailure } from '../core/disk-errors';
import type { ChooseExportPath } from '../core/export-path';
import { writeThroughPart, type UnfinishedFiles } from '../core/unfinished-files';
import type { RecordRows, RowChange } from '../records/record-rows';
import { readPicture } from '../visits/picture-check';
import { photoFolder, storePhoto } from '../visits/visit-photos';
import type { VisitStore } from '../visits/visit-store';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  recordOfRow,
  rowKey,
  rowOfRecord,
  TEAM_TABLES,
  type JsonRecord,
  type TeamKind,
} from './team-documents';
import {
  photoPath,
  readSiteFile,
  SITE_FILE_EXTENSION,
  thumbnailPath,
  writeSiteFile,
  type SiteFileContent,
} from './site-file';

export interface SiteTransferDeps {
  dataDir: string;
  sites: SiteStore;
  visits: VisitStore;
  calibrators: CalibratorStore;
  rows: RecordRows;
  actionHistory(accountId: string, serial: string): ActionRecord[];
  activeAccountId(): string;
  engineer(): string;
  chooseExportPath: ChooseExportPath;
  unfinished: UnfinishedFiles;
  now: () => number;
}

export interface SiteTransfer {
  exportSite(
    siteId: string,
  ): Promise<{ saved: false } | { saved: true; path: string; fileName: string; bytes: number }>;
  preview(bytes: Uint8Array, fileName: string): SiteImportPreview;
  apply(token: string, takeTheFiles: boolean): Promise<SiteImportResult>;
}

type Status = 'new' | 'changed' | 'same' | 'conflict';

/** A file read and compared, kept until imported (one at a time: the newest preview). */
interface Pending {
  token: string;
  accountId: string;
  content: SiteFileContent;
  statuses: Map<string, Status>;
}

const safeName = (name: string): string => name.replace(/[\\/:*?"<>|]/g, '-').trim() || 'Site';

export function createSiteTransfer(deps: SiteTransferDeps): SiteTransfer {
  let pending: Pending | null = null;

  /** The calibrators the calibrations of the site's visits named, as the register holds them. */
  function namedCalibrators(accountId: string, visits: readonly SiteVisit[]) {
    const ids = new Set<string>();
    for (const visit of visits)
      for (const { serial } of visit.instruments)
        for (const action of deps.actionHistory(accountId, serial))
          if (
            action.calibrator !== null &&
            action.startedAt >= visit.arrivedAt &&
            action.startedAt <= (visit.leftAt ?? deps.now())
          )
            ids.add(action.calibrator.id);
    return [...ids].flatMap((id) => {
      const found = deps.calibrators.get(id);
      if (found === null) return [];
      const { lastUsedAt: _lastUsedAt, ...calibrator } = found;
      return [calibrator];
    });
  }

  function statusOf(kind: TeamKind, id: string, record: JsonRecord, accountId: string): Status {
    const current = deps.rows.get(TEAM_TABLES[kind], rowKey(kind, id, accountId));
    if (current === undefined) return 'new';
    const here = recordOfRow(kind, current, accountId)?.record;
    if (here === undefined || isDeepStrictEqual(here, record)) return 'same';
    return Number(here['updatedAt']) > Number(record['updatedAt']) ? 'conflict' : 'changed';
  }

  const key = (kind: TeamKind, id: string) => `${kind}:${id}`;
  const count = (statuses: Map<string, Status>, kind: TeamKind): TransferCounts => {
    const counts: TransferCounts = { new: 0, changed: 0, same: 0, conflict: 0 };
    for (const [id, status] of statuses) if (id.startsWith(`${kind}:`)) counts[status]++;
    return counts;
  };

  return {
    async exportSite(siteId) {
      const accountId = deps.activeAccountId();
      const site = deps.sites.get(accountId, siteId);
      if (site === null) throw new FieldDeskError('notFound', 'That site is no longer on this laptop.');
      const visits = deps.visits.list(accountId).visits.filter((visit) => visit.site?.id === siteId);
      const photos = new Map<string, Uint8Array>();
      for (const visit of visits) {
        const folder = photoFolder(deps.dataDir, accountId, visit.id);
        for (const photo of visit.photos) {
          try {
            photos.set(photoPath(visit.id, photo.storedName), await readFile(join(folder, photo.storedName)));
            photos.set(
              thumbnailPath(visit.id, photo.id),
              await readFile(join(folder, `${photo.id}-thumb.jpg`)),
            );
          } catch {
            throw new FieldDeskError(
              'diskError',
              `The photo “${photo.fileName}” of a visit to ${site.name} is missing from the data folder, so the site cannot be handed over whole.`,
            );
          }
        }
      }
      const { accountId: _accountId, ...shared } = site;
      const bytes = writeSiteFile({
        exportedAt: deps.now(),
        exportedBy: deps.engineer(),
        site: shared,
        visits: visits.map(({ accountId: _visitAccount, ...visit }) => visit),
        calibrators: namedCalibrators(accountId, visits),
        photos,
      });
      const path = await deps.chooseExportPath(`${safeName(site.name)}${SITE_FILE_EXTENSION}`, 'site');
      if (path === null) return { saved: false };
      const what = `the site file “${basename(path)}”`;
      try {
        await writeThroughPart({ path, what, unfinished: deps.unfinished }, (handle) =>
          handle.writeFile(bytes),
        );
      } catch (error) {
        throw saveFailure(error, { path, what });
      }
      return { saved: true, path, fileName: basename(path), bytes: bytes.length };
    },

    preview(bytes, fileName) {
      const content = readSiteFile(bytes);
      const accountId = deps.activeAccountId();
      const statuses = new Map<string, Status>();
      statuses.set(
        key('site', content.site.id),
        statusOf('site', content.site.id, content.site as JsonRecord, accountId),
      );
      for (const visit of content.visits)
        statuses.set(key('visit', visit.id), statusOf('visit', visit.id, visit as JsonRecord, accountId));
      for (const calibrator of content.calibrators)
        statuses.set(
          key('calibrator', calibrator.id),
          statusOf('calibrator', calibrator.id, calibrator as JsonRecord, accountId),
        );
      pending = { token: randomUUID(), accountId, content, statuses };
      return {
        token: pending.token,
        fileName,
        siteName: content.site.name,
        exportedBy: content.exportedBy,
        exportedAt: content.exportedAt,
        site: statuses.get(key('site', content.site.id))!,
        visits: count(statuses, 'visit'),
        calibrators: count(statuses, 'calibrator'),
        photos: content.visits.reduce((sum, visit) => sum + visit.photos.length, 0),
      };
    },

    async apply(token, takeTheFiles) {
      const read = pending;
      if (read === null || read.token !== token)
        throw new FieldDeskError(
          'invalidRequest',
          'Choose the site file again: this preview is no longer the one shown.',
        );
      if (read.accountId !== deps.activeAccountId())
        throw new FieldDeskError(
          'invalidRequest',
          'The account changed since the preview; choose the site file again.',
        );
      pending = null;
      const { content, accountId } = read;
      const taken = (kind: TeamKind, id: string): boolean => {
        const status = read.statuses.get(key(kind, id));
        return status === 'new' || status === 'changed' || (status === 'conflict' && takeTheFiles);
      };
      // The photos of the visits taken first: a record never names a photo that is not there.
      for (const visit of content.visits.filter((v) => taken('visit', v.id)))
        for (const photo of visit.photos) {
          const image = content.photos.get(photoPath(visit.id, photo.storedName))!;
          const reading = readPicture(image);
          if (reading.kind !== 'picture') continue; // checked when read
          await storePhoto({
            folder: photoFolder(deps.dataDir, accountId, visit.id),
            id: photo.id,
            type: reading.picture.type,
            image,
            thumbnail: content.photos.get(thumbnailPath(visit.id, photo.id))!,
            unfinished: deps.unfinished,
          });
        }
      const changes: RowChange[] = [];
      const put = (kind: TeamKind, id: string, record: JsonRecord) => {
        if (!taken(kind, id)) return;
        const table = TEAM_TABLES[kind];
        const current = deps.rows.get(table, rowKey(kind, id, accountId));
        changes.push({
          table,
          key: rowKey(kind, id, accountId),
          op: 'put',
          row: rowOfRecord(kind, id, record, accountId, current),
        });
      };
      put('site', content.site.id, content.site as JsonRecord);
      for (const visit of content.visits) put('visit', visit.id, visit as JsonRecord);
      for (const calibrator of content.calibrators)
        put('calibrator', calibrator.id, calibrator as JsonRecord);
      deps.rows.apply(changes);
      const kept = [...read.statuses.values()].filter((s) => s === 'conflict').length;
      return { imported: changes.length, keptHere: takeTheFiles ? 0 : kept, siteId: content.site.id };
    },
  };
}
