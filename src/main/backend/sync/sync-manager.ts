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
 */
import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
import {
  DATASET_LABELS,
  SYNC_DATASET_OPTIONS,
  type Dataset,
  type DatasetOptions,
  type DatasetQuery,
  type SyncRequest,
  type SyncSnapshot,
} from '../../../shared/data';
import { FieldDeskError, isUnreachable, toErrorData, type FieldDeskErrorData } from '../../../shared/errors';
import type { CacheStore } from '../cache/cache-store';
import { cacheKeyOf, DEFAULT_OPEN_INTERVAL_MS, isOpen } from '../data/read-through-cache';
import type { DataSource } from '../service/data-source';
import type { SqliteDatabase } from '../core/database';
import { gaps, normalize } from '../core/intervals';
import { bytesText } from '../../../shared/format';

/** Requests in flight at once for one sync. */
export const SYNC_CONCURRENCY = 3;
/** Finished syncs kept for `sync.list`. */
export const KEEP_FINISHED_SYNCS = 50;
/** "Unreachable" failures in a row after which the sync stops asking. */
export const UNREACHABLE_STREAK_LIMIT = 3;

export const SYNC_PHASES = {
  fetching: 'Fetching',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Stopped',
  interrupted: 'Interrupted',
} as const;

type ChunkState = 'pending' | 'fetched' | 'skipped' | 'failed';

interface ChunkRow {
  seq: number;
  serial: string;
  dataset: Dataset;
  options_json: string;
  start_ms: number;
  end_ms: number;
  state: ChunkState;
  bytes: number;
  error_json: string | null;
}

interface RunRow {
  id: string;
  account_id: string;
  request_json: string;
  state: SyncSnapshot['state'];
  message: string;
  started_at: number;
  updated_at: number;
  elapsed_ms: number;
  error_json: string | null;
}

export interface SyncManagerOptions {
  db: SqliteDatabase;
  store: CacheStore;
  now: () => number;
  emit: (snapshot: SyncSnapshot) => void;
  openIntervalMs?: number;
  concurrency?: number;
}

