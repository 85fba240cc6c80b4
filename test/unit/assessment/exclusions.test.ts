/**
 * The wind rule over a weather series with a gap and a windy minute: time without a wind reading is
 * unknown, left out by default and said so, or counted as calm when the site chooses; worked by hand.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  DEFAULT_EXCLUSION_RULES,
  EMPTY_SITE_COVER,
  EMPTY_SITE_POSITIONS,
  type ExclusionRules,
  type Site,
} from '../../../src/shared/assessment';
import type { DataReadResult } from '../../../src/shared/data';
import type {
  AssessmentInputs,
  InstrumentInputs,
} from '../../../src/main/backend/assessment/assessment-inputs';
import { excludedPeriods } from '../../../src/main/backend/assessment/exclusions';
import { unreadPeriods } from '../../../src/main/backend/assessment/figures/exclusion-rules';

const MIN = 60_000;
/** Tue 10 Nov 2026 10:00 UTC; the range is the ten minutes from here. */
const T0 = Date.UTC(2026, 10, 10, 10);
const RANGE = { start: T0, end: T0 + 10 * MIN };

/**
 * Wind by minute from 10:00: 2, 3, 7.5, 3, (no samples at 10:04, 10:05 and 10:06), 4, no reading
 * (NaN), 2 m/s. With the limit at 5 m/s: windy 10:02–10:03; without a wind reading 10:04–10:07
 * (three readings missing); the one missing reading at 10:08 is bridged, as the offline rule
 * bridges up to two. Samples are 1 min long (the median spacing).
 */
const WIND_MINUTES = [0, 1, 2, 3, 7, 8, 9];
const WIND_VALUES = [2, 3, 7.5, 3, 4, Number.NaN, 2];

const weatherRead: DataReadResult = {
  query: { serial: 'NM1', dataset: 'weather', ...RANGE },
  provenance: { source: 'fresh', fetchedAt: RANGE.end },
  series: [
    {
      name: 'windSpeed',
      unit: 'm/s',
      times: Float64Array.from(WIND_MINUTES, (m) => T0 + m * MIN),
      values: Float32Array.from(WIND_VALUES),
    },
  ],
  records: null,
};

function siteWith(rules: Partial<ExclusionRules>): Site {
  return {
    id: 'site-1',
    accountId: 'acc',
    name: 'Mill Lane',
    timeZone: 'UTC',
    serials: ['NM1'],
    // Only the wind rule is judged here.
    rules: {
      ...DEFAULT_EXCLUSION_RULES,
      precipitation: false,
      failedCheck: false,
      offline: false,
      overload: false,
      ...rules,
    },
    exclusions: [],
    limits: {},
    settings: DEFAULT_ASSESSMENT_SETTINGS,
    cover: EMPTY_SITE_COVER,
    conclusion: '',
    positions: EMPTY_SITE_POSITIONS,
    createdAt: T0,
    updatedAt: T0,
  };
}

const noiseMonitor = (reads: InstrumentInputs['reads']): InstrumentInputs => ({
  instrument: { serial: 'NM1', name: 'Mill Lane NW', type: 'Noise', model: 'CR:171', position: null },
  kind: 'noise',
  reads,
});

const inputsWith = (reads: InstrumentInputs['reads']): AssessmentInputs => ({
  range: RANGE,
  instruments: [noiseMonitor(reads)],
  notes: [],
  fromCache: false,
  dataFetchedAt: RANGE.end,
});

/** [from, to] as "HH:mm" UTC with the reason, to read against the hand-worked list. */
const said = (site: Site, inputs: AssessmentInputs) =>
  excludedPeriods(site, inputs).map((p) => [
    new Date(p.start).toISOString().slice(11, 16),
    new Date(p.end).toISOString().slice(11, 16),
    p.cause,
    p.serial,
    p.reason,
  ]);

describe('the wind rule and time without a wind reading', () => {
  it('by default leaves out the windy minute and the time without a wind reading, each said why', () => {
    expect(said(siteWith({}), inputsWith({ weather: weatherRead }))).toEqual([
      ['10:02', '10:03', 'wind', 'NM1', 'Wind above 5 m/s (up to 7.5 m/s, measured at NM1)'],
      ['10:04', '10:07', 'wind', 'NM1', 'No wind reading (wind rule on)'],
    ]);
  });

  it('counted as calm, leaves out only the windy minute', () => {
    expect(said(siteWith({ windUnknown: 'calm' }), inputsWith({ weather: weatherRead }))).toEqual([
      ['10:02', '10:03', 'wind', 'NM1', 'Wind above 5 m/s (up to 7.5 m/s, measured at NM1)'],
    ]);
  });

  it('with the wind rule off, leaves out nothing for wind either way', () => {
    expect(said(siteWith({ wind: false }), inputsWith({ weather: weatherRead }))).toEqual([]);
    expect(
      said(siteWith({ wind: false, windUnknown: 'calm' }), inputsWith({ weather: weatherRead })),
    ).toEqual([]);
  });

  it('leaves out the whole period when the site measures weather but none could be read', () => {
    expect(said(siteWith({}), inputsWith({ weather: null }))).toEqual([
      ['10:00', '10:10', 'wind', 'NM1', 'No wind reading (wind rule on)'],
    ]);
    expect(said(siteWith({ windUnknown: 'calm' }), inputsWith({ weather: null }))).toEqual([]);
  });

  it('judges nothing for wind on a site that measures no weather', () => {
    expect(said(siteWith({}), inputsWith({}))).toEqual([]);
  });
});

describe('unreadPeriods', () => {
  it('is the time in the range that no reading covers, to the minute', () => {
    const samples = {
      starts: Float64Array.from(WIND_MINUTES, (m) => m * MIN),
      ends: Float64Array.from(WIND_MINUTES, (m) => (m + 1) * MIN),
      values: Float32Array.from(WIND_VALUES),
    };
    const minutes = (range: { start: number; end: number }) =>
      unreadPeriods(samples, range).map((p) => [p.start / MIN, p.end / MIN]);
    expect(minutes({ start: 0, end: 10 * MIN })).toEqual([
      [4, 7],
      [8, 9],
    ]);
    // Before the first sample and after the last, inside a sample's minute: clipped to the range.
    expect(minutes({ start: -2 * MIN, end: 12.5 * MIN })).toEqual([
      [-2, 0],
      [4, 7],
      [8, 9],
      [10, 12.5],
    ]);
    expect(minutes({ start: 4.5 * MIN, end: 5 * MIN })).toEqual([[4.5, 5]]);
    expect(minutes({ start: 0.5 * MIN, end: 3.5 * MIN })).toEqual([]);
  });
});
