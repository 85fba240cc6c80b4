/**
 * What a person reads and what the figures need, on every channel of an answer: its label in
 * legends and figures (`pM2p5` → "PM2.5", `_500Hz` → "500 Hz", LAeq as it is), the quantity and
 * chart group its record spec gives it, its kind and precision (shared/quantities.ts) on the
 * series and the record table's numeric columns alike, and its values in the unit people read
 * where the service sends another (pressure: bar → hPa). The wire name stays the channel's `name`
 * (the cache and the queries use it, and keep the service's unit).
 */
import type { CellValue, DataReadResult, Dataset, RecordColumn, SeriesChannel } from '../../../shared/data';
import {
  channelLabelOf,
  channelQuantity,
  columnSpecOf,
  type ColumnSpec,
} from '../service/parse/record-specs';

export function channelLabel(dataset: Dataset, name: string): string {
  return channelLabelOf(dataset, name);
}

/** One channel of `dataset` with its label, quantity, group, kind and precision. */
export function labelledChannel(dataset: Dataset, channel: SeriesChannel): SeriesChannel {
  const spec = columnSpecOf(dataset, channel.name);
  const { quantity, group, onRequest } = spec ?? {};
  const { kind, precision } = channelQuantity(dataset, channel.name, channel.unit);
  const shown = converted(spec, channel.unit);
  return {
    ...channel,
    ...(shown === null
      ? {}
      : { unit: shown.unit, values: channel.values.map((value) => value * shown.factor) }),
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
              if (column.type !== 'number') return column;
              const shown = converted(columnSpecOf(dataset, column.key), column.unit);
              const unit = shown === null ? column : { ...column, unit: shown.unit };
              if (column.precision !== undefined) return unit;
              const { precision } = channelQuantity(dataset, column.key, column.unit);
              return precision === null ? unit : { ...unit, precision };
            }),
            rows: convertedRows(dataset, records.columns, records.rows),
          },
  };
}

/** The unit a column is shown in and its factor, when its values still have the service's unit. */
function converted(
  spec: ColumnSpec | undefined,
  unit: string | null,
): { unit: string; factor: number } | null {
  return spec?.shownIn !== undefined && unit === spec.unit ? spec.shownIn : null;
}

/** Rows with the numbers of converted columns in the unit shown (the rows themselves untouched). */
function convertedRows(
  dataset: Dataset,
  columns: readonly RecordColumn[],
  rows: Array<Record<string, CellValue>>,
): Array<Record<string, CellValue>> {
  const conversions = columns.flatMap((column) => {
    const shown = column.type === 'number' ? converted(columnSpecOf(dataset, column.key), column.unit) : null;
    return shown === null ? [] : [{ key: column.key, factor: shown.factor }];
  });
  if (conversions.length === 0) return rows;
  return rows.map((row) => {
    const copy = { ...row };
    for (const { key, factor } of conversions) {
      const value = copy[key];
      if (typeof value === 'number') copy[key] = value * factor;
    }
    return copy;
  });
}
