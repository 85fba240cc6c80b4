/**
 * Replacing a damaged records.db, found at open or mid-session: the file is set aside (never
 * overwritten), the newest sound copy the change journal reaches back to takes its place, and the
 * journal's changes after it are replayed — nothing made is lost, nothing deleted returns. Only when no
 * copy is reached (the journal lost or unreadable) is what the damaged file still holds read row by
 * row and merged over the newest copy (records-salvage.ts), the tables it gives whole mirrored so
 * deletions stay deleted. The notice (records-wording.ts) says what was restored, from when, what was
 * replayed or recovered, and what could not be.
 */
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { checkDatabaseCopy, listCopies, type BackupCopy } from '../core/backups';
import { moveDatabaseAside, type FieldDeskDatabase, type SqliteDatabase } from '../core/database';
import type { Logger } from '../core/log';
import type { ChangeJournal, JournalRead, RecordChange } from './change-journal';
import { replayChanges, type Replay } from './record-rows';
import { copySeq, readJournal, setSeq } from './records-journalling';
import {
  mergeRows,
  readTables,
  RECORD_TABLES,
  type RecordTable,
  type SalvageReport,
} from './records-salvage';
import { contents, restoreNotice } from './records-wording';

export interface RecordsRestoreOptions {
  dataDir: string;
  /** The records file's name in `dataDir`. */
  fileName: string;
  /** The folder of its backup copies, and their names' prefix. */
  backupFolder: string;
  copyPrefix: string;
  journal: ChangeJournal;
  log: Logger;
  now: () => number;
  /** Opens the file now at its path (migrated and checked). */
  openFile: () => FieldDeskDatabase;
}

type SoundCopy = BackupCopy & { seq: number | null };

/**
 * Returns the function that replaces the damaged file: sets it aside, puts the newest sound copy the
 * change journal reaches back to in its place and replays the journal's later changes over it; when
 * no copy is reached, the newest copy (or a fresh file) with what the damaged file still holds merged
 * over it and the whole journal replayed after. It returns what to tell the user.
 */
export function recordsRestorer(options: RecordsRestoreOptions): (problem: string) => string {
  const { dataDir, fileName, backupFolder, copyPrefix, journal, log, now, openFile } = options;
  const path = join(dataDir, fileName);

  /** The copies that open and check out, newest first, each with the journal number it holds. */
  function soundCopies(): SoundCopy[] {
    const sound: SoundCopy[] = [];
    for (const copy of listCopies(backupFolder, copyPrefix, '.db')) {
      const copyPath = join(backupFolder, copy.name);
      const problem = checkDatabaseCopy(copyPath);
      if (problem === null) sound.push({ ...copy, seq: copySeq(copyPath) });
      else log.warn('records backup copy is not sound; trying an older one', { copy: copy.name, problem });
    }
    return sound;
  }

  /**
   * What the damaged file's tables still give, read from a copy of it in `scratch`; why it would not
   * open, when it would not.
   */
  function readDamaged(asidePath: string, scratch: string): ReturnType<typeof readTables> | string {
    const copy = join(scratch, fileName);
    copyFileSync(asidePath, copy);
    if (existsSync(`${asidePath}-wal`)) copyFileSync(`${asidePath}-wal`, `${copy}-wal`);
    let damaged: SqliteDatabase;
    try {
      damaged = new Database(copy, { readonly: true, fileMustExist: true });
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    try {
      return readTables(
        damaged,
        (Object.keys(RECORD_TABLES) as RecordTable[]).map((table) => ({ table, names: [table] })),
      );
    } finally {
      damaged.close();
    }
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
      const damaged = readDamaged(asidePath, scratch);
      if (typeof damaged === 'string') return { tables: [], problem: damaged };
      read = damaged;
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
   * Replays the journal's changes after `after` over the file now in place and sets its journal
   * number; a file rebuilt from more than the journal starts the journal afresh. Returns the replay
   * and what the file then holds.
   */
  function replayJournal(
    journalRead: JournalRead,
    reached: SoundCopy | undefined,
    copies: readonly SoundCopy[],
  ): { replay: Replay<RecordChange>; holds: string } {
    const after = reached?.seq ?? Number.NEGATIVE_INFINITY;
    const target = openFile();
    try {
      const replay = replayChanges(
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
      return { replay, holds: contents(target.db) };
    } finally {
      target.close();
    }
  }

  return function restore(problem: string): string {
    const asideName = moveDatabaseAside(path, dataDir, fileName, now());
    const journalRead = readJournal(journal, log);
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
    const { replay, holds } = replayJournal(journalRead, reached, copies);
    // Garbled lines cannot say their number: counted as possibly after the copy, and said as "may".
    const after = reached?.seq ?? Number.NEGATIVE_INFINITY;
    const lost =
      reached === undefined
        ? 0
        : journalRead.missing.filter((seq) => seq > after).length + journalRead.unreadable;
    log.warn('records restored after damage', {
      problem,
      asideName,
      copy: copy?.name ?? null,
      reachedByJournal: reached !== undefined,
      replayed: replay.applied.length,
      lost,
      report,
    });
    return restoreNotice({
      problem,
      dataDir,
      fileName,
      asideName,
      reached,
      copy,
      report,
      replay,
      lost,
      holds,
    });
  };
}
