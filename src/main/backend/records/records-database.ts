/**
 * What the user made — the action history, assessment sites with their exclusions and limits, site
 * visits, the calibrator register, the audio library and download queue — in `<dataDir>/records.db`, apart from the disposable cache.
 *
 * - Every commit is durable (`synchronous = FULL`) and the file is checked (quick_check) at open.
 * - Every change, deletions included, is written to the change journal (change-journal.ts) and
 *   flushed to disk inside its transaction, before it commits (records-journalling.ts); records.db
 *   keeps the number of the last change (`records_meta.journal_seq`), and so does each copy of it.
 * - A copy is taken with SQLite's online backup a moment after each change and kept in
 *   `<dataDir>/backups` (records-backups.ts; core/backups.ts: the newest few, and each of the last
 *   days' newest); the journal then forgets what the oldest of the newest few copies holds.
 * - A damaged file, found at open or mid-session, is set aside (never overwritten), the newest sound
 *   copy the journal reaches back to takes its place, and the journal's changes after it are replayed:
 *   nothing made is lost, nothing deleted returns. Only when no copy is reached (the journal lost or
 *   unreadable) is what the damaged file still holds read row by row and merged over the newest copy
 *   (records-salvage.ts), the tables it gives whole mirrored so deletions stay deleted. The notice says
 *   what was restored, from when, what was replayed or recovered, and what could not be
 *   (records-restore.ts, records-wording.ts).
 *
 * This file opens the file and puts those parts together into the stores the domains use.
 */
import { join } from 'node:path';
import { createActionRecords, type ActionRecords } from '../actions/action-records';
import { createSiteStore, type SiteStore } from '../assessment/site-store';
import { createAudioRecords, type AudioRecords } from '../audio/audio-records';
import { createVisitStore, type VisitStore } from '../visits/visit-store';
import { createCalibratorStore, type CalibratorStore } from '../calibrators/calibrator-store';
import { DATABASE_FILE_NAME, DamagedDatabase, openDatabase, type FieldDeskDatabase } from '../core/database';
import { createDamagedRows, type DamagedRows } from '../core/damaged-rows';
import type { Logger } from '../core/log';
import { manageDatabase, type ManagedDatabase } from '../core/managed-database';
import type { NoticeBoard } from '../core/notices';
import { BACKUP_FOLDER } from '../core/backups';
import { legacyImportComplete, recordsMigrations, type LegacyImport } from './records-migrations';
import { createRecordRows, type RecordRows } from './record-rows';
import { CHANGE_JOURNAL_FILE_NAME, openChangeJournal, type RecordChange } from './change-journal';
import { createRecordsJournalling } from './records-journalling';
import { recordsRestorer } from './records-restore';
import { createRecordsBackups } from './records-backups';
import { contents, listText, partlyRead } from './records-wording';

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
  /** Whole records by table, for the team's replication (team/team-replica.ts). */
  rows: RecordRows;
}

export interface RecordsDatabase extends Omit<ManagedDatabase<RecordParts>, 'close'> {
  /** Whether the cache database's old copies of the records may be dropped (all were read). */
  legacyImported(): boolean;
  /** Takes the pending backup now (tests; close). */
  backupNow(): Promise<void>;
  /**
   * Tells `listener` of every change once it has committed (the team's replication mirrors them);
   * returns the function that stops it.
   */
  onCommitted(listener: (changes: readonly RecordChange[]) => void): () => void;
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
  /** Told of each stored row that cannot be read (default: its own, logging to `log`). */
  damaged?: DamagedRows;
}

export function openRecordsDatabase(options: RecordsDatabaseOptions): RecordsDatabase {
  const { dataDir, notices, log, now } = options;
  // Never left out: a damaged record is left out of the screens, so it must be said.
  const damaged = options.damaged ?? createDamagedRows(log.child('damaged-rows'));
  const backupFolder = join(dataDir, BACKUP_FOLDER);
  const legacy: LegacyImport = { path: null, report: null };
  const migrations = recordsMigrations(join(dataDir, DATABASE_FILE_NAME), legacy);
  const journal = openChangeJournal(join(dataDir, CHANGE_JOURNAL_FILE_NAME));
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
  const journalling = createRecordsJournalling({ journal, dataDir, log, now });
  const restoreFile = recordsRestorer({
    dataDir,
    fileName: RECORDS_FILE_NAME,
    backupFolder,
    copyPrefix: COPY_PREFIX,
    journal,
    log,
    now,
    openFile,
  });
  /** A restore rebuilt the file: copy it soon, so the next damage starts from it. */
  let restoredSinceCopy = false;
  function restore(problem: string): string {
    const message = restoreFile(problem);
    restoredSinceCopy = true;
    return message;
  }
  const backups = createRecordsBackups({
    backupFolder,
    copyPrefix: COPY_PREFIX,
    journal,
    notices,
    noticeId: RECORDS_NOTICE.backup,
    log,
    now,
    current: () => managed.current(),
    delayMs: options.backupDelayMs ?? DEFAULT_BACKUP_DELAY_MS,
    spacingMs: options.backupSpacingMs ?? DEFAULT_BACKUP_SPACING_MS,
    onCopied: () => {
      restoredSinceCopy = false;
    },
  });

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
    build: (database) => {
      journalling.start(database);
      if (restoredSinceCopy) setTimeout(() => void backups.take(), 0).unref();
      return {
        actions: createActionRecords(database.db, damaged),
        sites: createSiteStore(database.db, now, damaged),
        audio: createAudioRecords(database.db),
        visits: createVisitStore(database.db, damaged),
        calibrators: createCalibratorStore(database.db, now, damaged),
        rows: createRecordRows(database.db),
      };
    },
    around: journalling.journalled,
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
    afterUse: backups.schedule,
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

  backups.removeUnfinished();
  const opened = managed.current();
  if (opened !== null && !restoredSinceCopy) backups.copyIfStale(opened);

  return {
    ...managed,
    legacyImported() {
      const database = managed.current();
      return database !== null && legacyImportComplete(database.db);
    },
    onCommitted: journalling.onCommitted,
    backupNow: backups.flush,
    async close() {
      await backups.close();
      managed.close();
    },
  };
}
