/**
 * What a site sync's plan rows say, without the database or the network: the counts, the failures
 * per (instrument, dataset), the phase names, the messages a sync ends with, and the snapshot of a
 * stored sync. Pure functions, so the runner and the manager read as what they do.
 */
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import {
  DATASET_LABELS,
  type Dataset,
  type SyncFailure,
  type SyncSnapshot,
  type TimeInterval,
} from '../../../shared/data';
import { normalize } from '../core/intervals';
import type { FieldDeskErrorData } from '../../../shared/errors';
import { bytesText } from '../../../shared/format';
import { optionsOf, parseError, type ChunkRow, type RunRow } from './sync-records';

export const SYNC_PHASES = {
  fetching: 'Fetching',
  done: 'Done',
  withGaps: 'Finished with gaps',
  failed: 'Failed',
  cancelled: 'Stopped',
  interrupted: 'Interrupted',
} as const;

export const UNKNOWN_SYNC =
  'FieldDesk has no record of that site sync. It may have been removed with its account or long ago.';

/** Why a chunk of a finished sync was never fetched, when nothing more is known. */
const STOPPED_BEFORE_FETCHING = 'FieldDesk stopped before fetching this part.';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export interface Counters {
  total: number;
  fetched: number;
  skipped: number;
  failed: number;
  bytes: number;
}

export function countRows(rows: readonly ChunkRow[]): Counters {
  const counts: Counters = { total: rows.length, fetched: 0, skipped: 0, failed: 0, bytes: 0 };
  for (const row of rows) {
    counts.bytes += row.bytes;
    if (row.state === 'fetched') counts.fetched++;
    else if (row.state === 'skipped') counts.skipped++;
    else if (row.state === 'failed') counts.failed++;
  }
  return counts;
}

/**
 * Failures by (serial, dataset, options) from the plan rows, with the time ranges they leave missing; chunks
 * never fetched count when `pendingReason` is given. The message is the first failure's.
 */
export function failuresOf(
  rows: ReadonlyArray<
    Pick<ChunkRow, 'serial' | 'dataset' | 'options_json' | 'state' | 'error_json' | 'start_ms' | 'end_ms'>
  >,
  pendingReason: string | null,
): SyncFailure[] {
  const byPair = new Map<string, SyncFailure>();
  for (const row of rows) {
    const failed = row.state === 'failed';
    if (!failed && !(row.state === 'pending' && pendingReason !== null)) continue;
    // A dataset fetched with several option sets (octave and third-octave…) fails per set.
    const key = `${row.serial}\u0000${row.dataset}\u0000${row.options_json}`;
    let failure = byPair.get(key);
    if (failure === undefined) {
      const error = failed ? parseError(row.error_json) : null;
      const message = failed ? (error?.message ?? 'This part could not be fetched.') : (pendingReason ?? '');
      const options = optionsOf(row.options_json);
      failure = {
        serial: row.serial,
        dataset: row.dataset as Dataset,
        ...(options === null ? {} : { options }),
        missing: [],
        message,
        // Parts never asked for, and failures of unknown kind, may come with another try.
        retryable: error?.retryable ?? true,
      };
      byPair.set(key, failure);
    }
    failure.missing.push({ start: row.start_ms, end: row.end_ms });
  }
  for (const failure of byPair.values()) failure.missing = normalize(failure.missing);
  return [...byPair.values()];
}

/** "1 Jun 2025 09:00 – 3 Jun 2025 00:00 UTC": a range with its year, so a year's gap never reads as a day. */
export function rangeText(range: TimeInterval): string {
  const at = (ms: number) => format(new TZDate(ms, 'UTC'), 'd MMM yyyy HH:mm');
  return `${at(range.start)} – ${at(range.end)} UTC`;
}

