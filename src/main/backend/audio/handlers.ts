/**
 * Audio (`audio.*`): an instrument's recordings read through the cache, downloads as a queue that
 * survives a restart (download-manager.ts), and the library of downloaded files that play offline
 * (library.ts, serve-library.ts). Choosing the folder with a dialog and showing it in the file
 * manager are the desktop app's, injected; elsewhere those two requests say they cannot.
 */
import { dirname } from 'node:path';
import type { Recording, RecordingList } from '../../../shared/audio';
import { FieldDeskError } from '../../../shared/errors';
import type { AccountState } from '../accounts/account-state';
import type { HandlersOf } from '../core/handler-types';
import { dataRefetchAfterMs, type ReadThroughCache } from '../data/read-through-cache';
import type { AudioAddonCheck } from './audio-addon';
import type { DownloadManager } from './download-manager';
import type { AudioLibrary } from './library';
import { combineProvenance, recordingsFrom } from './recordings';

/** The system's folder picker (the app), starting at the current folder; null when the user cancels. */
export type ChooseAudioFolder = (current: string) => Promise<string | null>;
/** Opens a folder in the system's file manager, or shows a file selected in its folder (the app). */
export type RevealInFileManager = (path: string, kind: 'folder' | 'file') => Promise<void>;

export interface AudioHandlerOptions {
  accounts: AccountState;
  read: ReadThroughCache;
  /** The user's "Refresh cached data older than N minutes", read at each request. */
  refreshCachedAfterMinutes: () => number;
  downloads: DownloadManager;
  library: AudioLibrary;
  audioAddon: AudioAddonCheck;
  chooseFolder?: ChooseAudioFolder;
  reveal?: RevealInFileManager;
}

const MESSAGES = {
  noDialog:
    'Choosing a folder with the system’s dialog needs the FieldDesk desktop app. Here, type the folder’s path instead.',
  noFileManager: (folder: string) =>
    `Showing files in the file manager needs the FieldDesk desktop app. The recordings are in ${folder}.`,
  notInLibrary: 'That file is not in the library any more.',
  missing: (fileName: string, folder: string) =>
    `${fileName} is no longer in ${folder}: it was moved or deleted outside FieldDesk.`,
} as const;

export function audioHandlers(options: AudioHandlerOptions): HandlersOf<'audio'> {
  const { accounts, read, downloads, library } = options;

  return {
    'audio.recordings': async ({ serial, start, end }): Promise<RecordingList> => {
      const account = accounts.requireActive();
      const how = { refetchAfterMs: dataRefetchAfterMs(options.refreshCachedAfterMinutes()) };
      const [audio, events, addon] = await Promise.all([
        read(account, { serial, dataset: 'audio', start, end }, how),
        read(account, { serial, dataset: 'events', start, end }, how),
        options.audioAddon(account, serial).catch(() => null),
      ]);
      const { recordings, unreadable } = recordingsFrom(serial, audio.records, events.records);
      const notes = [...(audio.notes ?? []), ...(events.notes ?? [])];
      if (unreadable > 0) {
        notes.push(
          `${unreadable} recording${unreadable === 1 ? '' : 's'} the service listed could not be read (no id or no time), so ${unreadable === 1 ? 'it is' : 'they are'} not shown.`,
        );
      }
      if (addon === false) {
        notes.push(`${serial} has no Audio add-on in its subscription, so it records no audio.`);
      }
      return {
        serial,
        start,
        end,
        recordings,
        provenance: combineProvenance([audio.provenance, events.provenance]),
        ...(notes.length === 0 ? {} : { notes }),
      };
    },

    'audio.download': async ({ recordings, format, priority }) => {
      const account = accounts.requireActive();
      return downloads.enqueue(account.id, recordings as Recording[], format, priority ?? 'bulk');
    },

    'audio.downloads': async () => downloads.list(),

    'audio.cancel': async ({ id }) => downloads.cancel(id),

    'audio.library': async ({ serial }) => library.list(serial),

    'audio.delete': async ({ key }) => {
      await library.remove(key);
      return library.list();
    },

    'audio.folder': async () => ({ path: library.folder() }),

    'audio.setFolder': async ({ path }) => ({ path: await library.setFolder(path) }),

    'audio.chooseFolder': async () => {
      if (options.chooseFolder === undefined) throw new FieldDeskError('invalidRequest', MESSAGES.noDialog);
      const current = library.folder();
      const chosen = await options.chooseFolder(current);
      if (chosen === null) return { path: current, changed: false };
      const path = await library.setFolder(chosen);
      return { path, changed: path !== current };
    },

    'audio.openFolder': async ({ key }) => {
      if (options.reveal === undefined)
        throw new FieldDeskError('invalidRequest', MESSAGES.noFileManager(library.folder()));
      if (key === undefined) {
        const folder = library.folder();
        await options.reveal(folder, 'folder');
        return { path: folder };
      }
      const item = (await library.list()).find((entry) => entry.key === key);
      if (item === undefined)
        throw new FieldDeskError('invalidInput', MESSAGES.notInLibrary, { field: 'key' });
      if (item.missing === true)
        throw new FieldDeskError('invalidRequest', MESSAGES.missing(item.fileName, dirname(item.path)));
      await options.reveal(item.path, 'file');
      return { path: item.path };
    },
  };
}
