/**
 * Noise values fetched together with others are cached data, not derived data: a view asking for
 * LAeq, LCPeak and LAFMax is answered from a site sync that fetched those with LAF10 and LAF90,
 * online and offline alike, with the same provenance a read as asked would have. The wider query
 * is read (its still-open end refreshed as usual) and the answer narrowed to the values asked for.
 */
import type { DataReadResult, DatasetQuery, TimeInterval } from '../../../shared/data';
import { DEFAULT_NOISE_VALUES } from '../../../shared/service/limits';
import type { CacheStore } from '../cache/cache-store';
import { canonicalParameters } from '../cache/cache-key';
import { totalLength } from '../core/intervals';

const VALUE_DATASETS: ReadonlySet<string> = new Set(['noiseMeasurements', 'noiseTimeHistory']);

const askedValues = (query: DatasetQuery): string[] => {
  const values = query.options?.values;
  return [...new Set(values !== undefined && values.length > 0 ? values : DEFAULT_NOISE_VALUES)];
};

/** The parameter string without its values, and the values. */
function split(params: string): { rest: string; values: string[] } {
  const parts = params.split(';').filter((p) => p !== '');
  const values = parts.find((p) => p.startsWith('values='));
  return {
    rest: parts.filter((p) => !p.startsWith('values=')).join(';'),
    values: values === undefined ? [] : values.slice('values='.length).split(','),
  };
}

/**
 * A cached query of the same instrument, dataset and options with more values than asked, that
 * covers more of the range than the query as asked; null when there is none.
 */
export function widerValuesQuery(
  store: CacheStore,
  accountId: string,
  query: DatasetQuery,
  range: TimeInterval,
): DatasetQuery | null {
  if (!VALUE_DATASETS.has(query.dataset) || range.end <= range.start) return null;
  const asked = split(canonicalParameters(query.dataset, query.options));
  const key = (params: string) => ({ accountId, serial: query.serial, dataset: query.dataset, params });
  let best: { values: string[]; covered: number } | null = null;
  let bestCovered = totalLength(store.covered(key(canonicalParameters(query.dataset, query.options)), range));
  for (const params of store.paramsOf(accountId, query.serial, query.dataset)) {
    const cached = split(params);
    if (cached.rest !== asked.rest || cached.values.length <= asked.values.length) continue;
    if (!asked.values.every((v) => cached.values.includes(v))) continue;
    const covered = totalLength(store.covered(key(params), range));
    if (covered > bestCovered) {
      best = { values: cached.values, covered };
      bestCovered = covered;
    }
  }
  return best === null ? null : { ...query, options: { ...query.options, values: best.values } };
}

/** The answer to the wider query with only the values asked for, in the order asked, as the asked query's. */
export function narrowToValues(result: DataReadResult, query: DatasetQuery): DataReadResult {
  const asked = askedValues(query);
  const others = new Set((result.query.options?.values ?? []).filter((value) => !asked.includes(value)));
  const series = asked.flatMap((value) => result.series.filter((channel) => channel.name === value));
  const records =
    result.records === null
      ? null
      : {
          ...result.records,
          columns: result.records.columns.filter((column) => !others.has(column.key)),
          rows: result.records.rows.map((row) =>
            Object.fromEntries(Object.entries(row).filter(([key]) => !others.has(key))),
          ),
        };
  // What the wider read says of the values not asked for (derivation notes open with the value's name).
  const notes = result.notes?.filter((note) => ![...others].some((value) => note.startsWith(`${value} `)));
  const { notes: _wider, ...rest } = result;
  return { ...rest, query, series, records, ...(notes === undefined || notes.length === 0 ? {} : { notes }) };
}
