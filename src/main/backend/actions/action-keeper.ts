/**
 * Keeping every finished action's result, whatever the disk does: in the records database; when
 * that cannot take it, in the append-only journal (action-journal.ts), merged into the database when
 * it works again; and when not even the journal can be written (a read-only or full disk), in memory,
 * shown in the history and said in a notice, written as soon as the disk allows (tried again at every
 * new result and every half minute). Nothing is reported kept that is not.
 */
import type { ActionRecord, OperationSnapshot } from '../../../shared/operations';
import { diskFailure } from '../core/disk-errors';
import type { Logger } from '../core/log';
import type { NoticeBoard } from '../core/notices';
import type { ActionJournal } from './action-journal';
import { ACTION_JOURNAL_FILE_NAME } from './action-journal';
import { recordOf, type ActionRecords } from './action-records';

export const ACTION_NOTICE = {
  journal: 'actions-journal',
  memory: 'actions-memory',
} as const;

/** How often results held in memory are tried on the disk again. */
const RETRY_EVERY_MS = 30_000;

export interface ActionKeeper {
  /** Keeps a finished action (ignores one still running). Never throws: a failure is said in a notice. */
  keep(snapshot: OperationSnapshot): void;
  /** Finished actions on an instrument, newest first: the database's, the journal's and those in memory. */
  history(accountId: string, serial: string): ActionRecord[];
  /** Moves what the journal holds into the database (at start, and when the database works again). */
  mergeJournal(): void;
  /** Tries once more to write what is held in memory, and stops trying. */
  close(): void;
}

export interface ActionKeeperOptions {
  /** The records' action history (its calls throw while the records are unavailable). */
  records: ActionRecords;
  journal: ActionJournal;
  notices: NoticeBoard;
  log: Logger;
  dataDir: string;
  retryEveryMs?: number;
}

export function createActionKeeper(options: ActionKeeperOptions): ActionKeeper {
  const { records, journal, notices, log, dataDir } = options;
  /** Results no file could take yet, by id. */
  const inMemory = new Map<string, ActionRecord>();
  let retryTimer: NodeJS.Timeout | null = null;

  /** Writes a record to the database, else the journal; throws the journal's error when neither could. */
  function write(record: ActionRecord): 'database' | 'journal' {
    try {
      records.put(record);
      return 'database';
    } catch (error) {
      log.warn('action result not written to the records database; writing the journal', {
        id: record.id,
        error,
      });
    }
    journal.append(record);
    return 'journal';
  }

  function flushMemory(): void {
    for (const [id, record] of inMemory) {
      try {
        write(record);
        inMemory.delete(id);
      } catch {
        break; // The disk still refuses: keep them all and try later.
      }
    }
    if (inMemory.size === 0) {
      notices.dismiss(ACTION_NOTICE.memory);
      if (retryTimer !== null) clearInterval(retryTimer);
      retryTimer = null;
    }
  }

  function holdInMemory(record: ActionRecord, error: unknown): void {
    inMemory.set(record.id, record);
    const disk = diskFailure(error, {
      folder: dataDir,
      what: 'it',
      advice: 'FieldDesk writes it as soon as the disk takes it.',
    });
    log.error('action result kept in memory only: neither the database nor the journal could be written', {
      id: record.id,
      error,
    });
    const what = inMemory.size === 1 ? 'a field action result' : `${inMemory.size} field action results`;
    notices.raise({
      id: ACTION_NOTICE.memory,
      tone: 'warning',
      message:
        `FieldDesk could not write ${what} to disk: neither its records database nor its journal could take ${inMemory.size === 1 ? 'it' : 'them'}. ` +
        (disk === null ? '' : `${disk.message} `) +
        `Until then ${inMemory.size === 1 ? 'it is' : 'they are'} kept in memory and shown in the history: do not quit FieldDesk while this notice is shown.`,
    });
    if (retryTimer === null) {
      retryTimer = setInterval(flushMemory, options.retryEveryMs ?? RETRY_EVERY_MS);
      retryTimer.unref();
    }
  }

  function mergeJournal(): void {
    let merged: number;
    try {
      merged = journal.mergeInto(records);
    } catch (error) {
      // The journal stays as it is and is merged at the next start.
      log.warn('action journal not merged', { error });
      return;
    }
    if (merged > 0) {
      notices.raise({
        id: ACTION_NOTICE.journal,
        tone: 'info',
        message: `${merged} field action result${merged === 1 ? '' : 's'} kept while the local database could not be written ${merged === 1 ? 'was' : 'were'} added to the action history.`,
      });
    }
  }

  return {
    keep(snapshot) {
      const record = recordOf(snapshot);
      if (record === null) return;
      if (inMemory.size > 0) flushMemory();
      try {
        if (write(record) === 'journal') {
          notices.raise({
            id: ACTION_NOTICE.journal,
            tone: 'warning',
            message:
              'FieldDesk could not write a field action result to its records database, so it is kept in ' +
              `${ACTION_JOURNAL_FILE_NAME} in the data folder and will be added to the history when the database works again.`,
          });
        }
      } catch (error) {
        holdInMemory(record, error);
      }
    },

    history(accountId, serial) {
      let inDatabase: ActionRecord[] = [];
      let problem: unknown = null;
      try {
        inDatabase = records.list(accountId, serial);
      } catch (error) {
        problem = error;
      }
      // The database's copy first, then the journal's, then memory's: one record per id.
      const byId = new Map<string, ActionRecord>();
      for (const record of [...inMemory.values(), ...journal.read(), ...inDatabase]) {
        if (record.accountId === accountId && record.serial === serial) byId.set(record.id, record);
      }
      if (problem !== null && byId.size === 0) throw problem;
      return [...byId.values()].sort((a, b) => b.finishedAt - a.finishedAt || b.startedAt - a.startedAt);
    },

    mergeJournal,

    close() {
      if (retryTimer !== null) clearInterval(retryTimer);
      retryTimer = null;
      if (inMemory.size > 0) flushMemory();
      if (inMemory.size > 0)
        log.error('field action results lost at close: the disk refused them', { ids: [...inMemory.keys()] });
    },
  };
}
