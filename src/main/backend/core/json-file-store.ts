/**
 * A small JSON file in the data folder (`accounts.json`, `settings.json`): `{ version, …content }`,
 * validated on load and written atomically, private to the user (0600), one write after another so
 * an older snapshot never lands after a newer one.
 *
 * A file that cannot be used (damaged, written by a newer FieldDesk, unreadable) is moved aside,
 * never overwritten, so nothing is lost; the store then starts from nothing and carries a warning
 * in plain words for the UI. If it cannot even be moved aside, nothing is saved this session.
 */
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { z } from 'zod';

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
}

export interface JsonFile<T> {
  /** The content read at open; null when there was no file or it could not be used. */
  readonly loaded: T | null;
  readonly problem: JsonFileProblem | null;
  /** What went wrong at open, in plain words; null when all was well. */
  readonly warning: string | null;
  /** Writes the content (queued behind earlier writes). */
  save(content: T): Promise<void>;
  /** Resolves once every write started so far has finished. */
  flush(): Promise<void>;
}

/** A timestamp safe in file names on every platform (no colons). */
export function fileTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/[:.]/g, '-');
}

export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

type Read<T> = { content: T } | { problem: JsonFileProblem } | { missing: true };

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
  await mkdir(dataDir, { recursive: true });

  const read = await readVersioned(path, options);
  let warning: string | null = null;
  // False only when a bad file could not be moved aside: then saving would destroy it.
  let canSave = true;
  const problem = 'problem' in read ? read.problem : null;
  if (problem !== null) {
    const what = `${describe.subject} ${PROBLEM_TEXT[problem]}`;
    const asideName = `${fileName}.corrupt-${fileTimestamp(now())}`;
    try {
      await rename(path, join(dataDir, asideName));
      warning =
        `${what}, ${describe.fallback}. The old file was kept as ${asideName} in ${dataDir}.` +
        (describe.reassurance === undefined ? '' : ` ${describe.reassurance}`);
    } catch {
      canSave = false;
      warning =
        `${what}, ${describe.fallback}, and FieldDesk could not move the file aside, so changes ` +
        `will not be saved this session. Check the file ${path}.`;
    }
  }

  let writing: Promise<void> = Promise.resolve();
  return {
    loaded: 'content' in read ? read.content : null,
    problem,
    warning,
    save(content) {
      if (!canSave) return Promise.resolve();
      const text = `${JSON.stringify({ version: options.version, ...content }, null, 2)}\n`;
      const next = writing.catch(() => undefined).then(() => writeFileAtomic(path, text, { mode: 0o600 }));
      writing = next;
      return next;
    },
    flush: () => writing.catch(() => undefined),
  };
}
