/**
 * Site sync ("Prepare for site visit"): fetch every chunk of every dataset of the chosen
 * instruments into the cache as ONE operation, with progress, cancel, and resume after a restart.
 *
 * - The plan (one row per request: instrument, dataset, options, interval) is written to
 *   `sync_chunks` before any request. A chunk's data and its `fetched` mark commit in ONE
 *   transaction, so after a crash or kill a resumed sync never fetches a stored chunk again.
 * - At start-up, syncs left `running` are marked `interrupted`; `resume` continues them (and
 *   retries what failed or was left after a cancel). A chunk the cache already covers (settled) is
 *   marked `skipped` without a request.
 * - Failures are per chunk and reported per (instrument, dataset). A refusal that will not change
 *   (forbidden, not found, bad request) fails the rest of that dataset without asking again. After
 *   repeated "service unreachable" errors the sync stops asking and finishes with what it has; the
 *   chunks left are named as missing and a resume fetches them.
 * - The sync finishes `failed` only when nothing could be fetched (or found in the cache);
 *   otherwise `succeeded`, with the failures listed and a message saying what is missing.
 *
 * This module plans, starts, resumes, cancels and lists syncs. One pass over a sync's chunks is
 * `sync-runner.ts`, the SQL `sync-records.ts`, and what the rows say (counts, failures, messages)
 * `sync-status.ts`.
 */
import { randomUUID } from 'node:crypto';
import type { DatasetQuery, SyncSnapshot } from '../../../shared/data';
import type { SyncItem } from '../../../shared/sync-choices';
import { itemRange } from '../../../shared/sync-size';
import { FieldDeskError, toErrorData } from '../../../shared/errors';
import type { CacheStore } from '../cache/cache-store';
import type { SqliteDatabase } from '../core/database';
import type { DamagedRows } from '../core/damaged-rows';
import { silentLogger, type Logger } from '../core/log';
import { DEFAULT_OPEN_INTERVAL_MS } from '../cache/open-interval';
import type { DataSource } from '../service/data-source';
import { createSyncRecords, type PlannedChunk, type RunRow } from './sync-records';
import { runSync, type RunningSync, type SyncRunContext } from './sync-runner';
import { snapshotOfRun, SYNC_PHASES, UNKNOWN_SYNC } from './sync-status';

/** Requests in flight at once for one sync. */
export const SYNC_CONCURRENCY = 3;

export interface SyncManagerOptions {
  db: SqliteDatabase;
  store: CacheStore;
  now: () => number;
  emit: (snapshot: SyncSnapshot) => void;
  openIntervalMs?: number;
  concurrency?: number;
  /** Where a failing receiver of progress, or a sync that could not be finished, is said. */
  log?: Logger;
  /** Where a stored sync that cannot be read (whole) is said. */
  damaged?: DamagedRows;
}

/** A sync as the manager plans it: each instrument's request series, resolved from the user's choice. */
export interface SyncPlanRequest {
  serials: string[];
  /** The range chosen (records are kept for their own 24 months, `SyncItem.span`). */
  start: number;
  end: number;
  items: Record<string, SyncItem[]>;
}

export interface SyncManager {
  /** Plans and starts a sync; returns its first snapshot. */
  start(accountId: string, request: SyncPlanRequest, source: DataSource): SyncSnapshot;
  /** Continues an interrupted, stopped or partly failed sync; a running one is answered as it is. */
  resume(id: string, source: DataSource): SyncSnapshot;
  cancel(id: string): SyncSnapshot;
  get(id: string): SyncSnapshot | undefined;
  /** The account a sync belongs to. */
  accountOf(id: string): string | undefined;
  /** Running syncs first, then the others; newest first. */
  list(): SyncSnapshot[];
  /** Stops every running sync, leaving it `interrupted` (resumable after a restart). */
  stopAll(): Promise<void>;
}

