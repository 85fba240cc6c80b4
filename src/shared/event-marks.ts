/** A noise event record read as a chart marks it (the backend's marks and the events table alike). */
import type { CellValue, EventMark } from './data';

/**
 * Where a time chart draws its events' lane: its height, and the gap between it and the plot's top,
 * in CSS pixels (features/data/event-marks.ts draws it; tests point into it).
 */
export const EVENT_LANE = { height: 18, gap: 4 } as const;

const numberOr = (value: CellValue | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/**
 * The numbers of a list cell ("71.2, 78.4, –"; the parser writes a missing item as "–"), a missing
 * item as null; null when the cell holds no list.
 */
export function listCellNumbers(value: CellValue | undefined): Array<number | null> | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  return value.split(',').map((item) => {
    const number = Number(item.trim());
    return item.trim() === '' || !Number.isFinite(number) ? null : number;
  });
}

/**
 * The mark of one event record; null without a start. A nameless trigger reads "Unnamed trigger".
 * `overall` is the service's `overall` list (the interface documents neither what its values are
 * nor their unit), its gaps left out.
 */
export function eventMarkOf(row: Readonly<Record<string, CellValue>>): EventMark | null {
  const start = numberOr(row['startTime']);
  if (start === null) return null;
  const name = row['name'];
  return {
    start,
    end: numberOr(row['endTime']),
    trigger: typeof name === 'string' && name !== '' ? name : 'Unnamed trigger',
    level: numberOr(row['level']),
    overall: (listCellNumbers(row['overall']) ?? []).filter((value): value is number => value !== null),
  };
}
