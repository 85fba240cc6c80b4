/**
 * The append-only journal of finished actions whose record could not be written to the database
 * (damaged, unavailable): a calibration's result is never lost. One JSON line per action in
 * `<dataDir>/action-journal.jsonl`, private to the user and flushed to disk before the action is
 * reported done; merged into the database when it is available again, then removed.
 *
 * An append the disk refuses leaves the file as it was: on a full disk the kernel creates the file
 * or takes part of the line before refusing the rest, and an empty journal, or a half line the next
 * append would be glued onto (losing both), must not stay behind.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { ActionRecord } from '../../../shared/operations';
import { readStoredJson, type DamagedRows } from '../core/damaged-rows';
import { errorCode } from '../core/file-basics';
import { actionRecordSchema, type ActionRecords } from './action-records';

export const ACTION_JOURNAL_FILE_NAME = 'action-journal.jsonl';

export interface ActionJournal {
  /** Appends one record (synchronously, flushed); throws only if even the journal cannot be written. */
  append(record: ActionRecord): void;
  /** The records in the journal, last write of an id winning; a line that cannot be read is skipped. */
  read(): ActionRecord[];
  /** Puts every journalled record into the database and removes the journal; returns how many. */
  mergeInto(records: ActionRecords): number;
}

export interface ActionJournalOptions {
  /** Writes the text at the end of the open file (tests fail it part-way, as a full disk does). */
  writeText?: (fd: number, text: string) => void;
  /** Where a line that cannot be read is said (skipped unsaid without it). */
  damaged?: DamagedRows;
}

/** Removes the journal when it is an empty file; anything else (a folder, a link, content) stays. */
function removeIfEmpty(path: string): void {
  try {
    const info = lstatSync(path);
    if (info.isFile() && info.size === 0) rmSync(path, { force: true });
  } catch (error) {
    // Gone already is what was wanted; anything else leaves an empty file the next start sweeps.
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

export function openActionJournal(dataDir: string, options: ActionJournalOptions = {}): ActionJournal {
  const path = join(dataDir, ACTION_JOURNAL_FILE_NAME);
  const writeText = options.writeText ?? ((fd: number, text: string) => writeFileSync(fd, text));
  // An empty journal a full disk left behind in an earlier run holds nothing: swept at start.
  try {
    removeIfEmpty(path);
  } catch {
    // A read-only folder keeps it until the disk allows: an empty journal is read as no records.
  }

  function read(): ActionRecord[] {
    if (!existsSync(path)) return [];
    const byId = new Map<string, ActionRecord>();
    for (const [index, line] of readFileSync(path, 'utf8').split('\n').entries()) {
      if (line.trim() === '') continue;
      // A line cut short by a crash is skipped, and said (by its line number); the lines around it are kept.
      const from = { table: 'action_journal', id: `line ${index + 1}`, damaged: options.damaged } as const;
      const record = readStoredJson(line, actionRecordSchema, from);
      if (record !== null) byId.set(record.id, record);
    }
    return [...byId.values()];
  }

  return {
    append(record) {
      // Read and append: the last byte says whether the file ends with a whole line.
      const fd = openSync(path, 'a+', 0o600);
      let before: number | null = null;
      try {
        before = fstatSync(fd).size;
        // A half line a crash left (or one that could not be cut back) must not swallow this line:
        // glued to it, this one could not be read either.
        const last = Buffer.alloc(1);
        const glued = before > 0 && readSync(fd, last, 0, 1, before - 1) === 1 && last[0] !== 0x0a;
        writeText(fd, `${glued ? '\n' : ''}${JSON.stringify(record)}\n`);
        // Durable before the engineer is told the action is done.
        fsyncSync(fd);
      } catch (error) {
        // Back to what it held before this append: no half line, no empty file.
        try {
          if (before !== null) ftruncateSync(fd, before);
        } catch {
          // The line could not be cut back; the reader skips a half line, and the error thrown below says why.
        }
        closeSync(fd);
        if (before === null || before === 0) {
          try {
            removeIfEmpty(path);
          } catch {
            // The append's own error, thrown below, is what the caller must hear; the next start sweeps.
          }
        }
        throw error;
      }
      closeSync(fd);
    },
    read,
    mergeInto(records) {
      const pending = read();
      if (pending.length === 0 && !existsSync(path)) return 0;
      // One transaction would be nicer, but `put` is an upsert: a merge cut short is simply redone.
      for (const record of pending) records.put(record);
      rmSync(path, { force: true });
      return pending.length;
    },
  };
}
