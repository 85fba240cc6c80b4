/**
 * Site sync in words: progress ("12 of 40 requests · 3.4 MB · about 2 min left"), how it ended
 * (complete, finished with gaps, failed…), how much of what it asked for was fetched, the failures
 * by instrument, dataset and time range, and the pure state changes of the sync store (merging
 * snapshots, the instrument checklist).
 */
import {
  DATASET_LABELS,
  type Dataset,
  type SyncFailure,
  type SyncRequest,
  type SyncSnapshot,
  type TimeInterval,
} from '../../../../shared/data';
import { bytesText } from '../../../../shared/format';
import { durationText, intervalText, MINUTE_MS, type DisplayZone } from '../../ui/time';

/** "about 2 min left", "less than a minute left", "working out the time left". */
export function etaText(etaMs: number | null): string {
  if (etaMs === null) return 'working out the time left';
  if (etaMs < MINUTE_MS) return 'less than a minute left';
  return `about ${durationText(0, etaMs)} left`;
}

export function isSyncActive(snapshot: Pick<SyncSnapshot, 'state'>): boolean {
  return snapshot.state === 'starting' || snapshot.state === 'running';
}

/** The newer snapshot wins, so a late `sync.list` answer never rolls an event back. */
export function mergeSyncSnapshot(current: SyncSnapshot | undefined, next: SyncSnapshot): SyncSnapshot {
  if (current === undefined) return next;
  return next.updatedAt >= current.updatedAt ? next : current;
}

// ---- how it ended ----------------------------------------------------------------------------

export type SyncOutcome = 'complete' | 'gaps' | 'failed' | 'cancelled' | 'interrupted';

export function syncOutcome(snapshot: Pick<SyncSnapshot, 'state' | 'failures'>): SyncOutcome | null {
  switch (snapshot.state) {
    case 'succeeded':
      // A success that still names failures is not one.
      return snapshot.failures.length > 0 ? 'gaps' : 'complete';
    case 'withGaps':
      return 'gaps';
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
  gaps: 'Finished with gaps',
  failed: 'The site sync failed',
  cancelled: 'Site sync cancelled',
  interrupted: 'Site sync interrupted',
};

/**
 * The share (0…1) of a sync's requests whose data is in the cache. Of a finished sync `done` counts
 * failed requests too, so this is what it actually got.
 */
export function fetchedShare(snapshot: Pick<SyncSnapshot, 'fetched' | 'total'>): number | null {
  return snapshot.total > 0 ? Math.min(1, Math.max(0, snapshot.fetched / snapshot.total)) : null;
}

/** Whole percent fetched of a sync that ended with parts missing: never 100, so never "full". */
function gapsPercent(share: number): number {
  return Math.min(99, Math.floor(share * 100));
}

/**
 * How full the progress bar is: requests done while it runs (or when it was stopped); all of it
 * when complete; what was actually fetched when it failed or finished with gaps, never full. Null
 * when that is not known (the bar is then left out, not drawn as if working).
 */
export function syncFraction(snapshot: SyncSnapshot): number | null {
  switch (syncOutcome(snapshot)) {
    case 'complete':
      return 1;
    case 'gaps': {
      const share = fetchedShare(snapshot);
      return share === null ? null : gapsPercent(share) / 100;
    }
    case 'failed':
      // The backend fails a sync only when nothing could be fetched.
      return Math.min(fetchedShare(snapshot) ?? 0, 0.99);
    default:
      return snapshot.total > 0 ? Math.min(1, snapshot.done / snapshot.total) : null;
  }
}

/** Why a sync cannot start or resume now; said beside the disabled button. */
export const SYNC_OFFLINE_REASON = 'FieldDesk is offline: a site sync needs a connection to the service.';

/** The status on the right of the progress bar. */
export function syncProgressText(snapshot: SyncSnapshot): string {
  const outcome = syncOutcome(snapshot);
  if (outcome === 'failed') return 'Nothing fetched';
  if (outcome === 'gaps') {
    return `${snapshot.fetched} of ${snapshot.total} requests fetched · ${bytesText(snapshot.bytes)}`;
  }
  const parts = [
    snapshot.total > 0 ? `${snapshot.done} of ${snapshot.total} requests` : 'Planning the requests',
    bytesText(snapshot.bytes),
  ];
  if (isSyncActive(snapshot)) parts.push(etaText(snapshot.etaMs));
  return parts.join(' · ');
}

// ---- what is missing -------------------------------------------------------------------------

export interface MissingDataset {
  dataset: Dataset;
  label: string;
  /** The time ranges missing, oldest first, as `intervalText` says them (full dates unless today). */
  ranges: string[];
  /** Why, as the backend said it. */
  reason: string;
}

export interface MissingByInstrument {
  serial: string;
  datasets: MissingDataset[];
}

/**
 * A sync's failures by instrument (in the sync's order), then dataset, with the ranges missing, each
 * with its full date unless it lies within today, so a year's gap never reads as a day.
 */
export function missingByInstrument(
  snapshot: Pick<SyncSnapshot, 'serials' | 'failures'>,
  zone: DisplayZone,
  now: number,
): MissingByInstrument[] {
  const bySerial = new Map<string, SyncFailure[]>();
  for (const serial of snapshot.serials) bySerial.set(serial, []);
  for (const failure of snapshot.failures) {
    bySerial.set(failure.serial, [...(bySerial.get(failure.serial) ?? []), failure]);
  }
  return [...bySerial]
    .filter(([, failures]) => failures.length > 0)
    .map(([serial, failures]) => ({
      serial,
      datasets: failures.map((failure) => ({
        dataset: failure.dataset,
        label: DATASET_LABELS[failure.dataset],
        ranges: failure.missing.map((range) => intervalText(range, zone, now)),
        reason: failure.message,
      })),
    }));
}

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
