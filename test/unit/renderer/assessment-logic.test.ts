import { describe, expect, it } from 'vitest';
import type { AssessmentResult, Figure, Site } from '../../../src/shared/assessment';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  EMPTY_SITE_COVER,
  EMPTY_SITE_POSITIONS,
  DEFAULT_EXCLUSION_RULES,
  DEFAULT_LIMITS,
} from '../../../src/shared/assessment';
import {
  dailyTable,
  groupFigures,
  assessmentRange,
  lastWholeDays,
  monthlyRows,
  noiseLimitLines,
  parseLimit,
  parseSiteTime,
  shadedExclusions,
  valueText,
} from '../../../src/renderer/src/features/assessment/logic';

const site = (over: Partial<Site> = {}): Site => ({
  id: 's1',
  accountId: 'a',
  name: 'Mill Lane',
  timeZone: 'Europe/London',
  serials: ['NM1', 'NM2'],
  rules: DEFAULT_EXCLUSION_RULES,
  exclusions: [
    { id: 'e1', start: 10, end: 20, reason: 'Road works', serial: null, createdAt: 0 },
    { id: 'e2', start: 30, end: 40, reason: 'Dog', serial: 'NM2', createdAt: 0 },
  ],
  limits: { ...DEFAULT_LIMITS, 'LAeq,night': 45 },
  settings: DEFAULT_ASSESSMENT_SETTINGS,
  cover: { ...EMPTY_SITE_COVER },
  conclusion: '',
  positions: EMPTY_SITE_POSITIONS,
  createdAt: 0,
  updatedAt: 0,
  ...over,
});

describe('assessment screens', () => {
  it('states each figure to the precision of its quantity', () => {
    expect(valueText(54.25, 'dB')).toBe('54.3 dB');
    expect(valueText(0.4123, 'mm/s')).toBe('0.412 mm/s');
    expect(valueText(12.345, 'mm/s')).toBe('12.35 mm/s');
    expect(valueText(0.01234, 'm/s¹·⁷⁵')).toBe('0.0123 m/s¹·⁷⁵');
    expect(valueText(1, 'events')).toBe('1 event');
    expect(valueText(3, 'days')).toBe('3 days');
    expect(valueText(null, 'dB')).toBe('—');
  });

  it('opens on the last seven whole days of the site, 167 hours long over the autumn clock change', () => {
    // Now: Wed 28 Oct 2026 15:00 UTC. The seven London days before it include Sun 25 Oct (25 h).
    const range = lastWholeDays(Date.UTC(2026, 9, 28, 15), 'Europe/London');
    expect(range.end).toBe(Date.UTC(2026, 9, 28, 0));
    expect(range.start).toBe(Date.UTC(2026, 9, 20, 23));
    expect((range.end - range.start) / 3_600_000).toBe(7 * 24 + 1);
  });

  it('assesses a preset as whole days on the site clock, for every kind of site, and a typed range as typed', () => {
    // Sat 28 Nov 2026 19:04 in London: "Last 7 days" is Sat 21 00:00 to Sat 28 00:00, not 19:04–19:04.
    const now = Date.UTC(2026, 10, 28, 19, 4);
    expect(assessmentRange({ kind: 'preset', preset: '7d' }, now, 'Europe/London')).toEqual({
      start: Date.UTC(2026, 10, 21),
      end: Date.UTC(2026, 10, 28),
    });
    // "Last 24 hours": yesterday, whole. In New York (UTC−5) its midnight is 05:00 UTC.
    expect(assessmentRange({ kind: 'preset', preset: '24h' }, now, 'America/New_York')).toEqual({
      start: Date.UTC(2026, 10, 27, 5),
      end: Date.UTC(2026, 10, 28, 5),
    });
    const typed = { start: Date.UTC(2026, 10, 2, 6, 30), end: Date.UTC(2026, 10, 3, 6, 30) };
    expect(assessmentRange({ kind: 'custom', ...typed }, now, 'Europe/London')).toEqual(typed);
  });

  it('reads a typed time on the site clock, and refuses what is not one', () => {
    expect(parseSiteTime('2026-07-01 09:00', 'Europe/London')).toBe(Date.UTC(2026, 6, 1, 8));
    expect(parseSiteTime('2026-07-01 09:00', 'utc')).toBe(Date.UTC(2026, 6, 1, 9));
    expect(parseSiteTime('1 July 9am', 'Europe/London')).toBeNull();
    expect(parseLimit(' 45,5 ')).toBe(45.5);
    expect(parseLimit('')).toBeNull();
    expect(parseLimit('loud')).toBeUndefined();
  });

  it("shades an instrument's site exclusions and draws its noise limits on every chart", () => {
    const result = {
      siteId: 's1',
      exclusions: [{ start: 50, end: 60, serial: 'NM1', cause: 'wind', reason: 'Wind' }],
    };
    expect(shadedExclusions('NM1', [site()], result as unknown as AssessmentResult)).toEqual([
      { start: 10, end: 20 },
      { start: 50, end: 60 },
    ]);
    expect(shadedExclusions('NM2', [site()], null)).toEqual([
      { start: 10, end: 20 },
      { start: 30, end: 40 },
    ]);
    expect(shadedExclusions('OTHER', [site()], null)).toEqual([]);
    expect(noiseLimitLines('NM1', [site()])).toEqual([
      { label: 'Mill Lane: LAeq,night', value: 45, unit: 'dB' },
    ]);
  });

  it('groups the figures per instrument: the whole period first, then each kind by period', () => {
    const figure = (serial: string, label: string, start: number, end: number) =>
      ({ serial, label, start, end, id: `${serial}${label}${start}` }) as Figure;
    const result = {
      start: 0,
      end: 100,
      instruments: [{ serial: 'NM1' }],
      figures: [
        figure('NM1', 'LAeq,T', 0, 100),
        figure('NM1', 'LAeq,day', 0, 40),
        figure('NM1', 'LAeq,night', 40, 60),
        figure('NM1', 'LAeq,day', 60, 100),
      ],
    } as unknown as AssessmentResult;
    const [group] = groupFigures(result);
    expect(group!.summary.map((f) => f.label)).toEqual(['LAeq,T']);
    expect(group!.byLabel.map((g) => [g.label, g.figures.length])).toEqual([
      ['LAeq,day', 2],
      ['LAeq,night', 1],
    ]);
  });
});

