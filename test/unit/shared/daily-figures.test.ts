/**
 * The daily table the screen and the PDF both show, its months, and the screen's answer of a long
 * period: a row per month, each month's days read when opened — with no figure lost or changed.
 */
import { describe, expect, it } from 'vitest';
import type { AssessmentResult, Figure } from '../../../src/shared/assessment';
import { dailyTable, monthKeyOf, monthlyRows } from '../../../src/shared/daily-figures';
import { monthFigures, shownAssessment } from '../../../src/shared/assessment-shown';

describe('the daily table of an instrument', () => {
  const figure = (label: string, period: string, start: number, limit: number | null = null) =>
    ({
      label,
      period,
      start,
      end: start + 1,
      limit,
      unit: 'dB',
      method: `${label} method`,
      id: `${label}${start}`,
    }) as Figure;

  it('puts a night on the row of the evening it starts, and a column per figure', () => {
    const table = dailyTable([
      figure('LAeq,day', 'Thu 19 Nov 2026, day 07:00–23:00', 7),
      figure('LAeq,night', 'Wed 18 Nov 2026, night 23:00–07:00 (part)', 0, 45),
      figure('LAeq,night', 'Thu 19 Nov 2026, night 23:00–07:00', 23, 45),
      figure('LAeq,day', 'Fri 20 Nov 2026, day 07:00–23:00', 31),
    ]);
    expect(table.columns).toEqual([
      { label: 'LAeq,day', unit: 'dB', limit: null, methods: ['LAeq,day method'] },
      { label: 'LAeq,night', unit: 'dB', limit: 45, methods: ['LAeq,night method'] },
    ]);
    expect(table.rows.map((r) => [r.date, r.cells.map((c) => c?.start ?? null)])).toEqual([
      ['Wed 18 Nov 2026', [null, 0]],
      ['Thu 19 Nov 2026', [7, 23]],
      ['Fri 20 Nov 2026', [31, null]],
    ]);
  });

  it('names no limit in a column head when its periods have different ones (DIN 4150-3 per frequency)', () => {
    const table = dailyTable([
      figure('PPV Z vs DIN', 'Thu 19 Nov 2026', 0, 5),
      figure('PPV Z vs DIN', 'Fri 20 Nov 2026', 9, 7.5),
    ]);
    expect(table.columns[0]!.limit).toBeNull();
  });

  it('groups a long day table by month on the site’s clock: the highest stated figure, days stated and over', () => {
    /** LAeq,day of each day from 20 Jan 2026 (UTC, so the site's clock in winter): 50 + day dB. */
    const days = Array.from({ length: 20 }, (_, i) => {
      const start = Date.UTC(2026, 0, 20 + i, 7);
      const date = new Date(start).toUTCString().slice(0, 16).replace(',', '');
      const valid = 50 + i;
      return {
        label: 'LAeq,day',
        period: `${date}, day 07:00–23:00`,
        start,
        end: start + 16 * 3_600_000,
        unit: 'dB',
        limit: 60,
        decimals: 1,
        id: `d${i}`,
        // The 3rd of February has too little data; the days from the 7th of February are over 60 dB.
        state: i === 14 ? 'insufficient' : 'ok',
        valid: i === 14 ? null : valid,
        exceeds: i !== 14 && valid > 60,
      } as Figure;
    });
    const months = monthlyRows(dailyTable(days));
    expect(months.map((m) => [m.key, m.label, m.dayCount])).toEqual([
      ['2026-01', 'January 2026', 12],
      ['2026-02', 'February 2026', 8],
    ]);
    // January: 20–31 Jan, 50–61 dB, one day (31 Jan, 61 dB) over.
    expect(months[0]!.cells[0]).toMatchObject({ days: 12, stated: 12, over: 1, highest: { id: 'd11' } });
    // February: 1–8 Feb, the 3rd not stated; the highest is the 8th (69 dB), 7 days over.
    expect(months[1]!.cells[0]).toMatchObject({ days: 8, stated: 7, over: 7, highest: { id: 'd19' } });
  });
});

