/**
 * One pass over a site sync: the chunks still to do (pending, or failed before) are fetched into
 * the cache a few at a time, each marked `fetched` in the same transaction as its data, with
 * progress reported as they go; then the sync is finished with what it has. The manager starts
 * passes (a new sync, a resume) and stops them; this module is the pass itself.
 */
import pLimit from 'p-limit';
import { isSyncFinished, type SyncSnapshot } from '../../../shared/data';
import { FieldDeskError, isUnreachable, toErrorData, type FieldDeskErrorData } from '../../../shared/errors';
import type { CacheStore } from '../cache/cache-store';
import type { Logger } from '../core/log';
import { gaps, normalize } from '../core/intervals';
import { cacheKeyOf } from '../cache/cache-key';
import { isOpen } from '../cache/open-interval';
import { incompleteAnswer, type DataSource } from '../service/data-source';
import { queryOf, type ChunkRow, type ChunkState, type SyncRecords } from './sync-records';
import {
  countRows,
  failuresOf,
  outcomeOf,
  phaseOf,
  snapshotOfRun,
  SYNC_PHASES,
  UNKNOWN_SYNC,
  type Counters,
} from './sync-status';

/** "Unreachable" failures in a row after which the sync stops asking. */
export const UNREACHABLE_STREAK_LIMIT = 3;

/** Refusals that the next chunk of the same dataset would get too. */
const isLasting = (error: FieldDeskErrorData) =>
  ['forbidden', 'notFound', 'invalidRequest', 'unauthorized', 'invalidInput'].includes(error.code);

/** A sync being run now. */
export interface RunningSync {
  snapshot: SyncSnapshot;
  abort: AbortController;
  /** Why it is being stopped: a user's cancel or FieldDesk closing. */
  stopping: 'cancelled' | 'interrupted' | null;
  done: Promise<void>;
}

/** What a pass works with, from the manager. */
export interface SyncRunContext {
  records: SyncRecords;
  store: CacheStore;
  now: () => number;
  /** How long the still-open recent interval is (its data is fetched again, never skipped). */
  openMs: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** The syncs being run now, by id: a pass adds its sync and removes it when it ends. */
  running: Map<string, RunningSync>;
  /** Hands a snapshot on; never throws. */
  report: (snapshot: SyncSnapshot) => void;
  /** Where what stops a pass outside a request's own failure is said. */
  log: Logger;
}

