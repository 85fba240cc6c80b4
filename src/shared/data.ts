/**
 * Historic data as the app sees it: datasets, the query a view asks for, where the answer
 * came from (fresh, cached, partial), and the answer itself — time series as typed arrays
 * (`Float64Array` times in epoch ms, `Float32Array` values, NaN for "no reading"), other
 * records as a table. Also what site sync and the cache view exchange.
 */
import type { FieldDeskErrorData } from './errors';
import type { Precision, QuantityKind } from './quantities';
import type { ChannelFigures } from './series-figures';
import type { FinishedOperationState, OperationState } from './operations';
import type { SyncChoices } from './sync-choices';

export const DATASETS = [
  'noiseMeasurements',
  'noiseTimeHistory',
  'frequencyMeasurements',
  'frequencyTimeHistory',
  'weather',
  'particulates',
  'gases',
  'vibrationPPV',
  'vibrationVDV',
  'events',
  'audio',
  'calibrations',
  'calibrationLog',
  'sic',
  'monitorStats',
  'monitorEvents',
] as const;
export type Dataset = (typeof DATASETS)[number];

export const DATASET_LABELS: Readonly<Record<Dataset, string>> = {
  noiseMeasurements: 'Noise levels',
  noiseTimeHistory: 'Noise time history',
  frequencyMeasurements: 'Octave / third-octave spectra',
  frequencyTimeHistory: 'Spectrum time history',
  weather: 'Weather',
  particulates: 'Particulates',
  gases: 'Gases',
  vibrationPPV: 'Vibration (PPV)',
  vibrationVDV: 'Vibration (VDV)',
  events: 'Noise events',
  audio: 'Audio recordings',
  calibrations: 'Calibrations',
  calibrationLog: 'Calibration log',
  sic: 'System integrity checks',
  monitorStats: 'System health',
  monitorEvents: 'System events',
};

/** Options a dataset may take; each dataset uses only those that apply to its endpoint. */
export interface DatasetOptions {
  /** Noise value names (`LAeq`, `LAFMax`, …); default `LAeq, LCPeak, LAFMax`. */
  values?: string[];
  bands?: 'Octave' | 'Third';
  weighting?: 'A' | 'C' | 'Z';
  /** ISO 8601 duration to recalculate samples to, e.g. `PT1M`. */
  period?: string;
}

export interface DatasetQuery {
  serial: string;
  dataset: Dataset;
  /** Epoch ms, inclusive. */
  start: number;
  /** Epoch ms, exclusive. */
  end: number;
  options?: DatasetOptions;
}

export interface TimeInterval {
  start: number;
  end: number;
}

/**
 * Where an answer came from. Every read says so. A fresh or cached answer whose range has a
 * still-open recent part (where the service may still add readings) says when that part was
 * fetched in `openFetchedAt` (the oldest such part); it is absent when the whole range is settled.
 * Online, a data view reads the answer again once that is older than the user's refresh age.
 */
export type Provenance =
  | {
      source: 'fresh';
      fetchedAt: number;
      openFetchedAt?: number;
    }
  | {
      source: 'cached';
      /** When the oldest part shown was fetched. */
      cachedAt: number;
      /** Parts fetched again for this read (the still-open recent interval), and when. */
      refreshed?: { intervals: TimeInterval[]; fetchedAt: number };
      /**
       * Offline: the cache holds the range up to this time, its last fetch; what came after could
       * not be fetched. Said as the copy's end, not as a gap, since nothing was lost there.
       */
      upTo?: number;
      openFetchedAt?: number;
    }
  | {
      source: 'partial';
      /** When the oldest part that is shown was fetched; null when nothing was cached. */
      cachedAt: number | null;
      missing: TimeInterval[];
      /** Why the missing intervals could not be fetched (offline, forbidden, …). */
      reason: FieldDeskErrorData;
    };

/** One named series: `times[i]` (epoch ms) belongs to `values[i]`; NaN is "no reading". */
export interface SeriesChannel {
  name: string;
  /** What a person reads for `name` ("PM2.5", "500 Hz", "Wind speed"); set by the backend's answers. */
  label?: string;
  /** What it measures when the unit does not say (a calibration offset is dB, like a level). */
  quantity?: string;
  /** The chart it is drawn in with others of other units ("Compute": CPU %, memory MB); set by the backend. */
  group?: string;
  /** Drawn only when the user asks for it (a lesser metric of its group). */
  onRequest?: boolean;
  unit: string | null;
  /**
   * What kind of quantity it is (which figures mean something over a range) and how its values are
   * written: declared per channel by the backend (quantities.ts); `quantityOf` rules for a channel
   * without them.
   */
  kind?: QuantityKind;
  /** Absent where nothing declares it (a field this version does not know): as the values came. */
  precision?: Precision;
  times: Float64Array;
  values: Float32Array;
}

