/** A noise event record read as a chart marks it (the backend's marks and the events table alike). */
import type { CellValue, EventMark } from './data';

const numberOr = (value: CellValue | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** The mark of one event record; null without a start. A nameless trigger reads "Unnamed trigger". */
export function eventMarkOf(row: Readonly<Record<string, CellValue>>): EventMark | null {
  const start = numberOr(row['startTime']);
  if (start === null) return null;
  const name = row['name'];
  return {
    start,
    end: numberOr(row['endTime']),
    trigger: typeof name === 'string' && name !== '' ? name : 'Unnamed trigger',
    level: numberOr(row['level']),
  };
}
