/**
 * A whole assessment of a small, hand-made data set across the autumn clock change in
 * Europe/London (Sat 24 Oct 2026 07:00 BST to Sun 25 Oct 07:00 GMT: 25 hours, a 9-hour night),
 * with one manual exclusion — every figure checked against a value worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import type { Figure, Site } from '../../../src/shared/assessment';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  EMPTY_SITE_COVER,
  EMPTY_SITE_POSITIONS,
  DEFAULT_EXCLUSION_RULES,
} from '../../../src/shared/assessment';
import type {
  CellValue,
  DataReadResult,
  Dataset,
  RecordTable,
  SeriesChannel,
} from '../../../src/shared/data';
import { assess } from '../../../src/main/backend/assessment/assess';
import type { ActionRecord } from '../../../src/shared/operations';
import { evidenceTables } from '../../../src/main/backend/assessment/report/evidence-tables';
import { SiteClock } from '../../../src/main/backend/assessment/report/report-format';
import { calibrationVerdict } from '../../../src/main/backend/assessment/report/report-verdicts';
import type { AssessmentInputs } from '../../../src/main/backend/assessment/assessment-inputs';

const QUARTER = 900_000;
/** Sat 24 Oct 2026 07:00 BST. */
const START = Date.UTC(2026, 9, 24, 6);
/** Sun 25 Oct 2026 07:00 GMT: 25 hours later. */
const END = Date.UTC(2026, 9, 25, 7);
/** The loud hour, 02:00–03:00 UTC on the 25th, in the night — excluded by hand. */
const LOUD = { start: Date.UTC(2026, 9, 25, 2), end: Date.UTC(2026, 9, 25, 3) };

/** Day (07–19 BST) 60 dB, evening (19–23 BST) 55 dB, night 50 dB but 80 dB in the loud hour. */
function laeqAt(t: number): number {
  if (t >= LOUD.start && t < LOUD.end) return 80;
  if (t < Date.UTC(2026, 9, 24, 18)) return 60;
  if (t < Date.UTC(2026, 9, 24, 22)) return 55;
  return 50;
}

