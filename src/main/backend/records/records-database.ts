/**
 * What the user made — the action history, assessment sites with their exclusions and limits, site
 * visits, the calibrator register, the audio library and download queue — in `<dataDir>/records.db`, apart from the disposable cache.
 *
 * - Every commit is durable (`synchronous = FULL`) and the file is checked (quick_check) at open.
 * - Every change, deletions included, is written to the change journal (change-journal.ts) and
 *   flushed to disk inside its transaction, before it commits; records.db keeps the number of the
 *   last change (`records_meta.journal_seq`), and so does each copy of it.
 * - A copy is taken with SQLite's online backup a moment after each change and kept in
 *   `<dataDir>/backups` (backups.ts: the newest few, and each of the last days' newest); the journal
 *   then forgets what the oldest of the newest few copies holds.
 * - A damaged file, found at open or mid-session, is set aside (never overwritten), the newest sound
 *   copy the journal reaches back to takes its place, and the journal's changes after it are replayed:
 *   nothing made is lost, nothing deleted returns. Only when no copy is reached (the journal lost or
 *   unreadable) is what the damaged file still holds read row by row and merged over the newest copy
 *   (records-salvage.ts), the tables it gives whole mirrored so deletions stay deleted. The notice says
 *   what was restored, from when, what was replayed or recovered, and what could not be.
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
  KEEP_NEWEST,
  listCopies,
  removeUnfinishedCopies,
  type BackupCopy,
} from '../core/backups';
import { legacyImportComplete, recordsMigrations, type LegacyImport } from './records-migrations';
import { captureChanges, type ChangeCapture } from './change-capture';
import { createRecordRows, replayChanges, type RecordRows, type Replay } from './record-rows';
import {
  CHANGE_JOURNAL_FILE_NAME,
  openChangeJournal,
  type JournalRead,
  type RecordChange,
} from './change-journal';
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

/** records_meta's row with the number of the last journalled change the file holds. */
const SEQ_NAME = 'journal_seq';

/** The number of the last journalled change a records file holds; null before the journal began. */
function seqOf(db: SqliteDatabase): number | null {
  const row = db.prepare('SELECT value FROM records_meta WHERE name = ?').get(SEQ_NAME) as
    { value: string } | undefined;
  const seq = row === undefined ? NaN : Number(row.value);
  return Number.isSafeInteger(seq) ? seq : null;
}

function setSeq(db: SqliteDatabase, seq: number): void {
  db.prepare(
    'INSERT INTO records_meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
  ).run(SEQ_NAME, String(seq));
}

/** The journal number a backup copy holds; null for a copy from before the journal, or unreadable. */
function copySeq(path: string): number | null {
  let db: SqliteDatabase | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    return seqOf(db);
  } catch {
    return null; // An unreadable copy reaches nothing; soundCopies says why when it is offered.
  } finally {
    db?.close();
  }
}

/** "2 sites saved and 1 site visit deleted": what a replay did, each record once, by its last change. */
function replayed(changes: readonly RecordChange[]): string {
  const last = new Map<string, RecordChange>();
  for (const change of changes) last.set(`${change.table}\u0000${JSON.stringify(change.key)}`, change);
  const counts = new Map<string, { table: RecordTable; op: RecordChange['op']; n: number }>();
  for (const change of last.values()) {
    const id = `${change.table}/${change.op}`;
    const entry = counts.get(id) ?? { table: change.table, op: change.op, n: 0 };
    entry.n++;
    counts.set(id, entry);
  }
  return listText(
    [...counts.values()]
      .sort(
        (a, b) =>
          NAMED_ORDER.indexOf(a.table) - NAMED_ORDER.indexOf(b.table) ||
          (a.op === b.op ? 0 : a.op === 'put' ? -1 : 1),
      )
      .map(
        ({ table, op, n }) => `${count(n, RECORD_TABLES[table].noun)} ${op === 'put' ? 'saved' : 'deleted'}`,
      ),
  );
}

