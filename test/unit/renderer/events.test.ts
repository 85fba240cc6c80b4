/** Noise events in words: rows from the records, durations, the overall values. */
import { describe, expect, it } from 'vitest';
import type { RecordTable } from '../../../src/shared/data';
import { eventDurationText, eventRows, overallText } from '../../../src/renderer/src/features/data/events';

const T0 = Date.UTC(2026, 10, 23, 14);

describe('events', () => {
  const table: RecordTable = {
    timeKey: 'startTime',
    columns: [],
    rows: [
      {
        startTime: T0,
        endTime: T0 + 42_000,
        name: 'LAFMax > 80',
        level: 80,
        overall: '71.2, 84.5, 97',
        octave: '60.1, –, 55',
        timeHistoryId: 'th_1',
        audioId: 'au_1',
      },
      {
        startTime: T0 + 600_000,
        endTime: null,
        name: '',
        level: null,
        overall: null,
        octave: null,
        timeHistoryId: '',
        audioId: null,
      },
      { startTime: null, name: 'no start: left out' },
    ],
  };

  it('reads the records newest first, lists as numbers with their gaps, ids and audio as flags', () => {
    const rows = eventRows(table);
    expect(rows.map((r) => r.start)).toEqual([T0 + 600_000, T0]);
    expect(rows[1]).toEqual({
      start: T0,
      end: T0 + 42_000,
      trigger: 'LAFMax > 80',
      level: 80,
      overall: [71.2, 84.5, 97],
      octave: [60.1, null, 55],
      timeHistoryId: 'th_1',
      hasAudio: true,
      audioId: 'au_1',
    });
    expect(rows[0]).toMatchObject({
      trigger: 'Unnamed trigger',
      timeHistoryId: null,
      hasAudio: false,
      audioId: null,
      overall: [],
    });
  });

  it('says how long an event lasted and its overall values', () => {
    expect(eventDurationText(T0, T0 + 42_000)).toBe('42 s');
    expect(eventDurationText(T0, T0 + 185_000)).toBe('3 min 5 s');
    expect(eventDurationText(T0, T0 + 120_000)).toBe('2 min');
    expect(eventDurationText(T0, T0 + 3_720_000)).toBe('1 h 2 min');
    expect(eventDurationText(T0, null)).toBe('—');
    // Undocumented: as sent, evenly to the decimals of the most precise, with no unit that would be a guess.
    expect(overallText([71.2, null, 97])).toBe('71.2 / — / 97.0');
    expect(overallText([82, 90, 113])).toBe('82 / 90 / 113');
    expect(overallText([])).toBe('—');
  });
});
