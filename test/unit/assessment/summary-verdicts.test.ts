/**
 * The summary's verdicts, limits and states, worked by hand: a limit written as entered (85.45 dB,
 * never 85.5 "over by 0"), the DIN 4150-3 guideline at 10.9 Hz stated 5.225 mm/s and summarised
 * beside the site's PPV limit, "met" only over periods all stated, one word for each state of a
 * figure, and a summary that counts exactly what the exceedances section lists.
 */
import { describe, expect, it } from 'vitest';
import type { AssessmentResult, Figure, Site } from '../../../src/shared/assessment';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  DEFAULT_EXCLUSION_RULES,
  EMPTY_SITE_COVER,
  EMPTY_SITE_POSITIONS,
} from '../../../src/shared/assessment';
import { figureStateWords, figureValueText } from '../../../src/shared/figure-text';
import {
  coverageSummary,
  limitDecimals,
  limitText,
  overBy,
  overByText,
  summaryRows,
  summarySentence,
  verdictText,
  writtenDecimals,
} from '../../../src/shared/assessment-summary';
import { assess } from '../../../src/main/backend/assessment/assess';
import { stateOf } from '../../../src/main/backend/assessment/figure-builder';
import type { AssessmentInputs } from '../../../src/main/backend/assessment/assessment-inputs';
import { reportDocument } from '../../../src/main/backend/assessment/report/report-document';
import { reportTableViews } from '../../../src/main/backend/assessment/report/report-tables';
import { exceedanceGroups } from '../../../src/main/backend/assessment/report/report-summary';
import { SiteClock } from '../../../src/main/backend/assessment/report/report-format';
import { groupedExclusions } from '../../../src/main/backend/assessment/report/exclusion-tables';
import { reportFixture } from './report-fixture';
import { weekFixture } from './report-week';

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 23);

/** A daily LAeq,day figure of NM-1 stated (or not) as given. */
function day(i: number, over: Partial<Figure>): Figure {
  const start = START + i * DAY + 7 * 3_600_000;
  return {
    id: `NM-1|LAeq,day|${start}`,
    serial: 'NM-1',
    label: 'LAeq,day',
    limitKey: 'LAeq,day',
    period: `day ${i + 1}`,
    start,
    end: start + 16 * 3_600_000,
    unit: 'dB',
    all: 50,
    valid: 50,
    coverage: 1,
    state: 'ok',
    decimals: 1,
    method: 'Energetic mean.',
    limit: 55,
    exceeds: false,
    source: { serial: 'NM-1', dataset: 'noiseMeasurements', channel: 'LAeq', start, end: start + 1 },
    ...over,
  };
}

const withFigures = (figures: Figure[]): AssessmentResult =>
  reportFixture({ figures, exceedances: [], instruments: reportFixture().instruments.slice(0, 0) });

describe('a limit as entered', () => {
  it('writes 85.45 dB at two decimals: 85.5 is over it by 0.05, never "85.5 over 85.5 by 0"', () => {
    expect(writtenDecimals(85.45)).toBe(2);
    expect(writtenDecimals(55)).toBe(0);
    expect(writtenDecimals(0.2)).toBe(1);
    // A limit is written at least at the figure's decimals: 55 dB as 55.0 beside 54.2.
    expect(limitDecimals(55, 1)).toBe(1);
    expect(limitText(55, 1, 'dB')).toBe('55.0 dB');
    expect(limitText(85.45, 1, 'dB')).toBe('85.45 dB');
    const over = day(0, { valid: 85.5, limit: 85.45, exceeds: true });
    expect(overBy(over)).toBe(0.05);
    // The screen's exceedances table writes the same.
    expect(overByText(85.5, 85.45, 1, 'dB')).toBe('0.05 dB');
    expect(overByText(57.1, 55, 1, 'dB')).toBe('2.1 dB');

    const result = withFigures([over]);
    const views = new Map(reportTableViews(reportDocument(result)).map((v) => [v.name, v]));
    const exceedances = views.get('exceedances')!;
    const cell = (header: string) => exceedances.rows[0]![exceedances.columns.indexOf(header)];
    const places = (header: string) => exceedances.decimals[0]![exceedances.columns.indexOf(header)];
    // The spreadsheets: numbers at the limit's decimals (Excel's number format, the CSV's text).
    expect([cell('Limit'), places('Limit')]).toEqual([85.45, 2]);
    expect([cell('Over by'), places('Over by')]).toEqual([0.05, 2]);
    // The PDF's text says the same.
    const printed = exceedances.display!;
    const shown = (header: string) => printed.rows[0]![printed.columns.findIndex((c) => c.header === header)];
    expect(shown('Limit')).toBe('85.45 dB');
    expect(shown('Over by')).toBe('0.05');
    // And so does the summary, in both its forms.
    const summary = views.get('summary')!;
    expect(summary.rows[0]![summary.columns.indexOf('Limit value')]).toBe(85.45);
    expect(summary.decimals[0]![summary.columns.indexOf('Limit value')]).toBe(2);
    expect(summary.display!.rows[0]![2]).toBe('85.45 dB');
  });
});

