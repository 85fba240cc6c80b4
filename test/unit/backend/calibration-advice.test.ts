/**
 * The advice after a failed calibration fits the calibrator the engineer fitted: one whose only
 * level is 94 dB is never told to be set to 114 dB.
 */
import { describe, expect, it } from 'vitest';
import { judgeCalibration } from '../../../src/main/backend/actions/action-verdicts';
import type { CalibratorSnapshot } from '../../../src/shared/calibrators';

const settings = { calibrationReferenceDb: 114 as const, calibrationToleranceDb: 0.5 };
const read94 = { time: 1, status: 'Success', level: 94.02, offset: 0.02 };
const calibrator = (nominalLevelsDb: number[]): CalibratorSnapshot => ({
  id: 'c1',
  model: 'CR:514',
  serial: '071177',
  class: '1',
  levelDb: 114,
  nominalLevelsDb,
  certificateDate: '2026-01-10',
  dueDate: '2027-01-10',
});

describe('calibration advice fitted to the calibrator', () => {
  it('a 94 dB-only calibrator: choose 94.0 dB as the reference, never “set it to 114.0 dB”', () => {
    const { outcome, message } = judgeCalibration(read94, settings, calibrator([94]));
    expect(outcome).toMatchObject({ passed: false, deviationDb: -19.98, probableCalibratorDb: 94 });
    expect(message).toContain(
      'CR:514 #071177 gives only 94.0 dB, not the 114.0 dB reference: choose 94.0 dB as the reference and calibrate again.',
    );
    expect(message).not.toMatch(/Set (it|CR:514 #071177) to 114/);
    // The instrument's own word is said beside FieldDesk's verdict.
    expect(message).toContain('The instrument itself reported “Success”.');
  });

  it('a calibrator with both levels may be set to the reference, or its other level chosen', () => {
    const { message } = judgeCalibration(read94, settings, calibrator([94, 114]));
    expect(message).toContain(
      'Set CR:514 #071177 to 114.0 dB, or choose 94.0 dB as the reference, and calibrate again.',
    );
  });

  it('no calibrator named: the general advice, both ways open', () => {
    const { message } = judgeCalibration(read94, settings, null);
    expect(message).toContain('Set it to 114.0 dB, or choose 94.0 dB as the reference, and calibrate again.');
  });

  it('a level near neither calibrator level, with a 94 dB-only calibrator: still no “set to 114”', () => {
    const { message } = judgeCalibration({ ...read94, level: 53.8 }, settings, calibrator([94]));
    expect(message).toContain('choose 94.0 dB as the reference and calibrate again.');
    expect(message).not.toContain('set to 114.0 dB');
  });
});