function channel(name: string, level: (t: number) => number): SeriesChannel {
  const times: number[] = [];
  for (let t = START; t < END; t += QUARTER) times.push(t);
  return { name, unit: 'dB', times: Float64Array.from(times), values: Float32Array.from(times, level) };
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

const site: Site = {
  id: 'site-1',
  accountId: 'acc',
  name: 'Mill Lane',
  timeZone: 'Europe/London',
  serials: ['NM1'],
  // Only the manual exclusion counts here: the rules have nothing to find in this data anyway.
  rules: { ...DEFAULT_EXCLUSION_RULES, offline: false },
  exclusions: [{ id: 'x1', ...LOUD, reason: 'Dog barking at microphone', serial: null, createdAt: START }],
  limits: { 'LAeq,night': 45, 'LAeq,day': 65 },
  settings: { ...DEFAULT_ASSESSMENT_SETTINGS, nightEventThreshold: 65 },
  cover: { ...EMPTY_SITE_COVER },
  conclusion: '',
  positions: EMPTY_SITE_POSITIONS,
  createdAt: START,
  updatedAt: START,
};

const inputs: AssessmentInputs = {
  range: { start: START, end: END },
  notes: [],
  fromCache: false,
  dataFetchedAt: END,
  instruments: [
    {
      instrument: { serial: 'NM1', name: 'Mill Lane NW', type: 'Noise', model: 'CR:171', position: null },
      kind: 'noise',
      reads: {
        noiseMeasurements: read('noiseMeasurements', [
          channel('LAeq', laeqAt),
          channel('LAFMax', (t) => laeqAt(t) + 10),
          channel('LAF10', (t) => laeqAt(t) + 3),
          channel('LAF90', (t) => laeqAt(t) - 5),
        ]),
        events: read('events', [], {
          timeKey: 'startTime',
          columns: [],
          rows: [
            // In the loud, excluded hour:
            {
              startTime: Date.UTC(2026, 9, 25, 2, 30),
              endTime: null,
              level: 85,
              name: 'Level',
              audioId: 'au1',
            },
            { startTime: Date.UTC(2026, 9, 25, 4), endTime: null, level: 70, name: 'Level', audioId: null },
            // By day, so not counted at night:
            { startTime: Date.UTC(2026, 9, 24, 12), endTime: null, level: 90, name: 'Level', audioId: null },
          ],
        }),
        calibrations: read('calibrations', [], {
          timeKey: 'time',
          columns: [],
          rows: [
            { time: Date.UTC(2026, 9, 20, 9), status: 'Success', level: 94.0, offset: 0 },
            { time: Date.UTC(2026, 9, 26, 9), status: 'Success', level: 94.3, offset: 0.3 },
          ],
        }),
      },
    },
  ],
};

const result = assess(site, inputs, { toleranceDb: 0.5, computedAt: END });
const figure = (label: string, start?: number): Figure => {
  const found = result.figures.find((f) => f.label === label && (start === undefined || f.start === start));
  if (!found) throw new Error(`no figure ${label}`);
  return found;
};
/** The night into Sun 25 Oct: 23:00 BST (22:00 UTC) to 07:00 GMT (07:00 UTC), 9 hours. */
const NIGHT_START = Date.UTC(2026, 9, 24, 22);

describe('an assessment across the autumn clock change, with an exclusion', () => {
  it('counts the night in wall-clock time: 9 hours, from 22:00 to 07:00 UTC', () => {
    const night = figure('LAeq,night');
    expect(night.start).toBe(NIGHT_START);
    expect(night.end).toBe(END);
  });

  it('LAeq,night: 50.0 dB without the excluded hour, 70.5 dB from all data', () => {
    // All: 8 h of 50 dB and 1 h of 80 dB over 9 h: 10·lg((8·10^5 + 10^8)/9) = 10·lg(1.12·10^7) = 70.49.
    const night = figure('LAeq,night');
    expect(night.valid).toBe(50);
    expect(night.all).toBeCloseTo(70.5, 5);
    // 8 of its 9 hours count.
    expect(night.coverage).toBeCloseTo(8 / 9, 6);
  });

  it('LAeq,day (07–23 BST): 12 h of 60 dB and 4 h of 55 dB', () => {
    // 10·lg((12·10^6 + 4·316,228)/16) = 10·lg(829,057) = 59.19 → 59.2 dB.
    expect(figure('LAeq,day').valid).toBe(59.2);
    expect(figure('LAeq,day').all).toBe(59.2);
    expect(figure('LAeq,day').exceeds).toBe(false);
  });

  it('Lden: 60.0 dB with the exclusion (55 + 5 = 60 + 10 = 60), 75.8 dB without', () => {
    // Ld 60, Le 55, Ln 50: 10·lg((12·10^6 + 4·10^6 + 8·10^6)/24) = 60.0.
    // Ln 70.49 from all data: 10·lg((12·10^6 + 4·10^6 + 8·1.12·10^8)/24) = 10·lg(3.8·10^7) = 75.80.
    const days = result.figures.filter((f) => f.label === 'Lden');
    const perDay = days.find((f) => f.start === START)!;
    expect(perDay.valid).toBe(60);
    expect(perDay.all).toBe(75.8);
  });

  it('LA90,night by the mean of the interval values: 45.0, and 48.3 with the loud hour', () => {
    // All: 36 quarters in the 9 h night, 32 of 45 dB and 4 of 75 dB → (32·45 + 4·75)/36 = 48.33.
    expect(figure('LA90,night').valid).toBe(45);
    expect(figure('LA90,night').all).toBe(48.3);
  });

  it('LAFMax,night: 60 dB with the exclusion, 90 dB from all data, with the time it was reached', () => {
    expect(figure('LAFMax,night').valid).toBe(60);
    expect(figure('LAFMax,night').all).toBe(90);
    // The first quarter of the night at 60 dB (50 + 10): 22:00 UTC, 23:00 BST.
    expect(figure('LAFMax,night').at).toBe(NIGHT_START);
    // Interval values only: the time is said as the interval it lies in, not passed off as the moment.
    expect(figure('LAFMax,night').detail).toBe('in the 15-min interval from Sat 24 Oct 2026 23:00 +01:00');
  });

  it('counts night events at or above 65 dB: 2 in all, 1 outside the excluded hour', () => {
    const events = figure('Events ≥ 65 dB, night');
    expect(events.all).toBe(2);
    expect(events.valid).toBe(1);
    expect(result.events.filter((e) => e.excluded)).toHaveLength(1);
  });

  it('has an hourly row for each of the 25 hours of the day the clocks went back', () => {
    const rows = result.hourly.filter((r) => r.start >= Date.UTC(2026, 9, 24, 23) && r.start < END);
    // From 00:00 BST (23:00 UTC) to 07:00 GMT: 8 wall-clock hours, 01:00 twice.
    expect(rows).toHaveLength(8);
    expect(result.hourly).toHaveLength(25);
    const loud = result.hourly.find((r) => r.start === LOUD.start)!;
    expect(loud.laeq).toBe(80);
    expect(loud.laeqValid).toBeNull();
    expect(loud.excludedMinutes).toBe(60);
  });

  it('lists the night above its 45 dB limit as an exceedance, judged with the exclusion', () => {
    expect(result.exceedances.map((e) => [e.label, e.value, e.limit])).toEqual([['LAeq,night', 50, 45]]);
  });

  it('gives the calibration evidence either side, with the drift against the tolerance', () => {
    expect(result.checks.map((c) => [c.when, c.drift, c.driftWithinTolerance])).toEqual([
      ['before', null, null],
      ['after', 0.3, true],
    ]);
  });

  it('keeps the manual exclusion with its reason, and changes no reading', () => {
    expect(result.exclusions).toEqual([
      { ...LOUD, serial: null, cause: 'manual', reason: 'Dog barking at microphone' },
    ]);
    const laeq = inputs.instruments[0]!.reads.noiseMeasurements!.series[0]!;
    expect(laeq.values[laeq.times.indexOf(LOUD.start)]).toBe(80);
  });
});

describe('the failed-check rule, read from the calibration and SIC records', () => {
  it('leaves out the time from a failed SIC to the next passed one, and says which check failed', () => {
    const failedAt = Date.UTC(2026, 9, 24, 12);
    const passedAt = Date.UTC(2026, 9, 24, 15);
    const withSic = {
      ...inputs,
      instruments: inputs.instruments.map((instrument) => ({
        ...instrument,
        reads: {
          ...instrument.reads,
          sic: read('sic', [], {
            timeKey: 'time',
            columns: [],
            rows: [
              { time: failedAt, status: 'Failed', _500Hz: 80, _1KHz: 85, _8KHz: 70 },
              { time: passedAt, status: 'Success', _500Hz: 80, _1KHz: 85.2, _8KHz: 75 },
            ],
          }),
        },
      })),
    };
    const assessed = assess(site, withSic, { toleranceDb: 0.5, computedAt: END });
    expect(assessed.exclusions.filter((e) => e.cause === 'failedCheck')).toEqual([
      {
        start: failedAt,
        end: passedAt,
        serial: 'NM1',
        cause: 'failedCheck',
        reason: 'After a failed system integrity check, until the next passed one',
      },
    ]);
    // The SICs as evidence: failed, then passed. Neither has an earlier passing SIC to be its
    // reference, so their tones are not judged (and never against the calibration's ±0.5 dB).
    expect(
      assessed.checks.filter((c) => c.kind === 'sic').map((c) => [c.passed, c.drift, c.driftWithinTolerance]),
    ).toEqual([
      [false, null, null],
      [true, null, null],
    ]);
  });
});

describe('the report chart of a noise monitor', () => {
  it('carries its 15-min LAeq with the day and night limits, every reading of a day kept (min-max reduced only when wider than the chart)', () => {
    const [chart] = result.charts;
    expect(chart!.limits).toEqual([
      { label: 'LAeq,day limit', value: 65 },
      { label: 'LAeq,night limit', value: 45 },
    ]);
    // 25 hours of quarters: 100 readings, fewer than the chart's columns hold.
    expect(chart!.values).toHaveLength(100);
    expect(Math.max(...chart!.values.map((v) => v ?? 0))).toBe(80);
    expect(Math.min(...chart!.values.map((v) => v ?? Infinity))).toBe(50);
  });
});

describe('the calibration evidence as a reviewer checks it', () => {
  const withChecks = (
    calibrations: Array<Record<string, CellValue>>,
    sics: Array<Record<string, CellValue>> = [],
  ) => ({
    ...inputs,
    instruments: inputs.instruments.map((instrument) => ({
      ...instrument,
      reads: {
        ...instrument.reads,
        calibrations: read('calibrations', [], { timeKey: 'time', columns: [], rows: calibrations }),
        sic: read('sic', [], { timeKey: 'time', columns: [], rows: sics }),
      },
    })),
  });
  const day = (d: number, h = 9) => Date.UTC(2026, 9, d, h);

  it('measures a recalibration’s drift from the last passing calibration, not from the failed attempt', () => {
    const assessed = assess(
      site,
      withChecks([
        { time: day(20), status: 'Success', level: 94.1, offset: 0.1 },
        // No calibrator signal: 38.25 dB. Against it the pass below would "drift" +55.85 dB.
        { time: day(26), status: 'Failed', level: 38.25, offset: -55.75 },
        { time: day(26, 10), status: 'Success', level: 94.18, offset: 0.18 },
      ]),
      { toleranceDb: 0.5, computedAt: END },
    );
    const rows = assessed.checks.filter((c) => c.kind === 'calibration');
    expect(rows.map((c) => [c.when, c.passed, c.drift, c.driftFrom, c.driftWithinTolerance])).toEqual([
      ['before', true, null, null, null],
      // The failed attempt is a failure, never a drift (it would read 38.25 − 94 − 0.10 = −55.85 dB).
      ['after', false, null, null, null],
    ]);
    expect(rows[1]?.flag).toBe('Failed: the instrument reported “Failed”');
    // Only the first check after the period is shown; its retry is judged from the pass on the 20th:
    // 94.18 − 94.10 = +0.08 dB, within ±0.5 dB.
    const retry = assess(
      site,
      withChecks([
        { time: day(20), status: 'Success', level: 94.1, offset: 0.1 },
        { time: day(24, 12), status: 'Failed', level: 38.25, offset: -55.75 },
        { time: day(24, 13), status: 'Success', level: 94.18, offset: 0.18 },
        { time: day(26), status: 'Success', level: 94.2, offset: 0.2 },
      ]),
      { toleranceDb: 0.5, computedAt: END },
    ).checks.filter((c) => c.kind === 'calibration');
    expect(retry.map((c) => [c.when, c.drift, c.driftFrom, c.driftWithinTolerance, c.flag])).toEqual([
      ['before', null, null, null, null],
      // Failed: said as a failure, never as a drift of −55.85 dB.
      ['during', null, null, null, 'Failed: the instrument reported “Failed”'],
      ['during', 0.08, day(20), true, null],
      // 94.20 − 94.18 = +0.02 dB from the recalibration, the last pass before it.
      ['after', 0.02, day(24, 13), true, null],
    ]);
  });

  it('compares a 114 dB calibration with a 94 dB one by their deviations, not by 20 dB', () => {
    const assessed = assess(
      site,
      withChecks([
        { time: day(20), status: 'Success', level: 94.1, offset: 0.1 },
        { time: day(26), status: 'Success', level: 114.3, offset: 0.3 },
      ]),
      { toleranceDb: 0.5, computedAt: END },
    );
    // +0.30 − (+0.10) = +0.20 dB.
    expect(assessed.checks.find((c) => c.when === 'after')?.drift).toBe(0.2);
  });

  it('flags a missing calibration after (and before) the period as rows of their own', () => {
    const assessed = assess(
      site,
      withChecks([{ time: day(24, 12), status: 'Success', level: 94.1, offset: 0.1 }]),
      { toleranceDb: 0.5, computedAt: END },
    );
    expect(assessed.checks.map((c) => [c.when, c.missing ?? false, c.time, c.flag])).toEqual([
      [
        'before',
        true,
        START,
        'No calibration before the period: the instrument’s accuracy at its start is not shown',
      ],
      ['during', false, day(24, 12), null],
      ['after', true, END, 'No calibration after the period: the drift over the survey cannot be checked'],
    ]);
  });

  it('shows the missing calibration after the period as a flagged row of the report’s evidence table', () => {
    const assessed = assess(
      site,
      withChecks([{ time: day(20), status: 'Success', level: 94.1, offset: 0.1 }]),
      { toleranceDb: 0.5, computedAt: END },
    );
    const clock = new SiteClock('Europe/London', START);
    const table = evidenceTables(assessed, clock).find((t) => t.name === 'calibration')!;
    const at = (header: string) => table.columns.indexOf(header);
    const last = table.rows.at(-1)!;
    expect([
      last[at('When')],
      last[at('Time (UTC)')],
      last[at('Instrument status')],
      last[at('Verdict')],
    ]).toEqual(['after the period', null, 'none on record', 'FLAGGED: no calibration after the period']);
    expect(last[at('Flag')]).toBe(
      'No calibration after the period: the drift over the survey cannot be checked',
    );
    expect(table.display?.rows.at(-1)).toEqual([
      'NM1',
      'Calibration',
      'after',
      '—',
      'none on record',
      '—',
      '—',
      '—',
      '—',
      'FLAGGED: no calibration after the period',
      '—',
    ]);
    // The per-instrument verdict counts the flagged row as no calibration, not as one.
    expect(calibrationVerdict(assessed, 'NM1', clock)).toBe(
      'Calibrated before the period; no calibration after the period',
    );
  });

  it('takes FieldDesk’s verdict on a calibration it ran: a failed one is said failed, never a drift nor a drift base', () => {
    // 114 dB chosen, the calibrator left at 94 dB: the instrument read 94.02 dB and said "Success";
    // FieldDesk judged it against 114 dB ± 0.5 dB: −19.98 dB, failed.
    const fieldDeskFailed: ActionRecord = {
      id: 'a1',
      accountId: 'acc',
      serial: 'NM1',
      action: 'Calibration',
      state: 'failed',
      startedAt: day(24, 12) - 40_000,
      finishedAt: day(24, 12) + 2_000,
      message: 'Calibration failed: …',
      result: {
        kind: 'calibration',
        time: day(24, 12),
        status: 'Success',
        level: 94.02,
        offset: 0.02,
        referenceDb: 114,
        toleranceDb: 0.5,
        passed: false,
        deviationDb: -19.98,
        instrumentPassed: true,
        probableCalibratorDb: 94,
      },
      error: null,
      calibrator: null,
    };
    const assessed = assess(
      site,
      withChecks([
        { time: day(20), status: 'Success', level: 94.1, offset: 0.1 },
        { time: day(24, 12), status: 'Success', level: 94.02, offset: 0.02 },
        // A failed attempt the instrument itself reported: 53.8 dB, no calibrator signal.
        { time: day(24, 13), status: 'Failed', level: 53.8, offset: -40.2 },
        { time: day(26), status: 'Success', level: 94.2, offset: 0.2 },
      ]),
      { toleranceDb: 0.5, computedAt: END, actionRecords: () => [fieldDeskFailed] },
    );
    const rows = assessed.checks.filter((c) => c.kind === 'calibration');
    expect(
      rows.map((c) => [
        c.when,
        c.passed,
        c.instrumentPassed,
        c.fieldDesk?.passed ?? null,
        c.deviation,
        c.drift,
      ]),
    ).toEqual([
      ['before', true, true, null, 0.1, null],
      // FieldDesk's verdict counts, the instrument's word beside it; the deviation is from 114 dB.
      ['during', false, true, false, -19.98, null],
      ['during', false, false, null, -40.2, null],
      // Drift from the last *passing* check, the one on the 20th: (94.2 − 94) − (94.1 − 94) = +0.10 dB.
      ['after', true, true, null, 0.2, 0.1],
    ]);
    expect(rows[3]?.driftFrom).toBe(day(20));
    expect(rows[1]?.flag).toBe(
      'Failed: FieldDesk judged 94.02 dB against the 114.0 dB reference (±0.5 dB); the instrument reported “Success”',
    );
    // The verdict per instrument: the only drift is the +0.1 dB one; both failures named as failures.
    const verdict = calibrationVerdict(assessed, 'NM1', new SiteClock('Europe/London', START));
    expect(verdict).toContain('drift 0.1 dB within ±0.5 dB');
    expect(verdict).not.toMatch(/drift (19|40)/);
    expect(verdict.match(/calibration failed/g)).toHaveLength(2);

    // The failed-check rule acts on the same verdicts: the time is left out from FieldDesk's failed
    // calibration at 12:00 (the instrument said "Success"), not only from its own failure at 13:00.
    const checks = [
      { time: day(20), status: 'Success', level: 94.1, offset: 0.1 },
      { time: day(24, 12), status: 'Success', level: 94.02, offset: 0.02 },
      { time: day(24, 13), status: 'Failed', level: 53.8, offset: -40.2 },
      { time: day(26), status: 'Success', level: 94.2, offset: 0.2 },
    ];
    const ruled = { ...site, rules: { ...site.rules, failedCheck: true } };
    const failedFrom = (records: ActionRecord[]) =>
      assess(ruled, withChecks(checks), { toleranceDb: 0.5, computedAt: END, actionRecords: () => records })
        .exclusions.filter((e) => e.cause === 'failedCheck')
        .map((e) => [e.start, e.end]);
    expect(failedFrom([fieldDeskFailed])).toEqual([[day(24, 12), END]]);
    expect(failedFrom([])).toEqual([[day(24, 13), END]]);
  });

  it('names the calibrator of a calibration FieldDesk ran, says when it is not recorded, and flags an expired certificate', () => {
    const cr515 = {
      id: 'c1',
      model: 'CR:515',
      serial: '054433',
      class: '1' as const,
      levelDb: 94,
      nominalLevelsDb: [94, 114],
      certificateDate: '2025-10-27',
      // Due the day of the calibration after the period, 26 Oct: still valid on it.
      dueDate: '2026-10-26',
    };
    const ranByFieldDesk = (id: string, time: number, dueDate: string): ActionRecord => ({
      id,
      accountId: 'acc',
      serial: 'NM1',
      action: 'Calibration',
      state: 'succeeded',
      startedAt: time - 40_000,
      finishedAt: time + 2_000,
      message: 'Calibration passed.',
      result: {
        kind: 'calibration',
        time,
        status: 'Success',
        level: 94.1,
        offset: 0.1,
        referenceDb: 94,
        toleranceDb: 0.5,
        passed: true,
        deviationDb: 0.1,
        instrumentPassed: true,
        probableCalibratorDb: null,
      },
      error: null,
      calibrator: { ...cr515, dueDate },
    });
    const inputs = withChecks([
      { time: day(20), status: 'Success', level: 94.1, offset: 0.1 },
      { time: day(24, 12), status: 'Success', level: 94.1, offset: 0.1 },
      { time: day(26), status: 'Success', level: 94.2, offset: 0.2 },
    ]);
    const records = [
      // Not the one on day 20 (run from elsewhere); the one during the period, its certificate
      // expired the day before; the one after, on the day its certificate is due.
      ranByFieldDesk('during', day(24, 12), '2026-10-23'),
      ranByFieldDesk('after', day(26), '2026-10-26'),
      // Another instrument's, at the same time as the first: not this instrument's record.
      { ...ranByFieldDesk('elsewhere', day(20), '2027-01-01'), serial: 'NM2' },
    ];
    const assessed = assess(site, inputs, {
      toleranceDb: 0.5,
      computedAt: END,
      actionRecords: (serial) => records.filter((r) => r.serial === serial),
      // A visit covering the calibration during the period; another that ended before the one after.
      visitRecords: () => [
        { engineer: 'Asha Patel', arrivedAt: day(24, 11), leftAt: day(24, 14) },
        { engineer: 'Tom Reyes', arrivedAt: day(25, 9), leftAt: day(26) - 1 },
      ],
    });
    const rows = assessed.checks.filter((c) => c.kind === 'calibration');
    expect(rows.map((c) => c.engineer ?? null)).toEqual([null, 'Asha Patel', null]);
    expect(rows.map((c) => [c.when, c.calibrator?.dueDate ?? null])).toEqual([
      ['before', null],
      ['during', '2026-10-23'],
      ['after', '2026-10-26'],
    ]);
    expect(rows[1]?.flag).toBe('The certificate of calibrator CR:515 #054433 had expired (due 2026-10-23)');
    expect(rows[2]?.flag).toBeNull();

    const table = evidenceTables(assessed, new SiteClock('Europe/London', START)).find(
      (t) => t.name === 'calibration',
    )!;
    const calibrator = table.columns.indexOf('Calibrator');
    expect(table.rows.filter((r) => r[1] === 'Calibration').map((r) => r[calibrator])).toEqual([
      'not recorded',
      'CR:515 #054433, IEC 60942 class 1, certificate due 2026-10-23',
      'CR:515 #054433, IEC 60942 class 1, certificate due 2026-10-26',
    ]);
    const engineer = table.columns.indexOf('Engineer');
    expect(table.rows.filter((r) => r[1] === 'Calibration').map((r) => r[engineer])).toEqual([
      'not recorded',
      'Asha Patel',
      'not recorded',
    ]);
    expect(table.display?.rows.filter((r) => r[1] === 'Calibration').map((r) => r.at(-1))).toEqual([
      'not recorded',
      'CR:515 #054433, due 2026-10-23; Asha Patel',
      'CR:515 #054433, due 2026-10-26; engineer not recorded',
    ]);
  });

  it('judges each SIC tone against its own reference and the SIC tolerance, naming the failing tone', () => {
    // Four passing SICs before the period: 8 kHz 79.4, 79.6, 79.6, 79.8 → median 79.6 dB.
    const passes = [79.4, 79.6, 79.6, 79.8].map((eightK, i) => ({
      time: day(10 + i),
      status: 'Success',
      _500Hz: 82,
      _1KHz: 84,
      _8KHz: eightK,
    }));
    // During the period the instrument says Success, but 8 kHz reads 77.1: 2.5 dB below 79.6.
    const during = { time: day(24, 12), status: 'Success', _500Hz: 82.2, _1KHz: 84.1, _8KHz: 77.1 };
    const calibrations = [
      { time: day(20), status: 'Success', level: 94, offset: 0 },
      { time: day(26), status: 'Success', level: 94, offset: 0 },
    ];
    const sicRows = (sicToleranceDb: number) =>
      assess(site, withChecks(calibrations, [...passes, during]), {
        toleranceDb: 0.5,
        sicToleranceDb,
        computedAt: END,
      }).checks.filter((c) => c.kind === 'sic');

    const [before, judged] = sicRows(2);
    // The last one before the period is judged against the three before it: 79.6 → 79.8 within ±2.
    expect(before).toMatchObject({ when: 'before', tolerance: 2, driftWithinTolerance: true, flag: null });
    expect(judged).toMatchObject({
      when: 'during',
      passed: true,
      tolerance: 2,
      driftWithinTolerance: false,
      // A SIC has no offset of its own; its furthest tone, 77.1 − 79.6, is its deviation.
      offset: null,
      deviation: -2.5,
      flag: '8 kHz tone 77.1 dB, expected 79.6 ± 2.0 dB (the median of the last 4 passing checks)',
    });
    // A wider SIC tolerance from the settings passes it; the calibration's ±0.5 dB plays no part.
    expect(sicRows(3)[1]).toMatchObject({ tolerance: 3, driftWithinTolerance: true, flag: null });
  });
});
