/**
 * One calibration, one truth: a calibration FieldDesk judged failed (114 dB reference, the
 * calibrator at 94 dB) while the instrument reported "Success" reads failed in the list cell, on the
 * card's pill, in Needs attention and in the history chart's failure count — each rendering the
 * same record (shared/check-record.ts) — and one FieldDesk did not run says only the instrument's word.
 */
import { describe, expect, it } from 'vitest';
import {
  checkVerdictWord,
  lastChecks,
  whoseVerdictText,
  type FieldDeskLastResults,
} from '../../../src/shared/check-record';
import { attentionReasons, DEFAULT_ATTENTION_THRESHOLDS } from '../../../src/shared/attention';
import type { CalibrationOutcome } from '../../../src/shared/operations';
import type { InstrumentStatus } from '../../../src/shared/service/schemas';
import { calibrationCell } from '../../../src/renderer/src/features/attention/cells';
import { calibrationChart } from '../../../src/renderer/src/features/history/charts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 17, 12);
const CALIBRATED_AT = NOW - 2 * HOUR;

/** What the service says: the instrument's own "Success" at 94.02 dB. */
const status: InstrumentStatus = {
  online: true,
  measuring: true,
  calibrationInProgress: false,
  sicInProgress: false,
  lastCalibration: { time: CALIBRATED_AT, status: 'Success', level: 94.02, offset: 0.02 },
  lastSic: null,
} as InstrumentStatus;

/** What FieldDesk judged: 94.02 − 114 = −19.98 dB, outside ±0.5 dB. */
const failedByFieldDesk: CalibrationOutcome = {
  kind: 'calibration',
  time: CALIBRATED_AT,
  status: 'Success',
  level: 94.02,
  offset: 0.02,
  referenceDb: 114,
  toleranceDb: 0.5,
  passed: false,
  deviationDb: -19.98,
  instrumentPassed: true,
  probableCalibratorDb: 94,
};
const fieldDesk: FieldDeskLastResults = { serial: 'NM1', calibration: failedByFieldDesk, sic: null };

describe('a calibration FieldDesk failed while the instrument said “Success”', () => {
  const { calibration } = lastChecks(status, fieldDesk);

  it('is one record: FieldDesk’s Fail counts, the instrument’s word beside it, the deviation from 114 dB', () => {
    expect(calibration).toMatchObject({
      passed: false,
      instrumentPassed: true,
      fieldDesk: { passed: false, referenceDb: 114, toleranceDb: 0.5 },
      level: 94.02,
      offset: 0.02,
      deviation: -19.98,
      referenceDb: 114,
    });
    // The card's pill and the words beside it.
    expect(checkVerdictWord(calibration!)).toBe('Fail');
    expect(whoseVerdictText(calibration!)).toBe('FieldDesk’s verdict; the instrument reported “Success”');
  });

  it('reads failed in the list cell, in Needs attention and in the history chart’s failure count', () => {
    const cell = calibrationCell(calibration, DEFAULT_ATTENTION_THRESHOLDS, NOW);
    expect(cell).toMatchObject({ text: 'Fail · 2 h', tone: 'danger' });
    expect(cell.title).toContain('deviation −19.98 dB from the 114.0 dB reference');

    const reasons = attentionReasons(
      null,
      status,
      DEFAULT_ATTENTION_THRESHOLDS,
      NOW,
      lastChecks(status, fieldDesk),
    );
    expect(reasons).toEqual([
      {
        kind: 'calibrationFailed',
        urgency: 3,
        text: 'Last calibration failed, 2 h ago (FieldDesk’s verdict; the instrument reported “Success”)',
      },
    ]);

    // The history: an earlier pass and this one; FieldDesk's record of this one makes it a failure.
    const records = [
      { instrument: 'NM1', time: NOW - 20 * DAY, status: 'Success', level: 94.1, offset: 0.1 },
      { instrument: 'NM1', ...status.lastCalibration! },
    ];
    const chart = calibrationChart(records, 0.5, [failedByFieldDesk]);
    expect(chart.failedCount).toBe(1);
    expect(chart.summary).toContain('1 failed');
    // The red cross sits at the failed calibration's time.
    expect(chart.datasets.find((d) => d.label === 'Failed')?.data.map((p) => (p as { x: number }).x)).toEqual(
      [CALIBRATED_AT],
    );
    // Without FieldDesk's record the same history has no failure: the instrument said Success.
    expect(calibrationChart(records, 0.5).failedCount).toBe(0);
  });
});

describe('a calibration FieldDesk did not run', () => {
  it('says the verdict in the one vocabulary and quotes the instrument’s word as its own', () => {
    const { calibration } = lastChecks(status, null);
    expect(calibration?.fieldDesk).toBeNull();
    expect(checkVerdictWord(calibration!)).toBe('Pass');
    const cell = calibrationCell(calibration, DEFAULT_ATTENTION_THRESHOLDS, NOW);
    expect(cell).toMatchObject({ text: 'Pass · 2 h', tone: 'ok' });
    expect(cell.title).toContain('Not run from FieldDesk: ');
    expect(cell.title).toContain('the instrument reported “Success”');
    // A word that is no verdict stays the instrument's own, quoted.
    expect(checkVerdictWord({ ...calibration!, status: 'Pending', passed: null })).toBe('“Pending”');
    expect(
      attentionReasons(null, status, DEFAULT_ATTENTION_THRESHOLDS, NOW, { calibration, sic: null }),
    ).toEqual([]);
  });

  it('takes FieldDesk’s newer result when the status has not caught up yet', () => {
    const later = { ...failedByFieldDesk, time: CALIBRATED_AT + HOUR };
    const { calibration } = lastChecks(status, { ...fieldDesk, calibration: later });
    expect(calibration).toMatchObject({ time: CALIBRATED_AT + HOUR, passed: false });
  });
});
