/**
 * What an assessment lays over a time chart: excluded periods shaded grey and hatched (so they read
 * apart from event marks in print and to the colour-blind), and limit lines across the plot with
 * their labels. One small Chart.js plugin draws both in one pass, as the event marks are drawn.
 */
import type { ChartOptions, ChartType, Plugin } from 'chart.js';
import type { SeriesChannel, TimeInterval } from '../../../../shared/data';
import { CHART_COLORS } from '../../ui/chart-base';

export interface LimitLine {
  label: string;
  value: number;
  /** The y axis it is drawn against (the axis of its unit). */
  axisId: string;
}

/**
 * What the plugin draws. A class, not a plain object, on purpose: Chart.js's option resolver wraps
 * every plain object and array it finds in proxies, read afresh on each draw, which for a year's
 * thousand excluded periods cost more than the drawing; an instance of a class it hands over as is.
 */
export class ChartOverlays {
  constructor(
    readonly excluded: readonly TimeInterval[],
    readonly limits: readonly LimitLine[],
  ) {}
}

export interface ChartOverlaysOptions {
  drawn: ChartOverlays;
}

declare module 'chart.js' {
  // A merged interface must repeat Chart.js's own type parameter, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface PluginOptionsByType<TType extends ChartType> {
    /** Excluded periods and limit lines (features/data/chart-overlays.ts); absent elsewhere. */
    chartOverlays?: ChartOverlaysOptions | false;
  }
}

const EXCLUDED_FILL = 'rgba(60, 60, 60, 0.16)';
const EXCLUDED_HATCH = 'rgba(60, 60, 60, 0.45)';
const LIMIT_COLOR = CHART_COLORS.danger;

function usable(options: Partial<ChartOverlaysOptions> | undefined): ChartOverlays | null {
  const drawn = options?.drawn;
  return drawn && Array.isArray(drawn.excluded) && Array.isArray(drawn.limits) ? drawn : null;
}

/**
 * The excluded periods as pixel spans across `[left, right]`, in time order, each at least a pixel
 * wide (a short exclusion on a year's chart still shows), spans that touch or overlap on screen
 * merged: a year's thousand rain periods are drawn as the few hundred runs a viewer can tell apart.
 */
export function excludedSpans(
  periods: readonly TimeInterval[],
  pixelOf: (time: number) => number,
  left: number,
  right: number,
): Array<{ left: number; right: number }> {
  const spans: Array<{ left: number; right: number }> = [];
  for (const period of periods) {
    const from = Math.max(left, pixelOf(period.start));
    const to = Math.min(right, pixelOf(period.end));
    if (!(to > from)) continue;
    spans.push({ left: from, right: Math.max(to, from + 1) });
  }
  spans.sort((a, b) => a.left - b.left);
  const merged: Array<{ left: number; right: number }> = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.left <= last.right + 1) last.right = Math.max(last.right, span.right);
    else merged.push({ ...span });
  }
  return merged;
}

/** One tile of the hatching: a diagonal line every 10 px, tiled from the canvas's origin. */
let hatchTile: HTMLCanvasElement | null = null;
/** Each chart's hatch, made once: making a pattern from the tile costs more than filling with it. */
const hatches = new WeakMap<CanvasRenderingContext2D, CanvasPattern | null>();
function hatchPattern(ctx: CanvasRenderingContext2D): CanvasPattern | null {
  if (hatches.has(ctx)) return hatches.get(ctx)!;
  if (!hatchTile) {
    hatchTile = document.createElement('canvas');
    hatchTile.width = 10;
    hatchTile.height = 10;
    const tile = hatchTile.getContext('2d');
    if (tile) {
      tile.strokeStyle = EXCLUDED_HATCH;
      tile.lineWidth = 1;
      tile.beginPath();
      // The line and its two wrap-around ends, so tiles join into unbroken diagonals.
      tile.moveTo(0, 10);
      tile.lineTo(10, 0);
      tile.moveTo(-1, 1);
      tile.lineTo(1, -1);
      tile.moveTo(9, 11);
      tile.lineTo(11, 9);
      tile.stroke();
    }
  }
  const pattern = ctx.createPattern(hatchTile, 'repeat');
  hatches.set(ctx, pattern);
  return pattern;
}

export const chartOverlaysPlugin: Plugin<'line'> = {
  id: 'chartOverlays',
  beforeDatasetsDraw(chart, _args, pluginOptions: Partial<ChartOverlaysOptions>) {
    const options = usable(pluginOptions);
    if (!options || options.excluded.length === 0) return;
    const { ctx, chartArea, scales } = chart;
    const x = scales['x']!;
    const spans = excludedSpans(
      options.excluded,
      (time) => x.getPixelForValue(time),
      chartArea.left,
      chartArea.right,
    );
    if (spans.length === 0) return;
    ctx.save();
    ctx.beginPath();
    for (const span of spans) ctx.rect(span.left, chartArea.top, span.right - span.left, chartArea.height);
    ctx.fillStyle = EXCLUDED_FILL;
    ctx.fill();
    const hatch = hatchPattern(ctx);
    if (hatch) {
      ctx.fillStyle = hatch;
      ctx.fill();
    }
    ctx.restore();
  },
  afterDatasetsDraw(chart, _args, pluginOptions: Partial<ChartOverlaysOptions>) {
    const options = usable(pluginOptions);
    if (!options || options.limits.length === 0) return;
    const { ctx, chartArea, scales } = chart;
    ctx.save();
    ctx.strokeStyle = LIMIT_COLOR;
    ctx.fillStyle = LIMIT_COLOR;
    ctx.lineWidth = 2;
    ctx.font = '700 13px system-ui, sans-serif';
    ctx.textAlign = 'right';
    ctx.textBaseline = 'bottom';
    for (const limit of options.limits) {
      const y = scales[limit.axisId];
      if (!y) continue;
      const at = Math.round(y.getPixelForValue(limit.value)) + 0.5;
      if (at < chartArea.top || at > chartArea.bottom) continue;
      ctx.setLineDash([10, 5]);
      ctx.beginPath();
      ctx.moveTo(chartArea.left, at);
      ctx.lineTo(chartArea.right, at);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillText(`${limit.label} ${limit.value}`, chartArea.right - 4, at - 3);
    }
    ctx.restore();
  },
};

/**
 * The plugin's options for a chart of `series`: a limit goes on the axis of its unit (the chart has
 * one per unit, `y0`, `y1`, … in the order the units first appear), widened to show the line when
 * the readings stay below it; a limit of a unit the chart does not draw is left out.
 */
export function overlaysFor(
  series: readonly SeriesChannel[],
  options: ChartOptions<'line'>,
  excluded: readonly TimeInterval[] | undefined,
  limits: ReadonlyArray<{ label: string; value: number; unit: string }> | undefined,
): ChartOverlaysOptions | false {
  if (!excluded?.length && !limits?.length) return false;
  const units = [...new Set(series.map((s) => s.unit ?? ''))];
  const lines = (limits ?? []).flatMap((limit) => {
    const index = units.indexOf(limit.unit);
    if (index < 0) return [];
    const axisId = `y${index}`;
    const scale = options.scales?.[axisId] as { suggestedMax?: number } | undefined;
    if (scale) scale.suggestedMax = Math.max(scale.suggestedMax ?? -Infinity, limit.value + 1);
    return [{ label: limit.label, value: limit.value, axisId }];
  });
  return { drawn: new ChartOverlays(excluded ?? [], lines) };
}
