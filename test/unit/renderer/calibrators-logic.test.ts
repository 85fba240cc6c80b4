/**
 * The calibrator form as typed (the contract's rules, by field), the certificate pill, and the
 * calibrator shown with a calibration's verdict and in the action record.
 */
import { describe, expect, it } from 'vitest';
import {
  certificateBadge,
  checkCalibratorForm,
  EMPTY_CALIBRATOR_FORM,
  formFieldOf,
} from '../../../src/renderer/src/features/calibrators/logic';
import { calibratorUsed, operationVerdict } from '../../../src/renderer/src/features/actions/verdict';
import type { CalibratorSnapshot } from '../../../src/shared/calibrators';
import { actionSnapshot } from './fixtures';

const typed = {
  ...EMPTY_CALIBRATOR_FORM,
  model: 'CR:515',
  serial: '054433',
  levels: '114 dB; 94',
  certificateDate: '2026-03-01',
  dueDate: '2027-03-01',
};

describe('the calibrator form', () => {
  it('sends what was typed, levels read from "114 dB; 94" in order', () => {
    expect(checkCalibratorForm(typed, 'c1')).toEqual({
      ok: true,
      change: {
        id: 'c1',
        model: 'CR:515',
        serial: '054433',
        class: '1',
        levelsDb: [94, 114],
        certificateDate: '2026-03-01',
        dueDate: '2027-03-01',
      },
    });
  });

  it('names each field’s first problem under that field', () => {
    const result = checkCalibratorForm({ ...typed, serial: '', levels: '94, ninety', dueDate: '2026-01-01' });
    expect(result).toEqual({
      ok: false,
      problems: {
        serial: "Enter the calibrator's serial number.",
        levels: 'A nominal level must be a number of decibels.',
        dueDate: 'The due date must be after the certificate date.',
      },
    });
    // An empty date is said as a date problem, not a crash.
    const empty = checkCalibratorForm({ ...typed, certificateDate: '' });
    expect(empty.ok ? null : empty.problems.certificateDate).toBe(
      'The certificate date must be a real date written YYYY-MM-DD.',
    );
  });

  it('maps the backend’s field names onto the form’s', () => {
    expect(formFieldOf('levelsDb.1')).toBe('levels');
    expect(formFieldOf('serial')).toBe('serial');
    expect(formFieldOf('settings')).toBeNull();
    expect(formFieldOf(undefined)).toBeNull();
  });
});

describe('the certificate pill', () => {
  it.each([
    ['2027-03-01', 'Valid', 'ok'],
    ['2026-12-01', 'Due soon', 'warning'],
    ['2026-11-27', 'Due soon', 'warning'],
    ['2026-11-26', 'Expired', 'danger'],
  ])('due %s, seen on 2026-11-27: %s', (due, label, tone) => {
    expect(certificateBadge(due, '2026-11-27')).toMatchObject({ label, tone });
  });
});

describe('the calibrator with the verdict', () => {
  const cr515: CalibratorSnapshot = {
    id: 'c1',
    model: 'CR:515',
    serial: '054433',
    class: '1',
    levelDb: 114,
    nominalLevelsDb: [94, 114],
    certificateDate: '2025-11-01',
    dueDate: '2026-11-01',
  };
  // Noon UTC: the same calendar day in every zone from UTC−11 to UTC+11.
  const on = (day: string) => Date.parse(`${day}T12:00:00Z`);

  it('names it, the level it was set to and its certificate; says when none was named', () => {
    expect(calibratorUsed(cr515, on('2026-10-01'))).toEqual({
      text: 'Calibrator: CR:515 #054433 (IEC 60942 class 1) at 114.0 dB, certificate due 2026-11-01',
      expired: false,
    });
    expect(calibratorUsed(cr515, on('2026-11-02'))).toEqual({
      text: 'Calibrator: CR:515 #054433 (IEC 60942 class 1) at 114.0 dB, certificate due 2026-11-01, expired 1 day before it was used',
      expired: true,
    });
    // How long before, never "on the day": 444 days is a certificate nobody renewed.
    expect(calibratorUsed(cr515, on('2028-01-19')).text).toMatch(
      /due 2026-11-01, expired 444 days before it was used$/,
    );
    expect(calibratorUsed(null, on('2026-10-01')).text).toBe('Calibrator: none named');
  });

  it('is part of a calibration’s verdict, finished or not, and absent from other actions', () => {
    const result = {
      kind: 'calibration',
      time: on('2026-10-01'),
      status: 'Success',
      level: 114.1,
      offset: 0.1,
      referenceDb: 114,
      toleranceDb: 0.5,
      passed: true,
      deviationDb: 0.1,
      instrumentPassed: true,
      probableCalibratorDb: null,
    } as const;
    const passed = actionSnapshot({
      state: 'succeeded',
      result,
      calibrator: cr515,
      startedAt: on('2026-10-01'),
    });
    expect(operationVerdict(passed)?.calibrator?.text).toMatch(/^Calibrator: CR:515 #054433/);
    const stopped = actionSnapshot({ state: 'cancelled', calibrator: null });
    expect(operationVerdict(stopped)?.calibrator?.text).toBe('Calibrator: none named');
    const identify = actionSnapshot({ action: 'Identify', state: 'succeeded', result: { kind: 'identify' } });
    expect(operationVerdict(identify)?.calibrator).toBeUndefined();
  });
});
