/**
 * What every chart here shares: the theme's colours and font for the canvas, the options of a
 * line chart on a time axis with big series, and a value axis.
 */
import type { ChartDataset, ChartOptions } from 'chart.js';

export interface ChartPoint {
  x: number;
  y: number;
}

export type LineDataset = ChartDataset<'line', ChartPoint[]>;

/** The theme's colours (styles/tokens.css); the canvas cannot read CSS variables cheaply. */
export const CHART_COLORS = {
  text: '#0d0d0d',
  grid: '#c4c4c4',
  accent: '#0a3f8f',
  ok: '#0b5a25',
  okBand: 'rgba(11, 90, 37, 0.14)',
  danger: '#9b0d0d',
  bandLow: '#0a3f8f',
  bandMid: '#0d0d0d',
  bandHigh: '#a34a00',
} as const;

export interface AxisRange {
  min: number;
  max: number;
}

/**
 * Tick labels of every time axis, on a 24-hour clock: the date-fns adapter's own defaults are
 * 12-hour ("2 PM"), which a short range or a zoomed history would otherwise show.
 */
export const TIME_AXIS_FORMATS = {
  millisecond: 'HH:mm:ss.SSS',
  second: 'HH:mm:ss',
  minute: 'HH:mm',
  hour: 'HH:mm',
  day: 'd MMM',
  week: 'd MMM',
  month: 'MMM yyyy',
  quarter: 'QQQ yyyy',
  year: 'yyyy',
} as const;

/** The text of every chart's axes and legend. */
export const CHART_FONT = { size: 14, weight: 600 } as const;

/**
 * The look of an axis on the bar and matrix charts: its title in the chart font, ticks alike, a
 * 2 px base line, and grid lines across the plot or none. `ticks` adds to the ticks' options.
 */
export function axisStyle(title: string, grid: boolean, ticks: Record<string, unknown> = {}) {
  return {
    title: { display: true, text: title, color: CHART_COLORS.text, font: CHART_FONT },
    ticks: { color: CHART_COLORS.text, font: CHART_FONT, ...ticks },
    grid: grid ? { color: CHART_COLORS.grid } : { display: false },
    border: { color: CHART_COLORS.text, width: 2 },
  };
}

/**
 * The ticks of a time axis whose ticks are chosen to fit (see time-ticks.ts): never skipped, never
 * rotated, and the major ones (midnight, carrying the date) in bold.
 */
export const TIME_TICKS = {
  maxRotation: 0,
  autoSkip: false,
  major: { enabled: true },
  font: (context: { tick?: { major?: boolean } }) =>
    context.tick?.major ? { ...CHART_FONT, weight: 800 } : CHART_FONT,
};

/** The tooltip's text size on every chart. */
export const TOOLTIP_FONTS = { titleFont: { size: 14 }, bodyFont: { size: 14 } } as const;

/**
 * What every line chart here shares: it fills its box, draws at once (no animation) from points
 * already in `{ x, y }` order, and its tooltip follows the time nearest the pointer.
 */
export function lineChartBase(): ChartOptions<'line'> {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    parsing: false,
    normalized: true,
    interaction: { mode: 'nearest', axis: 'x', intersect: false },
  };
}

/** A value axis. With `grid` its lines cross the plot: one axis a chart, so two grids never clash. */
export function yScale(title: string, position: 'left' | 'right', range: AxisRange | null, grid: boolean) {
  return {
    type: 'linear' as const,
    position,
    ...(range === null ? {} : { min: range.min, max: range.max }),
    title: { display: true, text: title, color: CHART_COLORS.text, font: CHART_FONT },
    ticks: { color: CHART_COLORS.text, font: CHART_FONT },
    grid: grid ? { color: CHART_COLORS.grid } : { drawOnChartArea: false },
    border: { color: CHART_COLORS.text, width: 2 },
  };
}
