/**
 * Pure functions behind long-running operations on screen: merging pushed snapshots, finding
 * the operation of an instrument, and the progress bar's numbers and words.
 */
import { isFinishedState, type ActionName, type OperationSnapshot } from '../../../../shared/operations';
import { newestFirst } from '../../ui/table-slice';
import { stopwatchText } from '../../ui/time';

/**
 * The bar never claims more than this before the result is in: the instrument's timing is an
 * estimate, and a bar at 100 % that then waits reads as "stuck".
 */
export const PROGRESS_CAP = 0.95;

export function isActive(snapshot: OperationSnapshot): boolean {
  return !isFinishedState(snapshot.state);
}

/**
 * The snapshot to keep when `incoming` arrives for an operation we may already know. Events
 * and answers can cross (the `start` answer may land after the first progress event), so an
 * older snapshot never replaces a newer one, and a finished operation never becomes running again.
 */
export function mergeSnapshot(
  current: OperationSnapshot | undefined,
  incoming: OperationSnapshot,
): OperationSnapshot {
  if (current === undefined) return incoming;
  const currentDone = isFinishedState(current.state);
  const incomingDone = isFinishedState(incoming.state);
  if (currentDone && !incomingDone) return current;
  if (incomingDone && !currentDone) return incoming;
  return incoming.updatedAt >= current.updatedAt ? incoming : current;
}

/** Newest started first. */
export const sortOperations = (snapshots: Iterable<OperationSnapshot>): OperationSnapshot[] =>
  newestFirst(snapshots, (s) => s.startedAt);

/** The running operation on an instrument (newest, should there be more than one), or null. */
export function activeOperationFor(
  snapshots: readonly OperationSnapshot[],
  accountId: string | null,
  serial: string,
): OperationSnapshot | null {
  return (
    sortOperations(snapshots).find((s) => s.serial === serial && s.accountId === accountId && isActive(s)) ??
    null
  );
}

/** The newest operation (running or finished) on an instrument, optionally of one action. */
export function latestOperationFor(
  snapshots: readonly OperationSnapshot[],
  accountId: string | null,
  serial: string,
  action?: ActionName,
): OperationSnapshot | null {
  return (
    sortOperations(snapshots).find(
      (s) =>
        s.serial === serial && s.accountId === accountId && (action === undefined || s.action === action),
    ) ?? null
  );
}

export interface ProgressView {
  /** 0…PROGRESS_CAP while running within the expected time; 1 once finished; null: indeterminate. */
  fraction: number | null;
  /** The current step in the backend's words ("Waiting for the instrument"). */
  phase: string;
  /** "0:18 of about 0:40", or "0:52, longer than the usual 0:40". */
  timing: string;
  elapsedMs: number;
  /** Running past the expected duration: the bar turns indeterminate rather than sit at the cap. */
  overdue: boolean;
  finished: boolean;
}

/**
 * What the progress bar shows for `snapshot` at `nowMs`. While running, time is counted on our
 * clock (the backend reports only changes, so its `elapsedMs` lags between them).
 */
export function progressView(snapshot: OperationSnapshot, nowMs: number): ProgressView {
  const finished = isFinishedState(snapshot.state);
  const elapsedMs = finished ? snapshot.elapsedMs : Math.max(snapshot.elapsedMs, nowMs - snapshot.startedAt);
  const expected = snapshot.expectedDurationMs;
  const overdue = !finished && elapsedMs > expected;
  let fraction: number | null;
  if (finished) fraction = 1;
  else if (overdue || expected <= 0) fraction = null;
  else fraction = Math.min(PROGRESS_CAP, elapsedMs / expected);
  const timing = overdue
    ? `${stopwatchText(elapsedMs)}, longer than the usual ${stopwatchText(expected)}`
    : `${stopwatchText(elapsedMs)} of about ${stopwatchText(expected)}`;
  return { fraction, phase: snapshot.phase, timing, elapsedMs, overdue, finished };
}
