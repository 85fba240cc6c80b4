/**
 * The last passing calibration before a period is found however far back it lies (within two
 * years): a calibration 70 days before is evidence, not "no calibration before"; a passing one
 * within the usual margin needs no further read; an older read that fails is said in a note.
 */
import { describe, expect, it } from 'vitest';
import type { Site } from '../../../src/shared/assessment';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  DEFAULT_EXCLUSION_RULES,
  EMPTY_SITE_COVER,
  EMPTY_SITE_POSITIONS,
} from '../../../src/shared/assessment';
import type { DataReadResult, Dataset, TimeInterval } from '../../../src/shared/data';
import { FieldDeskError } from '../../../src/shared/errors';
import { assess } from '../../../src/main/backend/assessment/assess';
import {
  CHECK_MARGIN_MS,
  EVIDENCE_LOOK_BACK_MS,
  readAssessmentInputs,
  type ReadOne,
} from '../../../src/main/backend/assessment/assessment-inputs';

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 2);
const END = START + 7 * DAY;

const site: Site = {
  id: 'site-1',
  accountId: 'acc',
  name: 'Mill Lane',
  timeZone: 'UTC',
  serials: ['NM1'],
  rules: { ...DEFAULT_EXCLUSION_RULES, wind: false, precipitation: false, offline: false },
  exclusions: [],
  limits: {},
  settings: DEFAULT_ASSESSMENT_SETTINGS,
  cover: { ...EMPTY_SITE_COVER },
  conclusion: '',
  positions: EMPTY_SITE_POSITIONS,
  createdAt: START,
  updatedAt: START,
};

type Calibration = { time: number; status: string; level: number; offset: number };

/** A service holding `calibrations`, answering each read with those in its range. */
function service(calibrations: Calibration[], failOlderThan: number | null = null) {
  const asked: Array<{ dataset: Dataset; range: TimeInterval }> = [];
  const read: ReadOne = async (serial, dataset, range) => {
    asked.push({ dataset, range });
    if (dataset === 'calibrations' && failOlderThan !== null && range.start < failOlderThan)
      throw new FieldDeskError('offline', 'The monitoring service cannot be reached.');
    const answer: DataReadResult = {
      query: { serial, dataset, ...range },
      provenance: { source: 'fresh', fetchedAt: END },
      series: [],
      records:
        dataset === 'calibrations'
          ? {
              timeKey: 'time',
              columns: [],
              rows: calibrations.filter((c) => c.time >= range.start && c.time < range.end),
            }
          : null,
    };
    return answer;
  };
  return { read, asked };
}

const calibrationReads = (asked: Array<{ dataset: Dataset; range: TimeInterval }>) =>
  asked.filter((a) => a.dataset === 'calibrations').map((a) => a.range);

describe('the calibration evidence before a period', () => {
  it('finds a passing calibration 70 days before, past a failed one within the margin', async () => {
    const old = { time: START - 70 * DAY, status: 'Success', level: 94.02, offset: 0.02 };
    const failed = { time: START - 10 * DAY, status: 'Failed', level: 91.3, offset: 0 };
    const { read, asked } = service([old, failed]);
    const inputs = await readAssessmentInputs(site, { start: START, end: END }, [], read, END);
    // The margin first, then once further back, up to where the margin's read began.
    expect(calibrationReads(asked)).toEqual([
      { start: START - CHECK_MARGIN_MS, end: END },
      { start: START - EVIDENCE_LOOK_BACK_MS, end: START - CHECK_MARGIN_MS },
    ]);
    const rows = inputs.instruments[0]!.reads.calibrations?.records?.rows ?? [];
    expect(rows.map((r) => r.time)).toEqual([old.time, failed.time]);
    expect(inputs.notes.filter((note) => note.startsWith('Calibrations'))).toEqual([]);

    const result = assess(site, inputs, { toleranceDb: 0.5, computedAt: END });
    const before = result.checks.filter((c) => c.kind === 'calibration' && c.when === 'before');
    expect(before.map((c) => c.time)).toEqual([old.time, failed.time]);
    expect(result.checks.some((c) => c.missing === true && c.when === 'before')).toBe(false);
  });

  it('reads no further back when a passing calibration is within the margin', async () => {
    const { read, asked } = service([{ time: START - 20 * DAY, status: 'Success', level: 94.0, offset: 0 }]);
    await readAssessmentInputs(site, { start: START, end: END }, [], read, END);
    expect(calibrationReads(asked)).toHaveLength(1);
  });

  it('says so when the older calibrations cannot be read, and keeps those of the margin', async () => {
    const recent = { time: START - 5 * DAY, status: 'Failed', level: 90, offset: 0 };
    const { read } = service([recent], START - CHECK_MARGIN_MS);
    const inputs = await readAssessmentInputs(site, { start: START, end: END }, [], read, END);
    expect(inputs.instruments[0]!.reads.calibrations?.records?.rows.map((r) => r.time)).toEqual([
      recent.time,
    ]);
    expect(inputs.notes.filter((note) => note.startsWith('Calibrations'))).toEqual([
      'Calibrations of NM1 more than 62 days before the period could not be read, so an older calibration may be missing from the evidence: The monitoring service cannot be reached.',
    ]);
  });
});
