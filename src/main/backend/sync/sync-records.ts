/**
 * Site syncs as SQLite keeps them (tables `sync_runs` and `sync_chunks`, migration 2 of
 * `core/database.ts`): the row types, every statement a sync runs, and the reading of a row's
 * JSON columns. The SQL lives here so the runner and the manager read as what a sync does.
 *
 * Rows are checked as they are read: a sync whose request cannot be read is left out, and a plan
 * row's options or a failure that cannot be read are read as none (the service's defaults, no
 * error) — each said to the `DamagedRows` the records are given (core/damaged-rows.ts).
 */
import type { Dataset, DatasetOptions, DatasetQuery, SyncSnapshot } from '../../../shared/data';
import type { FieldDeskErrorData } from '../../../shared/errors';
import type { SqliteDatabase } from '../core/database';
import { reportDamaged, type DamagedRows, type StoredValue } from '../core/damaged-rows';

/** Finished syncs kept for `sync.list`. */
export const KEEP_FINISHED_SYNCS = 50;

export type ChunkState = 'pending' | 'fetched' | 'skipped' | 'failed';

export interface ChunkRow {
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

export interface RunRow {
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

/** A row of a new sync's plan; its position in the plan is its `seq`. */
export type PlannedChunk = Omit<ChunkRow, 'seq' | 'bytes'>;

/** A row's failure (the records read a damaged one as none, and say so). */
export function parseError(json: string | null): FieldDeskErrorData | null {
  if (json === null) return null;
  try {
    return JSON.parse(json) as FieldDeskErrorData;
  } catch {
    return null;
  }
}

/** A plan row's options; null when it was fetched with the service's defaults (the records read damaged ones so). */
export function optionsOf(json: string): DatasetOptions | null {
  try {
    return JSON.parse(json) as DatasetOptions | null;
  } catch {
    return null;
  }
}

/** The request behind a plan row. */
export function queryOf(
  row: Pick<ChunkRow, 'serial' | 'dataset' | 'options_json' | 'start_ms' | 'end_ms'>,
): DatasetQuery {
  const options = optionsOf(row.options_json);
  return {
    serial: row.serial,
    dataset: row.dataset,
    start: row.start_ms,
    end: row.end_ms,
    ...(options === null ? {} : { options }),
  };
}

export interface SyncRecords {
  /** Marks the syncs left `starting` or `running` as `interrupted`. */
  markRunningInterrupted(): void;
  /**
   * Stores a new sync as `running` with its plan and drops finished syncs beyond
   * `KEEP_FINISHED_SYNCS`, in one transaction.
   */
  create(
    id: string,
    accountId: string,
    /** Kept as JSON: what a snapshot reads of it is the serials and the range. */
    request: Pick<SyncSnapshot, 'serials' | 'start' | 'end'>,
    message: string,
    at: number,
    plan: readonly PlannedChunk[],
  ): void;
  /** A sync's own row. */
  run(id: string): RunRow | undefined;
  /** The newest `KEEP_FINISHED_SYNCS` syncs, newest first. */
  runs(): RunRow[];
  /** A sync's plan rows in order. */
  chunks(id: string): ChunkRow[];
  markChunk(
    id: string,
    seq: number,
    state: ChunkState,
    bytes: number,
    error: FieldDeskErrorData | null,
  ): void;
  updateRun(
    id: string,
    state: SyncSnapshot['state'],
    message: string,
    at: number,
    elapsedMs: number,
    error: FieldDeskErrorData | null,
  ): void;
}

/** Why a stored JSON value cannot be read (`check` says what it must be); null when it can. */
function jsonProblem(json: string, check: (value: unknown) => string | null): unknown {
  try {
    return check(JSON.parse(json));
  } catch (error) {
    return error;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A run's request: the serials and the range (all a snapshot reads of it). */
const requestProblem = (value: unknown): string | null =>
  isObject(value) &&
  Array.isArray(value['serials']) &&
  typeof value['start'] === 'number' &&
  typeof value['end'] === 'number'
    ? null
    : 'not a site-sync request (its serials or range are missing)';
const optionsProblem = (value: unknown): string | null =>
  value === null || isObject(value) ? null : 'options that are not an object';
const errorProblem = (value: unknown): string | null =>
  isObject(value) && typeof value['message'] === 'string' ? null : 'not an error (its message is missing)';

/** `damaged`: where a row that cannot be read (whole) is said (unsaid without it). */
export function createSyncRecords(db: SqliteDatabase, damaged?: DamagedRows): SyncRecords {
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
  const errorJson = (error: FieldDeskErrorData | null) => (error === null ? null : JSON.stringify(error));

  /** A run as stored; undefined when its request cannot be read, its failure read as none when damaged. */
  function readRun(row: RunRow | undefined): RunRow | undefined {
    if (row === undefined) return undefined;
    const from: StoredValue = { table: 'sync_runs', id: row.id, damaged };
    const request = jsonProblem(row.request_json, requestProblem);
    if (request !== null) {
      reportDamaged({ ...from, column: 'request_json' }, request);
      return undefined;
    }
    const error = row.error_json === null ? null : jsonProblem(row.error_json, errorProblem);
    if (error === null) return row;
    reportDamaged({ ...from, column: 'error_json' }, error);
    return { ...row, error_json: null };
  }

  /** A plan row, its options read as the service's defaults and its failure as none when damaged. */
  function readChunk(syncId: string, row: ChunkRow): ChunkRow {
    const from: StoredValue = { table: 'sync_chunks', id: `${syncId}/${row.seq}`, damaged };
    let read = row;
    const options = jsonProblem(row.options_json, optionsProblem);
    if (options !== null) {
      reportDamaged({ ...from, column: 'options_json' }, options);
      read = { ...read, options_json: 'null' };
    }
    const error = row.error_json === null ? null : jsonProblem(row.error_json, errorProblem);
    if (error !== null) {
      reportDamaged({ ...from, column: 'error_json' }, error);
      read = { ...read, error_json: null };
    }
    return read;
  }

  return {
    markRunningInterrupted() {
      db.prepare("UPDATE sync_runs SET state = 'interrupted' WHERE state IN ('starting', 'running')").run();
    },

    create(id, accountId, request, message, at, plan) {
      db.transaction(() => {
        insertRun.run(id, accountId, JSON.stringify(request), message, at, at);
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
    },

    run: (id) => readRun(selectRun.get(id)),
    runs: () => selectRuns.all(KEEP_FINISHED_SYNCS).flatMap((row) => readRun(row) ?? []),
    chunks: (id) => selectChunks.all(id).map((row) => readChunk(id, row)),

    markChunk(id, seq, state, bytes, error) {
      markChunk.run(state, bytes, errorJson(error), id, seq);
    },

    updateRun(id, state, message, at, elapsedMs, error) {
      updateRun.run(state, message, at, elapsedMs, errorJson(error), id);
    },
  };
}
