/**
 * Site visits (`visits.*`): started for instruments or an assessment site, edited offline
 * throughout, photos copied into the data folder, and written out as a visit sheet. Everything is
 * local: the records (records.db) and the data folder.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { FieldDeskError } from '../../../shared/errors';
import type { HandlersOf } from '../core/handler-types';
import type { ActionRecord } from '../../../shared/operations';
import {
  actionDuringVisit,
  VISIT_PHOTOS_MAX,
  visitKind,
  checklistFromActions,
  type ChecklistItem,
  type SiteVisit,
  type VisitDetail,
  type VisitInstrument,
  type VisitPhoto,
} from '../../../shared/visits';
import type { AccountState } from '../accounts/account-state';
import type { StoredAccount } from '../accounts/account-store';
import type { ActionKeeper } from '../actions/action-keeper';
import type { SiteStore } from '../assessment/site-store';
import { diskFailure, saveFailure } from '../core/disk-errors';
import type { ChooseExportPath } from '../core/export-path';
import type { Logger } from '../core/log';
import type { UnfinishedFiles } from '../core/unfinished-files';
import type { FleetService } from '../instruments/fleet';
import { chosenPhotos, type ChoosePhotoFiles } from './chosen-photos';
import { preparePicture, PictureRefused, type PreparedPicture } from './photo-pictures';
import { photoFolder, readPhotoDataUrl, readThumbnail, removePhotoFiles, storePhoto } from './visit-photos';
import { visitSheetName, writeVisitSheet } from './visit-sheet';
import { visitList, type VisitStore } from './visit-store';

export interface VisitDeps {
  accounts: AccountState;
  visits: VisitStore;
  sites: SiteStore;
  kept: ActionKeeper;
  fleet: FleetService;
  dataDir: string;
  chooseExportPath: ChooseExportPath;
  /** The system's dialog for photos (the desktop app); absent where there is none (the harness). */
  choosePhotoFiles?: ChoosePhotoFiles;
  unfinished: UnfinishedFiles;
  log: Logger;
  now: () => number;
}

const MESSAGES = {
  noVisit: 'This visit no longer exists. It may have been deleted in another window.',
  noPhoto: 'This photo is no longer part of the visit.',
  noSite: 'This site no longer exists. It may have been deleted in another window.',
  tooManyPhotos: `A visit keeps at most ${VISIT_PHOTOS_MAX} photos. Remove one to add another.`,
  notPhoto: (name: string) =>
    `“${name}” is not a JPEG, PNG, GIF or WebP picture, so it was not added. Export it from the phone or camera as JPEG.`,
  unreadablePhoto: (name: string, problem: string) =>
    `“${name}” is not a picture FieldDesk can read: ${problem}. It was not added; export it from the phone or camera again as JPEG.`,
  hugePhoto: (name: string, width: number, height: number) =>
    `“${name}” is ${width.toLocaleString('en-GB')} × ${height.toLocaleString('en-GB')} pixels, more than FieldDesk takes in this format. It was not added; export it from the phone or camera as JPEG.`,
  undecodablePhoto: (name: string) =>
    `FieldDesk cannot read “${name}” as a picture: its image data is damaged or coded in a way FieldDesk does not know. It was not added; export it from the phone or camera again as JPEG.`,
} as const;

