/**
 * One run of a year's report, in a process of its own so its peak memory (maxRSS) is its own:
 * `node --import tsx bench/report-year.ts <inputs|report>`. Three noise monitors with a year of
 * 15-min levels (LAeq, LAFMax, LAF10, LAF90) and a weather station's year of 1-min wind and rain
 * for the rules, as `bench/report.ts` runs it. `inputs` only forms the readings (the baseline);
 * `report` forms them, assesses the year and writes the PDF. Prints one JSON line.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assess } from '../src/main/backend/assessment/assess';
import type { AssessmentInputs, InstrumentInputs } from '../src/main/backend/assessment/assessment-inputs';
import { reportDocument } from '../src/main/backend/assessment/report/report-document';
import { writeReportPdf } from '../src/main/backend/assessment/report/report-pdf';
import { UNLISTED } from '../src/main/backend/core/unfinished-files';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  DEFAULT_EXCLUSION_RULES,
  EMPTY_SITE_COVER,
  EMPTY_SITE_POSITIONS,
  type Site,
} from '../src/shared/assessment';
import type { DataReadResult, Dataset, SeriesChannel } from '../src/shared/data';
import { channelOver } from './series';

const DAY = 86_400_000;
const START = Date.UTC(2025, 10, 1);
const YEAR_END = START + 365 * DAY;
const SERIALS = ['NM1', 'NM2', 'NM3'];

const channel = (name: string, unit: string, stepMs: number, value: (t: number) => number) =>
  channelOver({ start: START, end: YEAR_END }, name, unit, stepMs, value);

const read = (serial: string, dataset: Dataset, series: SeriesChannel[]): DataReadResult => ({
  query: { serial, dataset, start: START, end: YEAR_END },
  provenance: { source: 'fresh', fetchedAt: YEAR_END },
  series,
  records: null,
});

/** Day and night levels with a ripple, at 0.1 dB. */
const level = (t: number, offset: number) => {
  const hour = ((t - START) / 3_600_000) % 24;
  const base = hour >= 7 && hour < 23 ? 56 : 44;
  return Math.round((base + offset + 2.5 * Math.sin(t / 2_460_000 + offset)) * 10) / 10;
};

function monitor(serial: string, offset: number): InstrumentInputs {
  const quarter = 900_000;
  const weather = serial === 'NM1';
  return {
    instrument: { serial, name: serial, type: 'Noise', model: 'CR:171', position: null },
    kind: 'noise',
    reads: {
      noiseMeasurements: read(serial, 'noiseMeasurements', [
        channel('LAeq', 'dB', quarter, (t) => level(t, offset)),
        channel('LAFMax', 'dB', quarter, (t) => level(t, offset) + 12),
        channel('LAF10', 'dB', quarter, (t) => level(t, offset) + 3),
        channel('LAF90', 'dB', quarter, (t) => level(t, offset) - 6),
      ]),
      ...(weather
        ? {
            weather: read(serial, 'weather', [
              channel('windSpeed', 'm/s', 60_000, (t) => 3 + 3 * Math.sin(t / 7_200_000)),
              channel('precipitation', 'mm/h', 60_000, (t) => Math.max(0, Math.sin(t / 20_000_000) - 0.9)),
            ]),
          }
        : {}),
    },
  };
}

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode !== 'inputs' && mode !== 'report') throw new Error('Say inputs or report.');
  const began = performance.now();
  const inputs: AssessmentInputs = {
    range: { start: START, end: YEAR_END },
    notes: [],
    fromCache: false,
    dataFetchedAt: YEAR_END,
    instruments: SERIALS.map((serial, i) => monitor(serial, i)),
  };
  let pages = 0;
  let assessMs = 0;
  let reportMs = 0;
  if (mode === 'report') {
    const site: Site = {
      id: 'bench-year',
      accountId: 'bench',
      name: 'A year on Mill Lane',
      timeZone: 'Europe/London',
      serials: SERIALS,
      rules: DEFAULT_EXCLUSION_RULES,
      exclusions: [],
      limits: { 'LAeq,day': 55, 'LAeq,night': 45, 'LAFMax,night': 60 },
      settings: DEFAULT_ASSESSMENT_SETTINGS,
      cover: EMPTY_SITE_COVER,
      conclusion: '',
      positions: EMPTY_SITE_POSITIONS,
      createdAt: START,
      updatedAt: START,
    };
    const assessed = performance.now();
    const result = assess(site, inputs, { toleranceDb: 0.5, computedAt: YEAR_END });
    assessMs = performance.now() - assessed;
    const folder = await mkdtemp(join(tmpdir(), 'fielddesk-bench-'));
    try {
      const written = performance.now();
      pages = (
        await writeReportPdf(
          { path: join(folder, 'year.pdf'), what: 'the report', unfinished: UNLISTED },
          reportDocument(result, { rules: site.rules }),
        )
      ).pages;
      reportMs = performance.now() - written;
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }
  console.log(
    JSON.stringify({
      totalMs: performance.now() - began,
      assessMs,
      reportMs,
      pages,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
