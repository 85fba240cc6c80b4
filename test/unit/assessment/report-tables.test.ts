/**
 * The report's tables: one definition gives the spreadsheets' plain rows (numbers rounded as the
 * report states them, times in UTC and site time) and the PDF's text; the calibration verdicts, the
 * excluded time per instrument and the site clock across a change of offset.
 */
import { reportDocument } from '../../../src/main/backend/assessment/report/report-document';
import { describe, expect, it } from 'vitest';
import { SiteClock, valueText } from '../../../src/main/backend/assessment/report/report-format';
import { reportTables, reportTableViews } from '../../../src/main/backend/assessment/report/report-tables';
import {
  calibrationVerdict,
  excludedTime,
} from '../../../src/main/backend/assessment/report/report-verdicts';
import { CHECKS, END, NOISE, reportFixture, START, VIBRATION } from './report-fixture';

const MINUTE = 60_000;
const clock = new SiteClock('Europe/London', START);

/** The report with every appendix ticked. */
const ALL_APPENDICES = { exclusions: true, events: true, hourly: true };

const table = (name: string) => {
  const found = reportTables(reportDocument(reportFixture(), { appendices: ALL_APPENDICES })).find(
    (t) => t.name === name,
  );
  if (!found) throw new Error(`no table ${name}`);
  return found;
};
const column = (name: string, header: string) => table(name).columns.indexOf(header);

