/** Noise events as engineers read them: when, what triggered, how loud, how long (pure, tested directly). */
import type { RecordTable } from '../../../../shared/data';
import { quantityValueText } from '../../../../shared/quantities';
import { eventMarkOf, listCellNumbers } from '../../../../shared/event-marks';

export interface EventRow {
  start: number;
  end: number | null;
  trigger: string;
  level: number | null;
  overall: Array<number | null>;
  octave: Array<number | null> | null;
  timeHistoryId: string | null;
  hasAudio: boolean;
  /** The service's id of the event's audio (`/data/events/audio/{id}`), when it has audio. */
  audioId: string | null;
}

/** The event records as rows, newest first. */
export function eventRows(table: RecordTable): EventRow[] {
  return table.rows
    .flatMap((row): EventRow[] => {
      const mark = eventMarkOf(row);
      if (mark === null) return [];
      const id = row['timeHistoryId'];
      const audio = row['audioId'];
      return [
        {
          ...mark,
          overall: listCellNumbers(row['overall']) ?? [],
          octave: listCellNumbers(row['octave']),
          timeHistoryId: typeof id === 'string' && id !== '' ? id : null,
          hasAudio: typeof audio === 'string' && audio !== '',
          audioId: typeof audio === 'string' && audio !== '' ? audio : null,
        },
      ];
    })
    .sort((a, b) => b.start - a.start);
}

/** "42 s", "3 min 5 s", "1 h 2 min": how long an event lasted. */
export function eventDurationText(start: number, end: number | null): string {
  if (end === null || end < start) return '—';
  const seconds = Math.round((end - start) / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * The event's overall values as the service sent them: the interface documents neither what they
 * measure nor their unit, so they are shown as numbers, without a unit that would be a guess, all
 * to the decimals the most precise of them carries ("82.0 / 90.0 / 113.3", not "82 / 90 / 113.3").
 */
export function overallText(values: ReadonlyArray<number | null>): string {
  if (values.length === 0) return '—';
  const decimals = Math.max(
    0,
    ...values.map((v) => (v === null ? 0 : (quantityValueText(v, null).split('.')[1]?.length ?? 0))),
  );
  return values.map((v) => quantityValueText(v, { decimals })).join(' / ');
}
