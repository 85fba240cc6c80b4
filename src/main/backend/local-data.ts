/**
 * The local database and what lives in it: the record of finished actions, the data cache and
 * site syncs. Accounts and instruments do not need it, so when it cannot be opened the rest of
 * FieldDesk keeps working and each part that needs it says why.
 *
 * Nothing that matters is lost to a damaged disk: a damaged database file is set aside and a fresh
 * one started (at start-up, or as soon as a request meets the damage), the user is told what was
 * set aside and where, and a finished action that cannot be written to the database is kept in an
 * append-only journal and merged in when the database works again.
 */
import type { ActionRecord, OperationSnapshot } from '../../shared/operations';
import { FieldDeskError } from '../../shared/errors';
import type { BackendHandlers } from '../../shared/ipc/contract';
import { openActionJournal } from './actions/action-journal';
import { createActionRecords, recordOf, type ActionRecords } from './actions/action-records';
import { createCacheStore, type CacheStore } from './cache/cache-store';
import {
  DATABASE_FILE_NAME,
  isDatabaseDamage,
  moveDatabaseAside,
  openDatabase,
  type FieldDeskDatabase,
  type SetAsideDatabase,
} from './core/database';
import type { EventHub } from './core/events';
import type { NoticeBoard } from './core/notices';
import { createSyncManager, type SyncManager } from './sync/sync-manager';
import { createKnownFleets, type KnownFleets } from './instruments/known-fleet';
import { createEventHistories, type EventHistories } from './data/event-histories';
import { createAudioRecords, type AudioRecords } from './audio/audio-records';
import { createSiteStore, type SiteStore } from './assessment/site-store';

export interface LocalDataOptions {
  dataDir: string;
  events: EventHub;
  notices: NoticeBoard;
  now: () => number;
  /** How long after its end a stored interval may still change at the service (ms). */
  openIntervalMs?: number;
  /** Requests in flight at once for one site sync. */
  syncConcurrency?: number;
}

export interface LocalData {
  /** The record of finished actions, or the reason the database cannot be used. */
  actionRecords(): ActionRecords;
  cache(): CacheStore;
  syncs(): SyncManager;
  /** The last instrument list of each account that reached the service. */
  knownFleets(): KnownFleets;
  /** Noise events' own time histories as last read. */
  eventHistories(): EventHistories;
  /** The audio download queue, the library index and the downloads folder. */
  audio(): AudioRecords;
  /** Assessment sites: their instruments, exclusions and limits. */
  sites(): SiteStore;
  /** Keeps a finished action: in the database, or in the journal when the database cannot take it. */
  keep(snapshot: OperationSnapshot): void;
  /** Finished actions on an instrument, newest first: the database's and any kept only in the journal. */
  actionHistory(accountId: string, serial: string): ActionRecord[];
  /**
   * When `error` means the database file is damaged: sets it aside, starts a fresh one and returns
   * the error to report instead (saying so); otherwise null.
   */
  recover(error: unknown): FieldDeskError | null;
  close(): Promise<void>;
}

interface Parts {
  database: FieldDeskDatabase;
  records: ActionRecords;
  cache: CacheStore;
  syncs: SyncManager;
  knownFleets: KnownFleets;
  eventHistories: EventHistories;
  audio: AudioRecords;
  sites: SiteStore;
}

const NOTICE = {
  setAside: 'database-set-aside',
  unavailable: 'database-unavailable',
  journal: 'actions-journal',
} as const;

const setAsideMessage = (aside: SetAsideDatabase, when: string): string =>
  `FieldDesk's local database ${aside.problem}, so ${when} it was set aside as ${aside.fileName} in ${aside.dir} ` +
  'and a new one was started. Cached data will be fetched again when the service can be reached; ' +
  'the record of past actions is in the old file.';

