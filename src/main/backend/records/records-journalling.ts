/**
 * How records.db and its change journal (change-journal.ts) are kept in step: each use of the records
 * runs in a transaction that writes its changes to the journal, flushed, before it commits, and
 * records.db keeps the number of the last change (`records_meta.journal_seq`). A change whose commit
 * fails is marked void in the journal; one that commits is told to the listeners (the team's
 * replication mirrors them).
 */
import Database from 'better-sqlite3';
import type { FieldDeskDatabase, SqliteDatabase } from '../core/database';
import { diskFailure } from '../core/disk-errors';
import type { Logger } from '../core/log';
import { captureChanges, type ChangeCapture } from './change-capture';
import type { ChangeJournal, JournalRead, RecordChange } from './change-journal';

/** records_meta's row with the number of the last journalled change the file holds. */
const SEQ_NAME = 'journal_seq';
const SET_SEQ_SQL =
  'INSERT INTO records_meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value';

/** The number of the last journalled change a records file holds; null before the journal began. */
export function seqOf(db: SqliteDatabase): number | null {
  const row = db.prepare('SELECT value FROM records_meta WHERE name = ?').get(SEQ_NAME) as
    { value: string } | undefined;
  const seq = row === undefined ? NaN : Number(row.value);
  return Number.isSafeInteger(seq) ? seq : null;
}

export function setSeq(db: SqliteDatabase, seq: number): void {
  db.prepare(SET_SEQ_SQL).run(SEQ_NAME, String(seq));
}

/** The journal number a backup copy holds; null for a copy from before the journal, or unreadable. */
export function copySeq(path: string): number | null {
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

/** The journal as it reads; one that cannot be read at all (a folder refusing reads) as none. */
export function readJournal(journal: ChangeJournal, log: Logger): JournalRead {
  try {
    return journal.read();
  } catch (error) {
    log.error('the change journal could not be read', { error });
    return { exists: false, base: 0, changes: [], unreadable: 0, missing: [], lastSeq: 0 };
  }
}

export interface RecordsJournalling {
  /** Readies a freshly opened file's journalling (see `startJournal`). */
  start(database: FieldDeskDatabase): void;
  /** Runs a use's work in a transaction that journals its changes before they commit. */
  journalled<T>(database: FieldDeskDatabase, work: () => T): T;
  /** Tells `listener` of every change once it has committed; returns the function that stops it. */
  onCommitted(listener: (changes: readonly RecordChange[]) => void): () => void;
}

export interface RecordsJournallingOptions {
  journal: ChangeJournal;
  /** The data folder, for messages about the disk. */
  dataDir: string;
  log: Logger;
  now: () => number;
}

interface Connection {
  capture: ChangeCapture;
  /** Runs a use's work in a transaction that journals its changes before they commit. */
  run: (work: () => unknown) => unknown;
}

export function createRecordsJournalling(options: RecordsJournallingOptions): RecordsJournalling {
  const { journal, dataDir, log, now } = options;
  /** The highest change number given out: records.db's, or the journal's past a commit that failed. */
  let lastSeq = 0;
  const connections = new WeakMap<SqliteDatabase, Connection>();
  /** The numbers journalled by the transaction now committing, voided if its commit fails. */
  let pendingRange: [number, number] | null = null;
  /** Its changes, told to the listeners once it has committed. */
  let committing: RecordChange[] | null = null;
  const committedListeners = new Set<(changes: readonly RecordChange[]) => void>();

  /**
   * Makes the journal agree with a freshly opened file — started (or started afresh) from the file's
   * number when it is missing, unreadable, or not whole up to it, and changes it holds past the
   * file's number (their commit failed) marked void. Whatever the journal held before the file's
   * number the file holds itself. Returns the file's number.
   */
  function agreeWithFile(db: SqliteDatabase, seq: number | null, read: JournalRead): number | null {
    let fileSeq = seq;
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
    return fileSeq;
  }

  /**
   * Readies a freshly opened file's journalling: a journal that agrees with it, and the triggers and
   * transaction that note its changes.
   */
  function start(database: FieldDeskDatabase): void {
    const { db } = database;
    const seq = seqOf(db);
    const read = readJournal(journal, log);
    const fileSeq = agreeWithFile(db, seq, read);
    lastSeq = Math.max(fileSeq ?? 0, read.lastSeq);
    const capture = captureChanges(db);
    const setSeqStatement = db.prepare(SET_SEQ_SQL);
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

  return {
    start,
    journalled,
    onCommitted(listener) {
      committedListeners.add(listener);
      return () => committedListeners.delete(listener);
    },
  };
}
