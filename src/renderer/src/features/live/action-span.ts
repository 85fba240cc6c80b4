/**
 * The live chart's mark of an action run while it shows: the span from its start to its end (or
 * to now, while it runs) shaded, its name written at the top, so the rise to a calibrator's level
 * reads as the calibration it is. A small Chart.js plugin, like the data charts' overlays.
 */
import type { ChartType, Plugin } from 'chart.js';
import { CHART_COLORS, CHART_FONT } from '../../ui/chart-base';
import { isActive } from '../operations/logic';
import type { OperationSnapshot } from '../../../../shared/operations';

/** What is marked. A class, so Chart.js's option resolver hands it over as is (no proxies). */
export class ActionSpan {
  constructor(
    readonly label: string,
    readonly start: number,
    readonly end: number,
  ) {}
}

declare module 'chart.js' {
  // A merged interface must repeat Chart.js's own type parameter, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface PluginOptionsByType<TType extends ChartType> {
    /** The action marked on the live chart (features/live/action-span.ts); absent elsewhere. */
    actionSpan?: { span: ActionSpan | null } | false;
  }
}

/** The operation's span as marked, or null when it is not within `[from, to]` (the chart's window). */
export function actionSpanOf(
  operation: OperationSnapshot | null,
  from: number,
  to: number,
): ActionSpan | null {
  if (operation === null || operation.action === 'Identify') return null;
  const end = isActive(operation) ? to : operation.startedAt + operation.elapsedMs;
  if (end < from || operation.startedAt > to) return null;
  const label = operation.action === 'SIC' ? 'SIC' : 'Calibration';
  return new ActionSpan(isActive(operation) ? `${label} running` : label, operation.startedAt, end);
}

export const actionSpanPlugin: Plugin<'line'> = {
  id: 'actionSpan',
  beforeDatasetsDraw(chart, _args, options: { span?: ActionSpan | null }) {
    const span = options.span;
    if (!(span instanceof ActionSpan)) return;
    const { ctx, chartArea, scales } = chart;
    const x = scales['x']!;
    const left = Math.max(chartArea.left, x.getPixelForValue(span.start));
    const right = Math.min(chartArea.right, Math.max(left + 2, x.getPixelForValue(span.end)));
    ctx.save();
    ctx.fillStyle = 'rgba(10, 63, 143, 0.12)';
    ctx.fillRect(left, chartArea.top, right - left, chartArea.height);
    ctx.strokeStyle = CHART_COLORS.accent;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(left, chartArea.top);
    ctx.lineTo(left, chartArea.bottom);
    ctx.stroke();
    ctx.fillStyle = CHART_COLORS.text;
    ctx.font = `bold ${CHART_FONT.size}px ${getComputedStyle(chart.canvas).fontFamily || 'sans-serif'}`;
    ctx.textBaseline = 'top';
    // Beside its start, on the left of it where the chart's edge would cut it (an action just begun).
    const width = ctx.measureText(span.label).width;
    const textLeft =
      left + 6 + width <= chartArea.right ? left + 6 : Math.max(chartArea.left, left - 6 - width);
    ctx.fillText(span.label, textLeft, chartArea.top + 6);
    ctx.restore();
  },
};
