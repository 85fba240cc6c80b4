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
 * Band colours from low to high frequency — deep purple, blue, teal, green, olive, orange, red,
 * crimson — each at least 4.5:1 against the chart's white, so a band reads by its place in the
 * spectrum as well as by its colour.
 */
const BAND_RAMP: readonly string[] = [
  '#3b0f70',
  '#1f4e9c',
  '#00838f',
  '#2e7d32',
  '#6b7d00',
  '#b35c00',
  '#c62828',
  '#8e0038',
];

const rgbOf = (hex: string): [number, number, number] => [
  parseInt(hex.slice(1, 3), 16),
  parseInt(hex.slice(3, 5), 16),
  parseInt(hex.slice(5, 7), 16),
];

/** The colour at `share` (0…1) along `stops`, mixed between the two stops it falls between. */
export function rampColour(stops: readonly string[], share: number): string {
  const at = Math.min(1, Math.max(0, share)) * (stops.length - 1);
  const low = Math.floor(at);
  const high = Math.min(stops.length - 1, low + 1);
  const mix = at - low;
  const [a, b] = [rgbOf(stops[low]!), rgbOf(stops[high]!)];
  const channel = (i: 0 | 1 | 2) => Math.round(a[i] + (b[i] - a[i]) * mix);
  return `rgb(${channel(0)}, ${channel(1)}, ${channel(2)})`;
}

/**
 * The line of the `index`-th of `count` frequency bands (in order of frequency): a colour of its
 * own, evenly along the band ramp from the lowest band to the highest, so no two bands share one
 * (the series colours repeat after eight: 31.5 Hz and 8 kHz were both blue), and the dashes in
 * turn, so neighbouring bands differ by dash too.
 */
export function bandStyle(index: number, count: number): LineStyle {
  return {
    color: rampColour(BAND_RAMP, count > 1 ? index / (count - 1) : 0.5),
    dash: SERIES_DASHES[index % SERIES_DASHES.length]!,
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
