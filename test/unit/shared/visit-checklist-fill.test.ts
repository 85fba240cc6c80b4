/**
 * A visit's calibration and SIC checklist items answered from the actions run during it: the
 * first calibration is "before", the last of two or more "after", a failed check an Issue, and an
 * item the engineer answered never changed.
 */
import { describe, expect, it } from 'vitest';
import { checklistFromActions, type ChecklistItem } from '../../../src/shared/visits';
import type { ActionRecord, CalibrationOutcome, SicOutcome } from '../../../src/shared/operations';

const T0 = Date.UTC(2026, 10, 28, 9, 0, 0);
const MIN = 60_000;

const item = (label: string, change: Partial<ChecklistItem> = {}): ChecklistItem => ({
  id: label,
  serial: 'QT1',
  label,
  state: null,
  note: '',
  ...change,
});

function calibration(time: number, level: number, serial = 'QT1'): ActionRecord {
  const passed = Math.abs(level - 94) <= 0.5;
  const result: CalibrationOutcome = {
    kind: 'calibration',
    time,
    status: 'Success',
    level,
    offset: 0.1,
    referenceDb: 94,
    toleranceDb: 0.5,
    passed,
    deviationDb: level - 94,
    instrumentPassed: true,
    probableCalibratorDb: null,
  };
  return record('Calibration', time, serial, result);
}

function sic(time: number, passed: boolean): ActionRecord {
  const result: SicOutcome = {
    kind: 'sic',
    time,
    status: passed ? 'Success' : 'Failed',
    _500Hz: 80,
    _1KHz: 82,
    _8KHz: 77,
    passed,
    instrumentPassed: passed,
    tones: [],
    toleranceDb: 1,
  };
  return record('SIC', time, 'QT1', result);
}

function record(
  action: ActionRecord['action'],
  time: number,
  serial: string,
  result: ActionRecord['result'],
): ActionRecord {
  return {
    id: `${action}-${time}`,
    accountId: 'a',
    serial,
    action,
    state: 'succeeded',
    startedAt: time - MIN,
    finishedAt: time,
    message: '',
    result,
    error: null,
    calibrator: null,
  };
}

const checklist = [
  item('State on arrival'),
  item('Calibration before'),
  item('SIC'),
  item('Calibration after'),
];

describe('checklist items filled from the linked actions', () => {
  it('one passing calibration answers "before" only, with its verdict and figures', () => {
    const filled = checklistFromActions(checklist, [calibration(T0, 94.02)])!;
    expect(filled.map((i) => [i.label, i.state])).toEqual([
      ['State on arrival', null],
      ['Calibration before', 'ok'],
      ['SIC', null],
      ['Calibration after', null],
    ]);
    expect(filled[1]?.note).toMatch(
      /^From the calibration run from FieldDesk: Pass \(FieldDesk\): level 94\.02 dB/,
    );
  });

  it('two calibrations (newest first as linked): the first is before, the last after; a failed SIC an issue', () => {
    const filled = checklistFromActions(checklist, [
      calibration(T0 + 30 * MIN, 93.0),
      sic(T0 + 10 * MIN, false),
      calibration(T0, 94.02),
    ])!;
    expect(filled.map((i) => i.state)).toEqual([null, 'ok', 'issue', 'issue']);
    expect(filled[3]?.note).toContain('Fail (FieldDesk)');
    expect(filled[2]?.note).toMatch(/^From the SIC run from FieldDesk: Fail/);
  });

  it('never changes an item the engineer answered or wrote on, nor another instrument’s', () => {
    const answered = [item('Calibration before', { state: 'na', note: 'Calibrator left in the van' })];
    expect(checklistFromActions(answered, [calibration(T0, 94.02)])).toBeNull();
    // A note typed before any answer is the engineer's too.
    const noted = [item('SIC', { note: 'Redone after the windshield was changed' })];
    expect(checklistFromActions(noted, [sic(T0, false)])).toBeNull();
    expect(checklistFromActions([item('Calibration before')], [calibration(T0, 94, 'QT2')])).toBeNull();
  });

  it('an item it filled follows a newer run; once the engineer changes it, never again', () => {
    const failed = checklistFromActions([item('SIC')], [sic(T0, false)])!;
    expect(failed[0]?.state).toBe('issue');
    // Run again after a fix: the item says the pass, as the sheet's linked actions do.
    const passed = checklistFromActions(failed, [sic(T0 + 20 * MIN, true), sic(T0, false)])!;
    expect(passed[0]).toMatchObject({
      state: 'ok',
      note: expect.stringMatching(/^From the SIC run from FieldDesk: Pass/),
    });
    // Answered by the engineer (Not applicable, the note kept): left alone.
    const overridden = [{ ...passed[0]!, state: 'na' as const }];
    expect(
      checklistFromActions(overridden, [sic(T0 + 40 * MIN, false), sic(T0 + 20 * MIN, true)]),
    ).toBeNull();
  });
});
