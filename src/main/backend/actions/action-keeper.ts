/**
 * Keeping every finished action's result, whatever the disk does: in the records database; when
 * that cannot take it, in the append-only journal (action-journal.ts), merged into the database when
 * it works again; and when not even the journal can be written (a read-only or full disk), in memory,
 * shown in the history and said in a notice, written as soon as the disk allows (tried again at every
 * new result and every half minute), with a copy in the system's temporary folder (held-results.ts)
 * that a quit does not lose and the next start merges. Nothing is reported kept that is not.
 */
import type { FieldDeskLastResults } from '../../../shared/check-record';
import type { ActionRecord, OperationSnapshot } from '../../../shared/operations';
import { diskFailure } from '../core/disk-errors';
import type { Logger } from '../core/log';
import type { NoticeBoard } from '../core/notices';
import type { ActionJournal } from './action-journal';
import { ACTION_JOURNAL_FILE_NAME } from './action-journal';
import { recordOf, type ActionRecords } from './action-records';
import { heldResultsFolder, openHeldResults, type HeldResults } from './held-results';

export const ACTION_NOTICE = {
  journal: 'actions-journal',
  memory: 'actions-memory',
  held: 'actions-held',
} as const;

/** How often results held in memory are tried on the disk again. */
const RETRY_EVERY_MS = 30_000;

export interface ActionKeeper {
  /** Keeps a finished action (ignores one still running). Never throws: a failure is said in a notice. */
  keep(snapshot: OperationSnapshot): void;
  /** Finished actions on an instrument, newest first: the database's, the journal's and those in memory. */
  history(accountId: string, serial: string): ActionRecord[];
  /**
   * FieldDesk's newest Calibration and SIC outcome on each instrument of an account (the database's,
   * the journal's and those in memory), so every view can put FieldDesk's verdict beside the service's.
   */
  lastResults(accountId: string): FieldDeskLastResults[];
  /** Moves what the journal holds into the database (at start, and when the database works again). */
  mergeJournal(): void;
  /** Writes the results an earlier run held when it quit (at start); what the disk still refuses stays held. */
  recoverHeld(): void;
  /** Tries once more to write what is held in memory, and stops trying (the held copies stay for the next start). */
  close(): void;
}

/** The newest Calibration and SIC outcome per instrument of `records` (newest by finish, then start). */
export function newestResults(records: readonly ActionRecord[]): FieldDeskLastResults[] {
  const newest = new Map<string, FieldDeskLastResults & { at: Record<'calibration' | 'sic', number[]> }>();
  for (const record of records) {
    const result = record.result;
    if (result === null || result.kind === 'identify') continue;
    const entry = newest.get(record.serial) ?? {
      serial: record.serial,
      calibration: null,
      sic: null,
      at: { calibration: [], sic: [] },
    };
    const [finished = -Infinity, started = -Infinity] = entry.at[result.kind];
    if (record.finishedAt > finished || (record.finishedAt === finished && record.startedAt > started)) {
      if (result.kind === 'calibration') entry.calibration = result;
      else entry.sic = result;
      entry.at[result.kind] = [record.finishedAt, record.startedAt];
    }
    newest.set(record.serial, entry);
  }
  return [...newest.values()].map(({ serial, calibration, sic }) => ({ serial, calibration, sic }));
}

export interface ActionKeeperOptions {
  /** The records' action history (its calls throw while the records are unavailable). */
  records: ActionRecords;
  journal: ActionJournal;
  notices: NoticeBoard;
  log: Logger;
  dataDir: string;
  retryEveryMs?: number;
  /** The second place of results held in memory (default: the temporary folder's, for `dataDir`). */
  held?: HeldResults;
}

