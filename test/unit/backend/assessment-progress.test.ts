/**
 * An assessment's progress and Cancel: a long period is read piece by piece, oldest first, saying
 * the days read per instrument; the computing goes an instrument at a time; a Cancel stops the
 * reads and the computing at the next piece or step, and the backend's `assessment.compute` then
 * fails as `cancelled` (never a result, never an error of its own) and a new one runs.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  DEFAULT_EXCLUSION_RULES,
  EMPTY_SITE_COVER,
  EMPTY_SITE_POSITIONS,
  type AssessmentProgress,
  type Site,
} from '../../../src/shared/assessment';
import type { DataReadResult, Dataset, SeriesChannel, TimeInterval } from '../../../src/shared/data';
import { FieldDeskError } from '../../../src/shared/errors';
import { assess, assessInSteps, type AssessStep } from '../../../src/main/backend/assessment/assess';
import {
  READ_PIECE_MS,
  readAssessmentInputs,
  type ReadOne,
  type ReadProgress,
} from '../../../src/main/backend/assessment/assessment-inputs';
import { startDemoBackend } from './backend-helpers';

const DAY = 86_400_000;
const QUARTER = 900_000;
/** Ninety whole UTC days: three pieces (31 + 31 + 28 days). */
const START = Date.UTC(2026, 0, 1);
const END = START + 90 * DAY;

const site: Site = {
  id: 'site-1',
  accountId: 'acc',
  name: 'Mill Lane',
  timeZone: 'UTC',
  serials: ['NM1', 'NM2'],
  rules: { ...DEFAULT_EXCLUSION_RULES, wind: false, precipitation: false },
  exclusions: [],
  limits: { 'LAeq,day': 55 },
  settings: DEFAULT_ASSESSMENT_SETTINGS,
  cover: { ...EMPTY_SITE_COVER },
  conclusion: '',
  positions: EMPTY_SITE_POSITIONS,
  createdAt: START,
  updatedAt: START,
};

function laeqOver(range: TimeInterval): SeriesChannel {
  const times: number[] = [];
  for (let t = range.start; t < range.end; t += QUARTER) times.push(t);
  return {
    name: 'LAeq',
    unit: 'dB',
    times: Float64Array.from(times),
    values: Float32Array.from(times, () => 52),
  };
}

/** A service of steady 52 dB that records every read it is asked for. */
function recordingReads(onRead: (serial: string, dataset: Dataset, range: TimeInterval) => void = () => {}) {
  const asked: Array<{ serial: string; dataset: Dataset; range: TimeInterval }> = [];
  const read: ReadOne = async (serial, dataset, range) => {
    asked.push({ serial, dataset, range });
    onRead(serial, dataset, range);
    const answer: DataReadResult = {
      query: { serial, dataset, ...range },
      provenance: { source: 'fresh', fetchedAt: END },
      series: dataset === 'noiseMeasurements' ? [laeqOver(range)] : [],
      records: null,
    };
    return answer;
  };
  return { read, asked };
}

describe('reading an assessment’s data with progress', () => {
  it('reads a long period in pieces, oldest first, then whole, saying the days read per instrument', async () => {
    const { read, asked } = recordingReads();
    const said: ReadProgress[] = [];
    const inputs = await readAssessmentInputs(site, { start: START, end: END }, [], read, END, (p) =>
      said.push(p),
    );

    const levels = asked.filter((a) => a.serial === 'NM1' && a.dataset === 'noiseMeasurements');
    expect(levels.map((a) => a.range)).toEqual([
      { start: START, end: START + READ_PIECE_MS },
      { start: START + READ_PIECE_MS, end: START + 2 * READ_PIECE_MS },
      { start: START + 2 * READ_PIECE_MS, end: END },
      { start: START, end: END },
    ]);
    // The evidence's wider range is read once, whole.
    expect(asked.filter((a) => a.serial === 'NM1' && a.dataset === 'calibrations')).toHaveLength(1);
    // The whole read is what is assessed.
    const nm1 = inputs.instruments.find((i) => i.instrument.serial === 'NM1')!;
    expect(nm1.reads.noiseMeasurements?.series[0]?.times.length).toBe(90 * 96);

    // Each instrument in turn, its days read never going back, every read counted once.
    expect(said.map((p) => p.serial)).toEqual([...said.map((p) => p.serial)].sort());
    for (const serial of ['NM1', 'NM2']) {
      const own = said.filter((p) => p.serial === serial).map((p) => p.daysRead);
      expect(own).toEqual([...own].sort((a, b) => a - b));
      expect(own.at(-1)).toBe(90);
    }
    expect(said.at(-1)).toMatchObject({ serial: 'NM2', instrument: 1, instruments: 2, days: 90 });
    expect(said.at(-1)!.done).toBe(said.at(-1)!.total);
    expect(said.at(-1)!.total).toBe(asked.length);
  });

  it('stops at the next piece once cancelled, as cancelled rather than as a dataset not read', async () => {
    const abort = new AbortController();
    const { read, asked } = recordingReads((serial, dataset, range) => {
      // Cancelled while the second piece of the first instrument's levels is read.
      if (serial === 'NM1' && dataset === 'noiseMeasurements' && range.start === START + READ_PIECE_MS)
        abort.abort();
    });
    const reading = readAssessmentInputs(
      site,
      { start: START, end: END },
      [],
      read,
      END,
      () => {},
      abort.signal,
    );
    await expect(reading).rejects.toMatchObject({ code: 'cancelled' });
    // Nothing of the second instrument, nor the third piece, was asked for.
    expect(asked.some((a) => a.serial === 'NM2')).toBe(false);
    expect(asked.some((a) => a.range.start === START + 2 * READ_PIECE_MS)).toBe(false);
  });
});

