/**
 * The data cache, `<dataDir>/fielddesk.db`: what can be fetched again — cached series and records,
 * site syncs, the last known instrument lists, event time histories. Disposable by design: a damaged
 * file costs refetching and nothing else (what the user made is in records.db), so it is set aside
 * for a fresh one at open or as soon as a request meets the damage, and the user is told so.
 */
import type { FieldDeskDatabase } from '../core/database';
import { DATABASE_FILE_NAME, moveDatabaseAside, openDatabase, type SetAsideDatabase } from '../core/database';
import type { DamagedRows } from '../core/damaged-rows';
import type { EventHub } from '../core/events';
import type { Logger } from '../core/log';
import { manageDatabase, type ManagedDatabase } from '../core/managed-database';
import { dropImportedTables } from '../core/migrations';
import type { NoticeBoard } from '../core/notices';
import { createEventHistories, type EventHistories } from '../data/event-histories';
import { createKnownFleets, type KnownFleets } from '../instruments/known-fleet';
import { createKnownHealth, type KnownHealth } from '../instruments/known-health';
import { createSyncManager, type SyncManager } from '../sync/sync-manager';
import { createCacheStore, type CacheStore } from './cache-store';

export const CACHE_NOTICE = {
  setAside: 'database-set-aside',
  unavailable: 'database-unavailable',
} as const;

export interface CacheParts {
  cache: CacheStore;
  syncs: SyncManager;
  /** The last instrument list of each account that reached the service. */
  knownFleets: KnownFleets;
  /** Each instrument's health as last read (fleet attention offline). */
  knownHealth: KnownHealth;
  /** Noise events' own time histories as last read. */
  eventHistories: EventHistories;
}

export interface CacheDatabase extends Omit<ManagedDatabase<CacheParts>, 'close'> {
  /** Drops the old copies of the user's records once records.db has read them all. */
  dropImportedRecords(): void;
  /** Stops running site syncs (left `interrupted`, resumed at the next start), then closes. */
  close(): Promise<void>;
}

export interface CacheDatabaseOptions {
  dataDir: string;
  events: EventHub;
  notices: NoticeBoard;
  log: Logger;
  now: () => number;
  /** How long after its end a stored interval may still change at the service (ms). */
  openIntervalMs?: number;
  /** Requests in flight at once for one site sync. */
  syncConcurrency?: number;
  /** Where a stored row that cannot be read is said (core/damaged-rows.ts). */
  damaged?: DamagedRows;
}

const setAsideMessage = (aside: SetAsideDatabase, when: string): string =>
  `FieldDesk's data cache ${aside.problem}, so ${when} it was set aside as ${aside.fileName} in ${aside.dir} ` +
  'and a new one was started. Cached data will be fetched again when the service can be reached; ' +
  'your sites, exclusions, action history and audio library are kept apart and are not affected.';

export function openCacheDatabase(options: CacheDatabaseOptions): CacheDatabase {
  const { dataDir, notices, log, now } = options;

  const managed = manageDatabase<CacheParts>({
    subject: 'the data cache',
    dataDir,
    open() {
      const database = openDatabase(dataDir, { now });
      if (database.setAside !== null) {
        log.warn('data cache set aside at start', { setAside: database.setAside });
        notices.raise({
          id: CACHE_NOTICE.setAside,
          tone: 'warning',
          message: setAsideMessage(database.setAside, 'at start-up'),
        });
      }
      return database;
    },
    build(database: FieldDeskDatabase) {
      const { damaged } = options;
      const cache = createCacheStore(database.db, damaged);
      return {
        cache,
        knownFleets: createKnownFleets(database.db, damaged),
        knownHealth: createKnownHealth(database.db, damaged),
        eventHistories: createEventHistories(database.db, damaged),
        syncs: createSyncManager({
          db: database.db,
          store: cache,
          now,
          emit: (snapshot) => options.events.emit('sync.progress', snapshot),
          log: log.child('sync'),
          damaged,
          ...(options.openIntervalMs === undefined ? {} : { openIntervalMs: options.openIntervalMs }),
          ...(options.syncConcurrency === undefined ? {} : { concurrency: options.syncConcurrency }),
        }),
      };
    },
    replaceDamaged(database, cause) {
      const aside: SetAsideDatabase = {
        fileName: moveDatabaseAside(database.path, dataDir, DATABASE_FILE_NAME, now()),
        dir: dataDir,
        problem: 'was found damaged',
      };
      log.warn('data cache set aside during the session', { aside, error: cause });
      const message = setAsideMessage(aside, 'during this session');
      notices.raise({ id: CACHE_NOTICE.setAside, tone: 'warning', message });
      return message;
    },
    onUnavailable(problem) {
      if (problem === null) {
        notices.dismiss(CACHE_NOTICE.unavailable);
        return;
      }
      log.error('data cache unavailable', { error: problem });
      notices.raise({
        id: CACHE_NOTICE.unavailable,
        tone: 'warning',
        message: `${problem.message} Offline data and site sync are unavailable until then.`,
      });
    },
  });

  return {
    ...managed,
    dropImportedRecords() {
      const database = managed.current();
      if (database === null) return;
      try {
        dropImportedTables(database.db);
      } catch (error) {
        // They stay until the next start; nothing reads them.
        log.warn('could not drop the moved records from the data cache', { error });
      }
    },
    async close() {
      const database = managed.current();
      if (database !== null) await managed.use((parts) => parts.syncs.stopAll());
      managed.close();
    },
  };
}
