/**
 * The PDF's daily figures: the pivot of an instrument's figures into a whole-period table and a row
 * per site date (a night on the row of the evening it starts), the columns split where there are
 * too many for A4, and what a cell says beneath its value.
 */
import { describe, expect, it } from 'vitest';
import { dailyTable, dateOf, instrumentFigures, periodNameOf } from '../../../src/shared/daily-figures';
import { splitColumns } from '../../../src/main/backend/assessment/report/split-columns';
import { cellNotes, figureText } from '../../../src/main/backend/assessment/report/pdf-daily-table';
import { periodsText } from '../../../src/main/backend/assessment/report/pdf-figures';
import { SiteClock } from '../../../src/main/backend/assessment/report/report-format';
import { FIGURES, NOISE, reportFixture, VIBRATION } from './report-fixture';
import { WEEK_SERIALS, weekFixture } from './report-week';

const UTC_CLOCK = new SiteClock('UTC', Date.UTC(2026, 10, 23));
const LONDON_CLOCK = new SiteClock('Europe/London', Date.UTC(2026, 5, 1));

const byLabel = (label: string) => FIGURES.find((f) => f.label === label)!;

describe('daily figures', () => {
  it('dates a figure by its period label: before the first comma, without " (part)"', () => {
    expect(dateOf(byLabel('LAeq,night'))).toBe('Mon 23 Nov 2026');
    expect(dateOf({ ...byLabel('LAeq,day'), period: 'Mon 30 Nov 2026, day 07:00–23:00 (part)' })).toBe(
      'Mon 30 Nov 2026',
    );
    expect(periodNameOf({ ...byLabel('LAeq,day'), period: 'Mon 30 Nov 2026, day 07:00–23:00 (part)' })).toBe(
      'day 07:00–23:00',
    );
    expect(periodNameOf(byLabel('Lden'))).toBe('');
  });

  it('splits an instrument’s figures into the whole period’s and a row per date, a column per figure', () => {
    const [noise, vibration] = instrumentFigures(reportFixture());
    expect(noise!.serial).toBe(NOISE);
    expect(noise!.whole.map((f) => f.label)).toEqual(['Lden']);
    expect(noise!.daily.columns.map((c) => [c.label, c.unit, c.limit])).toEqual([
      ['LAeq,day', 'dB', 55],
      ['LAeq,night', 'dB', 45],
      ['LAFMax,night', 'dB', 80],
      ['LA90,night', 'dB', null],
    ]);
    // The night of Mon 23 (23:00–07:00) is on Monday's row, with that day.
    const rows = noise!.daily.rows.map((r) => [r.date, ...r.cells.map((f) => f?.valid ?? null)]);
    expect(rows).toEqual([
      ['Mon 23 Nov 2026', 54.21, 43.64, 71.4, 38.02],
      ['Tue 24 Nov 2026', 57.08, 44.77, null, null],
      ['Wed 25 Nov 2026', 54.97, null, null, null],
    ]);
    expect(vibration!.serial).toBe(VIBRATION);
    expect(vibration!.whole.map((f) => f.label)).toEqual(['PPV Z', 'PPV X']);
    expect(vibration!.daily.rows.map((r) => r.date)).toEqual(['Tue 24 Nov 2026']);
  });

  it('says a column’s limit only when every period of it has the same one, and lists its methods', () => {
    const day = byLabel('LAeq,day');
    const other = {
      ...day,
      id: 'x',
      period: 'Thu 26 Nov 2026, day 07:00–23:00',
      start: day.start + 3 * 86_400_000,
    };
    expect(dailyTable([day, { ...other, limit: 60 }]).columns[0]!.limit).toBeNull();
    expect(dailyTable([day, other]).columns[0]!.limit).toBe(55);
    expect(dailyTable([day, { ...other, method: 'Another way.' }]).columns[0]!.methods).toEqual([
      day.method,
      'Another way.',
    ]);
  });

  it('tabulates a week from the assessment itself: a row per date, the last day’s night left empty', () => {
    const week = weekFixture();
    const groups = instrumentFigures(week);
    expect(groups.map((g) => g.serial)).toEqual([...WEEK_SERIALS]);
    const { whole, daily } = groups[0]!;
    expect(whole.map((f) => f.label)).toEqual(['LAeq,T', 'Lden']);
    expect(daily.rows.map((r) => r.date)).toEqual([
      'Mon 23 Nov 2026',
      'Tue 24 Nov 2026',
      'Wed 25 Nov 2026',
      'Thu 26 Nov 2026',
      'Fri 27 Nov 2026',
      'Sat 28 Nov 2026',
      'Sun 29 Nov 2026',
      'Mon 30 Nov 2026',
    ]);
    expect(daily.columns.map((c) => c.label)).toEqual([
      'LAeq,day',
      'LA10,day',
      'LA90,day',
      'LAeq,evening',
      'LAeq,night',
      'LA10,night',
      'LA90,night',
      'LAFMax,night',
      'Events ≥ 65 dB, night',
      'Lden',
    ]);
    const night = daily.columns.findIndex((c) => c.label === 'LAeq,night');
    // Friday's night (23:00 Fri to 07:00 Sat) is on Friday's row; Monday 30 has no night in the period.
    const friday = daily.rows.find((r) => r.date === 'Fri 27 Nov 2026')!.cells[night]!;
    expect(friday.start).toBe(Date.UTC(2026, 10, 27, 23));
    expect(daily.rows.at(-1)!.cells[night]).toBeNull();
    // Every figure of the instrument is in one of the two tables, once.
    const cells = daily.rows.flatMap((r) => r.cells).filter((f) => f !== null);
    expect(cells.length + whole.length).toBe(week.figures.filter((f) => f.serial === WEEK_SERIALS[0]).length);
  });

  it('splits too many columns into tables of at most seven, where the period changes', () => {
    const labels = instrumentFigures(weekFixture())[0]!.daily.columns.map((c) => c.label);
    expect(splitColumns(labels, 7).map((part) => part.map((i) => labels[i]))).toEqual([
      ['LAeq,day', 'LA10,day', 'LA90,day', 'LAeq,evening'],
      ['LAeq,night', 'LA10,night', 'LA90,night', 'LAFMax,night', 'Events ≥ 65 dB, night', 'Lden'],
    ]);
    expect(splitColumns(labels.slice(0, 7), 7)).toEqual([[0, 1, 2, 3, 4, 5, 6]]);
    const many = Array.from({ length: 15 }, (_, i) => `F${i}`);
    const parts = splitColumns(many, 7);
    expect(parts.map((p) => p.length)).toEqual([5, 5, 5]);
    expect(parts.flat()).toEqual(many.map((_, i) => i));
  });

  it('notes beneath a value: "part", "all N" where all data differs, the coverage below 99.5 %', () => {
    const day = byLabel('LAeq,day');
    expect(cellNotes(day, UTC_CLOCK)).toEqual(['all 56.8', '78 %']);
    expect(cellNotes({ ...day, all: 54.24, coverage: 0.996 }, UTC_CLOCK)).toEqual([]);
    expect(
      cellNotes({ ...day, period: `${day.period} (part)`, all: day.valid, coverage: 0.994 }, UTC_CLOCK),
    ).toEqual(['part', '99 %']);
    // A figure not stated says why in its text (with its coverage): no notes beyond "part".
    const insufficient = { ...day, state: 'insufficient' as const, coverage: 0.41 };
    expect(cellNotes(insufficient, UTC_CLOCK)).toEqual([]);
    // A highest value's time in site time: to the second from the 1 s history, else its interval's start.
    const night = Date.UTC(2026, 5, 24, 1, 13, 47);
    const max = { ...day, label: 'LAFMax,night', at: night, atStepMs: 1000 };
    expect(cellNotes(max, LONDON_CLOCK)).toContain('at 02:13:47');
    expect(
      cellNotes({ ...max, at: night - 47_000 - 13 * 60_000, atStepMs: 900_000 }, LONDON_CLOCK),
    ).toContain('02:00–02:15');
    expect(figureText(insufficient)).toBe('insufficient data (41 %)');
    expect(figureText({ ...day, state: 'noData', valid: null, all: null })).toBe('no readings');
    expect(figureText(day)).toBe('54.2');
    expect(figureText({ ...day, unit: 'events', valid: 3, decimals: 0 })).toBe('3');
  });

  it('names the standard periods of the daily tables from the figures’ labels', () => {
    const week = weekFixture();
    const daily = week.figures.filter((f) => !(f.start === week.start && f.end === week.end));
    expect(periodsText(daily)).toBe(
      'day 07:00–23:00, evening 19:00–23:00, night 23:00–07:00 (on the row of the evening it starts), 07:00–07:00 (Lden)',
    );
  });
});
