/**
 * Noise events marked on a time chart: a shaded span from start to end and a dashed line at the
 * start (a 30 s event is narrower than a pixel on a week's chart; the line still shows). A small
 * Chart.js plugin draws them in one pass — chartjs-plugin-annotation made an element per mark, and a
 * week's hundred events cost it about 50 ms per drawing (measured with `npm run bench -- chart`).
 * Pointing and clicking are the chart component's (DataChart.vue, with `markNear`).
 */
import type { ChartType, Plugin } from 'chart.js';
import type { EventMark, TimeInterval } from '../../../../shared/data';
import { dbText } from '../../../../shared/format';
import { CHART_COLORS } from '../../ui/chart-base';

export type { EventMark };

export interface EventMarksOptions {
  marks: readonly EventMark[];
}

declare module 'chart.js' {
  // A merged interface must repeat Chart.js's own type parameter, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface PluginOptionsByType<TType extends ChartType> {
    /** Noise events marked on the time axis (features/data/event-marks.ts); absent elsewhere. */
    eventMarks?: EventMarksOptions | false;
  }
}

const MARK_LINE = CHART_COLORS.bandHigh;
const MARK_FILL = 'rgba(163, 74, 0, 0.16)';
/** How near the pointer must be to a mark's line, in CSS pixels, to point at it. */
const POINTING_PX = 6;

/** "Level over threshold, 78.4 dB": what a mark says on hover. */
export const eventMarkText = (mark: EventMark): string =>
  mark.level === null ? mark.trigger : `${mark.trigger}, ${dbText(mark.level, { decimals: 1 })}`;

/** The events that touch `range`, oldest first. */
export function marksIn(marks: readonly EventMark[], range: TimeInterval): EventMark[] {
  return marks
    .filter((mark) => mark.start < range.end && (mark.end ?? mark.start) >= range.start)
    .sort((a, b) => a.start - b.start);
}

/** The mark whose line is nearest `x` within `tolerance` pixels, or null. */
export function markNear(
  marks: readonly EventMark[],
  xOf: (time: number) => number,
  x: number,
  tolerance = POINTING_PX,
): EventMark | null {
  let best: EventMark | null = null;
  let bestDistance = tolerance;
  for (const mark of marks) {
    const distance = Math.abs(xOf(mark.start) - x);
    if (distance <= bestDistance) [best, bestDistance] = [mark, distance];
  }
  return best;
}

/**
 * The plugin's options as the hooks get them (resolved once, without Chart.js's per-key proxies on
 * every read); every field may be missing.
 */
function usable(options: Partial<EventMarksOptions> | undefined): EventMarksOptions | null {
  return options && options.marks ? (options as EventMarksOptions) : null;
}

export const eventMarksPlugin: Plugin<'line'> = {
  id: 'eventMarks',
  beforeDatasetsDraw(chart, _args, pluginOptions: Partial<EventMarksOptions>) {
    const options = usable(pluginOptions);
    if (!options) return;
    const { ctx, chartArea, scales } = chart;
    const x = scales['x']!;
    ctx.save();
    ctx.fillStyle = MARK_FILL;
    for (const mark of options.marks) {
      if (mark.end === null || mark.end <= mark.start) continue;
      const left = Math.max(chartArea.left, x.getPixelForValue(mark.start));
      const right = Math.min(chartArea.right, x.getPixelForValue(mark.end));
      if (right > left) ctx.fillRect(left, chartArea.top, right - left, chartArea.height);
    }
    ctx.restore();
  },
  afterDatasetsDraw(chart, _args, pluginOptions: Partial<EventMarksOptions>) {
    const options = usable(pluginOptions);
    if (!options) return;
    const { ctx, chartArea, scales } = chart;
    const x = scales['x']!;
    ctx.save();
    ctx.strokeStyle = MARK_LINE;
    ctx.lineWidth = 2;
    ctx.setLineDash([4, 3]);
    // A stroke per mark: one dashed path of every mark took a software canvas 50-90 ms to draw (a
    // week's 137), one each a few ms; dashes restart at each line either way.
    for (const mark of options.marks) {
      const at = Math.round(x.getPixelForValue(mark.start)) + 0.5;
      if (at < chartArea.left || at > chartArea.right) continue;
      ctx.beginPath();
      ctx.moveTo(at, chartArea.top);
      ctx.lineTo(at, chartArea.bottom);
      ctx.stroke();
    }
    ctx.restore();
  },
};