export function createActionKeeper(options: ActionKeeperOptions): ActionKeeper {
  const { records, journal, notices, log, dataDir } = options;
  const held = options.held ?? openHeldResults(heldResultsFolder(dataDir), log);
  /** Results the data folder could not take yet, by id. */
  const inMemory = new Map<string, ActionRecord>();
  /** Ids of those of them with a copy in `held`, which a quit does not lose. */
  const copied = new Set<string>();
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
      } catch {
        break; // The disk still refuses: keep them all and try later.
      }
      inMemory.delete(id);
      if (copied.delete(id)) held.release(id);
    }
    if (inMemory.size === 0) {
      notices.dismiss(ACTION_NOTICE.memory);
      if (retryTimer !== null) clearInterval(retryTimer);
      retryTimer = null;
    }
  }

  /** Says what is held, and whether a quit would lose any of it. */
  function raiseMemoryNotice(error: unknown): void {
    const disk = diskFailure(error, {
      folder: dataDir,
      what: 'it',
      advice: 'FieldDesk writes it as soon as the disk takes it.',
    });
    const one = inMemory.size === 1;
    const what = one ? 'a field action result' : `${inMemory.size} field action results`;
    const safe = [...inMemory.keys()].every((id) => copied.has(id));
    notices.raise({
      id: ACTION_NOTICE.memory,
      tone: 'warning',
      message:
        `FieldDesk could not write ${what} to disk: neither its records database nor its journal could take ${one ? 'it' : 'them'}. ` +
        (disk === null ? '' : `${disk.message} `) +
        (safe
          ? `Until then ${one ? 'it is' : 'they are'} shown in the history, and a copy is kept in ${held.folder}, added at the next start if you quit FieldDesk first: do not restart the computer while this notice is shown (it may empty that folder).`
          : `Until then ${one ? 'it is' : 'they are'} kept in memory and shown in the history: do not quit FieldDesk while this notice is shown.`),
    });
    if (retryTimer === null) {
      retryTimer = setInterval(flushMemory, options.retryEveryMs ?? RETRY_EVERY_MS);
      retryTimer.unref();
    }
  }

  /** Keeps a result the data folder refused in memory, and a copy in the second place. */
  function holdInMemory(record: ActionRecord, error: unknown): void {
    inMemory.set(record.id, record);
    try {
      held.hold(record);
      copied.add(record.id);
    } catch (holdError) {
      log.error('held action result not copied to the temporary folder: a quit would lose it', {
        id: record.id,
        folder: held.folder,
        error: holdError,
      });
    }
    log.error('action result kept in memory: neither the database nor the journal could be written', {
      id: record.id,
      error,
    });
    raiseMemoryNotice(error);
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

  function recoverHeld(): void {
    let found: ActionRecord[];
    try {
      found = held.list();
    } catch (error) {
      // Not this user's own folder, or unreadable: nothing of it is trusted; said in the log.
      log.error('held action results not read', { folder: held.folder, error });
      return;
    }
    let added = 0;
    for (const record of found) {
      if (inMemory.has(record.id)) continue;
      try {
        write(record);
      } catch (error) {
        // The disk still refuses: held again (its copy stays), said, and tried with the others.
        inMemory.set(record.id, record);
        copied.add(record.id);
        log.error('held action result still not written', { id: record.id, error });
        raiseMemoryNotice(error);
        continue;
      }
      held.release(record.id);
      added++;
    }
    if (added > 0) {
      notices.raise({
        id: ACTION_NOTICE.held,
        tone: 'info',
        message: `${added} field action result${added === 1 ? '' : 's'} FieldDesk held when it was last closed (the data folder could not take ${added === 1 ? 'it' : 'them'}) ${added === 1 ? 'was' : 'were'} added to the action history.`,
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

    lastResults(accountId) {
      let inDatabase: ActionRecord[] = [];
      let problem: unknown = null;
      try {
        inDatabase = records.latestResults(accountId);
      } catch (error) {
        problem = error;
      }
      const candidates = [...inMemory.values(), ...journal.read(), ...inDatabase].filter(
        (record) => record.accountId === accountId,
      );
      if (problem !== null && candidates.length === 0) throw problem;
      return newestResults(candidates);
    },

    mergeJournal,

    recoverHeld,

    close() {
      if (retryTimer !== null) clearInterval(retryTimer);
      retryTimer = null;
      if (inMemory.size > 0) flushMemory();
      const ids = [...inMemory.keys()];
      const kept = ids.filter((id) => copied.has(id));
      const lost = ids.filter((id) => !copied.has(id));
      if (kept.length > 0)
        log.warn('field action results the disk refused are kept for the next start', {
          ids: kept,
          folder: held.folder,
        });
      if (lost.length > 0)
        log.error('field action results lost at close: the disk refused them', { ids: lost });
    },
  };
}