/** Runs the chunks still to do of a sync (pending or failed), then finishes it. */
export function runSync(context: SyncRunContext, id: string, source: DataSource): SyncSnapshot {
  const { records, store, now, openMs, concurrency, running, report, log } = context;
  const runRow = records.run(id);
  if (runRow === undefined) throw new FieldDeskError('invalidInput', UNKNOWN_SYNC, { field: 'id' });
  const accountId = runRow.account_id;
  const rows = records.chunks(id);
  const todo = rows.filter((r) => r.state === 'pending' || r.state === 'failed');
  const base = countRows(rows);
  // Chunks to do again are not done (a failed one is retried).
  const counters: Counters = { ...base, failed: 0 };
  const resumedAt = now();
  const elapsedBefore = runRow.elapsed_ms;
  /** Fetched in this run, for the time-left estimate (chunks skipped take no time). */
  let fetchedThisRun = 0;
  let firstError: FieldDeskErrorData | null = null;
  let unreachableStreak = 0;
  let gaveUp: FieldDeskErrorData | null = null;
  const lastingFailure = new Map<string, FieldDeskErrorData>();
  const failedRows = new Map<number, ChunkRow>();

  const entry: RunningSync = {
    snapshot: {
      ...snapshotOfRun(runRow, records.chunks(id)),
      state: 'running',
      phase: SYNC_PHASES.fetching,
      message: 'Fetching data for the site visit…',
      error: null,
      failures: [],
    },
    abort: new AbortController(),
    stopping: null,
    done: Promise.resolve(),
  };

  const progress = (change: Partial<SyncSnapshot> = {}) => {
    const at = Math.max(now(), entry.snapshot.updatedAt);
    const done = counters.fetched + counters.skipped + counters.failed;
    const remaining = counters.total - done;
    const runMs = at - resumedAt;
    const etaMs = fetchedThisRun > 0 ? Math.round((runMs / fetchedThisRun) * remaining) : null;
    entry.snapshot = {
      ...entry.snapshot,
      updatedAt: at,
      elapsedMs: elapsedBefore + runMs,
      done,
      total: counters.total,
      fetched: counters.fetched + counters.skipped,
      bytes: counters.bytes,
      etaMs,
      failures: failuresOf([...failedRows.values()], null),
      ...change,
    };
    report(entry.snapshot);
  };

  const mark = (row: ChunkRow, state: ChunkState, bytes: number, error: FieldDeskErrorData | null) => {
    records.markChunk(id, row.seq, state, bytes, error);
  };

  const fail = (row: ChunkRow, error: FieldDeskErrorData) => {
    mark(row, 'failed', 0, error);
    row.state = 'failed';
    row.error_json = JSON.stringify(error);
    failedRows.set(row.seq, row);
    counters.failed++;
    firstError ??= error;
  };

  async function runChunk(row: ChunkRow): Promise<void> {
    if (entry.abort.signal.aborted || gaveUp !== null) return;
    const pair = `${row.serial}\u0000${row.dataset}\u0000${row.options_json}`;
    const lasting = lastingFailure.get(pair);
    if (lasting !== undefined) {
      fail(row, lasting);
      progress();
      return;
    }
    const query = queryOf(row);
    const key = cacheKeyOf(accountId, query);
    const end = Math.min(row.end_ms, now());
    const settled = store
      .chunks(key, { start: row.start_ms, end })
      .filter((c) => !isOpen(c, openMs))
      .map((c) => ({ start: c.start, end: c.end }));
    if (end <= row.start_ms || gaps({ start: row.start_ms, end }, normalize(settled)).length === 0) {
      mark(row, 'skipped', 0, null);
      counters.skipped++;
      progress();
      return;
    }
    try {
      const chunk = await source.fetchDataset({ ...query, end }, entry.abort.signal);
      if (chunk.unreadable !== undefined) {
        // Records left out: not whole, so not stored; the part is not fetched and can be resumed.
        unreachableStreak = 0;
        fail(row, incompleteAnswer(chunk.unreadable).toData());
        progress();
        return;
      }
      const fetchedAt = now();
      store.store(
        key,
        { start: row.start_ms, end: Math.min(end, fetchedAt) },
        { series: chunk.series, records: chunk.records },
        fetchedAt,
        {
          splitAt: fetchedAt - openMs,
          alsoInTransaction: () => mark(row, 'fetched', chunk.bytes, null),
        },
      );
      counters.fetched++;
      fetchedThisRun++;
      counters.bytes += chunk.bytes;
      unreachableStreak = 0;
      progress();
    } catch (error) {
      if (entry.abort.signal.aborted) return; // stays pending: a resume fetches it
      const data = toErrorData(error);
      if (data.code === 'cancelled') return;
      fail(row, data);
      if (isLasting(data)) lastingFailure.set(pair, data);
      if (isUnreachable(data)) {
        unreachableStreak++;
        if (unreachableStreak >= UNREACHABLE_STREAK_LIMIT) gaveUp = data;
      } else unreachableStreak = 0;
      progress();
    }
  }

  function finish(): void {
    const at = Math.max(now(), entry.snapshot.updatedAt);
    const elapsedMs = elapsedBefore + (at - resumedAt);
    const after = records.chunks(id);
    const counts = countRows(after);
    const { state, message, error, failures } = outcomeOf(after, counts, {
      stopping: entry.stopping,
      gaveUp,
      firstError,
      instruments: entry.snapshot.serials.length,
    });
    records.updateRun(id, state, message, at, elapsedMs, error);
    running.delete(id);
    entry.snapshot = {
      ...entry.snapshot,
      state,
      phase: phaseOf(state),
      updatedAt: at,
      elapsedMs,
      done: isSyncFinished(state) && state !== 'cancelled' ? counts.total : counts.fetched + counts.skipped,
      total: counts.total,
      fetched: counts.fetched + counts.skipped,
      bytes: counts.bytes,
      etaMs: isSyncFinished(state) ? 0 : null,
      message,
      failures,
      error,
    };
    report(entry.snapshot);
  }

  records.updateRun(id, 'running', entry.snapshot.message, resumedAt, elapsedBefore, null);
  running.set(id, entry);
  const limit = pLimit(concurrency);
  entry.done = Promise.all(todo.map((row) => limit(() => runChunk(row))))
    .catch((error: unknown) => {
      // A request's own failure is kept in its row; this is the cache refusing (damaged, closing).
      log.warn('a site sync stopped fetching', { id, error });
    })
    .then(() => {
      try {
        finish();
      } catch (error) {
        // The database went away (FieldDesk closing): the sync stays resumable.
        log.warn('a site sync could not be finished; it stays resumable', { id, error });
        running.delete(id);
      }
    });
  progress();
  return entry.snapshot;
}