/** What the merge brought back and took away, in words; null when nothing. */
function recovered(report: SalvageReport): string | null {
  const tables = [...report.tables].sort(
    (a, b) => NAMED_ORDER.indexOf(a.table) - NAMED_ORDER.indexOf(b.table),
  );
  const parts = [
    ...tables.filter((t) => t.merged > 0).map((t) => count(t.merged, RECORD_TABLES[t.table].noun)),
    ...tables
      .filter((t) => t.removed > 0)
      .map((t) => `${count(t.removed, RECORD_TABLES[t.table].noun)} you had deleted taken out`),
  ];
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

  /** The journal as it reads; one that cannot be read at all (a folder refusing reads) as none. */
  function readJournal(): JournalRead {
    try {
      return journal.read();
    } catch (error) {
      log.error('the change journal could not be read', { error });
      return { exists: false, base: 0, changes: [], unreadable: 0, missing: [], lastSeq: 0 };
    }
  }

  /** The copies that open and check out, newest first, each with the journal number it holds. */
  function soundCopies(): Array<BackupCopy & { seq: number | null }> {
    const sound: Array<BackupCopy & { seq: number | null }> = [];
    for (const copy of listCopies(backupFolder, COPY_PREFIX, '.db')) {
      const copyPath = join(backupFolder, copy.name);
      const problem = checkDatabaseCopy(copyPath);
      if (problem === null) sound.push({ ...copy, seq: copySeq(copyPath) });
      else log.warn('records backup copy is not sound; trying an older one', { copy: copy.name, problem });
    }
    return sound;
  }

  /**
   * What can be read from the damaged file, merged into the file now at `path`, the tables read whole
   * mirrored. Read from a copy in a temporary folder: SQLite leaves -wal and -shm files beside what it
   * opens, and the damaged file is kept exactly as it was found.
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
      return mergeRows(target.db, read, { mirrorComplete: true });
    } finally {
      target.close();
    }
  }

  /**
   * Replaces the damaged file: sets it aside, puts the newest sound copy the change journal reaches
   * back to in its place and replays the journal's later changes over it; when no copy is reached,
   * the newest copy (or a fresh file) with what the damaged file still holds merged over it and the
   * whole journal replayed after. Returns what to tell the user.
   */
  function restore(problem: string): string {
    const asideName = moveDatabaseAside(path, dataDir, RECORDS_FILE_NAME, now());
    const journalRead = readJournal();
    const copies = soundCopies();
    const reached = journalRead.exists
      ? copies.find((c) => c.seq !== null && c.seq >= journalRead.base)
      : undefined;
    const copy = reached ?? copies[0] ?? null;
    if (copy !== null) {
      const restoring = `${path}.restoring`;
      copyFileSync(join(backupFolder, copy.name), restoring);
      renameSync(restoring, path);
    }
    const report = reached === undefined ? salvage(join(dataDir, asideName)) : null;
    const after = reached?.seq ?? Number.NEGATIVE_INFINITY;
    const target = openFile();
    let holds: string;
    let replay: Replay<RecordChange>;
    try {
      replay = replayChanges(
        target.db,
        journalRead.changes.filter((change) => change.seq > after),
      );
      if (reached !== undefined) {
        setSeq(target.db, Math.max(journalRead.lastSeq, after));
      } else {
        // Rebuilt from more than the journal: it starts afresh from here, whole from the next copy.
        const fresh = Math.max(journalRead.lastSeq, ...copies.map((c) => c.seq ?? 0)) + 1;
        setSeq(target.db, fresh);
        journal.reset(fresh);
      }
      holds = contents(target.db);
    } finally {
      target.close();
    }
    // Garbled lines cannot say their number: counted as possibly after the copy, and said as "may".
    const lost =
      reached === undefined
        ? 0
        : journalRead.missing.filter((seq) => seq > after).length + journalRead.unreadable;
    const changesText =
      replay.applied.length === 0
        ? ''
        : `${count(replay.applied.length, ['change', 'changes'])} (${replayed(replay.applied)})`;
    const head =
      `The file of your records (sites, exclusions, limits, site visits, action history, audio library, calibrators), ${RECORDS_FILE_NAME}, ${problem}. ` +
      `FieldDesk set the file aside as ${asideName} in ${dataDir}`;
    let body: string;
    if (reached !== undefined) {
      body =
        `${head} and restored them from the backup of ${when(reached.takenAt)}` +
        (changesText === ''
          ? ', which holds every change you made'
          : `, then replayed from the change journal the ${changesText} you made after it`) +
        `. Your records now hold ${holds}.`;
      if (lost + replay.refused > 0)
        body += ` ${count(lost + replay.refused, ['change', 'changes'])} made after that backup could not be read from the change journal and may be missing.`;
    } else {
      const back = report === null ? null : recovered(report);
      const partial = report === null ? [] : partlyRead(report);
      const replayText = changesText === '' ? '' : `, and replayed ${changesText} from the change journal`;
      if (copy !== null) {
        body =
          `${head} and restored them from the backup of ${when(copy.takenAt)}` +
          (back === null
            ? ''
            : `, bringing them up to date with what the damaged file still held (${back})`) +
          replayText +
          `. Your records now hold ${holds}.`;
        if (report?.problem != null && changesText === '') {
          body += ` Nothing could be read from the damaged file, so a change made after ${when(copy.takenAt)} could not be recovered.`;
        } else if (partial.length > 0) {
          body += ` Some ${listText(partial)} could not be read from the damaged file, so changes to them after ${when(copy.takenAt)} may be missing.`;
        }
      } else {
        const found = [
          back === null ? null : `${back} were recovered from the damaged file`,
          changesText === '' ? null : `${changesText} came back from the change journal`,
        ].filter((part): part is string => part !== null);
        body =
          `${head}. There was no backup to restore from` +
          (found.length === 0
            ? ', and nothing could be read from the damaged file, so FieldDesk started with empty records.'
            : `; ${found.join(' and ')}. Your records now hold ${holds}.`) +
          (partial.length > 0 ? ` Some ${listText(partial)} could not be read.` : '');
      }
    }
    log.warn('records restored after damage', {
      problem,
      asideName,
      copy: copy?.name ?? null,
      reachedByJournal: reached !== undefined,
      replayed: replay.applied.length,
      lost,
      report,
    });
    restoredSinceCopy = true;
    return body;
  }

  /** The highest change number given out: records.db's, or the journal's past a commit that failed. */
  let lastSeq = 0;
  /** A restore rebuilt the file: copy it soon, so the next damage starts from it. */
  let restoredSinceCopy = false;
  interface Connection {
    capture: ChangeCapture;
    /** Runs a use's work in a transaction that journals its changes before they commit. */
    run: (work: () => unknown) => unknown;
  }
  const connections = new WeakMap<SqliteDatabase, Connection>();

  /**
   * Readies a freshly opened file's journalling: the triggers that note its changes, and a journal
   * that agrees with it — started (or started afresh) from the file's number when it is missing,
   * unreadable, or not whole up to it, and changes it holds past the file's number (their commit
   * failed) marked void. Whatever the journal held before the file's number the file holds itself.
   */
  function startJournal(database: FieldDeskDatabase): void {
    const { db } = database;
    let fileSeq = seqOf(db);
    const read = readJournal();
    try {
      if (fileSeq === null) {
        // The journal begins with this file (new, or from before the journal).
        fileSeq = read.lastSeq + 1;
        setSeq(db, fileSeq);
        journal.reset(fileSeq);
      } else if (
        !read.exists ||
        !Number.isFinite(read.base) ||
        read.base > fileSeq ||
        read.lastSeq < fileSeq ||
        read.unreadable > 0 ||
        read.missing.some((seq) => seq <= fileSeq!)
      ) {
        if (read.exists)
          log.warn('the change journal did not agree with records.db; started afresh', {
            fileSeq,
            base: read.base,
            lastSeq: read.lastSeq,
            unreadable: read.unreadable,
            missing: read.missing.length,
          });
        journal.reset(fileSeq);
      } else if (read.lastSeq > fileSeq) {
        journal.voidChanges(fileSeq + 1, read.lastSeq);
      }
    } catch (error) {
      // A read-only or full disk: every change will be refused with the disk's reason, said then.
      log.error('the change journal could not be readied', { error });
    }
    lastSeq = Math.max(fileSeq ?? 0, read.lastSeq);
    const capture = captureChanges(db);
    const setSeqStatement = db.prepare(
      'INSERT INTO records_meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
    );
    const run = db.transaction((work: () => unknown) => {
      const result = work();
      if (typeof (result as { then?: unknown } | null)?.then === 'function')
        throw new Error('A change to the records must finish inside its transaction.');
      const changed = capture.collect();
      if (changed.length === 0) return result;
      const at = now();
      const first = lastSeq + 1;
      const changes = changed.map((change, index) => ({ seq: first + index, at, ...change }));
      try {
        journal.append(changes, first - 1);
      } catch (error) {
        throw diskFailure(error, { folder: dataDir, what: 'a change to your records' }) ?? error;
      }
      lastSeq = first + changes.length - 1;
      pendingRange = [first, lastSeq];
      committing = changes;
      setSeqStatement.run(SEQ_NAME, String(lastSeq));
      return result;
    });
    connections.set(db, { capture, run });
  }

  /** The numbers journalled by the transaction now committing, voided if its commit fails. */
  let pendingRange: [number, number] | null = null;
  /** Its changes, told to the listeners once it has committed. */
  let committing: RecordChange[] | null = null;
  const committedListeners = new Set<(changes: readonly RecordChange[]) => void>();
  function tellCommitted(changes: readonly RecordChange[]): void {
    for (const listener of committedListeners) {
      try {
        listener(changes);
      } catch (error) {
        log.error('a listener of committed record changes failed', { error });
      }
    }
  }

  function journalled<T>(database: FieldDeskDatabase, work: () => T): T {
    const connection = connections.get(database.db);
    if (connection === undefined || database.db.inTransaction) return work();
    pendingRange = null;
    committing = null;
    try {
      const result = connection.run(work) as T;
      const committed = committing as RecordChange[] | null;
      committing = null;
      if (committed !== null) tellCommitted(committed);
      return result;
    } catch (error) {
      const range = pendingRange as [number, number] | null;
      if (range !== null) {
        try {
          journal.voidChanges(range[0], range[1]);
        } catch (voidError) {
          log.error('could not mark journalled changes void after their commit failed', { error: voidError });
        }
      }
      throw error;
    } finally {
      pendingRange = null;
    }
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
      try {
        const changes = changesOf(database.db);
        const name = await backupDatabase(database.db, backupFolder, COPY_PREFIX, now());
        changesCopied.set(database.db, changes);
        restoredSinceCopy = false;
        notices.dismiss(RECORDS_NOTICE.backup);
        log.debug('records backed up', { copy: name });
        trimJournal();
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

  /** The journal forgets what every one of the newest copies holds (the copies a restore tries first). */
  function trimJournal(): void {
    const seqs = listCopies(backupFolder, COPY_PREFIX, '.db')
      .slice(0, KEEP_NEWEST)
      .map((copy) => copySeq(join(backupFolder, copy.name)))
      .filter((seq): seq is number => seq !== null);
    if (seqs.length === 0) return;
    try {
      journal.trim(Math.min(...seqs));
    } catch (error) {
      log.warn('could not trim the change journal', { error });
    }
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
    build: (database) => {
      startJournal(database);
      if (restoredSinceCopy) setTimeout(() => void takeBackup(), 0).unref();
      return {
        actions: createActionRecords(database.db),
        sites: createSiteStore(database.db, now),
        audio: createAudioRecords(database.db),
        visits: createVisitStore(database.db),
        calibrators: createCalibratorStore(database.db, now),
        rows: createRecordRows(database.db),
      };
    },
    around: journalled,
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

  // Copies cut short by a crash go; a copy is taken at start when the newest does not hold every
  // change (a crash before or during its copy) or is not of today.
  void removeUnfinishedCopies(backupFolder).catch((error: unknown) =>
    log.warn('could not remove unfinished backup copies', { error }),
  );
  const opened = managed.current();
  if (opened !== null && !restoredSinceCopy) {
    const newest = listCopies(backupFolder, COPY_PREFIX, '.db')[0];
    if (
      newest === undefined ||
      Math.floor(newest.takenAt / DAY_MS) !== Math.floor(now() / DAY_MS) ||
      copySeq(join(backupFolder, newest.name)) !== seqOf(opened.db)
    )
      void takeBackup();
  }

  return {
    ...managed,
    legacyImported() {
      const database = managed.current();
      return database !== null && legacyImportComplete(database.db);
    },
    onCommitted(listener) {
      committedListeners.add(listener);
      return () => committedListeners.delete(listener);
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
