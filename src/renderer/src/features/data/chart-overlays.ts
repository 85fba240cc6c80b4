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

export interface ChartOverlaysOptions {
  excluded: readonly TimeInterval[];
  limits: readonly LimitLine[];
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

function usable(options: Partial<ChartOverlaysOptions> | undefined): ChartOverlaysOptions | null {
  return options && options.excluded && options.limits ? (options as ChartOverlaysOptions) : null;
}

export const chartOverlaysPlugin: Plugin<'line'> = {
  id: 'chartOverlays',
  beforeDatasetsDraw(chart, _args, pluginOptions: Partial<ChartOverlaysOptions>) {
    const options = usable(pluginOptions);
    if (!options || options.excluded.length === 0) return;
    const { ctx, chartArea, scales } = chart;
    const x = scales['x']!;
    ctx.save();
    ctx.beginPath();
    ctx.rect(chartArea.left, chartArea.top, chartArea.width, chartArea.height);
    ctx.clip();
    for (const period of options.excluded) {
      const left = Math.max(chartArea.left, x.getPixelForValue(period.start));
      const right = Math.min(chartArea.right, x.getPixelForValue(period.end));
      if (!(right > left)) continue;
      // At least a pixel: a short exclusion on a month's chart still shows.
      const width = Math.max(1, right - left);
      ctx.fillStyle = EXCLUDED_FILL;
      ctx.fillRect(left, chartArea.top, width, chartArea.height);
      ctx.strokeStyle = EXCLUDED_HATCH;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let offset = -chartArea.height; offset < width; offset += 10) {
        ctx.moveTo(left + offset, chartArea.bottom);
        ctx.lineTo(left + offset + chartArea.height, chartArea.top);
      }
      ctx.save();
      ctx.beginPath();
      ctx.rect(left, chartArea.top, width, chartArea.height);
      ctx.clip();
      ctx.stroke();
      ctx.restore();
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
  return { excluded: excluded ?? [], limits: lines };
}
