/**
 * Files FieldDesk is still writing, and what a stopped FieldDesk left of them.
 *
 * Every temporary file or folder FieldDesk creates outside its data folder — an export's or a
 * report's `.part` file, the temporary folder of a CSV report set, an audio download's `.part` — is
 * listed in `unfinished-files.json` (in the data folder) before it is created, and taken off the
 * list once it was renamed into place or removed. Whatever is still listed at the next start was
 * left by a FieldDesk that stopped (a crash, a kill, a power cut): `sweepUnfinished` removes it and
 * says what it removed. A download `.part` that its download still continues is kept.
 *
 * Nothing else is ever touched: only paths on the list, only with our temporary naming (a `.part`
 * ending; for folders `….fielddesk-<8 hex>.part`), only of the kind listed (a file, or a real
 * folder — never a symbolic link), so neither a damaged list nor another program's `.part` file
 * (browsers name their partial downloads `….part` too) can make FieldDesk delete anything else.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { errorCode } from './file-basics';
import { openJsonFile } from './json-file-store';

export const UNFINISHED_FILE_NAME = 'unfinished-files.json';
const FILE_VERSION = 1;
/** The notice that says what a sweep removed (core/notices.ts). */
export const UNFINISHED_NOTICE_ID = 'unfinished-files';

export type UnfinishedKind = 'file' | 'folder';

export interface UnfinishedEntry {
  path: string;
  kind: UnfinishedKind;
  /** What was being saved, as the subject of a sentence: `the report “Site A.pdf”`. */
  what: string;
  since: number;
}

export interface UnfinishedFiles {
  /** Lists a temporary path before it is created (resolves once the list is on disk). */
  begin(path: string, kind: UnfinishedKind, what: string): Promise<void>;
  /** Takes a path off the list once it was renamed into place or removed. */
  end(path: string): Promise<void>;
  entries(): UnfinishedEntry[];
  /** What went wrong reading the list at open, in plain words; null when all was well. */
  readonly warning: string | null;
  flush(): Promise<void>;
}

/** For writers that have no list (tests of a single writer, tools): nothing is listed. */
export const UNLISTED: UnfinishedFiles = {
  begin: async () => undefined,
  end: async () => undefined,
  entries: () => [],
  warning: null,
  flush: async () => undefined,
};

const entrySchema = z.object({
  path: z.string().min(1),
  kind: z.enum(['file', 'folder']),
  what: z.string(),
  since: z.number(),
});
const contentSchema = z.object({ entries: z.array(entrySchema) });

export async function openUnfinishedFiles(dataDir: string, now: () => number): Promise<UnfinishedFiles> {
  const file = await openJsonFile({
    dataDir,
    fileName: UNFINISHED_FILE_NAME,
    version: FILE_VERSION,
    schema: contentSchema,
    describe: {
      subject: 'FieldDesk’s notes of the files it was still writing',
      fallback: 'so anything a stopped FieldDesk left half-written is not removed this time',
    },
    now,
    // Rewritten around every export and download, and worth nothing a moment later: not backed up.
    backups: false,
  });
  const listed = new Map<string, UnfinishedEntry>(
    (file.loaded?.entries ?? []).map((entry) => [entry.path, entry]),
  );

  async function save(): Promise<void> {
    try {
      await file.save({ entries: [...listed.values()] });
    } catch (error) {
      // The write itself matters more than its listing: a data folder that is full or read-only
      // must not stop an export to another disk. The cost is a leftover not removed after a crash.
      void error;
    }
  }

  return {
    async begin(path, kind, what) {
      listed.set(path, { path, kind, what, since: now() });
      await save();
    },
    async end(path) {
      if (listed.delete(path)) await save();
    },
    entries: () => [...listed.values()],
    warning: file.warning,
    flush: () => file.flush(),
  };
}

/** Where a write goes, how the user knows it, and the list its temporary paths go on. */
export interface SaveTarget {
  /** The path the user chose (for a set of files, the folder it is saved as). */
  path: string;
  /** What is being saved, as the subject of a sentence: `the report “Site A.pdf”`. */
  what: string;
  unfinished: UnfinishedFiles;
}

/** Our temporary names: `<final name>.fielddesk-<8 hex>.part`. */
const TEMPORARY_NAME = /\.fielddesk-[0-9a-f]{8}\.part$/;

/** A fresh temporary path beside `path`, unique per write, that a sweep recognises as ours. */
export function temporaryPathFor(path: string): string {
  return `${path}.fielddesk-${randomBytes(4).toString('hex')}.part`;
}

/** Whether a path is a temporary one of `temporaryPathFor` (an export's, a report's). */
export function isTemporaryPath(path: string): boolean {
  return TEMPORARY_NAME.test(basename(path));
}

/** Whether a listed path carries our temporary naming for its kind (see the top of this file). */
export function isOurTemporaryPath(entry: Pick<UnfinishedEntry, 'path' | 'kind'>): boolean {
  const name = basename(entry.path);
  return entry.kind === 'folder' ? TEMPORARY_NAME.test(name) : name.endsWith('.part') && name !== '.part';
}

/**
 * Makes a rename in `folder` (or a file created there) survive a power cut: its directory entry is
 * on the disk, not only in its cache. Windows cannot open a folder for this; there the file system
 * keeps renames in its journal, so nothing is lost by skipping it.
 */
export async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    // The rename is done and the file in place; only how well it survives a power cut is less
    // certain (some network file systems cannot sync a folder). Not a reason to report a failure.
    void error;
  }
}