export function visitHandlers(deps: VisitDeps): HandlersOf<'visits'> {
  const { accounts, visits, now } = deps;

  function visitOf(account: StoredAccount, id: string): SiteVisit {
    const visit = visits.get(account.id, id);
    if (visit === null) throw new FieldDeskError('notFound', MESSAGES.noVisit);
    return visit;
  }

  /** The actions run on the visit's instruments while it was open, newest first. */
  function actionsOf(account: StoredAccount, visit: SiteVisit): ActionRecord[] {
    const at = now();
    return visit.instruments
      .flatMap((instrument) => deps.kept.history(account.id, instrument.serial))
      .filter((action) => actionDuringVisit(visit, action, at))
      .sort((a, b) => b.startedAt - a.startedAt);
  }

  /**
   * The zone a visit's times are stated in on its sheet: its site's, else that of a site its
   * instruments belong to; undefined (the computer's own) when it has none.
   */
  function siteZoneOf(account: StoredAccount, visit: SiteVisit): string | undefined {
    if (visit.site !== null) {
      const site = deps.sites.get(account.id, visit.site.id);
      if (site !== null) return site.timeZone;
    }
    const serials = new Set(visit.instruments.map((i) => i.serial));
    return deps.sites.list(account.id).sites.find((site) => site.serials.some((s) => serials.has(s)))
      ?.timeZone;
  }

  /**
   * The visit with its linked actions. Its unanswered calibration and SIC items are answered from
   * them and saved, so the screen, the sheet and the record say the same.
   */
  const detail = (account: StoredAccount, visit: SiteVisit): VisitDetail => {
    const actions = actionsOf(account, visit);
    const filled = checklistFromActions(visit.checklist, actions);
    return { visit: filled === null ? visit : save({ ...visit, checklist: filled }), actions };
  };

  /** One photo of one of the active account's visits, with the folder its files are in. */
  function photoOf(visitId: string, photoId: string): { folder: string; photo: VisitPhoto } {
    const account = accounts.requireActive();
    const visit = visitOf(account, visitId);
    const photo = visit.photos.find((p) => p.id === photoId);
    if (photo === undefined) throw new FieldDeskError('notFound', MESSAGES.noPhoto);
    return { folder: photoFolder(deps.dataDir, account.id, visit.id), photo };
  }
  const missingCopy = (photo: VisitPhoto) =>
    new FieldDeskError(
      'notFound',
      `The copy of “${photo.fileName}” is missing from the data folder, so it cannot be shown.`,
    );

  function save(visit: SiteVisit): SiteVisit {
    const saved = { ...visit, updatedAt: now() };
    visits.put(saved);
    return saved;
  }

  /** The photos chosen in the system's dialog, by token (the desktop app's; none in the harness). */
  const chosen = chosenPhotos(deps.choosePhotoFiles, deps.log);

  /**
   * Keeps a photo with a visit: checked and decoded, its thumbnail made (and a reduced copy, when
   * asked) before anything is written; then the files, then the record that names them.
   */
  async function keepPhoto(
    visitId: string,
    fileName: string,
    caption: string,
    bytes: Buffer,
    reduce: boolean,
  ): Promise<VisitDetail> {
    const account = accounts.requireActive();
    const visit = visitOf(account, visitId);
    if (visit.photos.length >= VISIT_PHOTOS_MAX)
      throw new FieldDeskError('invalidInput', MESSAGES.tooManyPhotos);
    const name = basename(fileName);
    let prepared: PreparedPicture;
    try {
      prepared = await preparePicture(bytes, reduce);
    } catch (error) {
      if (!(error instanceof PictureRefused)) throw error;
      const { refusal } = error;
      if (refusal.kind === 'undecodable') deps.log.info('photo not decoded', { error: error.cause });
      throw new FieldDeskError(
        'invalidInput',
        refusal.kind === 'notPicture'
          ? MESSAGES.notPhoto(name)
          : refusal.kind === 'unreadable'
            ? MESSAGES.unreadablePhoto(name, refusal.problem)
            : refusal.kind === 'tooLarge'
              ? MESSAGES.hugePhoto(name, refusal.width, refusal.height)
              : MESSAGES.undecodablePhoto(name),
      );
    }
    const id = randomUUID();
    const folder = photoFolder(deps.dataDir, account.id, visit.id);
    let storedName: string;
    try {
      storedName = await storePhoto({ folder, id, unfinished: deps.unfinished, ...prepared });
    } catch (error) {
      throw (
        diskFailure(error, { folder: deps.dataDir, what: `the photo “${name}”` }) ??
        new FieldDeskError('internal', `FieldDesk could not keep the photo “${name}”.`, { cause: error })
      );
    }
    try {
      // Read again: the visit may have changed while the picture was decoded (a note typed meanwhile,
      // another photo added).
      const current = visitOf(account, visitId);
      if (current.photos.length >= VISIT_PHOTOS_MAX)
        throw new FieldDeskError('invalidInput', MESSAGES.tooManyPhotos);
      const saved = save({
        ...current,
        photos: [
          ...current.photos,
          { id, fileName: name, caption, storedName, bytes: prepared.image.length, addedAt: now() },
        ],
      });
      return detail(account, saved);
    } catch (error) {
      // The record could not take it: the copied files would be orphans.
      await removePhotoFiles(folder, storedName, id).catch(() => undefined);
      throw error;
    }
  }

  /** The instruments as last known (offline too); a serial the list does not name is kept by its serial. */
  async function instrumentsOf(
    account: StoredAccount,
    serials: readonly string[],
  ): Promise<VisitInstrument[]> {
    let known = new Map<string, VisitInstrument>();
    try {
      const entries = await deps.fleet.entries(account, serials);
      known = new Map(
        entries.map(({ instrument: i }) => [
          i.serialNumber,
          { serial: i.serialNumber, name: i.name, model: i.model, type: i.type },
        ]),
      );
    } catch (error) {
      // Neither the service nor the last list answers: the visit still starts, named by serials.
      deps.log.info('visit started without the instrument list', { error });
    }
    return serials.map((serial) => known.get(serial) ?? { serial, name: serial, model: '', type: 'Noise' });
  }

  function checklistFor(instruments: readonly VisitInstrument[]): ChecklistItem[] {
    const templates = visits.templates();
    return instruments.flatMap((instrument) =>
      templates[visitKind(instrument.type)].map((label) => ({
        id: randomUUID(),
        serial: instrument.serial,
        label,
        state: null,
        note: '',
      })),
    );
  }

  const templatesAnswer = () => ({ templates: visits.templates(), lastEngineer: visits.lastEngineer() });

  return {
    'visits.list': async ({ serial }) => {
      const account = accounts.requireActive();
      return visitList(visits.list(account.id, serial));
    },

    'visits.get': async ({ id }) => {
      const account = accounts.requireActive();
      return detail(account, visitOf(account, id));
    },

    'visits.start': async ({ serials, siteId, engineer, arrivedAt }) => {
      const account = accounts.requireActive();
      let site: SiteVisit['site'] = null;
      if (siteId !== undefined) {
        const stored = deps.sites.get(account.id, siteId);
        if (stored === null) throw new FieldDeskError('notFound', MESSAGES.noSite);
        site = { id: stored.id, name: stored.name };
      }
      const unique = [...new Set(serials)];
      const instruments = await instrumentsOf(account, unique);
      const at = now();
      const visit: SiteVisit = {
        id: randomUUID(),
        accountId: account.id,
        site,
        instruments,
        engineer,
        arrivedAt: arrivedAt ?? at,
        leftAt: null,
        checklist: checklistFor(instruments),
        notes: '',
        photos: [],
        createdAt: at,
        updatedAt: at,
      };
      visits.put(visit);
      visits.setLastEngineer(engineer);
      return detail(account, visit);
    },

    'visits.update': async ({ id, ...change }) => {
      const account = accounts.requireActive();
      const visit = visitOf(account, id);
      const next: SiteVisit = { ...visit };
      if (change.engineer !== undefined) next.engineer = change.engineer;
      if (change.arrivedAt !== undefined) next.arrivedAt = change.arrivedAt;
      if (change.leftAt !== undefined) {
        next.leftAt = change.leftAt;
        // Reopened, the departure is kept until the visit is finished again (then it is the new one).
        next.keptLeftAt = change.leftAt === null ? (visit.leftAt ?? visit.keptLeftAt ?? null) : null;
      }
      if (change.notes !== undefined) next.notes = change.notes;
      if (change.checklist !== undefined) {
        const serials = new Set(visit.instruments.map((i) => i.serial));
        const stray = change.checklist.find((item) => !serials.has(item.serial));
        if (stray !== undefined)
          throw new FieldDeskError(
            'invalidInput',
            `The checklist names ${stray.serial}, which is not one of this visit's instruments.`,
          );
        next.checklist = change.checklist;
      }
      for (const item of change.items ?? []) {
        const index = next.checklist.findIndex((c) => c.id === item.id);
        if (index < 0)
          throw new FieldDeskError('notFound', 'That checklist item is no longer on this visit.');
        next.checklist = next.checklist.with(index, {
          ...next.checklist[index]!,
          ...(item.state === undefined ? {} : { state: item.state }),
          ...(item.note === undefined ? {} : { note: item.note }),
        });
      }
      if (next.leftAt !== null && next.leftAt < next.arrivedAt)
        throw new FieldDeskError('invalidInput', 'The visit cannot end before it began.', {
          field: 'leftAt',
        });
      const saved = save(next);
      if (change.engineer !== undefined) visits.setLastEngineer(change.engineer);
      return detail(account, saved);
    },

    'visits.remove': async ({ id }) => {
      const account = accounts.requireActive();
      const visit = visitOf(account, id);
      visits.remove(account.id, id);
      // The record is gone first: a folder that cannot be removed is only space, never a visit
      // shown without its photos.
      await rm(photoFolder(deps.dataDir, account.id, visit.id), { recursive: true, force: true }).catch(
        (error: unknown) => deps.log.warn('photos of a deleted visit not removed', { error }),
      );
      return { id };
    },

    'visits.addPhoto': ({ visitId, fileName, caption, imageBase64, reduce }) =>
      keepPhoto(visitId, fileName, caption, Buffer.from(imageBase64, 'base64'), reduce),

    'visits.choosePhotos': async () => chosen.choose(),

    'visits.addChosenPhoto': async ({ visitId, token, caption, reduce }) => {
      const photo = await chosen.read(token);
      return keepPhoto(visitId, photo.fileName, caption, photo.bytes, reduce);
    },

    'visits.removePhoto': async ({ visitId, photoId }) => {
      const account = accounts.requireActive();
      const visit = visitOf(account, visitId);
      const photo = visit.photos.find((p) => p.id === photoId);
      if (photo === undefined) throw new FieldDeskError('notFound', MESSAGES.noPhoto);
      const saved = save({ ...visit, photos: visit.photos.filter((p) => p.id !== photoId) });
      await removePhotoFiles(
        photoFolder(deps.dataDir, account.id, visit.id),
        photo.storedName,
        photo.id,
      ).catch((error: unknown) => deps.log.warn('a removed photo’s files were not deleted', { error }));
      return detail(account, saved);
    },

    'visits.setCaption': async ({ visitId, photoId, caption }) => {
      const account = accounts.requireActive();
      const visit = visitOf(account, visitId);
      if (!visit.photos.some((p) => p.id === photoId)) throw new FieldDeskError('notFound', MESSAGES.noPhoto);
      const saved = save({
        ...visit,
        photos: visit.photos.map((p) => (p.id === photoId ? { ...p, caption } : p)),
      });
      return detail(account, saved);
    },

    'visits.thumbnail': async ({ visitId, photoId }) => {
      const { folder, photo } = photoOf(visitId, photoId);
      const bytes = await readThumbnail(folder, photo.id);
      if (bytes === null) throw missingCopy(photo);
      return `data:image/jpeg;base64,${bytes.toString('base64')}`;
    },

    'visits.photo': async ({ visitId, photoId }) => {
      const { folder, photo } = photoOf(visitId, photoId);
      const url = await readPhotoDataUrl(folder, photo.storedName);
      if (url === null) throw missingCopy(photo);
      return url;
    },

    'visits.sheet': async ({ id }) => {
      const account = accounts.requireActive();
      // The visit as the screen shows it: its checks answered from the linked actions.
      const { visit, actions } = detail(account, visitOf(account, id));
      const path = await deps.chooseExportPath(visitSheetName(visit), 'pdf');
      if (path === null) return { saved: false };
      const what = `the visit sheet “${basename(path)}”`;
      try {
        const written = await writeVisitSheet(
          { path, what, unfinished: deps.unfinished },
          {
            visit,
            actions,
            account: account.name,
            madeAt: now(),
            timeZone: siteZoneOf(account, visit),
          },
          (photoId) => readThumbnail(photoFolder(deps.dataDir, account.id, visit.id), photoId),
        );
        return { saved: true, path, fileName: basename(path), ...written };
      } catch (error) {
        throw saveFailure(error, { path, what });
      }
    },

    'visits.templates': async () => templatesAnswer(),

    'visits.setTemplate': async ({ kind, items }) => {
      visits.setTemplate(kind, items);
      return templatesAnswer();
    },
  };
}