describe('computing an assessment in steps', () => {
  it('gives the same answer as at once, an instrument at a time', async () => {
    const { read } = recordingReads();
    const inputs = await readAssessmentInputs(site, { start: START, end: END }, [], read, END);
    const options = { toleranceDb: 0.5, computedAt: END };
    const steps: AssessStep[] = [];
    const stepped = await assessInSteps(site, inputs, options, { onStep: (step) => steps.push(step) });
    expect(stepped).toEqual(assess(site, inputs, options));
    expect(steps).toEqual([
      { done: 0, total: 2, serial: 'NM1' },
      { done: 1, total: 2, serial: 'NM2' },
      { done: 2, total: 2, serial: null },
    ]);
  });

  it('stops at the next instrument once cancelled', async () => {
    const { read } = recordingReads();
    const inputs = await readAssessmentInputs(site, { start: START, end: END }, [], read, END);
    const abort = new AbortController();
    const steps: AssessStep[] = [];
    const computing = assessInSteps(
      site,
      inputs,
      { toleranceDb: 0.5, computedAt: END },
      {
        signal: abort.signal,
        onStep: (step) => {
          steps.push(step);
          if (step.serial === 'NM1') abort.abort();
        },
      },
    );
    await expect(computing).rejects.toBeInstanceOf(FieldDeskError);
    await expect(computing).rejects.toMatchObject({ code: 'cancelled' });
    expect(steps.map((s) => s.serial)).toEqual(['NM1']);
  });
});

describe('assessment.compute with progress and cancel, against the demo service', () => {
  /** 35 whole UTC days ending at the start of yesterday: two pieces of settled data. */
  const end = Math.floor(Date.now() / DAY) * DAY - DAY;
  const start = end - 35 * DAY;
  const NOISE = 'QT930998';

  it('pushes how far it is: the days read, then each instrument computed', async () => {
    const { handlers, events } = await startDemoBackend();
    const created = await handlers['assessment.saveSite']({
      name: 'Mill Lane',
      timeZone: 'UTC',
      serials: [NOISE],
    });
    const result = await handlers['assessment.compute']({ siteId: created.id, start, end });
    expect(result.figures.length).toBeGreaterThan(0);

    const progress = events.flatMap((e) => (e.channel === 'assessment.progress' ? [e.payload] : []));
    expect(progress.every((p) => p.siteId === created.id && p.start === start && p.end === end)).toBe(true);
    const fractions = progress.map((p) => p.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(progress.map((p) => p.detail)).toContain(`${NOISE} (1 of 1): 31 of 35 days read`);
    expect(progress.map((p) => p.detail)).toContain(`${NOISE} (1 of 1): 35 of 35 days read`);
    expect(progress.some((p) => p.stage === 'Computing the figures')).toBe(true);
  });

  it('a Cancel ends it as cancelled at once, and the site can be assessed again', async () => {
    const { backend, handlers } = await startDemoBackend();
    const created = await handlers['assessment.saveSite']({
      name: 'Mill Lane',
      timeZone: 'UTC',
      serials: [NOISE],
    });
    const seen: AssessmentProgress[] = [];
    let cancelAnswer: Promise<{ cancelled: boolean }> | null = null;
    let afterCancel = 0;
    backend.subscribe((channel, payload) => {
      if (channel !== 'assessment.progress') return;
      if (cancelAnswer !== null) afterCancel += 1;
      seen.push(payload as AssessmentProgress);
      // Cancelled as soon as the first piece is read.
      if (cancelAnswer === null && (payload as AssessmentProgress).detail.includes('31 of 35 days'))
        cancelAnswer = handlers['assessment.cancelCompute']({ siteId: created.id });
    });
    await expect(handlers['assessment.compute']({ siteId: created.id, start, end })).rejects.toMatchObject({
      code: 'cancelled',
      message: 'The assessment was cancelled.',
    });
    expect(await cancelAnswer).toEqual({ cancelled: true });
    // What was under way when the Cancel came may finish (the other datasets' reads), but nothing computes.
    expect(seen.some((p) => p.stage === 'Computing the figures')).toBe(false);
    expect(afterCancel).toBeLessThanOrEqual(4);

    // Nothing is left running: a second Cancel finds none, and the period is assessed whole.
    expect(await handlers['assessment.cancelCompute']({ siteId: created.id })).toEqual({ cancelled: false });
    const again = await handlers['assessment.compute']({ siteId: created.id, start, end });
    expect(again.figures.some((f) => f.serial === NOISE && f.label === 'LAeq,day')).toBe(true);
  });

  it('a newer assessment of the site stops the older one', async () => {
    const { handlers } = await startDemoBackend();
    const created = await handlers['assessment.saveSite']({
      name: 'Mill Lane',
      timeZone: 'UTC',
      serials: [NOISE],
    });
    const older = handlers['assessment.compute']({ siteId: created.id, start, end });
    const newer = handlers['assessment.compute']({ siteId: created.id, start: end - 2 * DAY, end });
    await expect(older).rejects.toMatchObject({ code: 'cancelled' });
    expect((await newer).start).toBe(end - 2 * DAY);
  });
});
