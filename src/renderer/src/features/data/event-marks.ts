/**
 * Noise events on a time chart as a thin lane over the plot, not lines across it: each event a
 * block from its start to its end (at least a few pixels wide), and events that crowd at the zoom
 * shown gathered into one block with their count. The lane's colour is used by no series, so it
 * never reads as data. A small Chart.js plugin draws it in one pass (chartjs-plugin-annotation made
 * an element per mark, about 50 ms per drawing for a week's hundred events). Pointing and clicking
 * are the chart component's (DataChart.vue, with `laneItemAt`).
 */
import type { ChartType, Plugin } from 'chart.js';
import type { EventMark, TimeInterval } from '../../../../shared/data';
import { EVENT_LANE } from '../../../../shared/event-marks';
import { exactTimeText, zoneSuffix, type DisplayZone } from '../../ui/time';
import { countOf } from '../../ui/words';
import { eventDurationText, overallText } from './events';

export type { EventMark };

/** Room the chart keeps above its plot for the lane. */
export const EVENT_LANE_ROOM = EVENT_LANE.height + EVENT_LANE.gap + 2;
/** The lane's colour: a magenta no series, band or overlay uses; white count text on it is 7:1. */
export const EVENT_LANE_COLOR = '#8a1f6b';
/** Marks closer than this (CSS pixels) at the zoom shown are one cluster. */
const CLUSTER_PX = 10;
/** The least width of a block, so a 30 s event on a week's chart still shows and can be pointed at. */
const MIN_BLOCK_PX = 6;
/** A cluster's block is wide enough for its count. */
const MIN_CLUSTER_PX = 22;

export interface EventLaneOptions {
  marks: readonly EventMark[];
}

/** One block of the lane: one event, or several that crowd at this zoom. */
export interface LaneItem {
  marks: EventMark[];
  /** CSS pixels from the canvas's left. */
  left: number;
  right: number;
}

declare module 'chart.js' {
  // A merged interface must repeat Chart.js's own type parameter, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface PluginOptionsByType<TType extends ChartType> {
    /** Noise events in a lane over the plot (features/data/event-marks.ts); absent elsewhere. */
    eventMarks?: EventLaneOptions | false;
  }
}

/** The events that touch `range`, oldest first. */
export function marksIn(marks: readonly EventMark[], range: TimeInterval): EventMark[] {
  return marks
    .filter((mark) => mark.start < range.end && (mark.end ?? mark.start) >= range.start)
    .sort((a, b) => a.start - b.start);
}

/**
 * The lane's blocks for marks sorted by start: a mark joins the block before it when it starts
 * within `CLUSTER_PX` of that block's right edge, so a block never hides another.
 */
export function laneItems(
  marks: readonly EventMark[],
  xOf: (time: number) => number,
  bounds: { left: number; right: number },
): LaneItem[] {
  const items: LaneItem[] = [];
  for (const mark of marks) {
    const start = Math.max(bounds.left, xOf(mark.start));
    const end = Math.min(bounds.right, Math.max(start + MIN_BLOCK_PX, xOf(mark.end ?? mark.start)));
    const last = items[items.length - 1];
    if (last && start - last.right < CLUSTER_PX) {
      last.marks.push(mark);
      last.right = Math.max(last.right, end, last.left + MIN_CLUSTER_PX);
    } else items.push({ marks: [mark], left: start, right: end });
  }
  return items;
}

/** The block under `x` (CSS pixels), allowing a few pixels either side; null when none. */
export function laneItemAt(items: readonly LaneItem[], x: number, tolerance = 3): LaneItem | null {
  return items.find((item) => x >= item.left - tolerance && x <= item.right + tolerance) ?? null;
}

/** "2026-11-26 14:32:05 UTC+00:00": an event's time to the second, in the zone shown. */
const instantText = (time: number, zone: DisplayZone): string =>
  `${exactTimeText(time, zone)}${zoneSuffix(zone, time)}`;

/**
 * What pointing at one event says: its trigger, its start in the zone shown, how long it lasted,
 * and the overall values the service reports for it, named as the events table names them (the
 * interface documents neither what they are nor their unit; the trigger's own level is a threshold,
 * said as the trigger's).
 */
export function eventMarkText(mark: EventMark, zone: DisplayZone): string {
  const overall =
    mark.overall.length === 0
      ? 'no overall values reported'
      : `overall values (undocumented) ${overallText(mark.overall)}`;
  return `${mark.trigger} · started ${instantText(mark.start, zone)}, lasted ${eventDurationText(mark.start, mark.end)} · ${overall}`;
}

/** What pointing at a block says: the one event, or how many and when, and how to tell them apart. */
export function laneItemText(item: LaneItem, zone: DisplayZone): string {
  if (item.marks.length === 1) return eventMarkText(item.marks[0]!, zone);
  const first = item.marks[0]!;
  const last = item.marks[item.marks.length - 1]!;
  return `${countOf(item.marks.length, 'noise event')}, ${instantText(first.start, zone)} – ${instantText(last.end ?? last.start, zone)} · click to zoom in to them`;
}

/** The span a cluster's click zooms to: its events with a little room either side. */
export function laneItemSpan(item: LaneItem): TimeInterval {
  const start = Math.min(...item.marks.map((mark) => mark.start));
  const end = Math.max(...item.marks.map((mark) => mark.end ?? mark.start));
  const room = Math.max(60_000, (end - start) * 0.1);
  return { start: start - room, end: end + room };
}

function usable(options: Partial<EventLaneOptions> | undefined): EventLaneOptions | null {
  return options && options.marks ? (options as EventLaneOptions) : null;
}

/** The lane's top and bottom in CSS pixels from the canvas's top, for a plot starting at `plotTop`. */
export const laneBox = (plotTop: number): { top: number; bottom: number } => ({
  top: plotTop - EVENT_LANE.gap - EVENT_LANE.height,
  bottom: plotTop - EVENT_LANE.gap,
});

export const eventMarksPlugin: Plugin<'line'> = {
  id: 'eventMarks',
  afterDatasetsDraw(chart, _args, pluginOptions: Partial<EventLaneOptions>) {
    const options = usable(pluginOptions);
    if (!options || options.marks.length === 0) return;
    const { ctx, chartArea, scales } = chart;
    const x = scales['x']!;
    const lane = laneBox(chartArea.top);
    const items = laneItems(options.marks, (time) => x.getPixelForValue(time), chartArea);
    ctx.save();
    ctx.fillStyle = EVENT_LANE_COLOR;
    ctx.font = '700 12px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (const item of items) {
      const width = Math.max(2, item.right - item.left);
      ctx.fillRect(item.left, lane.top, width, EVENT_LANE.height);
      if (item.marks.length > 1) {
        ctx.fillStyle = '#ffffff';
        ctx.fillText(String(item.marks.length), item.left + width / 2, (lane.top + lane.bottom) / 2 + 1);
        ctx.fillStyle = EVENT_LANE_COLOR;
      }
    }
    ctx.restore();
  },
};