function describeMissing(failures: readonly SyncFailure[]): string {
  const shown = failures.slice(0, 4).map((f) => {
    const ranges = f.missing.slice(0, 2).map(rangeText).join(', ');
    const moreRanges = f.missing.length > 2 ? ` and ${f.missing.length - 2} more ranges` : '';
    return `${f.serial} ${DATASET_LABELS[f.dataset]} ${ranges}${moreRanges} (${f.message.replace(/\.$/, '')})`;
  });
  const more = failures.length > 4 ? `, and ${failures.length - 4} more` : '';
  return `${shown.join('; ')}${more}`;
}

export function phaseOf(state: SyncSnapshot['state']): string {
  switch (state) {
    case 'succeeded':
      return SYNC_PHASES.done;
    case 'withGaps':
      return SYNC_PHASES.withGaps;
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

/** A sync's snapshot from its stored run row and plan rows. */
export function snapshotOfRun(run: RunRow, rows: readonly ChunkRow[]): SyncSnapshot {
  const request = JSON.parse(run.request_json) as Pick<SyncSnapshot, 'serials' | 'start' | 'end'>;
  const counts = countRows(rows);
  const finished = run.state === 'succeeded' || run.state === 'failed' || run.state === 'withGaps';
  const pendingReason = finished ? STOPPED_BEFORE_FETCHING : null;
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
    fetched: counts.fetched + counts.skipped,
    bytes: counts.bytes,
    etaMs: null,
    message: run.message,
    failures: failuresOf(rows, pendingReason),
    error: parseError(run.error_json),
  };
}

/** How a pass over a sync's chunks ended, as the runner saw it. */
export interface PassEnd {
  /** Why the pass was stopped, if it was: a user's cancel or FieldDesk closing. */
  stopping: 'cancelled' | 'interrupted' | null;
  /** The error after which the pass stopped asking, if it gave up. */
  gaveUp: FieldDeskErrorData | null;
  /** The pass's first failure. */
  firstError: FieldDeskErrorData | null;
  /** How many instruments the sync is for. */
  instruments: number;
}

export interface SyncOutcome {
  state: SyncSnapshot['state'];
  message: string;
  error: FieldDeskErrorData | null;
  failures: SyncFailure[];
}

/** What a sync ends a pass as, from its plan rows (and their counts) after the pass. */
export function outcomeOf(rows: readonly ChunkRow[], counts: Counters, end: PassEnd): SyncOutcome {
  const { stopping, gaveUp, firstError } = end;
  let state: SyncSnapshot['state'];
  let message: string;
  let error: FieldDeskErrorData | null = null;
  const doneText = `${counts.fetched + counts.skipped} of ${plural(counts.total, 'request')}`;
  let failures: SyncFailure[];
  if (stopping !== null) {
    state = stopping;
    failures = failuresOf(rows, null);
    message =
      state === 'cancelled'
        ? `Stopped. What was fetched (${doneText}) stays available offline; resume to fetch the rest.`
        : `FieldDesk stopped before this sync finished (${doneText} done). Resume it to fetch the rest.`;
  } else {
    const pendingReason = gaveUp === null ? STOPPED_BEFORE_FETCHING : `Not fetched: ${gaveUp.message}`;
    failures = failuresOf(rows, pendingReason);
    const got = counts.fetched + counts.skipped;
    if (failures.length === 0) {
      state = 'succeeded';
      message = `Ready for the site visit: ${plural(end.instruments, 'instrument')} available offline (${bytesText(counts.bytes)} fetched).`;
    } else if (got === 0 && counts.total > 0) {
      state = 'failed';
      error = gaveUp ??
        firstError ?? { code: 'internal', message: 'Nothing could be fetched.', retryable: true };
      message = `Nothing could be fetched for the site visit: ${error.message} Resume to try again.`;
    } else {
      state = 'withGaps';
      message = `Finished with gaps: fetched ${doneText}; missing ${describeMissing(failures)}. Resume to try the missing parts again.`;
    }
  }
  return { state, message, error, failures };
}
