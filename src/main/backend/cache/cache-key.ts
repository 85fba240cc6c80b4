/**
 * The cache's key for a query's parameters: one canonical string per meaning, so equal queries
 * share coverage whatever order or spelling they use. Only the options a dataset's endpoint takes
 * count; defaults the service applies are written out (no `values` = the default values, no
 * `bands` = Octave, a period equal to the endpoint's fixed default = no period).
 */
import type { Dataset, DatasetOptions, DatasetQuery } from '../../../shared/data';
import type { CacheKey } from './cache-store';
import {
  DEFAULT_FREQUENCY_BANDS,
  DEFAULT_FREQUENCY_WEIGHTING,
  DEFAULT_NOISE_VALUES,
  endpointLimitOf,
} from '../../../shared/service/limits';
import { parseIsoDuration } from '../../../shared/service/duration';

const NOISE_VALUE_DATASETS: ReadonlySet<Dataset> = new Set(['noiseMeasurements', 'noiseTimeHistory']);
const FREQUENCY_DATASETS: ReadonlySet<Dataset> = new Set(['frequencyMeasurements', 'frequencyTimeHistory']);

/** The canonical parameter string of a dataset's options, e.g. `values=LAeq` or `bands=Octave;weighting=Z;period=60000`. */
export function canonicalParameters(dataset: Dataset, options: DatasetOptions | undefined = {}): string {
  const parts: string[] = [];
  if (NOISE_VALUE_DATASETS.has(dataset)) {
    const values =
      options.values !== undefined && options.values.length > 0 ? options.values : DEFAULT_NOISE_VALUES;
    parts.push(`values=${[...new Set(values)].sort().join(',')}`);
  }
  if (FREQUENCY_DATASETS.has(dataset)) {
    parts.push(`bands=${options.bands ?? DEFAULT_FREQUENCY_BANDS}`);
    parts.push(`weighting=${options.weighting ?? DEFAULT_FREQUENCY_WEIGHTING}`);
  }
  const limit = endpointLimitOf(dataset);
  if (limit.period !== null && options.period !== undefined) {
    const ms = parseIsoDuration(options.period);
    const fixedDefault = limit.period.default.kind === 'fixed' ? limit.period.default.ms : null;
    if (ms === null) parts.push(`period=${options.period}`);
    else if (ms !== fixedDefault) parts.push(`period=${ms}`);
  }
  return parts.join(';');
}

/** The cache's key of a query of an account. */
export function cacheKeyOf(
  accountId: string,
  query: Pick<DatasetQuery, 'serial' | 'dataset' | 'options'>,
): CacheKey {
  return {
    accountId,
    serial: query.serial,
    dataset: query.dataset,
    params: canonicalParameters(query.dataset, query.options),
  };
}