describe('the verdict of a limit', () => {
  it('is "met" only when every period was stated, and says how many could not be assessed', () => {
    const all = summaryRows(withFigures([0, 1, 2].map((i) => day(i, {}))));
    expect(all.map((r) => [r.verdict, verdictText(r), coverageSummary(r)])).toEqual([
      ['met', 'met on all 3 periods', 'all 3 stated'],
    ]);
    // Days 2 and 3: 40 % kept, and every reading excluded. Met on 1 of 3, never a bare "met".
    const part = summaryRows(
      withFigures([
        day(0, {}),
        day(1, { state: 'insufficient', coverage: 0.4, valid: 51 }),
        day(2, { state: 'insufficient', coverage: 0, valid: null }),
      ]),
    );
    expect(part.map((r) => [r.verdict, verdictText(r), coverageSummary(r)])).toEqual([
      [
        'met in part',
        'met on 1 of 3 periods; 2 could not be assessed',
        '1 of 3 stated (1 insufficient data, 1 all excluded)',
      ],
    ]);
    const none = summaryRows(withFigures([day(0, { state: 'noData', all: null, valid: null, coverage: 0 })]));
    expect(none.map((r) => [r.verdict, verdictText(r)])).toEqual([
      ['not assessable', 'not assessable: 1 no readings'],
    ]);
    const exceeded = summaryRows(
      withFigures([
        day(0, { valid: 57.1, exceeds: true }),
        day(1, {}),
        day(2, { state: 'insufficient', coverage: 0.5 }),
      ]),
    );
    expect(exceeded.map((r) => [r.verdict, verdictText(r)])).toEqual([
      ['exceeded', 'exceeded on 1 of 2 stated periods; 1 could not be assessed'],
    ]);
    expect(summarySentence([...all, ...part, ...none, ...exceeded])).toBe(
      'Of 4 figures held to a limit (per instrument), 1 met on every period, 1 met on the periods that could be assessed, with others not assessable, 1 exceeded and 1 could not be assessed at all. 1 period over a limit is listed in the exceedances section.',
    );
  });
});

describe('the states of a figure', () => {
  it('says "insufficient data (n %)", "all excluded" or "no readings", the same as value and state', () => {
    const cases: Array<[Partial<Figure>, string]> = [
      [{ state: 'insufficient', coverage: 0.41, valid: 52.3 }, 'insufficient data (41 %)'],
      [{ state: 'insufficient', coverage: 0, valid: null }, 'all excluded'],
      [{ state: 'noData', all: null, valid: null, coverage: 0 }, 'no readings'],
    ];
    for (const [over, words] of cases) {
      expect(figureStateWords(day(0, over))).toBe(words);
      expect(figureValueText(day(0, over))).toBe(words);
    }
    expect(figureStateWords(day(0, {}))).toBe('stated');
    expect(figureValueText(day(0, {}))).toBe('50.0 dB');
  });

  it('reads an Lden with its day read and its night not as short of data, not as no readings', () => {
    // Day readings for 51 % of the 24 hours, no night: no Lden can be formed, but readings exist.
    expect(stateOf(null, null, 0.51, 0.75)).toBe('insufficient');
    expect(stateOf(null, null, 0, 0.75)).toBe('noData');
  });
});

