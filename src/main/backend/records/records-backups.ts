/**
 * The backup copies of records.db: a copy is taken with SQLite's online backup a moment after each
 * change, a burst of changes making one copy and copies kept at least a spacing apart, into
 * `<dataDir>/backups` (core/backups.ts keeps the newest few, and each of the last days' newest). Once
 * a copy is taken the change journal forgets what the oldest of the newest few copies holds. A copy
 * that fails is said in a notice and tried again at the next change.
 */
import { join } from 'node:path';
import type { Statement } from 'better-sqlite3';
import { backupDatabase, KEEP_NEWEST, listCopies, removeUnfinishedCopies } from '../core/backups';
import type { FieldDeskDatabase, SqliteDatabase } from '../core/database';
import { diskFailure } from '../core/disk-errors';
import type { Logger } from '../core/log';
import type { NoticeBoard } from '../core/notices';
import type { ChangeJournal } from './change-journal';
import { copySeq, seqOf } from './records-journalling';

const DAY_MS = 86_400_000;

export interface RecordsBackupsOptions {
  /** The folder of the copies, and their names' prefix (`records-<time>.db`). */
  backupFolder: string;
  copyPrefix: string;
  journal: ChangeJournal;
  notices: NoticeBoard;
  /** The notice raised when a copy fails. */
  noticeId: string;
  log: Logger;
  now: () => number;
  /** The open records file, or null when it is unavailable. */
  current: () => FieldDeskDatabase | null;
  /** How long after a change its backup is taken. */
  delayMs: number;
  /** The least time between two backups. */
  spacingMs: number;
  /** Told when a copy has been taken. */
  onCopied: () => void;
}

export interface RecordsBackups {
  /** Takes a copy now (after the copies before it). */
  take(): Promise<void>;
  /** Called after each use: a copy a moment after the last change, one pending at a time. */
  schedule(database: FieldDeskDatabase): void;
  /** Takes the pending copy now when there are changes not copied; else waits for the one running. */
  flush(): Promise<void>;
  /** Stops the pending copy, takes one of the changes not copied and waits for it. */
  close(): Promise<void>;
  /** At start: copies cut short by a crash go. */
  removeUnfinished(): void;
  /**
   * At start: a copy is taken when the newest does not hold every change of `opened` (a crash before
   * or during its copy) or is not of today.
   */
  copyIfStale(opened: FieldDeskDatabase): void;
}

export function createRecordsBackups(options: RecordsBackupsOptions): RecordsBackups {
  const { backupFolder, copyPrefix, journal, notices, noticeId, log, now, current } = options;
  /** When the last copy was taken (monotonic, for spacing only). */
  let lastBackupAt = Number.NEGATIVE_INFINITY;
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

  const uncopied = (db: SqliteDatabase): boolean => changesOf(db) !== (changesCopied.get(db) ?? 0);

  function take(): Promise<void> {
    backupTimer = null;
    lastBackupAt = performance.now();
    backingUp = backingUp.then(async () => {
      const database = current();
      if (database === null) return;
      try {
        const changes = changesOf(database.db);
        const name = await backupDatabase(database.db, backupFolder, copyPrefix, now());
        changesCopied.set(database.db, changes);
        options.onCopied();
        notices.dismiss(noticeId);
        log.debug('records backed up', { copy: name });
        trimJournal();
      } catch (error) {
        const disk = diskFailure(error, { folder: backupFolder, what: 'a backup of your records' });
        log.error('records backup failed', { error });
        notices.raise({
          id: noticeId,
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
    const seqs = listCopies(backupFolder, copyPrefix, '.db')
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

  function schedule(database: FieldDeskDatabase): void {
    if (backupTimer !== null) return;
    if (!uncopied(database.db)) return;
    const wait = Math.max(options.delayMs, lastBackupAt + options.spacingMs - performance.now());
    backupTimer = setTimeout(() => void take(), wait);
    backupTimer.unref();
  }

  function removeUnfinished(): void {
    void removeUnfinishedCopies(backupFolder).catch((error: unknown) =>
      log.warn('could not remove unfinished backup copies', { error }),
    );
  }

  function copyIfStale(opened: FieldDeskDatabase): void {
    const newest = listCopies(backupFolder, copyPrefix, '.db')[0];
    if (
      newest === undefined ||
      Math.floor(newest.takenAt / DAY_MS) !== Math.floor(now() / DAY_MS) ||
      copySeq(join(backupFolder, newest.name)) !== seqOf(opened.db)
    )
      void take();
  }

  return {
    take,
    schedule,
    removeUnfinished,
    copyIfStale,
    flush() {
      if (backupTimer !== null) clearTimeout(backupTimer);
      const database = current();
      if (database !== null && uncopied(database.db)) return take();
      return backingUp;
    },
    async close() {
      if (backupTimer !== null) clearTimeout(backupTimer);
      backupTimer = null;
      const database = current();
      if (database !== null && uncopied(database.db)) await take();
      await backingUp;
    },
  };
}
