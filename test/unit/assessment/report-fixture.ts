/**
 * A small, realistic assessment to write reports from: three days at a residential street with a
 * noise monitor at a façade and a vibration monitor at a foundation, road works excluded for the
 * whole site, wind and a failed SIC for the noise monitor, an offline spell for each, one
 * exceedance, calibrations before and after with drift, hourly rows, noise events (some with
 * audio) and two charts. Periods are labelled as the assessment labels them: a night by the date of
 * the evening it starts.
 */
import type { AssessmentResult, CheckEvidence, Figure } from '../../../src/shared/assessment';
import { DEFAULT_ASSESSMENT_SETTINGS } from '../../../src/shared/assessment';
import type { Dataset } from '../../../src/shared/data';
import { UNLISTED, type SaveTarget } from '../../../src/main/backend/core/unfinished-files';
import { unitDecimals } from '../../../src/shared/assessment-units';
import {
  at,
  CHARTS,
  END,
  EVENTS,
  EXCLUSIONS,
  hourlyRows,
  NOISE,
  START,
  VIBRATION,
} from './report-fixture-readings';

export { END, NOISE, START, VIBRATION } from './report-fixture-readings';

export const SITE_NAME = 'Riverside Close';

/** Saving a report to `path` with no list of unfinished files (the writers' tests look at one file). */
export const reportTarget = (path: string): SaveTarget => ({
  path,
  what: 'the report',
  unfinished: UNLISTED,
});

const source = (serial: string, dataset: Dataset, channel: string, start: number, end: number) => ({
  serial,
  dataset,
  channel,
  start,
  end,
});

const LAEQ_METHOD = 'Energetic mean of the 15-min LAeq values of the period.';

function figure(
  serial: string,
  key: string,
  over: Partial<Figure> & Pick<Figure, 'label' | 'period' | 'start' | 'end' | 'unit'>,
): Figure {
  const base: Figure = {
    id: `${serial}|${key}|${over.start}`,
    serial,
    label: over.label,
    limitKey: null,
    period: over.period,
    start: over.start,
    end: over.end,
    unit: over.unit,
    all: null,
    valid: null,
    coverage: 1,
    state: 'ok',
    // As the engine states them: dB and µg/m³ to 0.1, PPV to 0.001 below 1 mm/s, VDV to 0.001.
    decimals: unitDecimals(over.unit, over.valid ?? 0),
    method: LAEQ_METHOD,
    limit: null,
    exceeds: false,
    source: source(serial, 'noiseMeasurements', 'LAeq', over.start, over.end),
  };
  return { ...base, ...over };
}

