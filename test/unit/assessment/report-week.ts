/**
 * A realistic week to write reports from, formed by the assessment itself (`assess`) rather than by
 * hand: two noise monitors on one street for seven days from Mon 23 Nov 2026 12:00 to Mon 30 Nov
 * 12:00 in London, 15-min values with a day and night pattern, works on one day, a loud night,
 * night events, calibrations either side and two manual exclusions. Every figure the app forms for
 * a noise monitor is in it (LAeq,T, LAeq/LA10/LA90 by day, LAeq,evening, LAeq/LA10/LA90/LAFMax and
 * events by night, Lden per day and for the week), with the period labels the app gives them.
 * `weekFixture(31)` is a month of the same.
 */
import type { AssessmentResult, Site } from '../../../src/shared/assessment';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  EMPTY_SITE_COVER,
  EMPTY_SITE_POSITIONS,
  DEFAULT_EXCLUSION_RULES,
} from '../../../src/shared/assessment';
import type { DataReadResult, Dataset, RecordTable, SeriesChannel } from '../../../src/shared/data';
import { assess } from '../../../src/main/backend/assessment/assess';
import { withEventDetails } from '../../../src/main/backend/assessment/report/event-details';
import type {
  AssessmentInputs,
  InstrumentInputs,
} from '../../../src/main/backend/assessment/assessment-inputs';

const QUARTER = 900_000;
const HOUR = 3_600_000;
/** Mon 23 Nov 2026 12:00 in London (UTC+00:00). */
export const WEEK_START = Date.UTC(2026, 10, 23, 12);
export const WEEK_SERIALS = ['NM-1043', 'NM-1057'] as const;
/** A third monitor, for the survey of three (`weekFixture(7, 3)`). */
export const THIRD_SERIAL = 'NM-1071';

/**
 * A reproducible level: day 54, evening 51, night 42 dB and a ripple, with works on Wednesday and a loud
 * Friday night.
 */
function level(t: number, offset: number): number {
  const hour = new Date(t).getUTCHours();
  const base = hour >= 7 && hour < 19 ? 54 : hour >= 19 && hour < 23 ? 51 : 42;
  const works = t >= Date.UTC(2026, 10, 25, 8) && t < Date.UTC(2026, 10, 25, 17) ? 4 : 0;
  const friday = t >= Date.UTC(2026, 10, 27, 23) && t < Date.UTC(2026, 10, 28, 2) ? 9 : 0;
  const ripple = 2.2 * Math.sin(t / (41 * 60_000) + offset) + 1.1 * Math.cos(t / (13 * 60_000));
  return Math.round((base + offset + works + friday + ripple) * 10) / 10;
}

function channel(name: string, end: number, value: (t: number) => number): SeriesChannel {
  const times: number[] = [];
  for (let t = WEEK_START; t < end; t += QUARTER) times.push(t);
  return { name, unit: 'dB', times: Float64Array.from(times), values: Float32Array.from(times, value) };
}

function read(
  serial: string,
  dataset: Dataset,
  end: number,
  series: SeriesChannel[],
  records: RecordTable | null = null,
): DataReadResult {
  return {
    query: { serial, dataset, start: WEEK_START, end },
    provenance: { source: 'fresh', fetchedAt: end + HOUR },
    series,
    records,
  };
}

function noiseMonitor(serial: string, name: string, offset: number, end: number): InstrumentInputs {
  const laeq = (t: number) => level(t, offset);
  const nightEvents = [24, 25, 27, 28].map((day, i) => ({
    startTime: Date.UTC(2026, 10, day, 1 + i, 17),
    endTime: Date.UTC(2026, 10, day, 1 + i, 18),
    level: 66 + 3 * i + offset,
    name: 'LAFMax above 65 dB at night',
    // As the service's records hold them: an opaque audio id, the measured levels as list text.
    audioId: i % 2 === 0 ? `au_UVQ5MzA5OTg6${serial}${i}` : null,
    audioTime: i % 2 === 0 ? Date.UTC(2026, 10, day, 1 + i, 16, 50) : null,
    overall: `${(62 + 3 * i + offset).toFixed(1)}, ${(70 + 3 * i + offset).toFixed(1)}, ${(88 + 2 * i).toFixed(1)}`,
  }));
  return {
    instrument: { serial, name, type: 'Noise', model: 'Sentinel NM3', position: null },
    kind: 'noise',
    reads: {
      noiseMeasurements: read(serial, 'noiseMeasurements', end, [
        channel('LAeq', end, laeq),
        channel('LAFMax', end, (t) => laeq(t) + 12.4),
        channel('LAF10', end, (t) => laeq(t) + 2.6),
        channel('LAF90', end, (t) => laeq(t) - 6.1),
      ]),
      events: read(serial, 'events', end, [], { timeKey: 'startTime', columns: [], rows: nightEvents }),
      calibrations: read(serial, 'calibrations', end, [], {
        timeKey: 'time',
        columns: [],
        rows: [
          { time: WEEK_START - 2 * HOUR, status: 'Success', level: 94.0, offset: 0 },
          { time: end + HOUR, status: 'Success', level: 94.1, offset: 0.1 },
        ],
      }),
    },
  };
}

const site: Site = {
  id: 'site-riverside-week',
  accountId: 'acc',
  name: 'Riverside Close',
  timeZone: 'Europe/London',
  serials: [...WEEK_SERIALS],
  rules: { ...DEFAULT_EXCLUSION_RULES },
  exclusions: [
    {
      id: 'x1',
      start: Date.UTC(2026, 10, 24, 9),
      end: Date.UTC(2026, 10, 24, 12, 30),
      reason: 'Road works on Riverside Close (resurfacing, plate compactor)',
      serial: null,
      createdAt: WEEK_START,
    },
    {
      id: 'x2',
      start: Date.UTC(2026, 10, 28, 0),
      end: Date.UTC(2026, 10, 28, 1),
      reason: 'Party next door',
      serial: WEEK_SERIALS[1],
      createdAt: WEEK_START,
    },
  ],
  limits: { 'LAeq,day': 55, 'LAeq,night': 45, 'LAFMax,night': 60 },
  settings: DEFAULT_ASSESSMENT_SETTINGS,
  cover: { ...EMPTY_SITE_COVER },
  conclusion: '',
  positions: EMPTY_SITE_POSITIONS,
  createdAt: WEEK_START,
  updatedAt: WEEK_START,
};

/** The week (or `days` from the same start) as the app assesses it; with a third monitor when `monitors` is 3. */
export function weekFixture(days = 7, monitors: 2 | 3 = 2): AssessmentResult {
  const end = WEEK_START + days * 24 * HOUR;
  const third = monitors === 3 ? [noiseMonitor(THIRD_SERIAL, 'Rear of No. 9', 1.2, end)] : [];
  const inputs: AssessmentInputs = {
    range: { start: WEEK_START, end },
    notes: [],
    fromCache: false,
    dataFetchedAt: end + HOUR,
    instruments: [
      noiseMonitor(WEEK_SERIALS[0], 'Façade of No. 14', 0, end),
      noiseMonitor(WEEK_SERIALS[1], 'Garden of No. 21', -1.5, end),
      ...third,
    ],
  };
  const result = assess(
    monitors === 3 ? { ...site, serials: [...site.serials, THIRD_SERIAL] } : site,
    inputs,
    { toleranceDb: 0.5, computedAt: end + 2 * HOUR },
  );
  // As the report handler does: the events' measured levels and recording start from their records.
  return withEventDetails(result, inputs);
}
