/**
 * A small JSON file in the data folder (`accounts.json`, `settings.json`, `sync-profiles.json`):
 * `{ version, …content }`, validated on load and written atomically, private to the user (0600),
 * one write after another so an older snapshot never lands after a newer one. A change is applied
 * in memory only once it is on disk (`change`): a setting that could not be saved is not in effect.
 *
 * Every write is also copied to `<dataDir>/backups` (the newest few and each recent day's newest,
 * core/backups.ts). A file that cannot be used (damaged, written by a newer FieldDesk,
 * unreadable) is moved aside, never overwritten, and the newest copy that reads is used instead;
 * the store carries a warning in plain words for the UI saying which. If the file cannot even be
 * moved aside, nothing is saved this session.
 */
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { z } from 'zod';
import { BACKUP_FOLDER, listCopies, pruneCopies } from './backups';
import { errorCode, fileTimestamp } from './file-basics';
import type { Logger } from './log';

/** Why a file could not be used. */
export type JsonFileProblem = 'damaged' | 'newer' | 'unreadable';

export interface JsonFileOptions<T> {
  dataDir: string;
  fileName: string;
  /** The version this FieldDesk writes; a higher one in the file is "newer". */
  version: number;
  /** The content beside `version`. */
  schema: z.ZodType<T>;
  /** How messages name the content and what happens without it, e.g. "Your saved accounts". */
  describe: {
    subject: string;
    /** "so FieldDesk started without them" */
    fallback: string;
    /** Appended to the warning, e.g. "API keys in the system keychain are untouched." */
    reassurance?: string;
  };
  now?: () => number;
  /** Where a failed backup copy is recorded (the file itself was written). */
  log?: Logger;
  /** Whether each write is copied to `backups/` (default yes; not for bookkeeping rewritten all the time). */
  backups?: boolean;
}

export interface JsonFile<T> {
  /** The content read at open (or restored from a backup); null when there was neither. */
  readonly loaded: T | null;
  readonly problem: JsonFileProblem | null;
  /** When the file could not be used and a backup copy was: when that copy was taken. */
  readonly restoredFrom: number | null;
  /** What went wrong at open, in plain words; null when all was well. */
  readonly warning: string | null;
  /** Writes the content (queued behind earlier writes). */
  save(content: T): Promise<void>;
  /**
   * A change applied only once written: when its turn in the queue comes, `plan` gives the content
   * to write and `apply`, called after the write succeeded; a failed write rejects and applies nothing.
   */
  change<R>(plan: () => { content: T; apply: () => R }): Promise<R>;
  /** Resolves once every write started so far has finished. */
  flush(): Promise<void>;
}

type Read<T> = { content: T } | { problem: JsonFileProblem } | { missing: true };

/** The copies' name in the backup folder: `accounts-<time>.json` for `accounts.json`. */
const copyPrefix = (fileName: string): string => fileName.replace(/\.json$/, '');

const when = (epochMs: number): string =>
  `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The newest backup copy that reads and fits, newest first; null when none does. */
async function newestGoodCopy<T>(
  options: JsonFileOptions<T>,
): Promise<{ content: T; takenAt: number } | null> {
  const folder = join(options.dataDir, BACKUP_FOLDER);
  for (const copy of listCopies(folder, copyPrefix(options.fileName), '.json')) {
    const read = await readVersioned(join(folder, copy.name), options);
    if ('content' in read) return { content: read.content, takenAt: copy.takenAt };
  }
  return null;
}

async function readVersioned<T>(path: string, options: JsonFileOptions<T>): Promise<Read<T>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return errorCode(error) === 'ENOENT' ? { missing: true } : { problem: 'unreadable' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: 'damaged' };
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > options.version) return { problem: 'newer' };
  if (version !== options.version) return { problem: 'damaged' };
  const parsed = options.schema.safeParse(json);
  return parsed.success ? { content: parsed.data } : { problem: 'damaged' };
}

const PROBLEM_TEXT: Record<JsonFileProblem, string> = {
  newer: 'were saved by a newer version of FieldDesk',
  unreadable: 'could not be read',
  damaged: 'are damaged',
};

export async function openJsonFile<T>(options: JsonFileOptions<T>): Promise<JsonFile<T>> {
  const { dataDir, fileName, describe } = options;
  const now = options.now ?? Date.now;
  const path = join(dataDir, fileName);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });

  const read = await readVersioned(path, options);
  let warning: string | null = null;
  let loaded: T | null = 'content' in read ? read.content : null;
  let restoredFrom: number | null = null;
  // False only when a bad file could not be moved aside: then saving would destroy it.
  let canSave = true;
  const problem = 'problem' in read ? read.problem : null;
  if (problem !== null) {
    const what = `${describe.subject} ${PROBLEM_TEXT[problem]}`;
    const asideName = `${fileName}.corrupt-${fileTimestamp(now())}`;
    const copy = options.backups === false ? null : await newestGoodCopy(options);
    if (copy !== null) {
      loaded = copy.content;
      restoredFrom = copy.takenAt;
    }
    const outcome =
      copy === null
        ? describe.fallback
        : `so FieldDesk restored them from the backup of ${when(copy.takenAt)}`;
    try {
      await rename(path, join(dataDir, asideName));
      warning =
        `${what}, ${outcome}. The old file was kept as ${asideName} in ${dataDir}.` +
        (describe.reassurance === undefined ? '' : ` ${describe.reassurance}`);
    } catch (error) {
      options.log?.error('a file that could not be used could not be moved aside either', { path, error });
      canSave = false;
      warning =
        `${what}, ${outcome}, and FieldDesk could not move the file aside, so changes ` +
        `will not be saved this session. Check the file ${path}.`;
    }
  }

  const backupFolder = join(dataDir, BACKUP_FOLDER);
  /** A dated copy of what was just written (or read), in the backup folder. */
  async function copy(text: string): Promise<void> {
    const at = now();
    try {
      await mkdir(backupFolder, { recursive: true, mode: 0o700 });
      await writeFileAtomic(join(backupFolder, `${copyPrefix(fileName)}-${fileTimestamp(at)}.json`), text, {
        mode: 0o600,
      });
      await pruneCopies(backupFolder, copyPrefix(fileName), '.json', at);
    } catch (error) {
      // The file itself is saved; the copy is taken again at the next save.
      options.log?.warn('backup copy of a saved file not written', { fileName, error });
    }
  }

  /** Writes the file, then its dated backup copy. */
  async function write(content: T): Promise<void> {
    if (!canSave) return;
    const text = `${JSON.stringify({ version: options.version, ...content }, null, 2)}\n`;
    await writeFileAtomic(path, text, { mode: 0o600 });
    if (options.backups !== false) await copy(text);
  }

  // A file an earlier version wrote has no copy yet: take one now, before anything can damage it.
  if (
    options.backups !== false &&
    'content' in read &&
    listCopies(backupFolder, copyPrefix(fileName), '.json').length === 0
  ) {
    await copy(await readFile(path, 'utf8'));
  }

  let writing: Promise<unknown> = Promise.resolve();
  function queued<R>(work: () => Promise<R>): Promise<R> {
    const next = writing.catch(() => undefined).then(work);
    writing = next;
    return next;
  }
  return {
    loaded,
    problem,
    restoredFrom,
    warning,
    save: (content) => queued(() => write(content)),
    change: (plan) =>
      queued(async () => {
        const { content, apply } = plan();
        await write(content);
        return apply();
      }),
    flush: () =>
      writing.then(
        () => undefined,
        () => undefined,
      ),
  };
}