export const FIGURES: Figure[] = [
  figure(NOISE, 'LAeq,day', {
    label: 'LAeq,day',
    limitKey: 'LAeq,day',
    period: 'Mon 23 Nov 2026, day 07:00–23:00',
    start: at(23, 7),
    end: at(23, 23),
    unit: 'dB',
    all: 56.83,
    valid: 54.21,
    coverage: 12.5 / 16,
    limit: 55,
  }),
  figure(NOISE, 'LAeq,night', {
    label: 'LAeq,night',
    limitKey: 'LAeq,night',
    period: 'Mon 23 Nov 2026, night 23:00–07:00',
    start: at(23, 23),
    end: at(24, 7),
    unit: 'dB',
    all: 44.12,
    valid: 43.64,
    coverage: 7 / 8,
    limit: 45,
  }),
  figure(NOISE, 'LAeq,day', {
    label: 'LAeq,day',
    limitKey: 'LAeq,day',
    period: 'Tue 24 Nov 2026, day 07:00–23:00',
    start: at(24, 7),
    end: at(24, 23),
    unit: 'dB',
    all: 58.34,
    valid: 57.08,
    coverage: 14.5 / 16,
    limit: 55,
    exceeds: true,
  }),
  figure(NOISE, 'LAeq,night', {
    label: 'LAeq,night',
    limitKey: 'LAeq,night',
    period: 'Tue 24 Nov 2026, night 23:00–07:00',
    start: at(24, 23),
    end: at(25, 7),
    unit: 'dB',
    all: 44.96,
    valid: 44.77,
    coverage: 7.25 / 8,
    limit: 45,
  }),
  figure(NOISE, 'LAeq,day', {
    label: 'LAeq,day',
    limitKey: 'LAeq,day',
    period: 'Wed 25 Nov 2026, day 07:00–23:00',
    start: at(25, 7),
    end: at(25, 23),
    unit: 'dB',
    all: 54.97,
    valid: 54.97,
    coverage: 1,
    limit: 55,
  }),
  figure(NOISE, 'LAFMax,night', {
    label: 'LAFMax,night',
    limitKey: 'LAFMax,night',
    period: 'Mon 23 Nov 2026, night 23:00–07:00',
    start: at(23, 23),
    end: at(24, 7),
    unit: 'dB',
    all: 71.4,
    valid: 71.4,
    coverage: 7 / 8,
    method: 'Highest LAFMax of the 15-min intervals of the period.',
    limit: 80,
    source: source(NOISE, 'noiseMeasurements', 'LAFMax', at(23, 23), at(24, 7)),
  }),
  figure(NOISE, 'LA90,night', {
    label: 'LA90,night',
    limitKey: 'LA90,night',
    period: 'Mon 23 Nov 2026, night 23:00–07:00',
    start: at(23, 23),
    end: at(24, 7),
    unit: 'dB',
    all: 38.24,
    valid: 38.02,
    coverage: 7 / 8,
    method: 'Arithmetic mean of the 15-min LAF90 values of the period.',
    source: source(NOISE, 'noiseMeasurements', 'LAF90', at(23, 23), at(24, 7)),
  }),
  figure(NOISE, 'Lden', {
    label: 'Lden',
    limitKey: 'Lden',
    period: 'whole period',
    start: START,
    end: END,
    unit: 'dB',
    all: 58.12,
    valid: 56.93,
    coverage: 0.93,
    method:
      'Energetic mean of the day, evening and night LAeq with 5 dB added to the evening and 10 dB to the night.',
  }),
  figure(VIBRATION, 'PPV', {
    label: 'PPV Z',
    limitKey: 'PPV',
    period: 'whole period',
    start: START,
    end: END,
    unit: 'mm/s',
    all: 1.274,
    valid: 0.6183,
    coverage: 0.941,
    method: 'Highest peak particle velocity of the period on the axis.',
    detail: 'Dominant frequency 16.0 Hz; DIN 4150-3 line 2 guideline value at that frequency 6.5 mm/s.',
    limit: 1,
    source: source(VIBRATION, 'vibrationPPV', 'vMaxZ', START, END),
  }),
  figure(VIBRATION, 'PPV', {
    label: 'PPV X',
    limitKey: 'PPV',
    period: 'whole period',
    start: START,
    end: END,
    unit: 'mm/s',
    all: 1.612,
    valid: 1.236,
    coverage: 0.941,
    method: 'Highest peak particle velocity of the period on the axis.',
    limit: 1.5,
    source: source(VIBRATION, 'vibrationPPV', 'vMaxX', START, END),
  }),
  figure(VIBRATION, 'VDV,day', {
    label: 'VDV,day',
    limitKey: 'VDV,day',
    period: 'Tue 24 Nov 2026, day 07:00–23:00',
    start: at(24, 7),
    end: at(24, 23),
    unit: 'm/s¹·⁷⁵',
    all: 0.14237,
    valid: 0.12811,
    coverage: 1,
    method: 'Fourth root of the sum of the fourth powers of the 1-min VDV values of the period.',
    source: source(VIBRATION, 'vibrationVDV', 'vdvZ', at(24, 7), at(24, 23)),
  }),
];

export const EXCEEDANCE_FIGURE = FIGURES[2]!;

