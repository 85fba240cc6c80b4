/**
 * What a person reads and what the figures need, on every channel of an answer: its label in
 * legends and figures (`pM2p5` → "PM2.5", `_500Hz` → "500 Hz", LAeq as it is), the quantity and
 * chart group its record spec gives it, and its kind and precision (shared/quantities.ts) on the
 * series and the record table's numeric columns alike. The wire name stays the channel's `name`
 * (the cache and the queries use it).
 */
import type { DataReadResult, Dataset, SeriesChannel } from '../../../shared/data';
import { channelLabelOf, channelQuantity, columnSpecOf } from '../service/parse/record-specs';

export function channelLabel(dataset: Dataset, name: string): string {
  return channelLabelOf(dataset, name);
}

/** One channel of `dataset` with its label, quantity, group, kind and precision. */
export function labelledChannel(dataset: Dataset, channel: SeriesChannel): SeriesChannel {
  const { quantity, group, onRequest } = columnSpecOf(dataset, channel.name) ?? {};
  const { kind, precision } = channelQuantity(dataset, channel.name, channel.unit);
  return {
    ...channel,
    label: channelLabel(dataset, channel.name),
    ...(quantity === undefined ? {} : { quantity }),
    ...(group === undefined ? {} : { group }),
    ...(onRequest === undefined ? {} : { onRequest }),
    kind,
    ...(precision === null ? {} : { precision }),
  };
}

export function withLabels(result: DataReadResult): DataReadResult {
  const { dataset } = result.query;
  const records = result.records;
  return {
    ...result,
    series: result.series.map((channel) => labelledChannel(dataset, channel)),
    records:
      records === null
        ? null
        : {
            ...records,
            columns: records.columns.map((column) => {
              if (column.type !== 'number' || column.precision !== undefined) return column;
              const { precision } = channelQuantity(dataset, column.key, column.unit);
              return precision === null ? column : { ...column, precision };
            }),
          },
  };
}
