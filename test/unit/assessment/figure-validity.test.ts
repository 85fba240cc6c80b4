/**
 * Whether a figure may be stated, worked by hand on one UTC day (Mon 23 Nov 2026 07:00 to Tue 24
 * Nov 07:00: a 16-hour day, a 4-hour evening inside it, an 8-hour night): the coverage rule, no
 * data never read as zero, one comparison rule for the value as stated, the same kept time for
 * every figure of a row, intervals touching an exclusion left out whole, the second of a night's
 * LAFMax from the 1 s history, and VDV stated to three significant digits.
 */
import { describe, expect, it } from 'vitest';
import type { Figure, Site } from '../../../src/shared/assessment';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  DEFAULT_EXCLUSION_RULES,
  EMPTY_SITE_COVER,
  EMPTY_SITE_POSITIONS,
} from '../../../src/shared/assessment';
import { figureValueText } from '../../../src/shared/figure-text';
import type { DataReadResult, Dataset, RecordTable, SeriesChannel } from '../../../src/shared/data';
import { assess } from '../../../src/main/backend/assessment/assess';
import type {
  AssessmentInputs,
  InstrumentInputs,
} from '../../../src/main/backend/assessment/assessment-inputs';
import { roundTo } from '../../../src/main/backend/assessment/figure-builder';
import { decimalsFor } from '../../../src/shared/quantities';
import { refineMaximaTimes } from '../../../src/main/backend/assessment/maxima-times';

const QUARTER = 900_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 23, 7);
const END = Date.UTC(2026, 10, 24, 7);
const NIGHT = Date.UTC(2026, 10, 23, 23);

function channel(name: string, level: (t: number) => number, unit = 'dB', step = QUARTER): SeriesChannel {
  const times: number[] = [];
  for (let t = START; t < END; t += step) times.push(t);
  return { name, unit, times: Float64Array.from(times), values: Float32Array.from(times, level) };
}

const read = (
  dataset: Dataset,
  series: SeriesChannel[],
  records: RecordTable | null = null,
): DataReadResult => ({
  query: { serial: 'NM1', dataset, start: START, end: END },
  provenance: { source: 'fresh', fetchedAt: END },
  series,
  records,
});

const NO_EVENTS: RecordTable = { timeKey: 'startTime', columns: [], rows: [] };

function siteWith(over: Partial<Site> = {}): Site {
  return {
    id: 'site-1',
    accountId: 'acc',
    name: 'Mill Lane',
    timeZone: 'UTC',
    serials: ['NM1'],
    rules: { ...DEFAULT_EXCLUSION_RULES, offline: false },
    exclusions: [],
    limits: {},
    settings: { ...DEFAULT_ASSESSMENT_SETTINGS },
    cover: EMPTY_SITE_COVER,
    conclusion: '',
    positions: EMPTY_SITE_POSITIONS,
    createdAt: START,
    updatedAt: START,
    ...over,
  };
}

function noiseInputs(levels: {
  laeq: (t: number) => number;
  laf10?: (t: number) => number;
  lafmax?: (t: number) => number;
}): AssessmentInputs {
  const instrument: InstrumentInputs = {
    instrument: { serial: 'NM1', name: 'Mill Lane NW', type: 'Noise', model: 'CR:171', position: null },
    kind: 'noise',
    reads: {
      noiseMeasurements: read('noiseMeasurements', [
        channel('LAeq', levels.laeq),
        channel('LAFMax', levels.lafmax ?? ((t) => levels.laeq(t) + 10)),
        channel('LAF10', levels.laf10 ?? ((t) => levels.laeq(t) + 3)),
        channel('LAF90', (t) => levels.laeq(t) - 5),
      ]),
      events: read('events', [], NO_EVENTS),
    },
  };
  return {
    range: { start: START, end: END },
    notes: [],
    fromCache: false,
    dataFetchedAt: END,
    instruments: [instrument],
  };
}

const find = (figures: Figure[], label: string, start?: number): Figure => {
  const found = figures.find((f) => f.label === label && (start === undefined || f.start === start));
  if (!found) throw new Error(`no figure ${label}`);
  return found;
};

