/**
 * Pointing at the data chart's lane of noise events (event-marks.ts): which block is under the
 * pointer and where its label goes, and what a click on it does — one event opens, a numbered
 * block zooms in until its events stand apart.
 */
import { ref, watch, type Ref, type WatchSource } from 'vue';
import type { Chart } from 'chart.js';
import type { TimeInterval } from '../../../../shared/data';
import { laneBox, laneItemAt, laneItems, laneItemSpan, type EventMark, type LaneItem } from './event-marks';

/** The lane's block under the pointer, and where its label goes (CSS pixels from the canvas's left). */
export interface PointedBlock {
  item: LaneItem;
  left: number;
  /** Just under the lane, over the plot's top: a tooltip, there while pointed at. */
  top: number;
  align: 'start' | 'middle' | 'end';
}

export interface EventLanePointer {
  pointed: Ref<PointedBlock | null>;
  onPointerMove(event: MouseEvent): void;
  onClick(event: MouseEvent): void;
  onLeave(): void;
}

export function useEventLanePointer(options: {
  chart: () => Chart | undefined;
  /** The events marked in the range shown; null when the chart marks none. */
  marks: () => readonly EventMark[] | null;
  /** What shows another view or answer: the label belongs to the view it was read in. */
  view: WatchSource<unknown>;
  open: (mark: EventMark) => void;
  zoomTo: (span: TimeInterval) => void;
}): EventLanePointer {
  const pointed = ref<PointedBlock | null>(null);
  watch(options.view, () => (pointed.value = null));

  function laneAt(event: MouseEvent): PointedBlock | null {
    const chart = options.chart();
    const marks = options.marks();
    if (!chart || !marks) return null;
    const { chartArea } = chart;
    const [x, y] = [event.offsetX, event.offsetY];
    const lane = laneBox(chartArea.top);
    // A few pixels of slack above and below: the lane is thin.
    if (y < lane.top - 4 || y > lane.bottom + 4 || x < chartArea.left - 4 || x > chartArea.right + 4)
      return null;
    const scale = chart.scales['x']!;
    const item = laneItemAt(
      laneItems(marks, (time) => scale.getPixelForValue(time), chartArea),
      x,
    );
    if (!item) return null;
    const left = (item.left + item.right) / 2;
    // Near an edge the label runs inwards, so it is never cut.
    const align = left < chart.width / 3 ? 'start' : left > (chart.width * 2) / 3 ? 'end' : 'middle';
    return { item, left, top: lane.bottom + 6, align };
  }

  return {
    pointed,
    onPointerMove(event) {
      const next = laneAt(event);
      if (next?.item.marks[0]?.start !== pointed.value?.item.marks[0]?.start) pointed.value = next;
    },
    onClick(event) {
      const hit = laneAt(event);
      if (!hit) return;
      if (hit.item.marks.length === 1) options.open(hit.item.marks[0]!);
      else options.zoomTo(laneItemSpan(hit.item));
    },
    onLeave: () => (pointed.value = null),
  };
}
