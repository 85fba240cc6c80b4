/**
 * Which datasets an instrument has, which a site sync takes by default, and which options
 * (noise values, bands, weighting, period) each dataset accepts, with the service's defaults.
 */
import {
  availableDatasetsFor,
  DATASET_LABELS,
  type Dataset,
  type DatasetOptions,
} from '../../../../shared/data';
import { SYNC_TIME_HISTORY_OPTIONS } from '../../../../shared/sync-choices';
import {
  DEFAULT_FREQUENCY_BANDS,
  DEFAULT_FREQUENCY_WEIGHTING,
  DEFAULT_NOISE_VALUES,
  NOISE_STATISTICAL_VALUES,
} from '../../../../shared/service/limits';
import type { Instrument } from '../../../../shared/service/schemas';

type InstrumentFacts = Pick<Instrument, 'type' | 'model' | 'feature'>;

/** Looked at first when an instrument has them: events right after the levels they explain. */
const FIRST_DATASETS: readonly Dataset[] = ['noiseMeasurements', 'events'];

/**
 * Every dataset the data view and the sync dialog offer for an instrument: exactly those it can
 * have at all (the backend's rule, by type, features and model, in shared/data.ts), most used
 * first. So the dialog never asks for, and a sync never reports missing, what cannot exist.
 */
export function availableDatasets(instrument: InstrumentFacts): Dataset[] {
  const available = availableDatasetsFor(instrument);
  const first = FIRST_DATASETS.filter((d) => available.includes(d));
  return [...first, ...available.filter((d) => !first.includes(d))];
}

/** The dataset the data view opens with. */
export function firstDataset(instrument: InstrumentFacts): Dataset | null {
  return availableDatasets(instrument)[0] ?? null;
}

export function datasetListText(datasets: readonly Dataset[]): string {
  return datasets.length === 0 ? 'Nothing' : datasets.map((d) => DATASET_LABELS[d]).join(', ');
}

// ---- options ---------------------------------------------------------------------------------

/** The noise values offered as a checklist (the service accepts more). */
export const NOISE_VALUE_CHOICES = [
  'LAeq',
  'LCeq',
  'LZeq',
  'LAE',
  'LAPeak',
  'LCPeak',
  'LZPeak',
  'LAFMax',
  'LASMax',
  'LAF10',
  'LAF90',
] as const;

/** Statistical levels exist only as recorded: the service refuses them with a period. */
const STATISTICAL_VALUES: ReadonlySet<string> = new Set(NOISE_STATISTICAL_VALUES);

export interface PeriodChoice {
  /** ISO 8601 duration; null: as recorded. */
  value: string | null;
  label: string;
}

const AS_RECORDED: PeriodChoice = { value: null, label: 'As recorded' };

const MEASUREMENT_PERIODS: PeriodChoice[] = [
  AS_RECORDED,
  { value: 'PT15M', label: '15 minutes' },
  { value: 'PT1H', label: '1 hour' },
  { value: 'P1D', label: '1 day' },
];
const TIME_HISTORY_PERIODS: PeriodChoice[] = [
  AS_RECORDED,
  { value: 'PT1S', label: '1 second' },
  { value: 'PT10S', label: '10 seconds' },
  { value: 'PT1M', label: '1 minute' },
];
const ENVIRONMENT_PERIODS: PeriodChoice[] = [
  AS_RECORDED,
  { value: 'PT5M', label: '5 minutes' },
  { value: 'PT15M', label: '15 minutes' },
  { value: 'PT1H', label: '1 hour' },
  { value: 'P1D', label: '1 day' },
];

export interface DatasetOptionKinds {
  values: boolean;
  bandsAndWeighting: boolean;
  /** Empty when the dataset takes no period. */
  periods: PeriodChoice[];
}

export function optionKinds(dataset: Dataset): DatasetOptionKinds {
  switch (dataset) {
    case 'noiseMeasurements':
      return { values: true, bandsAndWeighting: false, periods: MEASUREMENT_PERIODS };
    case 'noiseTimeHistory':
      return { values: true, bandsAndWeighting: false, periods: TIME_HISTORY_PERIODS };
    case 'frequencyMeasurements':
      return { values: false, bandsAndWeighting: true, periods: MEASUREMENT_PERIODS };
    case 'frequencyTimeHistory':
      return { values: false, bandsAndWeighting: true, periods: TIME_HISTORY_PERIODS };
    case 'weather':
    case 'particulates':
    case 'gases':
    case 'vibrationPPV':
    case 'vibrationVDV':
      return { values: false, bandsAndWeighting: false, periods: ENVIRONMENT_PERIODS };
    default:
      return { values: false, bandsAndWeighting: false, periods: [] };
  }
}

/** Options as the view edits them: every field present, defaults filled in. */
export interface OptionChoices {
  values: string[];
  bands: 'Octave' | 'Third';
  weighting: 'A' | 'C' | 'Z';
  period: string | null;
}

export const DEFAULT_OPTION_CHOICES: Readonly<OptionChoices> = {
  values: [...DEFAULT_NOISE_VALUES],
  bands: DEFAULT_FREQUENCY_BANDS,
  weighting: DEFAULT_FREQUENCY_WEIGHTING,
  period: null,
};

/**
 * The choices a dataset opens with: the service's defaults, except where a site sync fetches
 * other options (the 1 s noise time history of LAeq only), so the view reads what was cached.
 */
export function initialChoices(dataset: Dataset): OptionChoices {
  const synced: DatasetOptions = dataset === 'noiseTimeHistory' ? SYNC_TIME_HISTORY_OPTIONS : {};
  return {
    values: [...(synced.values ?? DEFAULT_OPTION_CHOICES.values)],
    bands: synced.bands ?? DEFAULT_OPTION_CHOICES.bands,
    weighting: synced.weighting ?? DEFAULT_OPTION_CHOICES.weighting,
    period: synced.period ?? DEFAULT_OPTION_CHOICES.period,
  };
}

const sameValues = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * The options a read sends: only those the dataset takes, and only where they differ from the
 * service's defaults, so a view with default options asks exactly what a site sync cached.
 */
export function queryOptions(dataset: Dataset, choices: OptionChoices): DatasetOptions | undefined {
  const kinds = optionKinds(dataset);
  const options: DatasetOptions = {};
  if (kinds.values) {
    // In checklist order, so the same choice is always the same query.
    const ordered = NOISE_VALUE_CHOICES.filter((v) => choices.values.includes(v));
    if (ordered.length > 0 && !sameValues(ordered, DEFAULT_NOISE_VALUES)) options.values = ordered;
  }
  if (kinds.bandsAndWeighting) {
    if (choices.bands !== DEFAULT_OPTION_CHOICES.bands) options.bands = choices.bands;
    if (choices.weighting !== DEFAULT_OPTION_CHOICES.weighting) options.weighting = choices.weighting;
  }
  if (kinds.periods.length > 0 && choices.period !== null) {
    if (kinds.periods.some((p) => p.value === choices.period)) options.period = choices.period;
  }
  return Object.keys(options).length === 0 ? undefined : options;
}

/** Why the options cannot be read as they are; null when they can. */
export function optionsProblem(dataset: Dataset, choices: OptionChoices): string | null {
  const kinds = optionKinds(dataset);
  if (!kinds.values) return null;
  if (choices.values.length === 0) return 'Choose at least one noise value.';
  const statistical = choices.values.filter((v) => STATISTICAL_VALUES.has(v));
  if (choices.period !== null && statistical.length > 0) {
    return `${statistical.join(' and ')} exist only as recorded: choose “As recorded” or leave them out.`;
  }
  return null;
}