describe('the coverage rule', () => {
  // Readings only 07:00–10:00 (12 quarters, 3 of the day's 16 hours: 18.75 %), at 63.7 dB.
  const laeq = (t: number) => (t < START + 3 * HOUR ? 63.7 : Number.NaN);
  const site = siteWith({ limits: { 'LAeq,day': 55, 'LA10,day': 55, 'LAeq,night': 40 } });
  const result = assess(site, noiseInputs({ laeq }), { toleranceDb: 0.5, computedAt: END });

  it('states a figure from 3 of 16 hours as insufficient data, never as an exceedance', () => {
    const day = find(result.figures, 'LAeq,day');
    expect(day.valid).toBe(63.7);
    expect(day.coverage).toBeCloseTo(0.1875, 6);
    expect(day.state).toBe('insufficient');
    expect(day.exceeds).toBe(false);
    expect(figureValueText(day)).toBe('insufficient data (18 %)');
    expect(find(result.figures, 'LA10,day').state).toBe('insufficient');
    expect(result.exceedances).toEqual([]);
  });

  it('says a night without readings has none — its events are not counted as zero', () => {
    const night = find(result.figures, 'LAeq,night');
    expect(night.state).toBe('noData');
    expect(figureValueText(night)).toBe('no readings');
    const events = find(result.figures, 'Events ≥ 65 dB, night');
    expect(events.all).toBeNull();
    expect(events.valid).toBeNull();
    expect(events.state).toBe('noData');
    expect(figureValueText(events)).toBe('no readings');
  });

  it('follows the site’s own minimum: at 15 % the same day is stated, and exceeds', () => {
    const lenient = siteWith({
      limits: { 'LAeq,day': 55 },
      settings: { ...DEFAULT_ASSESSMENT_SETTINGS, minimumCoverage: 0.15 },
    });
    const day = find(
      assess(lenient, noiseInputs({ laeq }), { toleranceDb: 0.5, computedAt: END }).figures,
      'LAeq,day',
    );
    expect(day.state).toBe('ok');
    expect(day.exceeds).toBe(true);
    expect(figureValueText(day)).toBe('63.7 dB');
  });

  it('judges an hour by its own coverage: 30 of 60 minutes is no LAeq,1h exceedance', () => {
    // 12:00–12:30 read at 70 dB, 12:30–13:00 not read; the rest of the day at 50 dB.
    const noon = Date.UTC(2026, 10, 23, 12);
    const level = (t: number) =>
      t >= noon && t < noon + 30 * MINUTE ? 70 : t >= noon && t < noon + HOUR ? Number.NaN : 50;
    const hourly = assess(siteWith({ limits: { 'LAeq,1h': 60 } }), noiseInputs({ laeq: level }), {
      toleranceDb: 0.5,
      computedAt: END,
    });
    const row = hourly.hourly.find((r) => r.start === noon)!;
    expect(row.laeqValid).toBe(70);
    expect(row.coverage).toBeCloseTo(0.5, 6);
    expect(row.sufficient).toBe(false);
    expect(hourly.exceedances.filter((e) => e.label === 'LAeq,1h')).toEqual([]);
  });
});

describe('one comparison rule: over the limit exactly when the value as stated is', () => {
  const dayWith = (level: number) =>
    find(
      assess(siteWith({ limits: { 'LAeq,day': 55 } }), noiseInputs({ laeq: () => level }), {
        toleranceDb: 0.5,
        computedAt: END,
      }).figures,
      'LAeq,day',
    );

  it('55.04 dB is stated as 55.0 and is not over a 55 dB limit', () => {
    const day = dayWith(55.04);
    expect(day.valid).toBe(55);
    expect(day.decimals).toBe(1);
    expect(day.exceeds).toBe(false);
  });

  it('55.06 dB is stated as 55.1 and is over it', () => {
    const day = dayWith(55.06);
    expect(day.valid).toBe(55.1);
    expect(day.exceeds).toBe(true);
  });

  it('counts PM days above the limit from the daily means as stated, so the count and the flags agree', () => {
    // Two calendar days of 1-min PM10 readings: 50.04 (stated 50.0) and 50.06 (stated 50.1), limit 50.
    const dayOne = Date.UTC(2026, 10, 23);
    const dayTwo = Date.UTC(2026, 10, 24);
    const times: number[] = [];
    for (let t = dayOne; t < dayTwo + 24 * HOUR; t += MINUTE) times.push(t);
    const pm10: SeriesChannel = {
      name: 'pM10',
      unit: 'µg/m³',
      times: Float64Array.from(times),
      values: Float32Array.from(times, (t) => (t < dayTwo ? 50.04 : 50.06)),
    };
    const range = { start: dayOne, end: dayTwo + 24 * HOUR };
    const air: AssessmentInputs = {
      range,
      notes: [],
      fromCache: false,
      dataFetchedAt: range.end,
      instruments: [
        {
          instrument: { serial: 'AQ1', name: 'Gate', type: 'AirQuality', model: 'AQ', position: null },
          kind: 'airquality',
          reads: {
            particulates: {
              ...read('particulates', [pm10]),
              query: { serial: 'AQ1', dataset: 'particulates', ...range },
            },
          },
        },
      ],
    };
    const site = siteWith({ serials: ['AQ1'], limits: { 'PM10,24h': 50 } });
    const figures = assess(site, air, { toleranceDb: 0.5, computedAt: range.end }).figures;
    const [first, second] = figures.filter((f) => f.label === 'PM10 24-h mean');
    expect([first!.valid, first!.exceeds]).toEqual([50, false]);
    expect([second!.valid, second!.exceeds]).toEqual([50.1, true]);
    expect(find(figures, 'PM10 days above the 24-h limit').valid).toBe(1);
  });
});

