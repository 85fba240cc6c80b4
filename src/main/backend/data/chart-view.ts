/**
 * A read for a chart: the figures of every channel from all its readings, then each series reduced
 * to what a chart of that width can show (min-max per pixel column), so a week of 1 s samples
 * crosses to the window as a few thousand points instead of 600,000.
 */
import type { DataReadResult } from '../../../shared/data';
import { channelFigures } from '../../../shared/series-figures';
import { minMaxReduce } from '../../../shared/series-reduce';

export function forChart(result: DataReadResult, columns: number): DataReadResult {
  const range = { start: result.query.start, end: result.query.end };
  const figures = result.series.map((channel) => channelFigures(channel, range));
  const series = result.series.map((channel) => ({
    ...channel,
    ...minMaxReduce(channel.times, channel.values, range, columns),
  }));
  return { ...result, series, chart: { columns, figures } };
}