describe('vibration against DIN 4150-3', () => {
  const MINUTE = 60_000;
  const from = Date.UTC(2026, 10, 23);
  const to = from + 10 * MINUTE;
  /** Ten minutes of PPV: X peaks at 6.531 mm/s at 10.9 Hz, Z at 9.0 mm/s at 30 Hz, Y stays low. */
  const ppvOf = (axis: 'X' | 'Y' | 'Z', i: number) => (i === 4 ? { X: 6.531, Y: 0.5, Z: 9 }[axis] : 0.2);
  const frequencyOf = (axis: 'X' | 'Y' | 'Z') => ({ X: 10.9, Y: 40, Z: 30 })[axis];
  const times = Float64Array.from({ length: 10 }, (_, i) => from + i * MINUTE);
  const site: Site = {
    id: 's',
    accountId: 'a',
    name: 'Quarry Lane',
    timeZone: 'Europe/London',
    serials: ['VB-1'],
    rules: { ...DEFAULT_EXCLUSION_RULES, offline: false },
    exclusions: [],
    limits: { PPV: 10 },
    settings: { ...DEFAULT_ASSESSMENT_SETTINGS, dinLine: 2 },
    cover: { ...EMPTY_SITE_COVER },
    conclusion: '',
    positions: EMPTY_SITE_POSITIONS,
    createdAt: from,
    updatedAt: from,
  };
  const inputs: AssessmentInputs = {
    range: { start: from, end: to },
    notes: [],
    fromCache: false,
    dataFetchedAt: to,
    instruments: [
      {
        instrument: { serial: 'VB-1', name: 'Foundation', type: 'Vibration', model: 'VM', position: null },
        kind: 'vibration',
        reads: {
          vibrationPPV: {
            query: { serial: 'VB-1', dataset: 'vibrationPPV', start: from, end: to },
            provenance: { source: 'fresh', fetchedAt: to },
            series: (['X', 'Y', 'Z'] as const).flatMap((axis) => [
              {
                name: `vMax${axis}`,
                unit: 'mm/s',
                times,
                values: Float32Array.from(times, (_, i) => ppvOf(axis, i)),
              },
              {
                name: `fDom${axis}`,
                unit: 'Hz',
                times,
                values: Float32Array.from(times, () => frequencyOf(axis)),
              },
            ]),
            records: null,
          },
        },
      },
    ],
  };
  const result = assess(site, inputs, { toleranceDb: 0.5, computedAt: to });

  it('states the guideline at 10.9 Hz to the PPV’s own precision: 5.225 mm/s, not 5.22', () => {
    // Line 2 at 10.9 Hz: 5 + (15 − 5)·(10.9 − 10)/(50 − 10) = 5.225 mm/s.
    const x = result.figures.find((f) => f.label === 'PPV X vs DIN 4150-3')!;
    expect(x.limit).toBe(5.225);
    expect(x.guideline).toBe('DIN 4150-3 line 2');
    expect(limitText(x.limit!, x.decimals, x.unit)).toBe('5.225 mm/s');
  });

  it('summarises every axis over the guideline, as the exceedances section lists them', () => {
    const rows = summaryRows(result);
    const din = rows.filter((r) => r.limitName === 'DIN 4150-3 line 2');
    // X: 6.531 over 5.225 at 10.9 Hz; Z: 9.0 under 5 + 10·20/40 = 10.0 at 30 Hz; Y: 0.5 far under.
    expect(din.map((r) => [r.figure, r.verdict])).toEqual([
      ['PPV X vs DIN 4150-3', 'exceeded'],
      ['PPV Y vs DIN 4150-3', 'met'],
      ['PPV Z vs DIN 4150-3', 'met'],
    ]);
    // The site's 10 mm/s PPV limit: none over; its rows stand beside the guideline's.
    expect(rows.filter((r) => r.limitName === 'PPV').map((r) => r.verdict)).toEqual(['met', 'met', 'met']);
    // The summary counts exactly the periods the exceedances section lists.
    const listed = exceedanceGroups(result).flatMap((g) => g.items);
    expect(rows.flatMap((r) => r.over)).toEqual(listed);
    expect(listed.map((f) => f.label)).toEqual(['PPV X vs DIN 4150-3']);
    expect(summarySentence(rows)).toContain('1 period over a limit is listed');
  });
});

describe('times of the autumn clock change and of an exceedance', () => {
  it('labels both 01:00s of the repeated hour with their offsets, and cites a moment with its year', () => {
    // Sun 25 Oct 2026 in London: 01:00 BST (00:00 UTC), then 01:00 GMT (01:00 UTC).
    const clock = new SiteClock('Europe/London', Date.UTC(2026, 9, 24, 23));
    expect(clock.short(Date.UTC(2026, 9, 25, 0))).toBe('Sun 25 Oct 01:00 (UTC+01:00)');
    expect(clock.short(Date.UTC(2026, 9, 25, 1))).toBe('Sun 25 Oct 01:00 (UTC+00:00)');
    // Outside the repeated hour, the report's own offset is stated once, not beside each time.
    expect(clock.short(Date.UTC(2026, 9, 24, 22))).toBe('Sat 24 Oct 23:00');
    expect(clock.moment(Date.UTC(2026, 9, 24, 12, 31, 5), 1000)).toBe('Sat 24 Oct 2026 13:31:05');
  });
});

describe('a rule that cannot be judged', () => {
  it('is said in the method, the summary page and the cover sheet, not left silently idle', () => {
    // The week's two noise monitors measure no weather, and the wind and rain rules are on.
    const result = weekFixture();
    expect(result.unjudgedRules).toEqual([
      'The wind rule could not be judged: no instrument of the site measures weather, so no time was excluded for wind.',
      'The precipitation rule could not be judged: no instrument of the site measures weather, so no time was excluded for rain.',
    ]);
    const tables = new Map(reportTableViews(reportDocument(result)).map((v) => [v.name, v]));
    const method = tables.get('method')!.rows.find((r) => r[0] === 'Exclusions')![1];
    expect(method).toContain('The wind rule could not be judged');
    expect(tables.get('cover')!.rows).toContainEqual(['Rule not judged 1', result.unjudgedRules![0]]);
    // Noise monitors with no rule that needs weather: nothing to say.
    expect(withFigures([]).unjudgedRules ?? []).toEqual([]);
  });
});

