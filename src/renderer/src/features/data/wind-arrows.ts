/**
 * A Chart.js plugin that draws each point of the datasets named in `plugins.windArrows` as an arrow
 * pointing downwind (see `windArrows` in wind.ts). Drawn as vectors on the chart's own context, so
 * the arrows stay sharp at any pixel ratio (an image point style is drawn at its pixel size).
 */
import type { ChartType, Plugin } from 'chart.js';
import type { ChartPoint } from '../../ui/chart-base';
import { downwindBearing } from './wind';

export interface WindArrowsOptions {
  /** Indexes of the datasets whose points are wind directions (degrees the wind comes from). */
  datasetIndexes: number[];
  color: string;
}

declare module 'chart.js' {
  // A merged interface must repeat Chart.js's own type parameter, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface PluginOptionsByType<TType extends ChartType> {
    /** Wind direction points drawn as arrows (features/data/wind-arrows.ts); absent elsewhere. */
    windArrows?: WindArrowsOptions | false;
  }
}

/** Arrow length and head size in CSS pixels: legible on a small laptop screen in sunlight. */
const ARROW_LENGTH = 16;
const HEAD_LENGTH = 6;
const HEAD_HALF_WIDTH = 4.5;

function drawArrow(ctx: CanvasRenderingContext2D, x: number, y: number, bearing: number): void {
  ctx.save();
  ctx.translate(x, y);
  // Canvas rotation is clockwise like a compass bearing; the arrow is drawn pointing up (north).
  ctx.rotate((bearing * Math.PI) / 180);
  const half = ARROW_LENGTH / 2;
  ctx.beginPath();
  ctx.moveTo(0, half);
  ctx.lineTo(0, -half + HEAD_LENGTH - 1);
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(0, -half);
  ctx.lineTo(HEAD_HALF_WIDTH, -half + HEAD_LENGTH);
  ctx.lineTo(-HEAD_HALF_WIDTH, -half + HEAD_LENGTH);
  ctx.closePath();
  ctx.fill();
  ctx.restore();
}

export const windArrowsPlugin: Plugin<'line'> = {
  id: 'windArrows',
  afterDatasetsDraw(chart) {
    // Chart.js hands plugin options over as partial: every field may be missing.
    const options = chart.options.plugins?.windArrows;
    if (!options || !options.datasetIndexes || !options.color) return;
    const { ctx, chartArea } = chart;
    ctx.save();
    ctx.beginPath();
    ctx.rect(chartArea.left, chartArea.top, chartArea.width, chartArea.height);
    ctx.clip();
    ctx.strokeStyle = options.color;
    ctx.fillStyle = options.color;
    ctx.lineWidth = 2;
    ctx.lineCap = 'round';
    for (const index of options.datasetIndexes) {
      if (index === undefined || !chart.isDatasetVisible(index)) continue;
      const points = chart.data.datasets[index]?.data as ChartPoint[] | undefined;
      chart.getDatasetMeta(index).data.forEach((element, i) => {
        const direction = points?.[i]?.y;
        if (direction === undefined || !Number.isFinite(direction)) return;
        drawArrow(ctx, element.x, element.y, downwindBearing(direction));
      });
    }
    ctx.restore();
  },
};
