/**
 * The points of the data chart's lines (pure, tested directly): each line's style, the series
 * reduced to points, where a line breaks, readings a line cannot show, and a dB axis's least span.
 */
import type { TimeInterval } from '../../../../shared/data';
import { minMaxReduce } from '../../../../shared/series-reduce';
import type { ChannelFigures } from '../../../../shared/series-figures';
import { CHART_COLORS, type ChartPoint } from '../../ui/chart-base';

/** High-contrast line colours. */
const SERIES_COLORS: readonly string[] = [
  CHART_COLORS.accent,
  CHART_COLORS.text,
  CHART_COLORS.bandHigh,
  CHART_COLORS.ok,
  CHART_COLORS.danger,
  '#5b2a86',
  '#00666b',
  '#6b5200',
];
/** Dash patterns, told apart at a glance: solid, dashed, dotted, dash-dot. */
export const SERIES_DASHES: readonly number[][] = [[], [6, 3], [2, 2], [10, 3, 2, 3]];

export interface LineStyle {
  color: string;
  dash: number[];
}

/**
 * The style of the `index`-th line: the colours in turn, each with a dash, so lines differ without
 * colour too; once every colour is used the dashes shift by one, so the ninth line (the 8 kHz band
 * of ten octave bands) never looks like the first (31.5 Hz). 32 lines differ before one repeats.
 */
export function seriesStyle(index: number): LineStyle {
  const round = Math.floor(index / SERIES_COLORS.length);
  return {
    color: SERIES_COLORS[index % SERIES_COLORS.length]!,
    dash: SERIES_DASHES[(index + round) % SERIES_DASHES.length]!,
  };
}

/**
 * Pixel columns the renderer reduces to when the backend has not (`data.read` without `chartWidth`):
 * a little more than a wide canvas has pixels.
 */
export const CHART_BUCKETS = 1600;

/** The series as chart points, reduced with the shared min-max reduction (a no-op when already reduced). */
export function reducedPoints(
  times: Float64Array,
  values: Float32Array,
  range: TimeInterval,
  columns = CHART_BUCKETS,
): ChartPoint[] {
  const reduced = minMaxReduce(times, values, range, columns);
  return Array.from(reduced.times, (x, i) => ({ x, y: reduced.values[i]! }));
}

/**
 * Whether the line breaks between two readings: a gap marker after the last reading (where the
 * instrument's answer ends) or before the first breaks nothing that is drawn.
 */
export function hasBreak(points: readonly ChartPoint[]): boolean {
  let seenReading = false;
  let pendingGap = false;
  for (const point of points) {
    if (Number.isNaN(point.y)) pendingGap = seenReading;
    else {
      if (pendingGap) return true;
      seenReading = true;
    }
  }
  return false;
}

/** Indices of readings with no reading right before or after them (a line cannot show them). */
export function isolatedReadings(points: readonly ChartPoint[]): number[] {
  const reading = (i: number) => i >= 0 && i < points.length && !Number.isNaN(points[i]!.y);
  const found: number[] = [];
  for (let i = 0; i < points.length; i++) if (reading(i) && !reading(i - 1) && !reading(i + 1)) found.push(i);
  return found;
}

/** The least span of a dB axis: a few hundredths of a dB of difference is not drawn full height. */
export const MIN_DB_SPAN = 1;

/** An axis range at least `span` wide around the readings, or null to let Chart.js choose. */
export function atLeastSpan(
  figures: readonly ChannelFigures[],
  span: number,
): { min: number; max: number } | null {
  const lows = figures.flatMap((f) => (f.min ? [f.min.value] : []));
  const highs = figures.flatMap((f) => (f.max ? [f.max.value] : []));
  if (lows.length === 0) return null;
  const [low, high] = [Math.min(...lows), Math.max(...highs)];
  if (high - low >= span) return null;
  const centre = Math.round(((low + high) / 2) * 10) / 10;
  return { min: centre - span / 2, max: centre + span / 2 };
}
