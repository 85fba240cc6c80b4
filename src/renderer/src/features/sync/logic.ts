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
import { syncOutcome, type SyncOutcome } from '../../../../shared/sync-outcome';
import {
  optionSetsOf,
  SYNC_TYPES,
  type SyncChoices,
  type SyncProfile,
  type SyncType,
  type SyncTypeChoice,
} from '../../../../shared/sync-choices';
import { countOf } from '../../ui/words';
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

// Shared with the desktop notice of a sync that ended (src/main/notifications.ts).
export { syncOutcome, type SyncOutcome };

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

/**
 * Whether Resume can fetch anything more: false when every part still missing was refused for a
 * lasting reason (the key lacks a scope, the data does not exist), which no second try changes.
 */
export function resumeCanHelp(snapshot: Pick<SyncSnapshot, 'failures'>): boolean {
  return snapshot.failures.length === 0 || snapshot.failures.some((failure) => failure.retryable !== false);
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
        label: failureLabel(failure),
        ranges: failure.missing.map((range) => intervalText(range, zone, now)),
        reason: failure.message,
      })),
    }));
}

/** "Noise levels", or with the options of the requests that failed: "Octave / third-octave spectra (third-octave, A)". */
function failureLabel(failure: SyncFailure): string {
  const { options } = failure;
  const parts = [
    ...(options?.values ?? []),
    ...(options?.bands === undefined ? [] : [options.bands === 'Third' ? 'third-octave' : 'octave']),
    ...(options?.weighting === undefined ? [] : [`${options.weighting}-weighted`]),
    ...(options?.period === undefined ? [] : [options.period]),
  ];
  return `${DATASET_LABELS[failure.dataset]}${parts.length === 0 ? '' : ` (${parts.join(', ')})`}`;
}

export interface MissingByCause {
  /** Why, as the backend said it: said once for everything it left missing. */
  reason: string;
  instruments: MissingByInstrument[];
}

/**
 * What a sync could not fetch, by cause: one reason ("Cannot reach the service.") with every
 * instrument and dataset it left missing, instead of the same sentence once per request.
 */
export function missingByCause(
  snapshot: Pick<SyncSnapshot, 'serials' | 'failures'>,
  zone: DisplayZone,
  now: number,
): MissingByCause[] {
  const causes = new Map<string, MissingByInstrument[]>();
  for (const item of missingByInstrument(snapshot, zone, now)) {
    for (const dataset of item.datasets) {
      const instruments = causes.get(dataset.reason) ?? [];
      let entry = instruments.find((i) => i.serial === item.serial);
      if (entry === undefined) {
        entry = { serial: item.serial, datasets: [] };
        instruments.push(entry);
      }
      entry.datasets.push(dataset);
      causes.set(dataset.reason, instruments);
    }
  }
  return [...causes].map(([reason, instruments]) => ({ reason, instruments }));
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
 * (an instrument with none chosen is left out, rather than silently given the defaults), and
 * what is kept per instrument type.
 */
export function buildSyncRequest(
  orderedSerials: readonly string[],
  selected: readonly string[],
  datasets: Readonly<Record<string, readonly Dataset[]>>,
  range: TimeInterval,
  choices: SyncChoices,
): SyncRequest {
  const serials = orderedSerials.filter((s) => selected.includes(s) && (datasets[s]?.length ?? 0) > 0);
  return {
    serials,
    start: range.start,
    end: range.end,
    datasets: Object.fromEntries(serials.map((s) => [s, [...(datasets[s] ?? [])]])),
    choices,
  };
}

/** A deep copy, so editing the dialog's choices never edits a profile. */
export function copyChoices(choices: SyncChoices): SyncChoices {
  return Object.fromEntries(
    SYNC_TYPES.map((type) => {
      const c = choices[type];
      return [
        type,
        {
          datasets: [...c.datasets],
          values: [...c.values],
          bands: [...c.bands],
          weightings: [...c.weightings],
          periods: [...c.periods],
        },
      ];
    }),
  ) as SyncChoices;
}

const sameSet = <T>(a: readonly T[], b: readonly T[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/** Whether two choices keep the same (order does not matter). */
export function sameChoices(a: SyncChoices, b: SyncChoices): boolean {
  return SYNC_TYPES.every((type) => {
    const x = a[type];
    const y = b[type];
    return (
      sameSet(x.datasets, y.datasets) &&
      sameSet(x.values, y.values) &&
      sameSet(x.bands, y.bands) &&
      sameSet(x.weightings, y.weightings) &&
      sameSet(x.periods, y.periods)
    );
  });
}

/** The profile whose choices these are, if any (so the picker names it, or says "changed"). */
export function profileOf(profiles: readonly SyncProfile[], choices: SyncChoices): SyncProfile | null {
  return profiles.find((p) => sameChoices(p.choices, choices)) ?? null;
}

/**
 * Why a type's choice keeps nothing of a dataset it asks for; null when it keeps something. Noise
 * levels need a value (and with only periods other than "as recorded", a value that is not
 * statistical); spectra need a band set and a weighting.
 */
export function choiceProblem(choice: SyncTypeChoice): string | null {
  if (
    choice.datasets.includes('noiseMeasurements') &&
    optionSetsOf('noiseMeasurements', choice).length === 0
  ) {
    return choice.values.length === 0
      ? 'Choose at least one noise value, or leave out the noise levels.'
      : 'The statistical levels exist only as recorded: add “As recorded” to the periods.';
  }
  const spectra = choice.datasets.some((d) => d === 'frequencyMeasurements' || d === 'frequencyTimeHistory');
  if (spectra && (choice.bands.length === 0 || choice.weightings.length === 0)) {
    return 'Choose at least one band set and one weighting, or leave out the spectra.';
  }
  return null;
}

const PERIOD_WORDS: Readonly<Record<string, string>> = {
  PT5M: '5 min',
  PT15M: '15 min',
  PT1H: '1 h',
  P1D: '1 day',
};

/**
 * A type's choice in one line: "8 datasets · LAeq, LAFMax, LAF10 · octave, third-octave · Z ·
 * as recorded". Values and spectra only when their datasets are kept.
 */
export function choiceSummary(type: SyncType, choice: SyncTypeChoice): string {
  const parts = [countOf(choice.datasets.length, 'dataset')];
  if (type === 'noise' && choice.datasets.includes('noiseMeasurements')) {
    parts.push(choice.values.length === 0 ? 'no noise values' : choice.values.join(', '));
  }
  const spectra = choice.datasets.some((d) => d === 'frequencyMeasurements' || d === 'frequencyTimeHistory');
  if (type === 'noise' && spectra) {
    parts.push(choice.bands.map((b) => (b === 'Third' ? 'third-octave' : 'octave')).join(', ') || 'no bands');
    parts.push(choice.weightings.join(', ') || 'no weighting');
  }
  parts.push(
    choice.periods.length === 0
      ? 'as recorded'
      : choice.periods.map((p) => (p === null ? 'as recorded' : (PERIOD_WORDS[p] ?? p))).join(', '),
  );
  return parts.join(' · ');
}
