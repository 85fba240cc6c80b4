/**
 * The assessment of a month: one noise monitor with 15-min levels (LAeq, LAFMax, LAF10, LAF90), the
 * 1 s LAeq time history (2,678,400 samples) for LA10/LA90 ranked per day, night and hour, a weather
 * station's 1-min wind and rain for the rules, and twenty manual exclusions — every figure, the
 * hourly table and the exceedances, formed twice (with and without exclusions).
 *
 * Baseline: one pass of the shared figures code (`channelFigures`: Leq, L10, L90, extremes) over the
 * same month of 1 s readings, the least any figure of that month costs.
 * Aim: the whole assessment within 20x of that one pass.
 */
import { assess } from '../src/main/backend/assessment/assess';
import type { AssessmentInputs } from '../src/main/backend/assessment/assessment-inputs';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  EMPTY_SITE_COVER,
  EMPTY_SITE_POSITIONS,
  DEFAULT_EXCLUSION_RULES,
  type Site,
} from '../src/shared/assessment';
import type { DataReadResult, Dataset, SeriesChannel } from '../src/shared/data';
import { channelOver } from './series';
import { channelFigures } from '../src/shared/series-figures';
import { medianMs } from './timing';

const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 1);
const END = START + 31 * DAY;

/** A level that rises by day and falls at night, with a little noise, at 0.1 dB. */
function level(t: number, seed: number): number {
  const hour = ((t - START) / 3_600_000) % 24;
  const base = 45 + 15 * Math.max(0, Math.sin(((hour - 5) / 24) * 2 * Math.PI));
  const jitter = ((Math.sin(t * 0.001 + seed) * 10_000) % 1) * 6;
  return Math.round((base + jitter) * 10) / 10;
}

const channel = (name: string, unit: string, stepMs: number, value: (t: number) => number) =>
  channelOver({ start: START, end: END }, name, unit, stepMs, value);

const read = (dataset: Dataset, series: SeriesChannel[]): DataReadResult => ({
  query: { serial: 'NM1', dataset, start: START, end: END },
  provenance: { source: 'fresh', fetchedAt: END },
  series,
  records: null,
});

export async function benchAssessment(): Promise<void> {
  const quarter = 900_000;
  const history = channel('LAeq', 'dB', 1000, (t) => level(t, 1));
  const inputs: AssessmentInputs = {
    range: { start: START, end: END },
    notes: [],
    fromCache: false,
    dataFetchedAt: END,
    instruments: [
      {
        instrument: { serial: 'NM1', name: 'NM1', type: 'Noise', model: 'CR:171', position: null },
        kind: 'noise',
        reads: {
          noiseMeasurements: read('noiseMeasurements', [
            channel('LAeq', 'dB', quarter, (t) => level(t, 2)),
            channel('LAFMax', 'dB', quarter, (t) => level(t, 3) + 12),
            channel('LAF10', 'dB', quarter, (t) => level(t, 4) + 3),
            channel('LAF90', 'dB', quarter, (t) => level(t, 5) - 6),
          ]),
          noiseTimeHistory: read('noiseTimeHistory', [history]),
          weather: read('weather', [
            channel('windSpeed', 'm/s', 60_000, (t) => 3 + 3 * Math.sin(t / 7_200_000)),
            channel('precipitation', 'mm/h', 60_000, (t) => Math.max(0, Math.sin(t / 20_000_000) - 0.8)),
          ]),
        },
      },
    ],
  };
  const site: Site = {
    id: 'bench',
    accountId: 'bench',
    name: 'Bench',
    timeZone: 'Europe/London',
    serials: ['NM1'],
    rules: DEFAULT_EXCLUSION_RULES,
    exclusions: Array.from({ length: 20 }, (_, i) => ({
      id: `x${i}`,
      start: START + i * 1.5 * DAY + 3_600_000,
      end: START + i * 1.5 * DAY + 3 * 3_600_000,
      reason: 'Road works',
      serial: null,
      createdAt: START,
    })),
    limits: { 'LAeq,night': 45, 'LAeq,1h': 65 },
    settings: { ...DEFAULT_ASSESSMENT_SETTINGS, statistics: 'timeHistory' },
    cover: { ...EMPTY_SITE_COVER },
    conclusion: '',
    positions: EMPTY_SITE_POSITIONS,
    createdAt: START,
    updatedAt: START,
  };
  let figures = 0;
  const baseline = await medianMs(() => channelFigures(history, { start: START, end: END }), 7, 2);
  const subject = await medianMs(
    () => (figures = assess(site, inputs, { toleranceDb: 0.5, computedAt: END }).figures.length),
    7,
    2,
  );
  console.log(
    '\nAssessment of a month (1 s time history for LA10/LA90, exclusions, hourly table), medians of 7',
  );
  console.log(`  baseline  channelFigures over the month's 2,678,400 readings: 1.00x`);
  console.log(
    `  subject   the whole assessment (${figures} figures, 744 hours, with and without exclusions): ${(subject / baseline).toFixed(2)}x the baseline's time`,
  );
  console.log('  Aim: within 20x of one figures pass over the same readings.');
}