describe('report tables', () => {
  it('has a table per section of the report, the appendices only when ticked, each with a sheet-safe title', () => {
    const sections = [
      'cover',
      'contents',
      'summary',
      'method',
      'instruments',
      'calibration',
      'calibration-verdicts',
      'excluded-time',
      'results',
      'charts',
      'exceedances',
      'notes',
    ];
    const none = { exclusions: false, events: false, hourly: false };
    expect(reportTables(reportDocument(reportFixture(), { appendices: none })).map((t) => t.name)).toEqual(
      sections,
    );
    // Lettered in order of those ticked.
    expect(
      reportTables(reportDocument(reportFixture(), { appendices: { ...none, hourly: true } })).map(
        (t) => t.title,
      ),
    ).toContain('Appendix A – Hourly levels');
    const tables = reportTables(reportDocument(reportFixture(), { appendices: ALL_APPENDICES }));
    expect(tables.map((t) => t.name)).toEqual([
      ...sections,
      'appendix-a-exclusions',
      'appendix-b-noise-events',
      'appendix-c-hourly-levels',
    ]);
    for (const t of tables) {
      expect(t.title.length).toBeLessThanOrEqual(31);
      expect(t.title).not.toMatch(/[[\]:*?/\\]/);
      for (const row of t.rows) expect(row).toHaveLength(t.columns.length);
    }
  });

  it('rounds figures as the report states them: dB to 0.1, PPV to 0.01 (0.001 below 1), VDV to 0.001', () => {
    const figures = table('results');
    const [valid, all, label] = [
      column('results', 'With exclusions'),
      column('results', 'All data'),
      column('results', 'Figure'),
    ];
    const row = (name: string) => figures.rows.find((r) => r[label] === name)!;
    expect([row('LAeq,day')[valid], row('LAeq,day')[all]]).toEqual([54.2, 56.8]);
    expect([row('PPV Z')[valid], row('PPV Z')[all]]).toEqual([0.618, 1.274]); // both at the figure's decimals
    expect([row('VDV,day')[valid], row('VDV,day')[all]]).toEqual([0.128, 0.142]);
    expect(row('LA90,night')[column('results', 'Limit')]).toBeNull();
    expect(row('LA90,night')[column('results', 'Result')]).toBeNull();
    expect(figures.rows.filter((r) => r[column('results', 'Result')] === 'EXCEEDS')).toHaveLength(1);
    expect(valueText(0.0042, 'mm/s')).toBe('0.004');
    expect(valueText(12.345, 'µg/m³')).toBe('12.3');
  });

  it('gives times in ISO 8601 UTC and in site time with its offset', () => {
    const exclusions = table('appendix-a-exclusions');
    const first = exclusions.rows[0]!;
    expect(first[exclusions.columns.indexOf('Start (UTC)')]).toBe('2026-11-23T09:00:00.000Z');
    expect(first[exclusions.columns.indexOf('Start (Europe/London)')]).toBe('2026-11-23T09:00:00+00:00');
    expect(first[exclusions.columns.indexOf('Instruments')]).toBe('all');
    expect(first[exclusions.columns.indexOf('Reason')]).toMatch(/^Road works/);
  });

  it('writes when a highest value was reached to its data’s resolution: the second, or the interval that held it', () => {
    const night = Date.UTC(2026, 10, 28, 1, 45);
    const lafmax = (atStepMs: number) =>
      reportFixture().figures.map((f) => (f.label === 'LAFMax,night' ? { ...f, at: night, atStepMs } : f));
    const timeOf = (atStepMs: number) => {
      const results = reportTableViews(reportDocument(reportFixture({ figures: lafmax(atStepMs) }))).find(
        (t) => t.name === 'results',
      )!;
      const row = results.rows.find((r) => r[results.columns.indexOf('Figure')] === 'LAFMax,night')!;
      return row[results.columns.indexOf('Time of the value (UTC)')];
    };
    expect(timeOf(900_000)).toBe('2026-11-28T01:45:00.000Z/2026-11-28T02:00:00.000Z');
    expect(timeOf(1000)).toBe('2026-11-28T01:45:00.000Z');
  });

  it('keeps the figures a figure a row for the spreadsheets; the PDF tabulates them by day itself', () => {
    const figures = reportTableViews(reportDocument(reportFixture())).find((t) => t.name === 'results')!;
    expect(figures.columns).toEqual([
      'Serial',
      'Figure',
      'Period',
      'Start (UTC)',
      'End (UTC)',
      'Start (Europe/London)',
      'End (Europe/London)',
      'Stated',
      'With exclusions',
      'All data',
      'Unit',
      'State',
      'Coverage (%)',
      'Limit',
      'Limit basis',
      'Result',
      'Time of the value (UTC)',
      'Method',
      'Detail',
    ]);
    expect(figures.rows).toHaveLength(reportFixture().figures.length);
    expect(figures.rows[0]).toEqual([
      NOISE,
      'LAeq,day',
      'Mon 23 Nov 2026, day 07:00–23:00',
      '2026-11-23T07:00:00.000Z',
      '2026-11-23T23:00:00.000Z',
      '2026-11-23T07:00:00+00:00',
      '2026-11-23T23:00:00+00:00',
      '54.2 dB',
      54.2,
      56.8,
      'dB',
      'stated',
      78.1,
      55,
      'LAeq,day',
      'met',
      null,
      'Energetic mean of the 15-min LAeq values of the period.',
      null,
    ]);
    // Per cell, the decimals Excel shows.
    expect(figures.decimals[0]![figures.columns.indexOf('With exclusions')]).toBe(1);
    expect(figures.decimals[8]![figures.columns.indexOf('With exclusions')]).toBe(3);
    // No long table in the PDF: `pdf-figures.ts` prints a whole-period and a daily table per instrument.
    expect(figures.display).toBeNull();
  });

  it('says per instrument whether it was calibrated before and after, and how far it drifted', () => {
    const result = reportFixture();
    expect(calibrationVerdict(result, NOISE, clock)).toBe(
      'Calibrated before and after the period; drift 0.1 dB within ±0.5 dB; SIC failed Tue 24 Nov 2026 03:00',
    );
    expect(calibrationVerdict(result, VIBRATION, clock)).toBe('No calibration or SIC on record');
    const noAfter = reportFixture({ checks: CHECKS.filter((c) => c.when !== 'after') });
    expect(calibrationVerdict(noAfter, NOISE, clock)).toMatch(
      /^Calibrated before the period; no calibration after the period/,
    );
    const drifted = reportFixture({
      checks: CHECKS.map((c) =>
        c.kind === 'calibration' && c.when === 'after'
          ? { ...c, drift: -0.7, driftWithinTolerance: false }
          : c,
      ).filter((c) => c.passed !== false),
    });
    expect(calibrationVerdict(drifted, NOISE, clock)).toBe(
      'Calibrated before and after the period; drift 0.7 dB outside ±0.5 dB; 2 SIC passed',
    );
  });

  it('counts excluded time per instrument within the period, overlaps once', () => {
    const result = reportFixture();
    expect(excludedTime(result, NOISE)).toBe(405 * MINUTE); // 3 h 30 + 1 h + 1 h 30 + 45 min
    expect(excludedTime(result, VIBRATION)).toBe(255 * MINUTE); // 3 h 30 + 45 min
    const overlapping = reportFixture({
      exclusions: [
        ...result.exclusions,
        {
          start: START - 60 * MINUTE,
          end: START + 30 * MINUTE,
          serial: VIBRATION,
          cause: 'offline',
          reason: 'x',
        },
        { start: START + 10 * MINUTE, end: START + 40 * MINUTE, serial: null, cause: 'manual', reason: 'y' },
      ],
    });
    expect(excludedTime(overlapping, VIBRATION)).toBe((255 + 40) * MINUTE);
    const totals = table('excluded-time');
    expect(totals.rows).toEqual([
      [NOISE, 'Façade of No. 14', 405, 9.4],
      [VIBRATION, 'Foundation of No. 14', 255, 5.9],
    ]);
  });

  it('says where the data came from: fetched for this report, or read between the oldest read and the assessment', () => {
    const summary = (over: Parameters<typeof reportFixture>[0] = {}) => {
      const rows = reportTables(reportDocument(reportFixture(over))).find((t) => t.name === 'cover')!.rows;
      return (item: string) => rows.find((r) => r[0] === item)?.[1];
    };
    const cached = summary();
    // Where and when, never "some kept on this computer": every reading was read from the service
    // between the oldest read and the assessment.
    expect(cached('Data')).toBe(
      'Read from the service between Wed 25 Nov 2026 18:05 and Thu 26 Nov 2026 09:30, when it was assessed; what had been read before the assessment came from the copy FieldDesk keeps on this computer',
    );
    expect(cached('Data fetched (UTC)')).toBe('2026-11-25T18:05:00.000Z');
    const fresh = summary({ fromCache: false, dataFetchedAt: END });
    expect(fresh('Data')).toBe('Fetched from the service for this report');
    const none = summary({ fromCache: false, dataFetchedAt: null });
    expect(none('Data fetched (UTC)')).toBeNull();
  });

  it('summarises each limit per instrument: met or exceeded, n of m periods, worst case, coverage', () => {
    const summary = table('summary');
    const at = (header: string) => summary.columns.indexOf(header);
    const rowOf = (limit: string, serial: string) =>
      summary.rows.find((r) => r[at('Limit')] === limit && r[at('Serial')] === serial)!;
    const day = rowOf('LAeq,day', NOISE);
    expect(day[at('Result')]).toBe('exceeded');
    expect([day[at('Periods over the limit')], day[at('Periods stated')], day[at('Periods')]]).toEqual([
      1, 3, 3,
    ]);
    expect(day[at('Worst case')]).toBe(57.1);
    expect(day[at('Worst case period')]).toBe('Tue 24 Nov 2026, day 07:00–23:00');
    expect(day[at('Coverage')]).toBe('all 3 stated');
    expect(day[at('Verdict')]).toBe('exceeded on 1 of 3 stated periods');
    expect(rowOf('LAeq,night', NOISE)[at('Result')]).toBe('met');
    expect(rowOf('LAeq,night', NOISE)[at('Verdict')]).toBe('met on all 2 periods');
    // PPV is judged per axis, a row each, as the results section lists them.
    const ppv = summary.rows.filter((r) => r[at('Limit')] === 'PPV' && r[at('Serial')] === VIBRATION);
    expect(ppv.map((r) => r[at('Figure')])).toEqual(
      reportFixture()
        .figures.filter((f) => f.limitKey === 'PPV' && f.serial === VIBRATION)
        .map((f) => f.label),
    );
  });

  it('never counts an insufficient figure as an exceedance, nor as the worst case', () => {
    const base = reportFixture();
    // The exceeding day had only 41 % of its period kept: insufficient data, never over its limit.
    const figures = base.figures.map((f) =>
      f.id === base.exceedances[0]!.figureId ? { ...f, state: 'insufficient' as const, coverage: 0.41 } : f,
    );
    const tables = reportTables(reportDocument(reportFixture({ figures })));
    const summary = tables.find((t) => t.name === 'summary')!;
    const at = (header: string) => summary.columns.indexOf(header);
    const day = summary.rows.find((r) => r[at('Limit')] === 'LAeq,day' && r[at('Serial')] === NOISE)!;
    // Met on the two days that could be assessed, never a bare "met" over the third.
    expect(day[at('Result')]).toBe('met in part');
    expect(day[at('Verdict')]).toBe('met on 2 of 3 periods; 1 could not be assessed');
    expect([
      day[at('Periods over the limit')],
      day[at('Periods stated')],
      day[at('Periods not assessable')],
    ]).toEqual([0, 2, 1]);
    expect(day[at('Worst case')]).toBe(55);
    expect(day[at('Coverage')]).toBe('2 of 3 stated (1 insufficient data)');
    // The engine's exceedance of it is not listed; the figure reads as insufficient data.
    expect(tables.find((t) => t.name === 'exceedances')!.rows).toEqual([]);
    const results = tables.find((t) => t.name === 'results')!;
    expect(results.rows.map((r) => r[results.columns.indexOf('Stated')])).toContain(
      'insufficient data (41 %)',
    );
  });

  it('lists events with their recording file name and measured levels, never the audio id', () => {
    const events = table('appendix-b-noise-events');
    const text = JSON.stringify(events.rows);
    for (const event of reportFixture().events)
      if (event.audioId !== null) expect(text).not.toContain(event.audioId);
    expect(events.columns).toContain('Trigger level (dB)');
    expect(events.columns).toContain('Overall values (dB)');
    expect(
      events.rows.flat().filter((c) => typeof c === 'string' && /\.flac$/.test(c)).length,
    ).toBeGreaterThan(0);
  });

  it('states the offset once, and where it changes within the period says so and marks the times after', () => {
    expect(clock.zoneText(START, START + 72 * 3_600_000)).toBe('(Europe/London, UTC+00:00)');
    const october = Date.UTC(2026, 9, 24, 23); // Sun 25 Oct 2026 00:00 BST
    const bst = new SiteClock('Europe/London', october);
    expect(bst.zoneText(october, october + 24 * 3_600_000)).toBe(
      '(Europe/London, UTC+01:00, and UTC+00:00 from Sun 25 Oct 2026 01:00)',
    );
    expect(bst.long(october)).toBe('Sun 25 Oct 2026 00:00');
    expect(bst.long(october + 3 * 3_600_000)).toBe('Sun 25 Oct 2026 02:00 (UTC+00:00)'); // 02:00 UTC
  });
});