describe('the daily table of an instrument', () => {
  const figure = (label: string, period: string, start: number, limit: number | null = null) =>
    ({ label, period, start, end: start + 1, limit, unit: 'dB', id: `${label}${start}` }) as Figure;

  it('puts a night on the row of the evening it starts, and a column per figure', () => {
    const table = dailyTable([
      figure('LAeq,day', 'Thu 19 Nov 2026, day 07:00–23:00', 7),
      figure('LAeq,night', 'Wed 18 Nov 2026, night 23:00–07:00 (part)', 0, 45),
      figure('LAeq,night', 'Thu 19 Nov 2026, night 23:00–07:00', 23, 45),
      figure('LAeq,day', 'Fri 20 Nov 2026, day 07:00–23:00', 31),
    ]);
    expect(table.columns).toEqual([
      { label: 'LAeq,day', unit: 'dB', limit: null },
      { label: 'LAeq,night', unit: 'dB', limit: 45 },
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
    expect(months.map((m) => [m.key, m.label, m.days.length])).toEqual([
      ['2026-01', 'January 2026', 12],
      ['2026-02', 'February 2026', 8],
    ]);
    // January: 20–31 Jan, 50–61 dB, one day (31 Jan, 61 dB) over.
    expect(months[0]!.cells[0]).toMatchObject({ days: 12, stated: 12, over: 1, highest: { id: 'd11' } });
    // February: 1–8 Feb, the 3rd not stated; the highest is the 8th (69 dB), 7 days over.
    expect(months[1]!.cells[0]).toMatchObject({ days: 8, stated: 7, over: 7, highest: { id: 'd19' } });
  });
});
