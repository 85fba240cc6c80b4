/**
 * FieldDesk's SQLite files: the data cache `<dataDir>/fielddesk.db` (cache/cache-database.ts) and
 * the user's records `<dataDir>/records.db` (records/records-database.ts). Each is in WAL mode and
 * private to the user (0600, and so its -wal and -shm files); `openDatabase` owns every migration.
 *
 * Migrations are applied in order, each in its own transaction together with its row in
 * `schema_migrations`, so a crash leaves the file at a known version. A file written by a newer
 * FieldDesk is refused with a clear message and left exactly as it was: an older app must never
 * "repair" a newer schema. A file that is damaged (not a database, cut short, or empty) is moved
 * aside under a dated name — never overwritten — and a fresh database takes its place (or, with
 * `ifDamaged: 'fail'`, a `DamagedDatabase` error lets the caller restore it from a backup).
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, renameSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { FieldDeskError } from '../../../shared/errors';
import { diskFailure, sqliteDiskError } from './disk-errors';
import { errorCode, fileTimestamp } from './file-basics';
import { MIGRATIONS, type Migration } from './migrations';

export type SqliteDatabase = Database.Database;
export type { Migration } from './migrations';
export { MIGRATIONS } from './migrations';

export const DATABASE_FILE_NAME = 'fielddesk.db';
/** Bytes per page of a new database file (see `migrate`). */
export const PAGE_SIZE = 16_384;
/** SQLite's companion files of a WAL database. */
const COMPANIONS = ['-wal', '-shm'] as const;

export interface OpenDatabaseOptions {
  /** Default the cache's; tests supply their own list to exercise upgrades and failures. */
  migrations?: readonly Migration[];
  /** Default `fielddesk.db`. */
  fileName?: string;
  now?: () => number;
  /**
   * SQLite's `synchronous`: NORMAL (default) may lose the last transactions to a power cut but never
   * corrupts; FULL makes every commit durable, for what the user made.
   */
  synchronous?: 'NORMAL' | 'FULL';
  /** Page size of a new file (default 16 KB, see `migrate`). */
  pageSize?: number;
  /** Runs SQLite's quick_check at open, so damage is found now rather than mid-session (small files only). */
  verify?: boolean;
  /** What to do with a damaged file: move it aside for a fresh one (default), or throw `DamagedDatabase`. */
  ifDamaged?: 'setAside' | 'fail';
}

/** A damaged file met at open with `ifDamaged: 'fail'`: left where it is, for the caller to restore. */
export class DamagedDatabase extends Error {
  constructor(
    readonly path: string,
    /** What was wrong with it, in plain words. */
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`${path} ${problem}`, options);
    this.name = 'DamagedDatabase';
  }
}

/** A damaged database that was moved aside for a fresh one. */
export interface SetAsideDatabase {
  /** The name it was given, in `dir`. */
  fileName: string;
  dir: string;
  /** What was wrong with it, in plain words ("is damaged", "was empty"). */
  problem: string;
}

export interface FieldDeskDatabase {
  readonly db: SqliteDatabase;
  readonly path: string;
  /** The highest migration applied. */
  readonly version: number;
  /** Set when a damaged file was moved aside at this open. */
  readonly setAside: SetAsideDatabase | null;
  close(): void;
}

/** SQLite's ways of saying "this file is not a (whole) database". */
const DAMAGE_CODES = new Set([
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
  'SQLITE_CORRUPT_INDEX',
  'SQLITE_CORRUPT_VTAB',
]);

/** Whether an error means the database file itself is damaged. */
export function isDatabaseDamage(error: unknown): boolean {
  return error instanceof DamagedDatabase || DAMAGE_CODES.has(errorCode(error) ?? '');
}

/** SQLite's own check of a file's structure: null when sound, else its first complaint. */
export function structureProblem(db: SqliteDatabase): string | null {
  const rows = db.pragma('quick_check') as Array<{ quick_check: string }>;
  const first = rows[0]?.quick_check ?? 'no answer';
  return first === 'ok' ? null : first;
}

function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`Migration ${migration.name} has number ${migration.version}, expected ${index + 1}.`);
    }
  });
}

function appliedVersion(db: SqliteDatabase): number {
  const table = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (table === undefined) return 0;
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as {
    version: number | null;
  };
  return row.version ?? 0;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Creates the file (and tightens an existing one and its companions) so only the user can read it. */
function makePrivate(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, ...COMPANIONS.map((suffix) => path + suffix)]) {
    if (existsSync(file)) chmodSync(file, 0o600);
  }
}

/** Moves the database and its companions aside under one dated name; returns that name. */
export function moveDatabaseAside(path: string, dir: string, fileName: string, now: number): string {
  const asideName = `${fileName}.corrupt-${fileTimestamp(now)}`;
  renameSync(path, join(dir, asideName));
  for (const suffix of COMPANIONS) {
    if (existsSync(path + suffix)) renameSync(path + suffix, join(dir, asideName + suffix));
  }
  return asideName;
}

