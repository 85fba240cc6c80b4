/**
 * What the user made — the action history, assessment sites with their exclusions and limits, site
 * visits, the calibrator register, the audio library and download queue — in `<dataDir>/records.db`, apart from the disposable cache.
 *
 * - Every commit is durable (`synchronous = FULL`) and the file is checked (quick_check) at open.
 * - A copy is taken with SQLite's online backup a moment after each change and kept in
 *   `<dataDir>/backups` (backups.ts: the newest few, and each of the last days' newest).
 * - A damaged file, found at open or mid-session, is set aside (never overwritten), the newest sound
 *   copy takes its place, and whatever the damaged file still holds beyond that copy is read row by
 *   row and merged back (records-salvage.ts). The notice says what was restored, from when, what was
 *   recovered, and what could not be.
 */
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database, { type Statement } from 'better-sqlite3';
import { createActionRecords, type ActionRecords } from '../actions/action-records';
import { createSiteStore, type SiteStore } from '../assessment/site-store';
import { createAudioRecords, type AudioRecords } from '../audio/audio-records';
import { createVisitStore, type VisitStore } from '../visits/visit-store';
import { createCalibratorStore, type CalibratorStore } from '../calibrators/calibrator-store';
import {
  DATABASE_FILE_NAME,
  DamagedDatabase,
  moveDatabaseAside,
  openDatabase,
  type FieldDeskDatabase,
  type SqliteDatabase,
} from '../core/database';
import { diskFailure } from '../core/disk-errors';
import type { Logger } from '../core/log';
import { manageDatabase, type ManagedDatabase } from '../core/managed-database';
import type { NoticeBoard } from '../core/notices';
import {
  backupDatabase,
  BACKUP_FOLDER,
  checkDatabaseCopy,
  listCopies,
  removeUnfinishedCopies,
  type BackupCopy,
} from '../core/backups';
import { legacyImportComplete, recordsMigrations, type LegacyImport } from './records-migrations';
import {
  mergeRows,
  readTables,
  RECORD_TABLES,
  type RecordTable,
  type SalvageReport,
} from './records-salvage';

export const RECORDS_FILE_NAME = 'records.db';
/** The backup copies' name: `records-<time>.db`. */
const COPY_PREFIX = 'records';
/** A change is copied this long after it, so a burst of writes makes one copy. */
const DEFAULT_BACKUP_DELAY_MS = 2_000;
/**
 * And copies are at least this far apart: a download writes its progress every quarter second, and
 * records.db itself keeps every change durably; the copy is for when that file is damaged.
 */
const DEFAULT_BACKUP_SPACING_MS = 60_000;
const DAY_MS = 86_400_000;

export const RECORDS_NOTICE = {
  restored: 'records-restored',
  unavailable: 'records-unavailable',
  backup: 'records-backup',
  moved: 'records-moved',
} as const;

/** The stores of the user's records. */
export interface RecordParts {
  actions: ActionRecords;
  sites: SiteStore;
  audio: AudioRecords;
  visits: VisitStore;
  calibrators: CalibratorStore;
}

export interface RecordsDatabase extends Omit<ManagedDatabase<RecordParts>, 'close'> {
  /** Whether the cache database's old copies of the records may be dropped (all were read). */
  legacyImported(): boolean;
  /** Takes the pending backup now (tests; close). */
  backupNow(): Promise<void>;
  /** Takes a last backup of unsaved changes, then closes. */
  close(): Promise<void>;
}

export interface RecordsDatabaseOptions {
  dataDir: string;
  notices: NoticeBoard;
  log: Logger;
  now: () => number;
  /** How long after a change its backup is taken (default 2 s). */
  backupDelayMs?: number;
  /** The least time between two backups (default 1 min). */
  backupSpacingMs?: number;
}

