/**
 * The names a person reads in legends and figures: a record dataset's channels by their column's
 * label (`pM2p5` → "PM2.5", `windSpeed` → "Wind speed"), frequency bands by their centre frequency
 * (`_500Hz`, `1KHz` → "500 Hz", "1 kHz"), noise values as they are (LAeq). The wire name stays the
 * channel's `name` (the cache and the queries use it).
 */
import type { DataReadResult, Dataset } from '../../../shared/data';
import { bandLabel } from '../../../shared/service/bands';
import { RECORD_SPECS, type RecordDataset } from '../service/parse/record-specs';

const columnOf = (dataset: Dataset, name: string) =>
  (RECORD_SPECS as Partial<Record<Dataset, (typeof RECORD_SPECS)[RecordDataset]>>)[dataset]?.columns.find(
    (c) => c.key === name,
  );

export function channelLabel(dataset: Dataset, name: string): string {
  const column = columnOf(dataset, name);
  if (column !== undefined) return column.label;
  return dataset.startsWith('frequency') ? bandLabel(name) : name;
}

export function withLabels(result: DataReadResult): DataReadResult {
  const { dataset } = result.query;
  return {
    ...result,
    series: result.series.map((channel) => {
      const { quantity, group, onRequest } = columnOf(dataset, channel.name) ?? {};
      return {
        ...channel,
        label: channelLabel(dataset, channel.name),
        ...(quantity === undefined ? {} : { quantity }),
        ...(group === undefined ? {} : { group }),
        ...(onRequest === undefined ? {} : { onRequest }),
      };
    }),
  };
}
