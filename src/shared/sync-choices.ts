/**
 * What a site sync keeps, chosen per instrument type: the datasets, and for the datasets that take
 * them the noise values, band sets, weightings and periods. One choice becomes a list of requests
 * per instrument (`syncItemsFor`), the same in the dialog (its size estimate) and in the backend
 * (its plan). Named profiles ("Noise survey", …) are complete choices for every type.
 *
 * Calibration and SIC records and the calibration log are a few kilobytes a year and make the drift
 * charts: they are always kept for the last 24 months, whatever range is chosen.
 */
import { availableDatasetsFor, type Dataset, type DatasetOptions, type InstrumentKind } from './data';
import { NOISE_STATISTICAL_VALUES } from './service/limits';

export const SYNC_TYPES = ['noise', 'airquality', 'vibration'] as const;
export type SyncType = (typeof SYNC_TYPES)[number];

export const SYNC_TYPE_LABELS: Readonly<Record<SyncType, string>> = {
  noise: 'Noise monitors',
  airquality: 'Air-quality stations',
  vibration: 'Vibration monitors',
};

export type BandSet = 'Octave' | 'Third';
export type Weighting = 'A' | 'C' | 'Z';

/** What is kept of one instrument type. */
export interface SyncTypeChoice {
  /** Datasets over the chosen range (the records kept 24 months are added whatever this says). */
  datasets: Dataset[];
  /** Noise values of the noise levels (noise monitors). */
  values: string[];
  /** Band sets of the spectra. */
  bands: BandSet[];
  /** Weightings of the spectra. */
  weightings: Weighting[];
  /** Periods of measurements and environmental data, ISO 8601; null is as recorded. */
  periods: Array<string | null>;
}

export type SyncChoices = Record<SyncType, SyncTypeChoice>;

export interface SyncProfile {
  name: string;
  /** Shipped with FieldDesk: can be used, not changed or deleted. */
  builtIn: boolean;
  choices: SyncChoices;
}

/** Kept for `RECORDS_MONTHS` whatever range is chosen. */
export const RECORD_DATASETS: readonly Dataset[] = ['calibrations', 'calibrationLog', 'sic'];
export const RECORDS_MONTHS = 24;

/** The noise time history is kept for LAeq at 1 s only: a week of it is 604,800 samples per value. */
export const SYNC_TIME_HISTORY_OPTIONS: Readonly<DatasetOptions> = { values: ['LAeq'], period: 'PT1S' };

const STATISTICAL: ReadonlySet<string> = new Set(NOISE_STATISTICAL_VALUES);

/** The type a sync choice applies to; null for a type this version does not know. */
export function syncTypeOf(instrument: Pick<InstrumentKind, 'type'>): SyncType | null {
  const type = instrument.type.trim().toLowerCase();
  return (SYNC_TYPES as readonly string[]).includes(type) ? (type as SyncType) : null;
}

const NOISE_SURVEY: SyncChoices = {
  noise: {
    datasets: [
      'noiseMeasurements',
      'noiseTimeHistory',
      'frequencyMeasurements',
      'events',
      'audio',
      'monitorStats',
      'monitorEvents',
      'weather',
    ],
    values: ['LAeq', 'LAFMax', 'LAF10', 'LAF90', 'LCPeak'],
    bands: ['Octave', 'Third'],
    weightings: ['Z'],
    periods: [null],
  },
  airquality: {
    datasets: ['particulates', 'gases', 'weather'],
    values: [],
    bands: [],
    weightings: [],
    periods: [null],
  },
  vibration: {
    datasets: ['vibrationPPV', 'vibrationVDV'],
    values: [],
    bands: [],
    weightings: [],
    periods: [null],
  },
};

export const BUILT_IN_PROFILES: readonly SyncProfile[] = [
  { name: 'Noise survey', builtIn: true, choices: NOISE_SURVEY },
  {
    name: 'Construction vibration',
    builtIn: true,
    choices: {
      // Construction sites watch noise beside vibration: hourly and as-recorded levels, events.
      noise: {
        datasets: ['noiseMeasurements', 'events', 'audio', 'weather'],
        values: ['LAeq', 'LAFMax', 'LAF90', 'LCPeak'],
        bands: [],
        weightings: [],
        periods: [null],
      },
      airquality: { datasets: ['particulates'], values: [], bands: [], weightings: [], periods: [null] },
      vibration: {
        datasets: ['vibrationPPV', 'vibrationVDV'],
        values: [],
        bands: [],
        weightings: [],
        periods: [null, 'PT1H'],
      },
    },
  },
  {
    name: 'Air quality',
    builtIn: true,
    choices: {
      noise: {
        datasets: ['noiseMeasurements'],
        values: ['LAeq', 'LAFMax', 'LCPeak'],
        bands: [],
        weightings: [],
        periods: [null],
      },
      // 24-hour means are what the limit values are set against.
      airquality: {
        datasets: ['particulates', 'gases', 'weather'],
        values: [],
        bands: [],
        weightings: [],
        periods: [null, 'PT1H', 'P1D'],
      },
      vibration: { datasets: ['vibrationPPV'], values: [], bands: [], weightings: [], periods: [null] },
    },
  },
];