function check(over: Partial<CheckEvidence> & Pick<CheckEvidence, 'kind' | 'time' | 'when'>): CheckEvidence {
  return {
    serial: NOISE,
    status: 'Passed',
    passed: true,
    level: null,
    offset: null,
    drift: null,
    tolerance: 0.5,
    driftWithinTolerance: null,
    ...over,
  };
}

export const CHECKS: CheckEvidence[] = [
  check({
    kind: 'calibration',
    time: at(22, 15, 42),
    when: 'before',
    level: 93.96,
    offset: -0.04,
    drift: -0.06,
    driftWithinTolerance: true,
  }),
  check({ kind: 'sic', time: at(23, 3), when: 'during', offset: 0.31 }),
  check({
    kind: 'sic',
    time: at(24, 3),
    when: 'during',
    status: 'Failed',
    passed: false,
    offset: 1.2,
    drift: 0.89,
    driftWithinTolerance: false,
  }),
  check({
    kind: 'sic',
    time: at(24, 4),
    when: 'during',
    offset: 0.24,
    drift: -0.96,
    driftWithinTolerance: false,
  }),
  check({
    kind: 'calibration',
    time: at(26, 9, 15),
    when: 'after',
    level: 94.06,
    offset: 0.06,
    drift: 0.1,
    driftWithinTolerance: true,
  }),
];

/** The assessment, with whatever a test changes. */
export function reportFixture(over: Partial<AssessmentResult> = {}): AssessmentResult {
  return {
    siteId: 'site-riverside',
    siteName: SITE_NAME,
    timeZone: 'Europe/London',
    start: START,
    end: END,
    computedAt: at(26, 9, 30),
    settings: DEFAULT_ASSESSMENT_SETTINGS,
    instruments: [
      {
        serial: NOISE,
        name: 'Façade of No. 14',
        type: 'Noise monitor',
        model: 'Sentinel NM3',
        position: { lat: 51.4782317, long: -0.2141906 },
      },
      {
        serial: VIBRATION,
        name: 'Foundation of No. 14',
        type: 'Vibration monitor',
        model: 'Sentinel VM2',
        position: null,
      },
    ],
    exclusions: EXCLUSIONS,
    figures: FIGURES,
    hourly: hourlyRows(),
    exceedances: [
      {
        figureId: EXCEEDANCE_FIGURE.id,
        serial: NOISE,
        label: EXCEEDANCE_FIGURE.label,
        period: EXCEEDANCE_FIGURE.period,
        start: EXCEEDANCE_FIGURE.start,
        end: EXCEEDANCE_FIGURE.end,
        value: EXCEEDANCE_FIGURE.valid!,
        limit: 55,
        unit: 'dB',
        decimals: EXCEEDANCE_FIGURE.decimals,
      },
    ],
    checks: CHECKS,
    events: EVENTS,
    charts: CHARTS,
    notes: [
      'Weather for Wed 25 Nov 2026 06:00–08:00 could not be read (the service did not answer): wind and rain exclusions may be missing for that time.',
      'VM-2210 sent no VDV readings before Mon 23 Nov 2026 07:00, when its VDV logging was switched on.',
    ],
    // Some of the data was kept on this computer from a read the evening before.
    fromCache: true,
    dataFetchedAt: at(25, 18, 5),
    ...over,
  };
}

/**
 * The fixture with text typed by people that a spreadsheet would run as a formula if it were one:
 * exclusion reasons, the site's name, an event's trigger.
 */
export function formulaFixture(): AssessmentResult {
  const base = reportFixture();
  return reportFixture({
    siteName: '+Riverside',
    exclusions: base.exclusions.map((e, i) =>
      i === 0 ? { ...e, reason: '=HYPERLINK("http://x")' } : i === 1 ? { ...e, reason: '-road works' } : e,
    ),
    events: base.events.map((e, i) => (i === 0 ? { ...e, trigger: '@SUM(A1)' } : e)),
  });
}