const when = (epochMs: number): string =>
  `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function count(n: number, [one, many]: readonly [string, string]): string {
  return `${n} ${n === 1 ? one : many}`;
}

function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** "4 sites, 120 action results and 3 recordings": what a records file holds. */
function contents(db: SqliteDatabase): string {
  const shown: RecordTable[] = [
    'assessment_sites',
    'site_visits',
    'action_history',
    'audio_library',
    'calibrators',
  ];
  const held = shown.flatMap((table) => {
    const { n } = db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number };
    return n === 0 ? [] : [count(n, RECORD_TABLES[table].noun)];
  });
  return held.length === 0 ? 'no sites, visits, action results, recordings or calibrators' : listText(held);
}

/** The order record kinds are named in: what the user made first. */
const NAMED_ORDER: readonly RecordTable[] = [
  'assessment_sites',
  'site_visits',
  'action_history',
  'audio_library',
  'calibrators',
  'audio_downloads',
  'audio_settings',
  'visit_settings',
];

/** What the merge brought back, in words; null when nothing. */
function recovered(report: SalvageReport): string | null {
  const parts = [...report.tables]
    .sort((a, b) => NAMED_ORDER.indexOf(a.table) - NAMED_ORDER.indexOf(b.table))
    .filter((t) => t.merged > 0)
    .map((t) => count(t.merged, RECORD_TABLES[t.table].noun));
  return parts.length === 0 ? null : listText(parts);
}

/** The tables the merge could only partly read, as nouns. */
function partlyRead(report: SalvageReport): string[] {
  return report.tables.filter((t) => !t.complete).map((t) => RECORD_TABLES[t.table].noun[1]);
}

export function openRecordsDatabase(options: RecordsDatabaseOptions): RecordsDatabase {
  const { dataDir, notices, log, now } = options;
  const path = join(dataDir, RECORDS_FILE_NAME);
  const backupFolder = join(dataDir, BACKUP_FOLDER);
  const backupDelayMs = options.backupDelayMs ?? DEFAULT_BACKUP_DELAY_MS;
  const backupSpacingMs = options.backupSpacingMs ?? DEFAULT_BACKUP_SPACING_MS;
  /** When the last copy was taken (monotonic, for spacing only). */
  let lastBackupAt = Number.NEGATIVE_INFINITY;
  const legacy: LegacyImport = { path: null, report: null };
  const migrations = recordsMigrations(join(dataDir, DATABASE_FILE_NAME), legacy);
  const openFile = (): FieldDeskDatabase =>
    openDatabase(dataDir, {
      fileName: RECORDS_FILE_NAME,
      migrations,
      now,
      synchronous: 'FULL',
      pageSize: 4_096,
      verify: true,
      ifDamaged: 'fail',
    });

  /** The newest copy that opens and checks out, or null. */
  function soundCopy(): BackupCopy | null {
    for (const copy of listCopies(backupFolder, COPY_PREFIX, '.db')) {
      const problem = checkDatabaseCopy(join(backupFolder, copy.name));
      if (problem === null) return copy;
      log.warn('records backup copy is not sound; trying an older one', { copy: copy.name, problem });
    }
    return null;
  }

  /**
   * What can be read from the damaged file, merged into the file now at `path`. Read from a copy in
   * a temporary folder: SQLite leaves -wal and -shm files beside what it opens, and the damaged file
   * is kept exactly as it was found.
   */
  function salvage(asidePath: string): SalvageReport {
    const scratch = mkdtempSync(join(tmpdir(), 'fielddesk-salvage-'));
    let read: ReturnType<typeof readTables>;
    try {
      const copy = join(scratch, RECORDS_FILE_NAME);
      copyFileSync(asidePath, copy);
      if (existsSync(`${asidePath}-wal`)) copyFileSync(`${asidePath}-wal`, `${copy}-wal`);
      let damaged: SqliteDatabase;
      try {
        damaged = new Database(copy, { readonly: true, fileMustExist: true });
      } catch (error) {
        return { tables: [], problem: error instanceof Error ? error.message : String(error) };
      }
      try {
        read = readTables(
          damaged,
          (Object.keys(RECORD_TABLES) as RecordTable[]).map((table) => ({ table, names: [table] })),
        );
      } finally {
        damaged.close();
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    const target = openFile();
    try {
      return mergeRows(target.db, read);
    } finally {
      target.close();
    }
  }

  /**
   * Replaces the damaged file: sets it aside, puts the newest sound copy in its place (or starts
   * afresh), merges back what the damaged file still holds, and returns what to tell the user.
   */
  function restore(problem: string): string {
    const asideName = moveDatabaseAside(path, dataDir, RECORDS_FILE_NAME, now());
    const copy = soundCopy();
    if (copy !== null) {
      const restoring = `${path}.restoring`;
      copyFileSync(join(backupFolder, copy.name), restoring);
      renameSync(restoring, path);
    }
    const report = salvage(join(dataDir, asideName));
    const target = openFile();
    let holds: string;
    try {
      holds = contents(target.db);
    } finally {
      target.close();
    }
    const back = recovered(report);
    const partial = partlyRead(report);
    const head =
      `The file of your records (sites, exclusions, limits, site visits, action history, audio library, calibrators), ${RECORDS_FILE_NAME}, ${problem}. ` +
      `FieldDesk set the file aside as ${asideName} in ${dataDir}`;
    let body: string;
    if (copy !== null) {
      body =
        `${head} and restored them from the backup of ${when(copy.takenAt)}` +
        (back === null ? '' : `, adding ${back} recovered from the damaged file`) +
        `. Your records now hold ${holds}.`;
      if (report.problem !== null) {
        body += ` Nothing could be read from the damaged file, so a change made after ${when(copy.takenAt)} could not be recovered.`;
      } else if (partial.length > 0) {
        body += ` Some ${listText(partial)} could not be read from the damaged file, so changes to them after ${when(copy.takenAt)} may be missing.`;
      }
    } else {
      body =
        `${head}. There was no backup to restore from` +
        (back === null
          ? ', and nothing could be read from the damaged file, so FieldDesk started with empty records.'
          : `; ${back} were recovered from the damaged file. Your records now hold ${holds}.`) +
        (back !== null && partial.length > 0 ? ` Some ${listText(partial)} could not be read.` : '');
    }
    log.warn('records restored after damage', { problem, asideName, copy: copy?.name ?? null, report });
    return body;
  }

  // A backup a moment after the last change; one pending at a time.
  let backupTimer: NodeJS.Timeout | null = null;
  let backingUp: Promise<void> = Promise.resolve();
  const changesCopied = new WeakMap<SqliteDatabase, number>();

  // Asked after every use of the records: prepared once per connection.
  const changesQuery = new WeakMap<SqliteDatabase, Statement>();
  function changesOf(db: SqliteDatabase): number {
    let query = changesQuery.get(db);
    if (query === undefined) {
      query = db.prepare('SELECT total_changes() AS n');
      changesQuery.set(db, query);
    }
    return (query.get() as { n: number }).n;
  }

  function takeBackup(): Promise<void> {
    backupTimer = null;
    lastBackupAt = performance.now();
    backingUp = backingUp.then(async () => {
      const database = managed.current();
      if (database === null) return;
      const changes = changesOf(database.db);
      try {
        const name = await backupDatabase(database.db, backupFolder, COPY_PREFIX, now());
        changesCopied.set(database.db, changes);
        notices.dismiss(RECORDS_NOTICE.backup);
        log.debug('records backed up', { copy: name });
      } catch (error) {
        const disk = diskFailure(error, { folder: backupFolder, what: 'a backup of your records' });
        log.error('records backup failed', { error });
        notices.raise({
          id: RECORDS_NOTICE.backup,
          tone: 'warning',
          message:
            (disk?.message ?? `FieldDesk could not back up your records (${String(error)}).`) +
            ' Your records themselves are saved; FieldDesk tries the backup again at the next change.',
        });
      }
    });
    return backingUp;
  }

  function scheduleBackup(database: FieldDeskDatabase): void {
    if (backupTimer !== null) return;
    if (changesOf(database.db) === (changesCopied.get(database.db) ?? 0)) return;
    const wait = Math.max(backupDelayMs, lastBackupAt + backupSpacingMs - performance.now());
    backupTimer = setTimeout(() => void takeBackup(), wait);
    backupTimer.unref();
  }

  const managed = manageDatabase<RecordParts>({
    subject: 'your records',
    dataDir,
    open() {
      let database: FieldDeskDatabase;
      try {
        database = openFile();
      } catch (error) {
        if (!(error instanceof DamagedDatabase)) throw error;
        notices.raise({ id: RECORDS_NOTICE.restored, tone: 'warning', message: restore(error.problem) });
        database = openFile();
      }
      reportLegacy(database);
      return database;
    },
    build: (database) => ({
      actions: createActionRecords(database.db),
      sites: createSiteStore(database.db, now),
      audio: createAudioRecords(database.db),
      visits: createVisitStore(database.db),
      calibrators: createCalibratorStore(database.db, now),
    }),
    replaceDamaged(_database, cause) {
      const message = restore(
        `was found damaged (${cause instanceof Error ? cause.message : String(cause)})`,
      );
      notices.raise({ id: RECORDS_NOTICE.restored, tone: 'warning', message });
      return message;
    },
    onUnavailable(problem) {
      if (problem === null) {
        notices.dismiss(RECORDS_NOTICE.unavailable);
        return;
      }
      log.error('records unavailable', { error: problem });
      notices.raise({
        id: RECORDS_NOTICE.unavailable,
        tone: 'warning',
        message: `${problem.message} Sites, the action history, the audio library and the calibrator register are unavailable until then; field actions still run and their results are kept.`,
      });
    },
    afterUse: scheduleBackup,
  });

  /** Tells the user when the move from the old cache database could not read everything. */
  function reportLegacy(database: FieldDeskDatabase): void {
    const report = legacy.report;
    if (report === null) return;
    legacy.report = null;
    log.info('records moved from the cache database', { report });
    const partial = partlyRead(report);
    if (report.problem === null && partial.length === 0) return;
    notices.raise({
      id: RECORDS_NOTICE.moved,
      tone: 'warning',
      message:
        `FieldDesk moved your records from ${DATABASE_FILE_NAME} into ${RECORDS_FILE_NAME}, but ` +
        (report.problem !== null
          ? `could not read ${DATABASE_FILE_NAME} (${report.problem})`
          : `some ${listText(partial)} could not be read from it`) +
        `. Its copy is kept; your records now hold ${contents(database.db)}.`,
    });
  }

  // Copies cut short by a crash go; a first copy of the day is taken at start.
  void removeUnfinishedCopies(backupFolder).catch((error: unknown) =>
    log.warn('could not remove unfinished backup copies', { error }),
  );
  if (managed.current() !== null) {
    const newest = listCopies(backupFolder, COPY_PREFIX, '.db')[0];
    if (newest === undefined || Math.floor(newest.takenAt / DAY_MS) !== Math.floor(now() / DAY_MS))
      void takeBackup();
  }

  return {
    ...managed,
    legacyImported() {
      const database = managed.current();
      return database !== null && legacyImportComplete(database.db);
    },
    backupNow() {
      if (backupTimer !== null) clearTimeout(backupTimer);
      const database = managed.current();
      if (database !== null && changesOf(database.db) !== (changesCopied.get(database.db) ?? 0))
        return takeBackup();
      return backingUp;
    },
    async close() {
      if (backupTimer !== null) clearTimeout(backupTimer);
      backupTimer = null;
      const database = managed.current();
      if (database !== null && changesOf(database.db) !== (changesCopied.get(database.db) ?? 0))
        await takeBackup();
      await backingUp;
      managed.close();
    },
  };
}
