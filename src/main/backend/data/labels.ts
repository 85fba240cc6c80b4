/**
 * The names a person reads in legends and figures: a record dataset's channels by their column's
 * label (`pM2p5` → "PM2.5", `windSpeed` → "Wind speed"), frequency bands by their centre frequency
 * (`_500Hz`, `1KHz` → "500 Hz", "1 kHz"), noise values as they are (LAeq). The wire name stays the
 * channel's `name` (the cache and the queries use it).
 */
import type { DataReadResult, Dataset } from '../../../shared/data';
import { bandCentreFrequency } from '../service/parse/names';
import { RECORD_SPECS, type RecordDataset } from '../service/parse/record-specs';

export function bandLabel(frequency: number): string {
  return frequency < 1000 ? `${frequency} Hz` : `${frequency / 1000} kHz`;
}

export function channelLabel(dataset: Dataset, name: string): string {
  const spec = (RECORD_SPECS as Partial<Record<Dataset, (typeof RECORD_SPECS)[RecordDataset]>>)[dataset];
  const column = spec?.columns.find((c) => c.key === name);
  if (column !== undefined) return column.label;
  const frequency = dataset.startsWith('frequency') ? bandCentreFrequency(name) : null;
  return frequency === null ? name : bandLabel(frequency);
}

export function withLabels(result: DataReadResult): DataReadResult {
  const { dataset } = result.query;
  return {
    ...result,
    series: result.series.map((channel) => ({ ...channel, label: channelLabel(dataset, channel.name) })),
  };
}
