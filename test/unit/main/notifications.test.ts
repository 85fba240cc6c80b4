import { describe, expect, it } from 'vitest';
import { createActionNotifier, finishedActionNotice, type Notice } from '../../../src/main/notifications';
import type { OperationSnapshot } from '../../../src/shared/operations';

function snapshot(overrides: Partial<OperationSnapshot>): OperationSnapshot {
  return {
    id: 'op-1',
    kind: 'action',
    accountId: 'acc-1',
    serial: 'QT380979',
    action: 'Calibration',
    state: 'running',
    phase: 'Waiting for the instrument',
    startedAt: 1_000,
    updatedAt: 20_000,
    elapsedMs: 19_000,
    expectedDurationMs: 40_000,
    message: 'Measuring the calibrator tone.',
    result: null,
    error: null,
    ...overrides,
  };
}

const passedCalibration = snapshot({
  state: 'succeeded',
  result: {
    kind: 'calibration',
    time: 30_000,
    status: 'Success',
    level: 94.02,
    offset: 0.02,
    referenceDb: 94,
    toleranceDb: 0.5,
    passed: true,
    deviationDb: 0.02,
    instrumentPassed: true,
    probableCalibratorDb: null,
  },
});

describe('finishedActionNotice', () => {
  it('says PASS or FAIL with the level against the reference', () => {
    expect(finishedActionNotice(passedCalibration)).toEqual({
      title: 'Calibration PASS — QT380979',
      body: 'Level 94.02 dB (reference 94.0 dB, deviation +0.02 dB, tolerance ±0.5 dB).',
    });
    const failed = snapshot({
      state: 'failed',
      result: {
        kind: 'sic',
        time: 1,
        status: 'Failed',
        _500Hz: 80.1,
        _1KHz: 85.2,
        _8KHz: null,
        passed: false,
        instrumentPassed: false,
        tones: [],
        toleranceDb: 2,
      },
    });
    expect(finishedActionNotice(failed)).toEqual({
      title: 'SIC FAIL — QT380979',
      body: '500 Hz 80.10 dB, 1 kHz 85.20 dB, 8 kHz —.',
    });
  });

  it('is silent for running and cancelled operations, and explains time-outs', () => {
    expect(finishedActionNotice(snapshot({}))).toBeNull();
    expect(finishedActionNotice(snapshot({ state: 'cancelled' }))).toBeNull();
    expect(finishedActionNotice(snapshot({ state: 'timedOut', message: 'No result in 2 min.' }))).toEqual({
      title: 'Calibration on QT380979: no result',
      body: 'No result in 2 min.',
    });
  });
});

describe('createActionNotifier', () => {
  it('notifies once per finished operation, and only when the window is in the background', () => {
    const shown: Notice[] = [];
    let focused = true;
    const notify = createActionNotifier(
      () => focused,
      (notice) => shown.push(notice),
    );
    notify(passedCalibration);
    expect(shown).toHaveLength(0);

    focused = false;
    notify(passedCalibration); // already finished and told (while focused): not again
    notify(snapshot({ id: 'op-2' })); // still running
    notify({ ...passedCalibration, id: 'op-2' });
    notify({ ...passedCalibration, id: 'op-2' });
    expect(shown.map((notice) => notice.title)).toEqual(['Calibration PASS — QT380979']);
  });
});
