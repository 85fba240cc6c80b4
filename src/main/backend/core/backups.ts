/**
 * Backups of what the user made, in `<dataDir>/backups`: copies of records.db taken with SQLite's
 * online backup (consistent while the app writes; records/records-database.ts), and copies of the
 * small JSON files (json-file-store.ts). Each copy is written under a temporary name, checked, and only then
 * given its dated name, so a copy that exists is whole. Which copies are kept is `copiesToKeep`: the
 * newest few, and the newest of each of the last days, so a damage noticed late still finds a copy
 * from before it.
 */
import { readdirSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { structureProblem, type SqliteDatabase } from './database';
import { fileTimestamp } from './file-basics';

export const BACKUP_FOLDER = 'backups';
/** The newest copies always kept. */
export const KEEP_NEWEST = 5;
/** Besides those, the newest copy of each of this many days. */
export const KEEP_DAYS = 7;

const DAY_MS = 86_400_000;

export interface BackupCopy {
  /** The file's name in the backup folder. */
  name: string;
  /** When the copy was taken (from its name). */
  takenAt: number;
}

/** `records-2026-11-26T09-00-00-000Z.db` → its time; null for a name that is not a copy of `prefix`. */
export function copyTime(name: string, prefix: string, extension: string): number | null {
  if (!name.startsWith(`${prefix}-`) || !name.endsWith(extension)) return null;
  const stamp = name.slice(prefix.length + 1, name.length - extension.length);
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z$/.exec(stamp);
  if (match === null) return null;
  const time = Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`);
  return Number.isNaN(time) ? null : time;
}

/** The copies of `prefix` in the folder, newest first. */
export function listCopies(folder: string, prefix: string, extension: string): BackupCopy[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return []; // No backup folder yet: no copies.
  }
  return names
    .map((name) => ({ name, takenAt: copyTime(name, prefix, extension) }))
    .filter((copy): copy is BackupCopy => copy.takenAt !== null)
    .sort((a, b) => b.takenAt - a.takenAt);
}

/** Which copies to keep (newest first in, kept names out): the newest few, and each day's newest. */
export function copiesToKeep(copies: readonly BackupCopy[], now: number): Set<string> {
  const newestFirst = [...copies].sort((a, b) => b.takenAt - a.takenAt);
  const keep = new Set(newestFirst.slice(0, KEEP_NEWEST).map((copy) => copy.name));
  const days = new Set<number>();
  for (const copy of newestFirst) {
    const day = Math.floor(copy.takenAt / DAY_MS);
    if (days.has(day) || copy.takenAt < now - KEEP_DAYS * DAY_MS) continue;
    days.add(day);
    keep.add(copy.name);
  }
  return keep;
}

/** Removes the copies of `prefix` that `copiesToKeep` does not keep. */
export async function pruneCopies(
  folder: string,
  prefix: string,
  extension: string,
  now: number,
): Promise<void> {
  const copies = listCopies(folder, prefix, extension);
  const keep = copiesToKeep(copies, now);
  await Promise.all(
    copies.filter((copy) => !keep.has(copy.name)).map((copy) => rm(join(folder, copy.name), { force: true })),
  );
}

/** A copy's name for a time; a later copy in the same millisecond gets the next one. */
function copyName(folder: string, prefix: string, extension: string, now: number): string {
  const taken = new Set(listCopies(folder, prefix, extension).map((copy) => copy.takenAt));
  let time = now;
  while (taken.has(time)) time++;
  return `${prefix}-${fileTimestamp(time)}${extension}`;
}

/** Whether a copy of records.db opens and is sound; the problem in words otherwise. */
export function checkDatabaseCopy(path: string): string | null {
  let db: SqliteDatabase | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    return structureProblem(db);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    db?.close();
  }
}

/**
 * Takes a copy of an open database with SQLite's online backup, checks it, and prunes older copies.
 * The copy is a plain file (rollback journal, not WAL), so reading it never leaves -wal or -shm
 * files beside it. Returns the copy's name.
 */
export async function backupDatabase(
  db: SqliteDatabase,
  folder: string,
  prefix: string,
  now: number,
): Promise<string> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const name = copyName(folder, prefix, '.db', now);
  const part = join(folder, `${name}.part`);
  try {
    await db.backup(part);
    await chmod(part, 0o600);
    const copy = new Database(part);
    let problem: string | null;
    try {
      copy.pragma('journal_mode = DELETE');
      problem = structureProblem(copy);
    } finally {
      copy.close();
    }
    if (problem !== null) throw new Error(`the copy did not check out (${problem})`);
    await rename(part, join(folder, name));
  } finally {
    await rm(part, { force: true });
  }
  await pruneCopies(folder, prefix, '.db', now);
  return name;
}

/**
 * Removes copies cut short by a crash from the backup folder: `….part`, and the rollback journal or
 * WAL files SQLite kept beside one (`….part-journal`, `….part-wal`, `….part-shm`).
 */
export async function removeUnfinishedCopies(folder: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return; // No backup folder: nothing unfinished.
  }
  await Promise.all(
    names
      .filter((name) => /\.part(?:-journal|-wal|-shm)?$/.test(name))
      .map((name) => rm(join(folder, name), { force: true })),
  );
}
