/**
 * The library of downloaded recordings: the files in the downloads folder, indexed in the local
 * database (`audio_library`) by key with the full path each was saved at, so they list and play
 * offline and stay indexed when the folder changes. Deleting an entry deletes its file; a file that
 * is no longer on disk is listed as missing, never a crash.
 *
 * Files are named as engineers read them: `<serial> <YYYY-MM-DD HHmmss> <trigger>.<ext>`, the
 * recording's start in UTC (as the service and CSV exports give times), made safe for every file
 * system by filenamify; a name already taken gets ` (2)`, ` (3)`, ….
 */
import { createHash } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { access, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';
import filenamify from 'filenamify';
import { AUDIO_EXTENSIONS, type AudioFormat, type LibraryItem, type Recording } from '../../../shared/audio';
import { FieldDeskError } from '../../../shared/errors';
import type { DamagedRows } from '../core/damaged-rows';
import { errorCode } from '../core/file-basics';
import { silentLogger, type Logger } from '../core/log';
import { systemFolderProblem } from '../core/system-folders';
import { parseFormat, parseRecording, type AudioRecords, type LibraryRow } from './audio-records';

const FOLDER_SETTING = 'folder';

/** The library key of a recording in a format (see `AUDIO_LIBRARY_KEY_PATTERN`). */
export function libraryKey(recording: Pick<Recording, 'source' | 'id'>, format: AudioFormat): string {
  const digest = createHash('sha256').update(`${recording.source}\u0000${recording.id}`).digest('hex');
  return `${format.toLowerCase()}-${digest.slice(0, 40)}`;
}

/** `QT123456 2026-11-23 091500 Level over 65 dB(A).flac`, safe on every file system. */
export function libraryFileName(recording: Recording, format: AudioFormat): string {
  const iso = new Date(recording.start).toISOString();
  const when = `${iso.slice(0, 10)} ${iso.slice(11, 19).replace(/:/g, '')}`;
  const trigger = recording.triggerName.trim() === '' ? 'Recording' : recording.triggerName.trim();
  return filenamify(`${recording.serial} ${when} ${trigger}.${AUDIO_EXTENSIONS[format]}`, {
    replacement: '-',
    maxLength: 150,
  });
}

/** `name.flac` → `name (2).flac`. */
export function numberedName(fileName: string, n: number): string {
  if (n <= 1) return fileName;
  const dot = fileName.lastIndexOf('.');
  return dot <= 0 ? `${fileName} (${n})` : `${fileName.slice(0, dot)} (${n})${fileName.slice(dot)}`;
}

/**
 * The first of `name`, `name (2)`, … in `folder` that is free, its `.part` companion too. `except`
 * is a path that does not count as taking its name (the download's own `.part`); `reserved` says
 * which paths other downloads have claimed but not yet created. Synchronous on purpose: a caller
 * claims the name before anything else runs, so two downloads never pick the same one.
 */
export function freeFileName(
  folder: string,
  fileName: string,
  options: { except?: string; reserved?: ReadonlySet<string> } = {},
): string {
  const { except, reserved } = options;
  const takes = (path: string) => path !== except && (reserved?.has(path) === true || existsSync(path));
  for (let n = 1; ; n++) {
    const candidate = numberedName(fileName, n);
    const path = join(folder, candidate);
    if (!takes(path) && !takes(`${path}.part`)) return candidate;
  }
}

/**
 * Why a folder cannot hold downloads, in plain words; null when it can: not a whole path, a folder
 * of the operating system, the home folder itself or one of its hidden folders
 * (core/system-folders.ts), a file, or one FieldDesk cannot write to.
 */
export async function folderProblem(path: string): Promise<string | null> {
  if (!isAbsolute(path))
    return `Give the whole path of the folder (for example /home/you/Recordings), not “${path}”.`;
  // Judged before anything is created there, where the folder really is (links resolved).
  const system = await systemFolderProblem(path, 'recordings');
  if (system !== null) return system;
  try {
    await mkdir(path, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') return `${path} is a file, not a folder. Choose a folder.`;
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      return `FieldDesk is not allowed to create the folder ${path}. Choose another, or create it first.`;
    return `FieldDesk could not create the folder ${path} (${code ?? 'an error of the disk'}). Choose another.`;
  }
  try {
    if (!(await stat(path)).isDirectory()) return `${path} is a file, not a folder. Choose a folder.`;
    await access(path, constants.W_OK);
    // The access check can say yes where a write is refused (network shares, ACLs): write to be sure.
    const probe = join(path, `.fielddesk-write-check-${process.pid}-${Date.now()}`);
    await writeFile(probe, '');
    await rm(probe, { force: true });
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOSPC' || code === 'EDQUOT')
      return `The disk holding ${path} is full, so FieldDesk cannot save recordings there. Free some space, or choose another folder.`;
    if (code === 'EROFS') return `${path} is on a read-only disk. Choose a folder on a writable disk.`;
    return `FieldDesk cannot save files in ${path}: the folder is read-only for you. Choose another.`;
  }
  return null;
}

export interface AudioLibrary {
  /** The folder new downloads are saved in: the user's choice, else the default. */
  folder(): string;
  /** Checks and keeps a new downloads folder (created if need be). */
  setFolder(path: string): Promise<string>;
  list(serial?: string): Promise<LibraryItem[]>;
  /** The entry of a key (the file may be missing). */
  item(key: string): LibraryItem | null;
  /** Deletes the file and the entry; a file already gone is not an error. */
  remove(key: string): Promise<void>;
}

/** A library entry; null (said to `damaged`) when its row cannot be read. */
export function itemOf(row: LibraryRow, damaged?: DamagedRows): LibraryItem | null {
  const from = { table: 'audio_library', id: row.key, damaged } as const;
  const recording = parseRecording(row.recording_json, { ...from, column: 'recording_json' });
  const format = parseFormat(row.format, { ...from, column: 'format' });
  if (recording === null || format === null) return null;
  return {
    key: row.key,
    recording,
    format,
    fileName: row.path.split(/[\\/]/).pop() ?? row.path,
    path: row.path,
    bytes: row.bytes,
    downloadedAt: row.downloaded_at,
  };
}

export function createAudioLibrary(
  records: () => AudioRecords,
  defaultFolder: string,
  log: Logger = silentLogger,
  /** Where a library entry that cannot be read is said (left out unsaid without it). */
  damaged?: DamagedRows,
): AudioLibrary {
  function folder(): string {
    try {
      return records().setting(FOLDER_SETTING) ?? defaultFolder;
    } catch (error) {
      // Without the records the default folder still takes downloads.
      log.warn('chosen audio folder unreadable; using the default', { error });
      return defaultFolder;
    }
  }

  return {
    folder,

    async setFolder(path) {
      const chosen = normalize(path.trim());
      const problem = await folderProblem(chosen);
      if (problem !== null) throw new FieldDeskError('invalidInput', problem, { field: 'path' });
      records().setSetting(FOLDER_SETTING, chosen);
      return chosen;
    },

    async list(serial) {
      const items = records()
        .library(serial)
        .map((row) => itemOf(row, damaged))
        .filter((item): item is LibraryItem => item !== null);
      return Promise.all(
        items.map(async (item) => {
          try {
            const info = await stat(item.path);
            return info.isFile() ? item : { ...item, missing: true as const };
          } catch {
            return { ...item, missing: true as const };
          }
        }),
      );
    },

    item(key) {
      const row = records().libraryItem(key);
      return row === undefined ? null : itemOf(row, damaged);
    },

    async remove(key) {
      const row = records().libraryItem(key);
      if (row === undefined) {
        throw new FieldDeskError('invalidInput', 'That file is not in the library any more.', {
          field: 'key',
        });
      }
      try {
        await rm(row.path, { force: true });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'an error of the disk';
        throw new FieldDeskError(
          'internal',
          `FieldDesk could not delete ${row.path} (${code}). Close any program that has it open and try again.`,
          { cause: error, retryable: true },
        );
      }
      records().removeLibraryItem(key);
    },
  };
}