export interface SyncManager {
  /** Plans and starts a sync (datasets resolved per serial); returns its first snapshot. */
  start(accountId: string, request: SyncRequest, source: DataSource): SyncSnapshot;
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

const UNKNOWN_SYNC =
  'FieldDesk has no record of that site sync. It may have been removed with its account or long ago.';

/** Refusals that the next chunk of the same dataset would get too. */
const isLasting = (error: FieldDeskErrorData) =>
  ['forbidden', 'notFound', 'invalidRequest', 'unauthorized', 'invalidInput'].includes(error.code);

function parseError(json: string | null): FieldDeskErrorData | null {
  if (json === null) return null;
  try {
    return JSON.parse(json) as FieldDeskErrorData;
  } catch {
    return null;
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The request behind a plan row. */
function queryOf(
  row: Pick<ChunkRow, 'serial' | 'dataset' | 'options_json' | 'start_ms' | 'end_ms'>,
): DatasetQuery {
  const options = JSON.parse(row.options_json) as DatasetOptions | null;
  return {
    serial: row.serial,
    dataset: row.dataset,
    start: row.start_ms,
    end: row.end_ms,
    ...(options === null ? {} : { options }),
  };
}

interface Counters {
  total: number;
  fetched: number;
  skipped: number;
  failed: number;
  bytes: number;
}

/** Failures by (serial, dataset) from the plan rows; chunks never fetched count when `includePending`. */
function failuresOf(
  rows: ReadonlyArray<Pick<ChunkRow, 'serial' | 'dataset' | 'state' | 'error_json'>>,
  pendingReason: string | null,
): SyncSnapshot['failures'] {
  const byPair = new Map<string, { serial: string; dataset: Dataset; message: string }>();
  for (const row of rows) {
    const failed = row.state === 'failed';
    if (!failed && !(row.state === 'pending' && pendingReason !== null)) continue;
    const key = `${row.serial}\u0000${row.dataset}`;
    if (byPair.has(key)) continue;
    const message = failed
      ? (parseError(row.error_json)?.message ?? 'This part could not be fetched.')
      : (pendingReason ?? '');
    byPair.set(key, { serial: row.serial, dataset: row.dataset, message });
  }
  return [...byPair.values()];
}

function describeMissing(failures: SyncSnapshot['failures']): string {
  const shown = failures
    .slice(0, 4)
    .map((f) => `${f.serial} ${DATASET_LABELS[f.dataset]} (${f.message.replace(/\.$/, '')})`);
  const more = failures.length > 4 ? `, and ${failures.length - 4} more` : '';
  return `${shown.join('; ')}${more}`;
}

export function createSyncManager(options: SyncManagerOptions): SyncManager {
  const { db, store, now } = options;
  const openMs = options.openIntervalMs ?? DEFAULT_OPEN_INTERVAL_MS;
  const concurrency = options.concurrency ?? SYNC_CONCURRENCY;

  // Whatever was running when FieldDesk last stopped did not finish.
  db.prepare("UPDATE sync_runs SET state = 'interrupted' WHERE state IN ('starting', 'running')").run();

  const insertRun = db.prepare(
    `INSERT INTO sync_runs (id, account_id, request_json, state, message, started_at, updated_at, elapsed_ms)
     VALUES (?, ?, ?, 'running', ?, ?, ?, 0)`,
  );
  const insertChunk = db.prepare(
    `INSERT INTO sync_chunks (sync_id, seq, serial, dataset, options_json, start_ms, end_ms, state, error_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const selectRun = db.prepare<[string], RunRow>('SELECT * FROM sync_runs WHERE id = ?');
  const selectRuns = db.prepare<[number], RunRow>('SELECT * FROM sync_runs ORDER BY started_at DESC LIMIT ?');
  const selectChunks = db.prepare<[string], ChunkRow>(
    'SELECT seq, serial, dataset, options_json, start_ms, end_ms, state, bytes, error_json FROM sync_chunks WHERE sync_id = ? ORDER BY seq',
  );
  const markChunk = db.prepare(
    'UPDATE sync_chunks SET state = ?, bytes = ?, error_json = ? WHERE sync_id = ? AND seq = ?',
  );
  const updateRun = db.prepare(
    'UPDATE sync_runs SET state = ?, message = ?, updated_at = ?, elapsed_ms = ?, error_json = ? WHERE id = ?',
  );
  const trimRuns = db.prepare(
    `DELETE FROM sync_runs WHERE state NOT IN ('running', 'interrupted') AND id NOT IN
       (SELECT id FROM sync_runs ORDER BY started_at DESC LIMIT ?)`,
  );

  interface Running {
    snapshot: SyncSnapshot;
    abort: AbortController;
    /** Why it is being stopped: a user's cancel or FieldDesk closing. */
    stopping: 'cancelled' | 'interrupted' | null;
    done: Promise<void>;
  }
  const running = new Map<string, Running>();

  function report(snapshot: SyncSnapshot): void {
    try {
      options.emit(snapshot);
    } catch {
      // A failing receiver must not stop the sync.
    }
  }

  function snapshotFromDb(run: RunRow): SyncSnapshot {
    const request = JSON.parse(run.request_json) as SyncRequest;
    const rows = selectChunks.all(run.id);
    const counts = countRows(rows);
    const finished = run.state === 'succeeded' || run.state === 'failed';
    const pendingReason = finished ? 'FieldDesk stopped before fetching this part.' : null;
    return {
      id: run.id,
      kind: 'sync',
      accountId: run.account_id,
      serials: request.serials,
      start: request.start,
      end: request.end,
      state: run.state,
      phase: phaseOf(run.state),
      startedAt: run.started_at,
      updatedAt: run.updated_at,
      elapsedMs: run.elapsed_ms,
      done: finished ? counts.total : counts.fetched + counts.skipped,
      total: counts.total,
      bytes: counts.bytes,
      etaMs: null,
      message: run.message,
      failures: failuresOf(rows, pendingReason),
      error: parseError(run.error_json),
    };
  }

  function phaseOf(state: SyncSnapshot['state']): string {
    switch (state) {
      case 'succeeded':
        return SYNC_PHASES.done;
      case 'failed':
      case 'timedOut':
        return SYNC_PHASES.failed;
      case 'cancelled':
        return SYNC_PHASES.cancelled;
      case 'interrupted':
        return SYNC_PHASES.interrupted;
      default:
        return SYNC_PHASES.fetching;
    }
  }

  function countRows(rows: readonly ChunkRow[]): Counters {
    const counts: Counters = { total: rows.length, fetched: 0, skipped: 0, failed: 0, bytes: 0 };
    for (const row of rows) {
      counts.bytes += row.bytes;
      if (row.state === 'fetched') counts.fetched++;
      else if (row.state === 'skipped') counts.skipped++;
      else if (row.state === 'failed') counts.failed++;
    }
    return counts;
  }

  /** Runs the chunks still to do of a sync (pending or failed), then finishes it. */
  function run(id: string, source: DataSource): SyncSnapshot {
    const runRow = selectRun.get(id);
    if (runRow === undefined) throw new FieldDeskError('invalidInput', UNKNOWN_SYNC, { field: 'id' });
    const accountId = runRow.account_id;
    const rows = selectChunks.all(id);
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

    const entry: Running = {
      snapshot: {
        ...snapshotFromDb(runRow),
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
        bytes: counters.bytes,
        etaMs,
        failures: failuresOf([...failedRows.values()], null),
        ...change,
      };
      report(entry.snapshot);
    };

    const mark = (row: ChunkRow, state: ChunkState, bytes: number, error: FieldDeskErrorData | null) => {
      markChunk.run(state, bytes, error === null ? null : JSON.stringify(error), id, row.seq);
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
      const pair = `${row.serial}\u0000${row.dataset}`;
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
      const after = selectChunks.all(id);
      const counts = countRows(after);
      let state: SyncSnapshot['state'];
      let message: string;
      let error: FieldDeskErrorData | null = null;
      const doneText = `${counts.fetched + counts.skipped} of ${plural(counts.total, 'request')}`;
      let failures: SyncSnapshot['failures'];
      if (entry.stopping !== null) {
        state = entry.stopping;
        failures = failuresOf(after, null);
        message =
          state === 'cancelled'
            ? `Stopped. What was fetched (${doneText}) stays available offline; resume to fetch the rest.`
            : `FieldDesk stopped before this sync finished (${doneText} done). Resume it to fetch the rest.`;
      } else {
        const pendingReason =
          gaveUp === null ? 'FieldDesk stopped before fetching this part.' : `Not fetched: ${gaveUp.message}`;
        failures = failuresOf(after, pendingReason);
        const got = counts.fetched + counts.skipped;
        if (failures.length === 0) {
          state = 'succeeded';
          message = `Ready for the site visit: ${plural(entry.snapshot.serials.length, 'instrument')} available offline (${bytesText(counts.bytes)} fetched).`;
        } else if (got === 0 && counts.total > 0) {
          state = 'failed';
          error = gaveUp ??
            firstError ?? { code: 'internal', message: 'Nothing could be fetched.', retryable: true };
          message = `Nothing could be fetched for the site visit: ${error.message} Resume to try again.`;
        } else {
          state = 'succeeded';
          message = `Fetched ${doneText}; missing: ${describeMissing(failures)}. Resume to try the missing parts again.`;
        }
      }
      updateRun.run(state, message, at, elapsedMs, error === null ? null : JSON.stringify(error), id);
      running.delete(id);
      entry.snapshot = {
        ...entry.snapshot,
        state,
        phase: phaseOf(state),
        updatedAt: at,
        elapsedMs,
        done: state === 'succeeded' || state === 'failed' ? counts.total : counts.fetched + counts.skipped,
        total: counts.total,
        bytes: counts.bytes,
        etaMs: state === 'succeeded' || state === 'failed' ? 0 : null,
        message,
        failures,
        error,
      };
      report(entry.snapshot);
    }

    updateRun.run('running', entry.snapshot.message, resumedAt, elapsedBefore, null, id);
    running.set(id, entry);
    const limit = pLimit(concurrency);
    entry.done = Promise.all(todo.map((row) => limit(() => runChunk(row))))
      .catch(() => undefined)
      .then(() => {
        try {
          finish();
        } catch {
          // The database went away (FieldDesk closing): the sync stays resumable.
          running.delete(id);
        }
      });
    progress();
    return entry.snapshot;
  }

  function get(id: string): SyncSnapshot | undefined {
    const live = running.get(id);
    if (live !== undefined) return live.snapshot;
    const row = selectRun.get(id);
    return row === undefined ? undefined : snapshotFromDb(row);
  }

  return {
    start(accountId, request, source) {
      const id = randomUUID();
      const at = now();
      const plan: Array<Omit<ChunkRow, 'seq' | 'bytes'>> = [];
      for (const serial of request.serials) {
        for (const dataset of request.datasets[serial] ?? []) {
          const options = SYNC_DATASET_OPTIONS[dataset];
          const query: DatasetQuery = {
            serial,
            dataset,
            start: request.start,
            end: request.end,
            ...(options === undefined ? {} : { options }),
          };
          const optionsJson = JSON.stringify(options ?? null);
          try {
            source.validate(query);
            for (const interval of source.planRequests(query)) {
              plan.push({
                serial,
                dataset,
                options_json: optionsJson,
                start_ms: interval.start,
                end_ms: interval.end,
                state: 'pending',
                error_json: null,
              });
            }
          } catch (error) {
            plan.push({
              serial,
              dataset,
              options_json: optionsJson,
              start_ms: request.start,
              end_ms: request.end,
              state: 'failed',
              error_json: JSON.stringify(toErrorData(error)),
            });
          }
        }
      }
      db.transaction(() => {
        insertRun.run(id, accountId, JSON.stringify(request), 'Planning the site sync…', at, at);
        plan.forEach((row, seq) =>
          insertChunk.run(
            id,
            seq,
            row.serial,
            row.dataset,
            row.options_json,
            row.start_ms,
            row.end_ms,
            row.state,
            row.error_json,
          ),
        );
        trimRuns.run(KEEP_FINISHED_SYNCS);
      }).immediate();
      return run(id, source);
    },

    resume(id, source) {
      const live = running.get(id);
      if (live !== undefined) return live.snapshot;
      const row = selectRun.get(id);
      if (row === undefined) throw new FieldDeskError('invalidInput', UNKNOWN_SYNC, { field: 'id' });
      const left = selectChunks.all(id).some((c) => c.state === 'pending' || c.state === 'failed');
      if (!left && row.state === 'succeeded') return snapshotFromDb(row);
      return run(id, source);
    },

    cancel(id) {
      const live = running.get(id);
      if (live === undefined) {
        const snapshot = get(id);
        if (snapshot === undefined) throw new FieldDeskError('invalidInput', UNKNOWN_SYNC, { field: 'id' });
        if (snapshot.state === 'interrupted') {
          // An interrupted sync the user no longer wants: mark it stopped so it is not offered again.
          updateRun.run('cancelled', snapshot.message, now(), snapshot.elapsedMs, null, id);
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
      return running.get(id)?.snapshot.accountId ?? selectRun.get(id)?.account_id;
    },

    list() {
      const live = [...running.values()].map((r) => r.snapshot).sort((a, b) => b.startedAt - a.startedAt);
      const stored = selectRuns
        .all(KEEP_FINISHED_SYNCS)
        .filter((row) => !running.has(row.id))
        .map(snapshotFromDb);
      return [...live, ...stored];
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