describe('the kept time of a row', () => {
  it('forms LAeq,day and LA10,day over the same quarters when LAF10 lacks two of them', () => {
    const missing = [START + 4 * QUARTER, START + 5 * QUARTER];
    const result = assess(
      siteWith(),
      noiseInputs({
        laeq: () => 50,
        laf10: (t) => (missing.includes(t) ? Number.NaN : 53),
      }),
      { toleranceDb: 0.5, computedAt: END },
    );
    const laeq = find(result.figures, 'LAeq,day');
    const la10 = find(result.figures, 'LA10,day');
    // 62 of the day's 64 quarters.
    expect(laeq.coverage).toBeCloseTo(62 / 64, 9);
    expect(la10.coverage).toBeCloseTo(62 / 64, 9);
  });

  it('leaves out whole the 15-min value a one-minute exclusion touches, and says so', () => {
    const cut = Date.UTC(2026, 10, 23, 12, 5);
    const site = siteWith({
      exclusions: [
        { id: 'x', start: cut, end: cut + MINUTE, reason: 'Mower', serial: null, createdAt: START },
      ],
    });
    const day = find(
      assess(site, noiseInputs({ laeq: () => 50 }), { toleranceDb: 0.5, computedAt: END }).figures,
      'LAeq,day',
    );
    expect(day.coverage).toBeCloseTo(63 / 64, 9);
    expect(day.method).toContain('touches excluded time');
    expect(day.method).toContain('left out whole');
  });
});

describe('the second of a night’s LAFMax', () => {
  // The loudest quarter of the night is 02:00–02:15 at 88 dB; its loudest second 02:13:47.
  const loudQuarter = Date.UTC(2026, 10, 24, 2);
  const loudSecond = loudQuarter + 13 * MINUTE + 47_000;
  const inputs = noiseInputs({ laeq: () => 50, lafmax: (t) => (t === loudQuarter ? 88 : 60) });

  it('is found in the 1 s history of its 15-min interval', async () => {
    const result = assess(siteWith({ limits: { 'LAFMax,night': 80 } }), inputs, {
      toleranceDb: 0.5,
      computedAt: END,
    });
    const asked: Array<{ dataset: string; start: number; end: number }> = [];
    await refineMaximaTimes(
      result,
      () => QUARTER,
      async (serial, dataset, range) => {
        asked.push({ dataset, ...range });
        const times = Array.from({ length: 900 }, (_, i) => range.start + i * 1000);
        return {
          ...read(dataset, [
            {
              name: 'LAFMax',
              unit: 'dB',
              times: Float64Array.from(times),
              values: Float32Array.from(times, (t) => (t === loudSecond ? 88 : 70)),
            },
          ]),
          query: { serial, dataset, ...range },
        };
      },
    );
    expect(asked).toEqual([{ dataset: 'noiseTimeHistory', start: loudQuarter, end: loudQuarter + QUARTER }]);
    const max = find(result.figures, 'LAFMax,night');
    expect(max.at).toBe(loudSecond);
    expect(max.detail).toBe('at Tue 24 Nov 2026 02:13:47 +00:00 (from the 1 s history)');
    expect(result.exceedances.find((e) => e.figureId === max.id)?.at).toBe(loudSecond);
  });

  it('keeps saying the interval when the history cannot be read (offline)', async () => {
    const result = assess(siteWith(), inputs, { toleranceDb: 0.5, computedAt: END });
    await refineMaximaTimes(
      result,
      () => QUARTER,
      () => Promise.reject(new Error('offline')),
    );
    const max = find(result.figures, 'LAFMax,night');
    expect(max.at).toBe(loudQuarter);
    expect(max.detail).toBe('in the 15-min interval from Tue 24 Nov 2026 02:00 +00:00');
  });
});

describe('precision', () => {
  it('states VDV to three significant digits: 0.006885 is 0.00689, not 0.007', () => {
    const decimals = decimalsFor({ significant: 3 }, 0.006885);
    expect(decimals).toBe(5);
    expect(roundTo(0.006885, decimals)).toBe(0.00689);
    expect(decimalsFor({ significant: 3 }, 1.2345)).toBe(2);
    expect(decimalsFor({ significant: 3 }, 123.4)).toBe(0);
  });

  it('rounds half away from zero from the decimal text (1.005 is 1.01, −0.25 is −0.3)', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(-0.25, 1)).toBe(-0.3);
    expect(roundTo(null, 1)).toBeNull();
  });
});

describe('a night stated as figures', () => {
  it('is the night from 23:00 to 07:00 in the test data', () => {
    const result = assess(siteWith(), noiseInputs({ laeq: () => 50 }), { toleranceDb: 0.5, computedAt: END });
    const night = find(result.figures, 'LAeq,night');
    expect([night.start, night.end, night.state, night.valid]).toEqual([NIGHT, END, 'ok', 50]);
  });
});
