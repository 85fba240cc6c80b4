/** Noise events as a chart marks them: start, end, trigger and level, from the events' records. */
import type { EventMark, RecordTable } from '../../../shared/data';

const numberOr = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** The marks of the events that have a start, in time order; a nameless trigger reads "Unnamed trigger". */
export function eventMarks(table: RecordTable): EventMark[] {
  return table.rows
    .flatMap((row): EventMark[] => {
      const start = numberOr(row['startTime']);
      if (start === null) return [];
      const name = row['name'];
      return [
        {
          start,
          end: numberOr(row['endTime']),
          trigger: typeof name === 'string' && name !== '' ? name : 'Unnamed trigger',
          level: numberOr(row['level']),
        },
      ];
    })
    .sort((a, b) => a.start - b.start);
}
