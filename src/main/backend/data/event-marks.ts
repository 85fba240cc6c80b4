/** Noise events as a chart marks them: start, end, trigger and level, from the events' records. */
import type { EventMark, RecordTable } from '../../../shared/data';
import { eventMarkOf } from '../../../shared/event-marks';

/** The marks of the events that have a start, in time order. */
export function eventMarks(table: RecordTable): EventMark[] {
  return table.rows
    .flatMap((row) => {
      const mark = eventMarkOf(row);
      return mark === null ? [] : [mark];
    })
    .sort((a, b) => a.start - b.start);
}