describe('the screen’s answer of a long period', () => {
  const DAY = 86_400_000;
  const START = Date.UTC(2026, 0, 20);
  /** "Tue 20 Jan 2026" of a UTC day (a site on UTC, so its clock is UTC's). */
  const dateText = (ms: number) => new Date(ms).toUTCString().slice(0, 16).replace(',', '');
  const figure = (serial: string, label: string, start: number, end: number, period: string) =>
    ({
      id: `${serial}|${label}|${start}`,
      serial,
      label,
      start,
      end,
      period,
      unit: 'dB',
      limit: 55,
      method: 'Energetic mean.',
      state: 'ok',
      valid: 40 + ((start / DAY) % 20),
      exceeds: false,
    }) as Figure;
  /** Two monitors over `days` days: a day and a night figure a day each, and the whole period's LAeq,T. */
  function resultOf(days: number): AssessmentResult {
    const end = START + days * DAY;
    const figures = ['NM1', 'NM2'].flatMap((serial) => [
      figure(serial, 'LAeq,T', START, end, 'whole period'),
      ...Array.from({ length: days }, (_, i) => START + i * DAY).flatMap((day) => [
        figure(
          serial,
          'LAeq,day',
          day + 7 * 3_600_000,
          day + 23 * 3_600_000,
          `${dateText(day)}, day 07:00–23:00`,
        ),
        figure(
          serial,
          'LAeq,night',
          day + 23 * 3_600_000,
          day + DAY + 7 * 3_600_000,
          `${dateText(day)}, night 23:00–07:00`,
        ),
      ]),
    ]);
    return {
      start: START,
      end,
      instruments: [{ serial: 'NM1' }, { serial: 'NM2' }],
      figures,
      hourly: [{ serial: 'NM1' }, { serial: 'NM2' }],
      events: [{ atNight: true }, { atNight: false }, { atNight: true }],
    } as unknown as AssessmentResult;
  }

  it('reads a row’s month on the site’s clock', () => {
    expect(monthKeyOf('Thu 22 Jan 2026')).toBe('2026-01');
    expect(monthKeyOf('Wed 30 Dec 2026')).toBe('2026-12');
  });

  it('sends a week’s figures whole, without the hourly rows and events', () => {
    const week = resultOf(7);
    const shown = shownAssessment(week);
    expect(shown.byMonth).toEqual([]);
    expect(shown.figures).toEqual(week.figures);
    // The hourly rows and the events stay behind: their count and the night's events are said.
    expect(shown).not.toHaveProperty('hourly');
    expect(shown).not.toHaveProperty('events');
    expect(shown.hourlyCount).toBe(2);
    expect(shown.nightEventCount).toBe(2);
  });

  it('sends 70 days a month a row, and every day’s figure is read back by its month unchanged', () => {
    const long = resultOf(70);
    const shown = shownAssessment(long);
    // Only the whole period's figures travel with it: 2, not 282.
    expect(shown.figures.map((f) => f.label)).toEqual(['LAeq,T', 'LAeq,T']);
    expect(shown.byMonth.map((m) => m.serial)).toEqual(['NM1', 'NM2']);
    const [nm1] = shown.byMonth;
    expect(nm1!.columns.map((c) => c.label)).toEqual(['LAeq,day', 'LAeq,night']);
    // 20 Jan – 30 Mar: 12 + 28 + 30 days.
    expect(nm1!.months.map((m) => [m.key, m.label, m.dayCount])).toEqual([
      ['2026-01', 'January 2026', 12],
      ['2026-02', 'February 2026', 28],
      ['2026-03', 'March 2026', 30],
    ]);
    // A month's highest is the one of its days' figures with the highest value.
    const february = monthFigures(long, 'NM1', '2026-02');
    const highest = february
      .filter((f) => f.label === 'LAeq,day')
      .reduce((a, b) => ((b.valid ?? 0) > (a.valid ?? 0) ? b : a));
    expect(nm1!.months[1]!.cells[0]!.highest).toEqual(highest);
    // Nothing lost, nothing of another instrument: the months' figures are the days' figures.
    for (const serial of ['NM1', 'NM2']) {
      const read = shown.byMonth
        .find((m) => m.serial === serial)!
        .months.flatMap((m) => monthFigures(long, serial, m.key));
      const days = long.figures.filter((f) => f.serial === serial && f.label !== 'LAeq,T');
      expect(read.map((f) => f.id).sort()).toEqual(days.map((f) => f.id).sort());
    }
    expect(monthFigures(long, 'NM1', '2026-04')).toEqual([]);
  });
});
