/**
 * Noise events marked on a time chart: a shaded span from start to end and a line at the start
 * (a 30 s event is narrower than a pixel on a week's chart, the line still shows), drawn with
 * chartjs-plugin-annotation. Hovering shows the trigger and level; clicking opens the event.
 */
import type { AnnotationOptions } from 'chartjs-plugin-annotation';
import type { TimeInterval } from '../../../../shared/data';
import { dbText } from '../../../../shared/format';
import { CHART_COLORS } from '../../ui/chart-base';
import type { EventRow } from './events';

export type EventMark = Pick<EventRow, 'start' | 'end' | 'trigger' | 'level'>;

const MARK_LINE = CHART_COLORS.bandHigh;
const MARK_FILL = 'rgba(163, 74, 0, 0.16)';

/** "Level over threshold, 78.4 dB": what a mark says on hover. */
export const eventMarkText = (mark: EventMark): string =>
  mark.level === null ? mark.trigger : `${mark.trigger}, ${dbText(mark.level, { decimals: 1 })}`;

/** The events that touch `range`, oldest first. */
export function marksIn(marks: readonly EventMark[], range: TimeInterval): EventMark[] {
  return marks
    .filter((mark) => mark.start < range.end && (mark.end ?? mark.start) >= range.start)
    .sort((a, b) => a.start - b.start);
}

/**
 * The annotations for the events in `range`: per event a start line and a span; `onOpen` is
 * called with the event when either is clicked.
 */
export function eventAnnotations(
  marks: readonly EventMark[],
  range: TimeInterval,
  onOpen: (mark: EventMark) => void,
): Record<string, AnnotationOptions> {
  const annotations: Record<string, AnnotationOptions> = {};
  marksIn(marks, range).forEach((mark, index) => {
    const click = () => {
      onOpen(mark);
      return true;
    };
    if (mark.end !== null && mark.end > mark.start) {
      annotations[`event-span-${index}`] = {
        type: 'box',
        xMin: mark.start,
        xMax: mark.end,
        backgroundColor: MARK_FILL,
        borderWidth: 0,
        click,
      };
    }
    annotations[`event-${index}`] = {
      type: 'line',
      scaleID: 'x',
      value: mark.start,
      borderColor: MARK_LINE,
      borderWidth: 2,
      borderDash: [4, 3],
      label: {
        display: false,
        content: eventMarkText(mark),
        position: 'start',
        backgroundColor: MARK_LINE,
        color: '#ffffff',
        font: { size: 13, weight: 'bold' },
      },
      // The label shows while the pointer is on the line.
      enter: ({ element }) => {
        if (element.label) element.label.options.display = true;
        return true;
      },
      leave: ({ element }) => {
        if (element.label) element.label.options.display = false;
        return true;
      },
      click,
    };
  });
  return annotations;
}