/** Removes a temporary path after a failure; false when it could not (it stays listed). */
async function removeAfterFailure(path: string, kind: UnfinishedKind): Promise<boolean> {
  try {
    await rm(path, { force: true, recursive: kind === 'folder' });
    return true;
  } catch {
    // The failure that brought us here is what the user must hear; this leftover stays listed and
    // is removed at the next start.
    return false;
  }
}

/**
 * Writes a file through a temporary name beside it: listed, written, synced, then renamed to `path`,
 * so a half-written file is never left under the name the user chose, and one left by a crash is
 * removed at the next start. On failure the temporary file is removed.
 */
export async function writeThroughPart<T>(
  target: SaveTarget,
  write: (handle: FileHandle) => Promise<T>,
): Promise<T> {
  const { path, what, unfinished } = target;
  const partial = temporaryPathFor(path);
  await unfinished.begin(partial, 'file', what);
  let gone = false;
  try {
    const handle = await open(partial, 'wx', 0o600);
    let written: T;
    try {
      written = await write(handle);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, path);
    gone = true;
    await syncFolder(dirname(path));
    return written;
  } catch (error) {
    if (!gone) gone = await removeAfterFailure(partial, 'file');
    throw error;
  } finally {
    if (gone) await unfinished.end(partial);
  }
}

/** Writes `data` to a new file and syncs it (for files inside a temporary folder). */
export async function writeSyncedFile(path: string, data: Uint8Array | string): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** `Site A report` → `Site A report (2)`. */
const numberedFolder = (folder: string, n: number): string => (n <= 1 ? folder : `${folder} (${n})`);

/**
 * Writes a set of files as one folder, so the set is either whole or absent: `write` fills a
 * temporary folder beside the target folder (listed first), which is then renamed into place in
 * one step — its name, or `name (2)`, … when that name is taken, so nothing already there is replaced. On
 * failure the temporary folder is removed. Answers the folder the set is in.
 */
export async function writeFolderWhole<T>(
  target: SaveTarget,
  write: (temporaryFolder: string) => Promise<T>,
): Promise<{ folder: string; written: T }> {
  const { path: folder, what, unfinished } = target;
  const temporary = temporaryPathFor(folder);
  await unfinished.begin(temporary, 'folder', what);
  let gone = false;
  try {
    await mkdir(temporary, { mode: 0o700 });
    const written = await write(temporary);
    await syncFolder(temporary);
    for (let n = 1; ; n++) {
      const target = numberedFolder(folder, n);
      // A name in use (a file, or a folder with anything in it) is left alone: the next is tried.
      if (await exists(target)) continue;
      try {
        await rename(temporary, target);
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') continue;
        throw error;
      }
      gone = true;
      await syncFolder(dirname(target));
      return { folder: target, written };
    }
  } catch (error) {
    if (!gone) gone = await removeAfterFailure(temporary, 'folder');
    throw error;
  } finally {
    if (gone) await unfinished.end(temporary);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

export interface SweepResult {
  removed: UnfinishedEntry[];
  /** Listed leftovers that could not be removed, with the system's reason. */
  failed: Array<{ entry: UnfinishedEntry; code: string }>;
}

/**
 * Removes what a stopped FieldDesk left unfinished (see the top of this file). `inUse` says which
 * listed paths are still wanted (a download's `.part` it will continue); when it cannot tell (it
 * throws: the database is unavailable), the path is kept for a later start.
 */
export async function sweepUnfinished(
  unfinished: UnfinishedFiles,
  inUse: (path: string) => boolean,
): Promise<SweepResult> {
  const result: SweepResult = { removed: [], failed: [] };
  for (const entry of unfinished.entries()) {
    let wanted: boolean;
    try {
      wanted = inUse(entry.path);
    } catch {
      wanted = true; // Not known now: kept, and looked at again at the next start.
    }
    if (wanted) continue;
    let info: Awaited<ReturnType<typeof lstat>>;
    try {
      info = await lstat(entry.path);
    } catch (error) {
      const code = errorCode(error) ?? 'unknown';
      // Gone (it was renamed into place, or never created): nothing to do but forget it.
      if (code === 'ENOENT' || code === 'ENOTDIR') await unfinished.end(entry.path);
      else result.failed.push({ entry, code });
      continue;
    }
    const rightKind = entry.kind === 'folder' ? info.isDirectory() : info.isFile();
    if (!rightKind || !isOurTemporaryPath(entry)) {
      // Not what we listed (replaced by something else, or a damaged list): never touched.
      await unfinished.end(entry.path);
      continue;
    }
    try {
      await rm(entry.path, { recursive: entry.kind === 'folder', force: true });
      result.removed.push(entry);
      await unfinished.end(entry.path);
    } catch (error) {
      result.failed.push({ entry, code: errorCode(error) ?? 'unknown' });
    }
  }
  return result;
}

const whereText = (entry: UnfinishedEntry): string =>
  `${entry.what} (${entry.kind === 'folder' ? 'temporary folder' : 'temporary file'} ${basename(entry.path)} in ${dirname(entry.path)})`;

/** What a sweep did, for the notice board; null when it had nothing to say. */
export function sweepMessage(result: SweepResult): string | null {
  const parts: string[] = [];
  if (result.removed.length > 0) {
    parts.push(
      `FieldDesk stopped last time before it finished saving, and has now removed what it left half-written: ` +
        `${result.removed.map(whereText).join('; ')}. Nothing that had been saved whole was touched; ` +
        'save or download again what you still need.',
    );
  }
  if (result.failed.length > 0) {
    parts.push(
      `FieldDesk could not remove what it left half-written when it stopped: ` +
        `${result.failed.map(({ entry, code }) => `${entry.path} (${code})`).join('; ')}. ` +
        'You can delete it yourself; FieldDesk tries again at the next start.',
    );
  }
  return parts.length === 0 ? null : parts.join(' ');
}