describe('one kept time for the figures of a period', () => {
  it('ranks LA10/LA90 from the 1 s history over the same kept time as LAeq', () => {
    // Mon 23 Nov 2026, day 07:00–23:00 (London is on UTC): 15-min values and a 1 s history, all
    // read; one minute excluded by hand at 09:05. LAeq leaves the 09:00–09:15 value out whole, so
    // both keep 15 h 45 min of 16 h: 98.4 %, not 99.9 % for the history.
    const dayStart = Date.UTC(2026, 10, 23, 7);
    const dayEnd = Date.UTC(2026, 10, 23, 23);
    const quarters = Float64Array.from({ length: 64 }, (_, i) => dayStart + i * 900_000);
    const seconds = Float64Array.from({ length: 57_600 }, (_, i) => dayStart + i * 1000);
    const level = (t: number) => 50 + ((t / 1000) % 7);
    const series = (name: string, times: Float64Array) => ({
      name,
      unit: 'dB',
      times,
      values: Float32Array.from(times, level),
    });
    const read = (
      dataset: 'noiseMeasurements' | 'noiseTimeHistory',
      channels: ReturnType<typeof series>[],
    ) => ({
      query: { serial: 'NM-9', dataset, start: dayStart, end: dayEnd },
      provenance: { source: 'fresh' as const, fetchedAt: dayEnd },
      series: channels,
      records: null,
    });
    const site: Site = {
      id: 's',
      accountId: 'a',
      name: 'Mill Lane',
      timeZone: 'Europe/London',
      serials: ['NM-9'],
      rules: { ...DEFAULT_EXCLUSION_RULES, wind: false, precipitation: false, offline: false },
      exclusions: [
        {
          id: 'x',
          start: Date.UTC(2026, 10, 23, 9, 5),
          end: Date.UTC(2026, 10, 23, 9, 6),
          reason: 'Engineer at the microphone',
          serial: null,
          createdAt: dayStart,
        },
      ],
      limits: {},
      settings: { ...DEFAULT_ASSESSMENT_SETTINGS, statistics: 'timeHistory' },
      cover: { ...EMPTY_SITE_COVER },
      conclusion: '',
      positions: EMPTY_SITE_POSITIONS,
      createdAt: dayStart,
      updatedAt: dayStart,
    };
    const result = assess(
      site,
      {
        range: { start: dayStart, end: dayEnd },
        notes: [],
        fromCache: false,
        dataFetchedAt: dayEnd,
        instruments: [
          {
            instrument: { serial: 'NM-9', name: 'Mill Lane', type: 'Noise', model: 'CR:171', position: null },
            kind: 'noise',
            reads: {
              noiseMeasurements: read('noiseMeasurements', [
                series('LAeq', quarters),
                series('LAFMax', quarters),
              ]),
              noiseTimeHistory: read('noiseTimeHistory', [series('LAeq', seconds)]),
            },
          },
        ],
      },
      { toleranceDb: 0.5, computedAt: dayEnd },
    );
    const coverage = (label: string) => result.figures.find((f) => f.label === label)!.coverage;
    expect(coverage('LAeq,day')).toBeCloseTo(63 / 64, 9);
    expect(coverage('LA10,day')).toBeCloseTo(63 / 64, 9);
    expect(coverage('LA90,day')).toBeCloseTo(63 / 64, 9);
  });
});

describe('the appendix of excluded periods', () => {
  it('lists a rule’s period once with every instrument it excluded, the manual ones first', () => {
    const at = (hour: number) => Date.UTC(2026, 10, 24, hour);
    const wind = 'Wind above 5 m/s (highest 7.2 m/s)';
    const rows = groupedExclusions([
      { start: at(14), end: at(15), serial: 'NM-1', cause: 'wind', reason: wind },
      { start: at(14), end: at(15), serial: 'NM-2', cause: 'wind', reason: wind },
      { start: at(9), end: at(10), serial: 'NM-2', cause: 'precipitation', reason: 'Rain' },
      { start: at(16), end: at(17), serial: null, cause: 'manual', reason: 'Road works' },
      { start: at(2), end: at(3), serial: 'NM-1', cause: 'manual', reason: 'Party next door' },
    ]);
    expect(rows.map((r) => [r.cause, r.start, r.instruments, r.reason])).toEqual([
      ['manual', at(2), 'NM-1', 'Party next door'],
      ['manual', at(16), 'all', 'Road works'],
      ['wind', at(14), 'NM-1, NM-2', wind],
      ['precipitation', at(9), 'NM-2', 'Rain'],
    ]);
  });
});