export type CellValue = string | number | boolean | null;

/**
 * What a column holds: `time` is epoch ms (a number), `list` a list of numbers shown as text
 * ("71.2, 80.1"), the others what they say. Decided by the parser, never guessed from names.
 */
export type ColumnType = 'time' | 'number' | 'text' | 'boolean' | 'list';

export interface RecordColumn {
  key: string;
  label: string;
  unit: string | null;
  type: ColumnType;
  /**
   * How a number is shown: its channel's declared precision (quantities.ts). Levels derived offline
   * keep 0.0001 dB (a second rounding would add error) but mean what the service's 0.1 dB do.
   * Absent: as it came, to four decimals at most.
   */
  precision?: Precision;
}

/**
 * Records of one dataset as a table. `timeKey` names the column that is each row's time (epoch ms):
 * rows are in its order, and a row belongs to the time interval that contains it — so a range
 * split into requests or cache chunks gives every row exactly once.
 */
export interface RecordTable {
  timeKey: string;
  columns: RecordColumn[];
  rows: Array<Record<string, CellValue>>;
}

/** One cached query an offline answer was derived from, and how (the same sentence is in `notes`). */
export interface DerivedFrom {
  dataset: Dataset;
  options: DatasetOptions;
  how: string;
}

export interface DataReadResult {
  query: DatasetQuery;
  provenance: Provenance;
  /**
   * Present only when the service could not be reached and the answer was computed from other
   * cached data (another weighting, a shorter period, bands): never on an answer fetched or cached
   * as asked.
   */
  derived?: DerivedFrom[];
  /** Numeric series for charts (empty for datasets without any). */
  series: SeriesChannel[];
  /** The records as a table (for measurement-style datasets, one row per record). */
  records: RecordTable | null;
  /** What the service sent that is not shown and why (e.g. implausible levels); absent when nothing. */
  notes?: string[];
  /**
   * Present when the read was for a chart (`chartWidth`): `series` then holds the min-max reduction
   * for that many pixel columns, and `figures` the exact figures of every channel from all readings.
   */
  chart?: { columns: number; figures: ChannelFigures[] };
  /**
   * Present when asked for (`withEvents`): the instrument's noise events in the range, to mark on
   * its noise charts — or why they could not be read (the chart itself does not fail for that).
   */
  events?: { marks: EventMark[] } | { problem: string };
}

/** A noise event as a chart marks it. */
export interface EventMark {
  start: number;
  /** Null when the service sent no end. */
  end: number | null;
  trigger: string;
  /** The level the trigger was set at (a threshold, not a measurement). */
  level: number | null;
  /** The service's `overall` values of the event (the interface documents neither what nor their unit); may be empty. */
  overall: number[];
}

/** One noise event's own time history (`data.eventTimeHistory`), with the figures of its readings. */
export interface EventTimeHistory {
  id: string;
  series: SeriesChannel[];
  figures: ChannelFigures[];
  /** From its first to just after its last reading; null when it has none. */
  range: TimeInterval | null;
  /** What of the answer could not be read (shown as gaps or left out): the answer is partial when any. */
  notes: string[];
  /** Present when the service could not be reached: the history as read then, at this time. */
  cachedAt?: number;
}

/** The answer to `data.export`: where the file went, or that the user chose not to save it. */
export type DataExportResult =
  | { saved: false }
  | {
      saved: true;
      /** Where the file is, in full. */
      path: string;
      fileName: string;
      /** Data rows written (the header not counted). */
      rows: number;
      bytes: number;
    };

/** The answer to `data.saveImage`: where the chart's PNG went, or that the user chose not to save it. */
export type DataImageResult =
  { saved: false } | { saved: true; path: string; fileName: string; bytes: number };

/** Pushed while `data.export` writes a file: how far it is (0…1) and the rows written so far. */
export interface DataExportProgress {
  fileName: string;
  fraction: number;
  rows: number;
}

/**
 * An instrument history read (`history.calibrations`, `…calibrationLog`, `…sic`): the typed
 * records, oldest first, and where they came from. These reads go through the cache like
 * `data.read`, so offline they answer what a site sync or an earlier read stored.
 */
export interface HistoryRead<T> {
  records: T[];
  provenance: Provenance;
}

