/**
 * A Chart.js plugin that strokes the data chart's lines in pieces of a few hundred points instead
 * of one path. A week reduced to the chart's width is ~2,700 points zigzagging between each pixel
 * column's lowest and highest reading; Chromium's software canvas (no GPU) rasterised that as one
 * 2 px stroke in 90–140 ms, most of the time from "Last 7 days" to a painted chart, and in pieces
 * in a few ms. The picture is the same: each piece starts at the point where the one before ended,
 * in the same style, a dash pattern carried on across pieces (its offset is the length drawn so far),
 * every point joined to the next by a straight line as Chart.js does for dashed lines (its one-path
 * shortcut for solid lines instead averages the points of a pixel column into one vertical run).
 * Lines Chart.js draws otherwise (curves, steps, segment styles, loops) are left to Chart.js.
 */
import type { ChartType, LineElement, LineOptions, Plugin } from 'chart.js';

declare module 'chart.js' {
  // A merged interface must repeat Chart.js's own type parameter, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface PluginOptionsByType<TType extends ChartType> {
    /** Lines stroked in pieces (features/data/chunked-lines.ts); absent elsewhere. */
    chunkedLines?: boolean;
  }
}

/** Points per stroke: few enough that a piece rasterises at once, many enough that joins are rare. */
const POINTS_PER_STROKE = 256;

/** What of a canvas context the pieces are drawn with (a test records the calls). */
export type StrokeContext = Pick<
  CanvasRenderingContext2D,
  'beginPath' | 'moveTo' | 'lineTo' | 'stroke' | 'setLineDash'
> & { lineDashOffset: number };

/** A point of a line as drawn: its place in canvas pixels; `skip` for a gap (no reading). */
export interface LinePoint {
  x: number;
  y: number;
  skip?: boolean;
}

/**
 * Strokes the points of each segment (Chart.js's runs between gaps, inclusive `start`–`end`) that
 * lie in [from, from + count), `perStroke` points a stroke, each stroke starting at the last
 * point of the one before. Gap points (`skip`) are passed over as Chart.js does: the line goes on
 * from the point before to the point after, inside a segment.
 */
export function strokeInPieces(
  ctx: StrokeContext,
  points: readonly LinePoint[],
  segments: ReadonlyArray<{ start: number; end: number }>,
  from: number,
  count: number,
  dash: { pattern: number[]; offset: number },
  perStroke = POINTS_PER_STROKE,
): void {
  const dashed = dash.pattern.length > 0;
  let drawn = 0;
  for (const segment of segments) {
    const first = Math.max(from, segment.start);
    const last = Math.min(from + count - 1, segment.end);
    let previous: LinePoint | null = null;
    let inStroke = 0;
    for (let i = first; i <= last; i++) {
      const point = points[i]!;
      if (point.skip) continue;
      if (previous === null) {
        ctx.lineDashOffset = dash.offset + drawn;
        ctx.beginPath();
        ctx.moveTo(point.x, point.y);
        inStroke = 1;
      } else {
        ctx.lineTo(point.x, point.y);
        inStroke++;
        if (dashed) drawn += Math.hypot(point.x - previous.x, point.y - previous.y);
        if (inStroke >= perStroke) {
          ctx.stroke();
          ctx.lineDashOffset = dash.offset + drawn;
          ctx.beginPath();
          ctx.moveTo(point.x, point.y);
          inStroke = 1;
        }
      }
      previous = point;
    }
    if (inStroke > 1) ctx.stroke();
  }
}

/** Whether Chart.js would draw this line point to point (no curve, step, segment style or loop). */
function straight(line: LineElement): boolean {
  const options = line.options as Partial<LineOptions>;
  return (
    !options.tension &&
    !options.stepped &&
    options.cubicInterpolationMode !== 'monotone' &&
    !options.segment &&
    !(line as LineElement & { _loop?: boolean })._loop
  );
}

/** The line element's own draw, in pieces (same save/restore and style as Chart.js's). */
function drawInPieces(
  this: LineElement,
  ctx: CanvasRenderingContext2D,
  area: unknown,
  start?: number,
  count?: number,
): void {
  const options = this.options;
  // Its PointElements: typed by Chart.js as points whose x and y may be null, set once updated.
  const points = this.points as LinePoint[];
  if (points.length === 0 || !options.borderWidth) return;
  ctx.save();
  ctx.lineCap = options.borderCapStyle;
  ctx.lineJoin = options.borderJoinStyle;
  ctx.lineWidth = options.borderWidth;
  ctx.strokeStyle = options.borderColor as string;
  const pattern = options.borderDash ?? [];
  ctx.setLineDash(pattern);
  const from = start ?? 0;
  strokeInPieces(ctx, points, this.segments, from, count ?? points.length - from, {
    pattern,
    offset: options.borderDashOffset ?? 0,
  });
  ctx.restore();
}

/** The prototype's draw, for lines that are not straight (or stop being so after an update). */
type Draw = LineElement['draw'];

export const chunkedLinesPlugin: Plugin<'line'> = {
  id: 'chunkedLines',
  // Each dataset's line element is Chart.js's own; only its draw is swapped, per element and only
  // on the charts that ask (the data charts), so every other chart draws as before.
  afterDatasetUpdate(chart, args) {
    if (chart.options.plugins?.chunkedLines !== true) return;
    const line = args.meta.dataset as (LineElement & { drawAsChartJs?: Draw }) | undefined;
    if (line === undefined || typeof line.path !== 'function') return;
    line.drawAsChartJs ??= line.draw;
    line.draw = straight(line) ? (drawInPieces as Draw) : line.drawAsChartJs;
  },
};