/** What a sync keeps unless the user chooses otherwise: the noise survey. */
export const DEFAULT_SYNC_CHOICES: SyncChoices = NOISE_SURVEY;

/** One request series of a sync: a dataset with its options, over the chosen range or the records' 24 months. */
export interface SyncItem {
  dataset: Dataset;
  options?: DatasetOptions;
  /** `records`: the 24 months before the range's end; `range`: the range chosen. */
  span: 'range' | 'records';
}

const PERIODIC: ReadonlySet<Dataset> = new Set([
  'weather',
  'particulates',
  'gases',
  'vibrationPPV',
  'vibrationVDV',
]);

const withPeriod = (options: DatasetOptions, period: string | null): DatasetOptions =>
  period === null ? options : { ...options, period };

const orNone = (options: DatasetOptions): DatasetOptions | undefined =>
  Object.keys(options).length === 0 ? undefined : options;

/**
 * The option sets one dataset is fetched with under a choice: noise levels once per period (the
 * statistical levels only as recorded, since the service refuses them with a period), spectra once
 * per band set, weighting and period. Empty when the choice leaves nothing to fetch.
 */
export function optionSetsOf(dataset: Dataset, choice: SyncTypeChoice): Array<DatasetOptions | undefined> {
  const periods = choice.periods.length > 0 ? choice.periods : [null];
  switch (dataset) {
    case 'noiseMeasurements':
      return periods.flatMap((period) => {
        const values = period === null ? choice.values : choice.values.filter((v) => !STATISTICAL.has(v));
        return values.length === 0 ? [] : [withPeriod({ values: [...values] }, period)];
      });
    case 'noiseTimeHistory':
      return [{ ...SYNC_TIME_HISTORY_OPTIONS, values: [...SYNC_TIME_HISTORY_OPTIONS.values!] }];
    case 'frequencyMeasurements':
    case 'frequencyTimeHistory': {
      const timeHistory = dataset === 'frequencyTimeHistory';
      const sets: DatasetOptions[] = [];
      for (const bands of choice.bands)
        for (const weighting of choice.weightings)
          // Spectrum time histories stay at their 1 s: the measurement periods do not apply.
          for (const period of timeHistory ? [null] : periods)
            sets.push(withPeriod({ bands, weighting }, period));
      return sets;
    }
    default:
      return PERIODIC.has(dataset) ? periods.map((period) => orNone(withPeriod({}, period))) : [undefined];
  }
}

/**
 * Every request series a sync makes for one instrument: the chosen datasets it can have, each with
 * its option sets, then the records it has, kept 24 months. `datasets` overrides the choice's
 * datasets for this instrument (the dialog lets each instrument differ).
 */
export function syncItemsFor(
  instrument: InstrumentKind,
  choices: SyncChoices,
  datasets?: readonly Dataset[],
): SyncItem[] {
  const available = availableDatasetsFor(instrument);
  const type = syncTypeOf(instrument);
  const choice = type === null ? null : choices[type];
  const wanted = datasets ?? choice?.datasets ?? [];
  const items: SyncItem[] = [];
  for (const dataset of available) {
    if (RECORD_DATASETS.includes(dataset) || !wanted.includes(dataset)) continue;
    const sets = choice === null ? [undefined] : optionSetsOf(dataset, choice);
    for (const options of sets)
      items.push({ dataset, ...(options === undefined ? {} : { options }), span: 'range' });
  }
  for (const dataset of RECORD_DATASETS)
    if (available.includes(dataset)) items.push({ dataset, span: 'records' });
  return items;
}

/** The datasets of a choice an instrument can have (the records kept 24 months left out). */
export function chosenDatasetsFor(instrument: InstrumentKind, choices: SyncChoices): Dataset[] {
  const type = syncTypeOf(instrument);
  const wanted = type === null ? [] : choices[type].datasets;
  return availableDatasetsFor(instrument).filter((d) => wanted.includes(d) && !RECORD_DATASETS.includes(d));
}

/**
 * The start of the records' span: 24 calendar months before `end` (UTC), on the same day of the
 * month or the month's last day when it has no such day (so the span is never short of 24 months).
 */
export function recordsStart(end: number): number {
  const date = new Date(end);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() - RECORDS_MONTHS);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}