export function createSyncManager(options: SyncManagerOptions): SyncManager {
  const { db, store, now } = options;
  const records = createSyncRecords(db, options.damaged);
  const log = options.log ?? silentLogger;

  // Whatever was running when FieldDesk last stopped did not finish.
  records.markRunningInterrupted();

  const running = new Map<string, RunningSync>();

  /** Whether a receiver of progress failed: one failing at every progress is logged once. */
  let receiverFailed = false;
  function report(snapshot: SyncSnapshot): void {
    try {
      options.emit(snapshot);
    } catch (error) {
      // A failing receiver must not stop the sync; said once, not at every progress.
      if (!receiverFailed) log.warn('a receiver of site-sync progress failed', { id: snapshot.id, error });
      receiverFailed = true;
    }
  }

  const context: SyncRunContext = {
    records,
    store,
    now,
    openMs: options.openIntervalMs ?? DEFAULT_OPEN_INTERVAL_MS,
    concurrency: options.concurrency ?? SYNC_CONCURRENCY,
    running,
    report,
    log,
  };

  /** The snapshot of a sync that is not running here, from its rows. */
  const stored = (row: RunRow): SyncSnapshot => snapshotOfRun(row, records.chunks(row.id));

  function get(id: string): SyncSnapshot | undefined {
    const live = running.get(id);
    if (live !== undefined) return live.snapshot;
    const row = records.run(id);
    return row === undefined ? undefined : stored(row);
  }

  return {
    start(accountId, request, source) {
      const id = randomUUID();
      const at = now();
      const plan: PlannedChunk[] = [];
      for (const serial of request.serials) {
        for (const item of request.items[serial] ?? []) {
          const range = itemRange(item, request);
          const query: DatasetQuery = {
            serial,
            dataset: item.dataset,
            ...range,
            ...(item.options === undefined ? {} : { options: item.options }),
          };
          const row = { serial, dataset: item.dataset, options_json: JSON.stringify(item.options ?? null) };
          try {
            source.validate(query);
            for (const interval of source.planRequests(query)) {
              plan.push({
                ...row,
                start_ms: interval.start,
                end_ms: interval.end,
                state: 'pending',
                error_json: null,
              });
            }
          } catch (error) {
            plan.push({
              ...row,
              start_ms: range.start,
              end_ms: range.end,
              state: 'failed',
              error_json: JSON.stringify(toErrorData(error)),
            });
          }
        }
      }
      records.create(id, accountId, request, 'Planning the site sync…', at, plan);
      return runSync(context, id, source);
    },

    resume(id, source) {
      const live = running.get(id);
      if (live !== undefined) return live.snapshot;
      const row = records.run(id);
      if (row === undefined) throw new FieldDeskError('invalidInput', UNKNOWN_SYNC, { field: 'id' });
      const left = records.chunks(id).some((c) => c.state === 'pending' || c.state === 'failed');
      if (!left && row.state === 'succeeded') return stored(row);
      return runSync(context, id, source);
    },

    cancel(id) {
      const live = running.get(id);
      if (live === undefined) {
        const snapshot = get(id);
        if (snapshot === undefined) throw new FieldDeskError('invalidInput', UNKNOWN_SYNC, { field: 'id' });
        if (snapshot.state === 'interrupted') {
          // An interrupted sync the user no longer wants: mark it stopped so it is not offered again.
          records.updateRun(id, 'cancelled', snapshot.message, now(), snapshot.elapsedMs, null);
          const after = get(id) ?? snapshot;
          report(after);
          return after;
        }
        return snapshot;
      }
      live.stopping ??= 'cancelled';
      live.abort.abort(new FieldDeskError('cancelled', 'The site sync was stopped.'));
      live.snapshot = { ...live.snapshot, phase: SYNC_PHASES.cancelled, message: 'Stopping…' };
      report(live.snapshot);
      return live.snapshot;
    },

    get,

    accountOf(id) {
      return running.get(id)?.snapshot.accountId ?? records.run(id)?.account_id;
    },

    list() {
      const live = [...running.values()].map((r) => r.snapshot).sort((a, b) => b.startedAt - a.startedAt);
      const kept = records
        .runs()
        .filter((row) => !running.has(row.id))
        .map(stored);
      return [...live, ...kept];
    },

    async stopAll() {
      const all = [...running.values()];
      for (const entry of all) {
        entry.stopping ??= 'interrupted';
        entry.abort.abort(new FieldDeskError('cancelled', 'FieldDesk is closing.'));
      }
      await Promise.all(all.map((entry) => entry.done));
    },
  };
}