// ---- site sync -------------------------------------------------------------------------------

export interface SyncRequest {
  serials: string[];
  start: number;
  end: number;
  /** Datasets per serial; when a serial is absent its type's choice (`choices`) is used. */
  datasets: Record<string, Dataset[]>;
  /**
   * What is kept per instrument type: values, bands, weightings, periods (and the datasets of
   * serials absent from `datasets`). The noise survey's when absent (sync-choices.ts).
   */
  choices?: SyncChoices;
}

/** What a site sync could not fetch for one dataset of one instrument. */
export interface SyncFailure {
  serial: string;
  dataset: Dataset;
  /** The options of the requests that failed, when the dataset was fetched with some. */
  options?: DatasetOptions;
  /** The time ranges still missing (normalised, oldest first). */
  missing: TimeInterval[];
  message: string;
  /**
   * False when asking again cannot help (the key lacks a scope, the instrument has no such data):
   * Resume is then not offered for it. Absent in syncs stored before this was kept: true.
   */
  retryable?: boolean;
}

export interface SyncSnapshot {
  id: string;
  kind: 'sync';
  accountId: string;
  serials: string[];
  start: number;
  end: number;
  /** `withGaps`: finished, but some parts could not be fetched (`failures` says which). */
  state: OperationState | 'interrupted' | 'withGaps';
  phase: string;
  startedAt: number;
  updatedAt: number;
  elapsedMs: number;
  /** Requests done of total (a request is one chunk of one dataset of one instrument). */
  done: number;
  total: number;
  /** Requests whose data is in the cache (fetched, or found there): of a finished sync, what it got. */
  fetched: number;
  /** Bytes received so far. */
  bytes: number;
  /** Estimated time left; null until it can be estimated. */
  etaMs: number | null;
  message: string;
  /** What failed, by instrument and dataset, with the time ranges missing, when some parts could not be fetched. */
  failures: SyncFailure[];
  error: FieldDeskErrorData | null;
}

export type SyncFinishedState = FinishedOperationState | 'withGaps';

/** Whether a sync has ended (as opposed to running or interrupted, which can resume). */
export function isSyncFinished(state: SyncSnapshot['state']): state is SyncFinishedState {
  return state === 'withGaps' || (FINISHED_SYNC_STATES as readonly string[]).includes(state);
}
const FINISHED_SYNC_STATES: readonly FinishedOperationState[] = [
  'succeeded',
  'failed',
  'cancelled',
  'timedOut',
];

// ---- cache view ------------------------------------------------------------------------------

export interface CachedDatasetSummary {
  dataset: Dataset;
  bytes: number;
  covered: TimeInterval[];
  lastFetchedAt: number;
}

export interface CachedInstrumentSummary {
  accountId: string;
  serial: string;
  bytes: number;
  datasets: CachedDatasetSummary[];
}

export interface CacheSummary {
  totalBytes: number;
  instruments: CachedInstrumentSummary[];
}

// ---- defaults for site sync -------------------------------------------------------------------

/** What `defaultDatasetsFor` needs of an instrument (a subset of the service's Instrument). */
export interface InstrumentKind {
  type: string;
  model: string;
  feature: readonly string[];
}

/** Whether the instrument lists a feature ("Weather", "SIC"), however the service cases it. */
export const hasFeature = (instrument: InstrumentKind, name: string) =>
  instrument.feature.some((f) => f.trim().toLowerCase() === name.toLowerCase());

/**
 * Every dataset an instrument can have at all, by its type, features and model: a sync offers
 * only these, so a clean sync never reports the impossible as missing.
 */
export function availableDatasetsFor(instrument: InstrumentKind): Dataset[] {
  const type = instrument.type.trim().toLowerCase();
  const weather: Dataset[] = hasFeature(instrument, 'Weather') ? ['weather'] : [];
  if (type === 'noise') {
    return [
      'noiseMeasurements',
      'noiseTimeHistory',
      'frequencyMeasurements',
      'frequencyTimeHistory',
      'events',
      'audio',
      'calibrations',
      'calibrationLog',
      ...(hasFeature(instrument, 'SIC') ? (['sic'] as const) : []),
      ...(/Quantum/.test(instrument.model) ? (['monitorStats', 'monitorEvents'] as const) : []),
      ...weather,
    ];
  }
  if (type === 'airquality') return ['particulates', 'gases', ...weather];
  if (type === 'vibration') return ['vibrationPPV', 'vibrationVDV'];
  // A type this version does not know: whatever it offers may be asked for.
  return [...DATASETS];
}