/** Why a file could not be opened: the disk's refusal in its own words, else SQLite's reason. */
function cannotOpen(path: string, dataDir: string, error: unknown): FieldDeskError {
  const disk = diskFailure(sqliteDiskError(error) ?? error, {
    folder: dataDir,
    what: `anything in ${basename(path)}`,
    advice: 'Until then FieldDesk cannot use it.',
  });
  return (
    disk ??
    new FieldDeskError(
      'internal',
      `FieldDesk could not open ${path} (${describe(error)}). Check that the folder can be written to.`,
      { cause: error },
    )
  );
}

/** Opens (creating if needed) the database in `dataDir` and brings it to the latest schema. */
export function openDatabase(dataDir: string, options: OpenDatabaseOptions = {}): FieldDeskDatabase {
  const migrations = options.migrations ?? MIGRATIONS;
  const now = options.now ?? Date.now;
  checkMigrationList(migrations);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const fileName = options.fileName ?? DATABASE_FILE_NAME;
  const path = join(dataDir, fileName);

  let setAside: SetAsideDatabase | null = null;
  const setAsideAs = (problem: string): void => {
    if (options.ifDamaged === 'fail') throw new DamagedDatabase(path, problem);
    try {
      setAside = { fileName: moveDatabaseAside(path, dataDir, fileName, now()), dir: dataDir, problem };
    } catch (error) {
      throw new FieldDeskError(
        'internal',
        `FieldDesk's local database ${path} ${problem}, and FieldDesk could not move it aside (${describe(error)}). ` +
          'Move the file away; FieldDesk will then start a new one.',
        { cause: error },
      );
    }
  };
  // An empty file is a valid empty SQLite database, but a FieldDesk database never is: what was in
  // it is gone, and the user should hear so rather than find an empty cache.
  if (existsSync(path) && statSync(path).size === 0) setAsideAs('was empty (0 bytes)');

  for (;;) {
    try {
      makePrivate(path);
    } catch (error) {
      throw cannotOpen(path, dataDir, error);
    }
    let db: SqliteDatabase;
    try {
      db = new Database(path);
    } catch (error) {
      if (setAside === null && isDatabaseDamage(error)) {
        setAsideAs('is damaged or is not a FieldDesk database');
        continue;
      }
      throw cannotOpen(path, dataDir, error);
    }
    // Read the version before changing anything, so a newer file stays untouched.
    let current: number;
    try {
      current = appliedVersion(db);
    } catch (error) {
      db.close();
      if (setAside === null) {
        setAsideAs('is damaged or is not a FieldDesk database');
        continue;
      }
      throw new FieldDeskError(
        'internal',
        `FieldDesk could not start a new local database ${path} (${describe(error)}).`,
        { cause: error },
      );
    }
    if (options.verify === true && current > 0) {
      let problem: string | null;
      try {
        problem = structureProblem(db);
      } catch (error) {
        if (!isDatabaseDamage(error)) {
          db.close();
          throw error;
        }
        problem = describe(error);
      }
      if (problem !== null) {
        db.close();
        if (setAside === null) {
          setAsideAs(`is damaged (${problem})`);
          continue;
        }
        throw new FieldDeskError(
          'internal',
          `FieldDesk could not start a new local database ${path} (${problem}).`,
        );
      }
    }
    try {
      const version = migrate(db, path, current, migrations, {
        synchronous: options.synchronous ?? 'NORMAL',
        pageSize: options.pageSize ?? PAGE_SIZE,
      });
      const close = (): void => {
        if (db.open) db.close();
      };
      return { db, path, version, setAside, close };
    } catch (error) {
      db.close();
      throw error;
    }
  }
}

/** Brings an open database from `current` to the latest migration; returns the latest version. */
function migrate(
  db: SqliteDatabase,
  path: string,
  current: number,
  migrations: readonly Migration[],
  settings: { synchronous: 'NORMAL' | 'FULL'; pageSize: number },
): number {
  const latest = migrations.length;
  if (current > latest) {
    throw new FieldDeskError(
      'internal',
      `FieldDesk's local database ${path} was written by a newer version of FieldDesk ` +
        `(schema ${current}; this version knows up to ${latest}). Update FieldDesk to use it; ` +
        'the file has been left untouched.',
    );
  }
  // A new file gets 16 KB pages: the cache stores series as blocks of megabytes, and with SQLite's
  // default 4 KB pages writing a week of 1 s values (2.4 MB) took about four times as long. Only a
  // file with nothing in it can take a page size (before WAL); an existing file keeps its own.
  if (current === 0) db.pragma(`page_size = ${settings.pageSize}`);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${settings.synchronous}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`);
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of migrations.slice(current)) {
    try {
      db.transaction(() => {
        migration.up(db);
        record.run(migration.version, migration.name, Date.now());
      }).immediate();
    } catch (error) {
      throw new FieldDeskError(
        'internal',
        `FieldDesk could not update its local database ${path} (step ${migration.version}, ${migration.name}: ` +
          `${describe(error)}). The file was left at step ${migration.version - 1}.`,
        { cause: error },
      );
    }
  }
  return latest;
}
