/**
 * The append-only journal of finished actions whose record could not be written to the database
 * (damaged, unavailable): a calibration's result is never lost. One JSON line per action in
 * `<dataDir>/action-journal.jsonl`, private to the user and flushed to disk before the action is
 * reported done; merged into the database when it is available again, then removed.
 */
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ActionRecord } from '../../../shared/operations';
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

export function openActionJournal(dataDir: string): ActionJournal {
  const path = join(dataDir, ACTION_JOURNAL_FILE_NAME);

  function read(): ActionRecord[] {
    if (!existsSync(path)) return [];
    const byId = new Map<string, ActionRecord>();
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        // A line cut short by a crash is skipped; the lines around it are kept.
        const parsed = actionRecordSchema.safeParse(JSON.parse(line));
        if (parsed.success) byId.set(parsed.data.id, parsed.data);
      } catch {
        continue;
      }
    }
    return [...byId.values()];
  }

  return {
    append(record) {
      // `flush` makes the write durable before the engineer is told the action is done.
      appendFileSync(path, `${JSON.stringify(record)}\n`, { mode: 0o600, flush: true });
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