export function openLocalData(options: LocalDataOptions): LocalData {
  const { dataDir, notices, now } = options;
  const journal = openActionJournal(dataDir);
  let parts: Parts | null = null;
  let problem: FieldDeskError | null = null;

  function build(database: FieldDeskDatabase): Parts {
    const db = database.db;
    const cache = createCacheStore(db);
    return {
      database,
      records: createActionRecords(db),
      cache,
      knownFleets: createKnownFleets(db),
      eventHistories: createEventHistories(db),
      audio: createAudioRecords(db),
      sites: createSiteStore(db, now),
      syncs: createSyncManager({
        db,
        store: cache,
        now,
        emit: (snapshot) => options.events.emit('sync.progress', snapshot),
        ...(options.openIntervalMs === undefined ? {} : { openIntervalMs: options.openIntervalMs }),
        ...(options.syncConcurrency === undefined ? {} : { concurrency: options.syncConcurrency }),
      }),
    };
  }

  /** Puts what the journal kept into the database, and says so. */
  function mergeJournal(records: ActionRecords): void {
    try {
      const merged = journal.mergeInto(records);
      if (merged > 0) {
        notices.raise({
          id: NOTICE.journal,
          tone: 'info',
          message: `${merged} field action result${merged === 1 ? '' : 's'} kept while the local database could not be written ${merged === 1 ? 'was' : 'were'} added to the action history.`,
        });
      }
    } catch {
      // The journal stays as it is and is merged at the next start.
    }
  }

  function open(): void {
    try {
      const database = openDatabase(dataDir, { now });
      parts = build(database);
      problem = null;
      if (database.setAside !== null) {
        notices.raise({
          id: NOTICE.setAside,
          tone: 'warning',
          message: setAsideMessage(database.setAside, 'at start-up'),
        });
      }
      mergeJournal(parts.records);
    } catch (error) {
      parts = null;
      problem =
        error instanceof FieldDeskError
          ? error
          : new FieldDeskError('internal', 'FieldDesk could not open its local database.', { cause: error });
      notices.raise({
        id: NOTICE.unavailable,
        tone: 'warning',
        message: `${problem.message} Offline data, site sync and the action history are unavailable until then; field actions still run and their results are kept.`,
      });
    }
  }

  function require<K extends Exclude<keyof Parts, 'database'>>(part: K): Parts[K] {
    if (parts === null) throw problem ?? new FieldDeskError('internal', 'The local database is unavailable.');
    return parts[part];
  }

  function recover(error: unknown): FieldDeskError | null {
    if (parts === null || !isDatabaseDamage(error)) return null;
    const { database } = parts;
    parts = null;
    database.close();
    try {
      const aside: SetAsideDatabase = {
        fileName: moveDatabaseAside(database.path, dataDir, DATABASE_FILE_NAME, now()),
        dir: dataDir,
        problem: 'was found damaged',
      };
      const message = setAsideMessage(aside, 'during this session');
      notices.raise({ id: NOTICE.setAside, tone: 'warning', message });
      open();
      return new FieldDeskError('internal', `${message} Try again.`, { retryable: true, cause: error });
    } catch (moveError) {
      problem = new FieldDeskError(
        'internal',
        `FieldDesk's local database ${database.path} is damaged and could not be moved aside. Move it away and restart FieldDesk.`,
        { cause: moveError },
      );
      return problem;
    }
  }

  open();

  return {
    actionRecords: () => require('records'),
    cache: () => require('cache'),
    syncs: () => require('syncs'),
    knownFleets: () => require('knownFleets'),
    eventHistories: () => require('eventHistories'),
    audio: () => require('audio'),
    sites: () => require('sites'),

    keep(snapshot) {
      const record = recordOf(snapshot);
      if (record === null) return;
      try {
        require('records').put(record);
        return;
      } catch (error) {
        journal.append(record);
        notices.raise({
          id: NOTICE.journal,
          tone: 'warning',
          message:
            'FieldDesk could not write a field action result to its local database, so it is kept in ' +
            'action-journal.jsonl in the data folder and will be added to the history when the database works again.',
        });
        recover(error);
      }
    },

    actionHistory(accountId, serial) {
      const inDatabase = parts === null ? [] : parts.records.list(accountId, serial);
      const known = new Set(inDatabase.map((record) => record.id));
      const onlyInJournal = journal
        .read()
        .filter((r) => r.accountId === accountId && r.serial === serial && !known.has(r.id));
      if (parts === null && problem !== null && onlyInJournal.length === 0) throw problem;
      return [...inDatabase, ...onlyInJournal].sort(
        (a, b) => b.finishedAt - a.finishedAt || b.startedAt - a.startedAt,
      );
    },

    recover,

    async close() {
      // Running site syncs stop as `interrupted`: the next start offers to resume them.
      await parts?.syncs.stopAll();
      parts?.database.close();
    },
  };
}

/**
 * Every handler, but a request that meets a damaged database file gets the database set aside
 * and a fresh one started (local-data.ts), and answers saying so instead of a bare failure.
 */
export function withDatabaseRecovery(handlers: BackendHandlers, local: LocalData): BackendHandlers {
  const guarded: Record<string, (arg: never) => Promise<unknown>> = {};
  for (const [channel, handler] of Object.entries(handlers) as Array<
    [string, (arg: never) => Promise<unknown>]
  >) {
    guarded[channel] = async (arg) => {
      try {
        return await handler(arg);
      } catch (error) {
        throw local.recover(error) ?? error;
      }
    };
  }
  return guarded as BackendHandlers;
}
