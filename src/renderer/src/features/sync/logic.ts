/**
 * Site sync in words: progress ("12 of 40 requests · 3.4 MB · about 2 min left"), failures named
 * by dataset and instrument, and the pure state changes of the sync store (merging snapshots, the
 * instrument checklist).
 */
import {
  DATASET_LABELS,
  type Dataset,
  type SyncRequest,
  type SyncSnapshot,
  type TimeInterval,
} from '../../../../shared/data';
import { bytesText } from '../../../../shared/format';
import { durationText, MINUTE_MS } from '../../ui/time';

/** "about 2 min left", "less than a minute left", "working out the time left". */
export function etaText(etaMs: number | null): string {
  if (etaMs === null) return 'working out the time left';
  if (etaMs < MINUTE_MS) return 'less than a minute left';
  return `about ${durationText(0, etaMs)} left`;
}

export function isSyncActive(snapshot: Pick<SyncSnapshot, 'state'>): boolean {
  return snapshot.state === 'starting' || snapshot.state === 'running';
}

export function syncFraction(snapshot: Pick<SyncSnapshot, 'done' | 'total' | 'state'>): number | null {
  if (snapshot.total <= 0) return snapshot.state === 'succeeded' ? 1 : null;
  return Math.min(1, snapshot.done / snapshot.total);
}

/** The status on the right of the progress bar. */
export function syncProgressText(snapshot: SyncSnapshot): string {
  const parts = [
    snapshot.total > 0 ? `${snapshot.done} of ${snapshot.total} requests` : 'Planning the requests',
    bytesText(snapshot.bytes),
  ];
  if (isSyncActive(snapshot)) parts.push(etaText(snapshot.etaMs));
  return parts.join(' · ');
}

/** The newer snapshot wins, so a late `sync.list` answer never rolls an event back. */
export function mergeSyncSnapshot(current: SyncSnapshot | undefined, next: SyncSnapshot): SyncSnapshot {
  if (current === undefined) return next;
  return next.updatedAt >= current.updatedAt ? next : current;
}

/** "Weather for AQ132935: the key lacks data.enviro:read" */
export function failureText(failure: SyncSnapshot['failures'][number]): string {
  return `${DATASET_LABELS[failure.dataset]} for ${failure.serial}: ${failure.message}`;
}

export type SyncOutcome = 'complete' | 'gaps' | 'failed' | 'cancelled' | 'interrupted';

export function syncOutcome(snapshot: SyncSnapshot): SyncOutcome | null {
  switch (snapshot.state) {
    case 'succeeded':
      return snapshot.failures.length > 0 ? 'gaps' : 'complete';
    case 'failed':
    case 'timedOut':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    case 'interrupted':
      return 'interrupted';
    default:
      return null;
  }
}

export const OUTCOME_TITLES: Readonly<Record<SyncOutcome, string>> = {
  complete: 'Ready for the site visit',
  gaps: 'Ready, with gaps',
  failed: 'The site sync failed',
  cancelled: 'Site sync cancelled',
  interrupted: 'Site sync interrupted',
};

// ---- the dialog's choices --------------------------------------------------------------------

export type CheckState = 'all' | 'some' | 'none';

export function checkState(selected: readonly string[], all: readonly string[]): CheckState {
  const count = all.filter((s) => selected.includes(s)).length;
  if (count === 0) return 'none';
  return count === all.length ? 'all' : 'some';
}

/** "Select all" toggles: anything unchecked → all checked; all checked → none. */
export function toggleAll(selected: readonly string[], all: readonly string[]): string[] {
  return checkState(selected, all) === 'all' ? [] : [...all];
}

export function toggled<T>(list: readonly T[], item: T, on: boolean): T[] {
  const without = list.filter((x) => x !== item);
  return on ? [...without, item] : without;
}

/**
 * The request for `sync.start`: the chosen instruments in list order, each with its datasets
 * (an instrument with none chosen is left out, rather than silently given the defaults).
 */
export function buildSyncRequest(
  orderedSerials: readonly string[],
  selected: readonly string[],
  datasets: Readonly<Record<string, readonly Dataset[]>>,
  range: TimeInterval,
): SyncRequest {
  const serials = orderedSerials.filter((s) => selected.includes(s) && (datasets[s]?.length ?? 0) > 0);
  return {
    serials,
    start: range.start,
    end: range.end,
    datasets: Object.fromEntries(serials.map((s) => [s, [...(datasets[s] ?? [])]])),
  };
}
