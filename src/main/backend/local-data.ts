/**
 * The local database and what lives in it: the record of finished actions, the data cache and
 * site syncs. Accounts and instruments do not need it, so when it cannot be opened the rest of
 * FieldDesk keeps working and each part that needs it says why.
 */
import { FieldDeskError } from '../../shared/errors';
import { createActionRecords, type ActionRecords } from './actions/action-records';
import { createCacheStore, type CacheStore } from './cache/cache-store';
import type { EventHub } from './core/events';
import { createSyncManager, type SyncManager } from './sync/sync-manager';
import { openDatabase, type FieldDeskDatabase } from './core/database';

export interface LocalDataOptions {
  dataDir: string;
  events: EventHub;
  now: () => number;
  /** How long after its end a stored interval may still change at the service (ms). */
  openIntervalMs?: number;
  /** Requests in flight at once for one site sync. */
  syncConcurrency?: number;
}

export interface LocalData {
  /** The record of finished actions, or the reason the database could not be opened. */
  actionRecords(): ActionRecords;
  cache(): CacheStore;
  syncs(): SyncManager;
  /** The action records when available, without throwing (an action's end is recorded best effort). */
  readonly records: ActionRecords | null;
  close(): Promise<void>;
}

export function openLocalData(options: LocalDataOptions): LocalData {
  let database: FieldDeskDatabase | null = null;
  let parts: { records: ActionRecords; cache: CacheStore; syncs: SyncManager } | null = null;
  let problem: FieldDeskError | null = null;
  try {
    database = openDatabase(options.dataDir);
    const db = database.db;
    const cache = createCacheStore(db);
    parts = {
      records: createActionRecords(db),
      cache,
      syncs: createSyncManager({
        db,
        store: cache,
        now: options.now,
        emit: (snapshot) => options.events.emit('sync.progress', snapshot),
        ...(options.openIntervalMs === undefined ? {} : { openIntervalMs: options.openIntervalMs }),
        ...(options.syncConcurrency === undefined ? {} : { concurrency: options.syncConcurrency }),
      }),
    };
  } catch (error) {
    problem =
      error instanceof FieldDeskError
        ? error
        : new FieldDeskError('internal', 'FieldDesk could not open its local database.', { cause: error });
  }

  function require<K extends keyof NonNullable<typeof parts>>(part: K, what: string) {
    if (parts === null) throw problem ?? new FieldDeskError('internal', `${what} is unavailable.`);
    return parts[part];
  }

  return {
    actionRecords: () => require('records', 'Action history'),
    cache: () => require('cache', 'The local data cache'),
    syncs: () => require('syncs', 'The local data cache'),
    get records() {
      return parts?.records ?? null;
    },
    async close() {
      // Running site syncs stop as `interrupted`: the next start offers to resume them.
      await parts?.syncs.stopAll();
      database?.close();
    },
  };
}
