import { checkDbText } from '../../../src/shared/check-record';
import { describe, expect, it } from 'vitest';
import type { ActionOutcome, OperationSnapshot, OperationState } from '../../../src/shared/operations';
import {
  ACTION_REASONS,
  actionBlockedReason,
  actionsAvailability,
  type ActionContext,
} from '../../../src/renderer/src/features/actions/logic';
import {
  activeOperationFor,
  latestOperationFor,
  mergeSnapshot,
  progressView,
  PROGRESS_CAP,
} from '../../../src/renderer/src/features/operations/logic';
import { stopwatchText } from '../../../src/renderer/src/ui/time';
import {
  actionRecordBadge,
  operationVerdict,
  recordVerdictsText,
  verdictSides,
  serviceStatusBadge,
  settingDbText,
} from '../../../src/renderer/src/features/actions/verdict';
import { parseTolerance, SIC_TOLERANCE_RANGE } from '../../../src/renderer/src/features/settings/tolerance';
import { parseRefreshMinutes } from '../../../src/renderer/src/features/settings/refresh-age';
import { account, actionSnapshot, entry, status } from './fixtures';

/** Last pushed at 100 s on the test clock, so progress can be read against later times. */
const snapshot = (overrides: Partial<OperationSnapshot> = {}): OperationSnapshot =>
  actionSnapshot({ startedAt: 100_000, updatedAt: 100_000, ...overrides });

const sicNoise = entry('QT100001', 'East boundary');
sicNoise.instrument.feature = ['SIC', 'Modem'];

function context(overrides: Partial<ActionContext> = {}): ActionContext {
  return { account: account(), appOffline: false, entry: sicNoise, running: null, ...overrides };
}

describe('action buttons', () => {
  it('are all enabled on an online noise instrument with SIC and a key that may act', () => {
    const { reasons, sharedReason } = actionsAvailability(context());
    expect(reasons).toEqual({ Identify: null, Calibration: null, SIC: null });
    expect(sharedReason).toBeNull();
  });

  it('say once, for all three, that the key lacks instruments:action', () => {
    const result = actionsAvailability(
      context({ account: account({ missingScopes: ['instruments:action'] }) }),
    );
    expect(result.sharedReason).toBe('This key cannot run actions: it lacks instruments:action.');
    expect(Object.values(result.reasons).every((r) => r === ACTION_REASONS.missingScope)).toBe(true);
  });

  it('put the key before connectivity, and connectivity before the instrument', () => {
    const offlineInstrument = entry('QT1', 'x', { status: status({ online: false }) });
    expect(
      actionBlockedReason(
        'Identify',
        context({ account: account({ missingScopes: ['instruments:action'] }), appOffline: true }),
      ),
    ).toBe(ACTION_REASONS.missingScope);
    expect(actionBlockedReason('Identify', context({ appOffline: true, entry: offlineInstrument }))).toBe(
      ACTION_REASONS.appOffline,
    );
    expect(actionBlockedReason('Identify', context({ entry: offlineInstrument }))).toBe(
      ACTION_REASONS.instrumentOffline,
    );
    expect(actionBlockedReason('Identify', context({ entry: entry('QT1', 'x', { status: null }) }))).toBe(
      ACTION_REASONS.statusUnknown,
    );
  });

  it('offer Calibration on noise instruments only and SIC only with the feature', () => {
    const air = entry('AQ1', 'Receptor', { type: 'AirQuality', model: 'AQ:200' });
    const availability = actionsAvailability(context({ entry: air }));
    expect(availability.reasons).toEqual({
      Identify: null,
      Calibration: ACTION_REASONS.notNoise,
      SIC: ACTION_REASONS.noSic,
    });
    // Different reasons: each button keeps its own.
    expect(availability.sharedReason).toBeNull();
  });

  it('are blocked while an action runs, from FieldDesk or as the instrument reports it', () => {
    const running = snapshot({ action: 'SIC' });
    expect(actionsAvailability(context({ running })).sharedReason).toBe(
      'System integrity check (SIC) is running on this instrument. Wait for it to finish.',
    );
    const calibrating = entry('QT1', 'x', { status: status({ calibrationInProgress: true }) });
    expect(actionBlockedReason('Identify', context({ entry: calibrating }))).toBe(ACTION_REASONS.calibrating);
    const sic = entry('QT1', 'x', { status: status({ sicInProgress: true }) });
    expect(actionBlockedReason('Identify', context({ entry: sic }))).toBe(ACTION_REASONS.sicRunning);
  });

  it('need an account and a loaded instrument', () => {
    expect(actionBlockedReason('SIC', context({ account: null }))).toBe(ACTION_REASONS.noAccount);
    expect(actionBlockedReason('SIC', context({ entry: null }))).toBe(ACTION_REASONS.loading);
  });
});

describe('progress', () => {
  it('counts elapsed time on our clock between pushed snapshots', () => {
    const view = progressView(snapshot({ elapsedMs: 2_000 }), 118_000);
    expect(view.elapsedMs).toBe(18_000);
    expect(view.timing).toBe('0:18 of about 0:40');
    expect(view.fraction).toBeCloseTo(0.45);
    expect(view.overdue).toBe(false);
  });

  it('never claims done before the result: capped at 95 % near the expected time', () => {
    expect(progressView(snapshot(), 139_500).fraction).toBe(PROGRESS_CAP);
  });

  it('turns indeterminate past the expected duration and says so', () => {
    const view = progressView(snapshot(), 152_000);
    expect(view.fraction).toBeNull();
    expect(view.overdue).toBe(true);
    expect(view.timing).toBe('0:52, longer than the usual 0:40');
  });

  it('is full once finished, with the backend’s elapsed time (not the clock’s)', () => {
    const view = progressView(snapshot({ state: 'succeeded', elapsedMs: 41_000 }), 999_999);
    expect(view).toMatchObject({ fraction: 1, finished: true, elapsedMs: 41_000, overdue: false });
  });

  it('formats a stopwatch', () => {
    expect(stopwatchText(0)).toBe('0:00');
    expect(stopwatchText(65_400)).toBe('1:05');
    expect(stopwatchText(3_723_000)).toBe('1:02:03');
    expect(stopwatchText(-5)).toBe('0:00');
  });
});

describe('merging snapshots', () => {
  it('keeps the newer one whichever arrives last', () => {
    const older = snapshot({ updatedAt: 1, phase: 'Sending request', state: 'starting' });
    const newer = snapshot({ updatedAt: 2 });
    expect(mergeSnapshot(newer, older)).toBe(newer);
    expect(mergeSnapshot(older, newer)).toBe(newer);
    expect(mergeSnapshot(undefined, older)).toBe(older);
  });

  it('never turns a finished operation back into a running one', () => {
    const done = snapshot({ state: 'succeeded', updatedAt: 5 });
    const lateRunning = snapshot({ state: 'running', updatedAt: 9 });
    expect(mergeSnapshot(done, lateRunning)).toBe(done);
    expect(mergeSnapshot(lateRunning, done)).toBe(done);
  });

  it('finds the operation of an instrument in the active account only', () => {
    const list = [
      snapshot({ id: 'a', startedAt: 1, state: 'succeeded' }),
      snapshot({ id: 'b', startedAt: 2 }),
      snapshot({ id: 'c', startedAt: 3, accountId: 'other' }),
      snapshot({ id: 'd', startedAt: 4, serial: 'QT999', action: 'SIC' }),
    ];
    expect(activeOperationFor(list, 'acc-1', 'QT100001')?.id).toBe('b');
    expect(activeOperationFor(list, 'acc-1', 'QT404')).toBeNull();
    expect(latestOperationFor(list, 'acc-1', 'QT100001')?.id).toBe('b');
    expect(latestOperationFor(list, 'other', 'QT100001')?.id).toBe('c');
    expect(latestOperationFor(list, 'acc-1', 'QT999', 'Calibration')).toBeNull();
  });
});

const calibration = (
  overrides: Partial<Extract<ActionOutcome, { kind: 'calibration' }>> = {},
): ActionOutcome => ({
  kind: 'calibration',
  time: 1,
  status: 'Success',
  level: 94.12,
  offset: 0.1,
  referenceDb: 94,
  toleranceDb: 0.5,
  passed: true,
  deviationDb: 0.12,
  instrumentPassed: true,
  probableCalibratorDb: null,
  ...overrides,
});

function finished(state: OperationState, result: ActionOutcome | null, message = 'msg'): OperationSnapshot {
  return snapshot({ state, result, message });
}

describe('pass / fail', () => {
  it('is nothing while running', () => {
    expect(operationVerdict(snapshot())).toBeNull();
  });

  it('shows a PASS with the level, the deviation from the reference, the offset and the tolerance', () => {
    const verdict = operationVerdict(finished('succeeded', calibration(), 'Calibration passed: …'));
    expect(verdict).toMatchObject({ kind: 'pass', word: 'PASS', tone: 'ok', icon: 'check' });
    expect(verdict?.facts).toEqual([
      { label: 'Measured level', value: '94.12 dB', flagged: false },
      { label: 'Deviation from the 94.0 dB reference', value: '+0.12 dB', flagged: false },
      { label: 'Allowed', value: '±0.5 dB' },
      // One decimal unless the second matters, as every output writes a check's figures.
      { label: 'Offset', value: '+0.1 dB' },
      { label: 'Instrument reported', value: 'Success', flagged: false },
    ]);
    expect(verdict?.message).toBe('Calibration passed: …');
  });

  it('flags what broke the rule on a FAIL and keeps the backend’s message naming it', () => {
    const result = calibration({ level: 93.2, deviationDb: -0.8, offset: -0.8, passed: false });
    const verdict = operationVerdict(finished('failed', result, 'Calibration failed: the level …'));
    expect(verdict).toMatchObject({ kind: 'fail', word: 'FAIL', tone: 'danger', icon: 'error' });
    expect(verdict?.facts.find((f) => f.label.startsWith('Deviation'))).toEqual({
      label: 'Deviation from the 94.0 dB reference',
      value: '−0.8 dB',
      flagged: true,
    });
    expect(verdict?.message).toBe('Calibration failed: the level …');
  });

  it('fails a calibration the instrument reported as failed even when the level is in tolerance', () => {
    const verdict = operationVerdict(
      finished('failed', calibration({ status: 'Failed', passed: false, deviationDb: 0.1 })),
    );
    expect(verdict?.word).toBe('FAIL');
    expect(verdict?.facts.find((f) => f.label === 'Instrument reported')?.flagged).toBe(true);
  });

  it('shows the three SIC bands', () => {
    const verdict = operationVerdict(
      snapshot({
        action: 'SIC',
        state: 'succeeded',
        result: {
          kind: 'sic',
          time: 1,
          status: 'Success',
          _500Hz: 80.6,
          _1KHz: 85.3,
          _8KHz: null,
          passed: true,
          instrumentPassed: true,
          tones: [],
          toleranceDb: 2,
        },
      }),
    );
    expect(verdict?.title).toBe('System integrity check passed');
    expect(verdict?.facts.slice(0, 3).map((f) => `${f.label} ${f.value}`)).toEqual([
      '500 Hz 80.6 dB',
      '1 kHz 85.3 dB',
      '8 kHz No reading',
    ]);
  });

  it('says NO RESULT, not FAIL, when FieldDesk stopped watching or the start failed', () => {
    const cancelled = operationVerdict(
      finished(
        'cancelled',
        null,
        'FieldDesk stopped watching. The instrument may still be running the calibration',
      ),
    );
    expect(cancelled).toMatchObject({ kind: 'noResult', word: 'NO RESULT', title: 'Stopped watching' });
    expect(cancelled?.message).toContain('may still be running the calibration');
    expect(operationVerdict(finished('failed', null))?.title).toBe('Could not complete');
    expect(operationVerdict(finished('timedOut', null))?.title).toBe('No result in time');
  });

  it('formats decibels with their sign and settings with one decimal unless the second matters', () => {
    expect(checkDbText(-0.314, { signed: true })).toBe('−0.31 dB');
    expect(checkDbText(0, { signed: true })).toBe('±0.0 dB');
    expect(checkDbText(null, { missing: 'No reading' })).toBe('No reading');
    expect(settingDbText(94)).toBe('94.0 dB');
    expect(settingDbText(0.25)).toBe('0.25 dB');
  });

  it('shows FieldDesk’s verdict beside the instrument’s, each named, in the dialog and the local record', () => {
    // 114 dB chosen, 94.32 dB read: FieldDesk fails it, the instrument reported Success.
    const mismatch = calibration({
      level: 94.32,
      offset: 0.32,
      referenceDb: 114,
      deviationDb: -19.68,
      passed: false,
      instrumentPassed: true,
      probableCalibratorDb: 94,
    });
    const verdict = operationVerdict(finished('failed', mismatch, 'Calibration failed: …'));
    expect(verdict?.verdicts).toEqual({
      fieldDesk: { text: 'Fail (−19.68 dB from 114.0 dB)', passed: false },
      instrument: { text: '“Success”', passed: true },
    });
    expect(verdict?.facts.at(-1)).toEqual({
      label: 'Calibrator probably set to',
      value: '94.0 dB',
      flagged: true,
    });
    expect(recordVerdictsText({ result: mismatch })).toBe(
      'Fail (FieldDesk): level 94.32 dB, offset +0.32 dB, deviation −19.68 dB from the 114.0 dB reference, ' +
        'allowed ±0.5 dB; the instrument reported “Success”',
    );
    expect(recordVerdictsText({ result: null })).toBeNull();
    expect(recordVerdictsText({ result: { kind: 'identify' } })).toBeNull();
  });

  it('names the SIC tone outside its band in FieldDesk’s verdict, and says when tones could not be judged', () => {
    const tone = (
      t: '_500Hz' | '_1KHz' | '_8KHz',
      levelDb: number,
      referenceDb: number,
      within: boolean,
    ) => ({
      tone: t,
      levelDb,
      referenceDb,
      referenceChecks: 10,
      toleranceDb: 2,
      within,
    });
    const failedTone: ActionOutcome = {
      kind: 'sic',
      time: 1,
      status: 'Success',
      _500Hz: 82.1,
      _1KHz: 84,
      _8KHz: 74.1,
      passed: false,
      instrumentPassed: true,
      tones: [tone('_500Hz', 82.1, 82, true), tone('_1KHz', 84, 84, true), tone('_8KHz', 74.1, 79.6, false)],
      toleranceDb: 2,
    };
    // The furthest tone: 74.1 − 79.6 = −5.5 dB.
    expect(recordVerdictsText({ result: failedTone })).toBe(
      'Fail (FieldDesk): 500 Hz 82.1 dB, 1 kHz 84.0 dB, 8 kHz 74.1 dB, furthest tone −5.5 dB from its usual level, ' +
        'allowed ±2.0 dB; the instrument reported “Success”',
    );
    const verdict = operationVerdict(snapshot({ action: 'SIC', state: 'failed', result: failedTone }));
    expect(verdict?.facts.find((f) => f.label.startsWith('8 kHz'))).toEqual({
      label: '8 kHz · expected 79.6 ± 2.0 dB',
      value: '74.1 dB',
      flagged: true,
    });
    const unjudged = { ...failedTone, passed: true, tones: [] };
    expect(recordVerdictsText({ result: unjudged })).toBe(
      'Pass (FieldDesk): 500 Hz 82.1 dB, 1 kHz 84.0 dB, 8 kHz 74.1 dB, allowed ±2.0 dB; the instrument reported “Success”',
    );
    expect(verdictSides(unjudged)?.fieldDesk.text).toBe('Pass (tones not judged: no earlier passing check)');
  });

  it('labels the local record and service records in words', () => {
    expect(
      actionRecordBadge({ action: 'Identify', state: 'succeeded', result: { kind: 'identify' } }).label,
    ).toBe('Done');
    expect(actionRecordBadge({ action: 'Calibration', state: 'failed', result: calibration() }).label).toBe(
      'FieldDesk: Fail',
    );
    expect(actionRecordBadge({ action: 'Calibration', state: 'failed', result: null }).label).toBe(
      'Did not run',
    );
    expect(actionRecordBadge({ action: 'SIC', state: 'cancelled', result: null }).tone).toBe('warning');
    expect(serviceStatusBadge('Success')).toEqual({ label: 'Success', tone: 'ok', icon: 'check' });
    expect(serviceStatusBadge('Error').tone).toBe('warning');
    expect(serviceStatusBadge('Failed').tone).toBe('danger');
    expect(serviceStatusBadge('InProgress')).toEqual({ label: 'In progress', tone: 'info', icon: 'info' });
  });
});

describe('refresh age setting', () => {
  it('accepts whole minutes from 1 to 120', () => {
    expect(parseRefreshMinutes(' 5 ')).toEqual({ ok: true, value: 5 });
    expect(parseRefreshMinutes('1')).toEqual({ ok: true, value: 1 });
    expect(parseRefreshMinutes('120')).toEqual({ ok: true, value: 120 });
  });

  it('refuses anything else with the reason', () => {
    expect(parseRefreshMinutes('')).toEqual({
      ok: false,
      message: 'Enter a number of minutes, from 1 to 120.',
    });
    expect(parseRefreshMinutes('2.5')).toEqual({ ok: false, message: 'Enter whole minutes, such as 5.' });
    expect(parseRefreshMinutes('soon')).toEqual({ ok: false, message: 'Enter whole minutes, such as 5.' });
    for (const text of ['0', '121']) {
      expect(parseRefreshMinutes(text)).toEqual({
        ok: false,
        message: 'The refresh age must be from 1 to 120 minutes.',
      });
    }
  });
});

describe('tolerance setting', () => {
  it('accepts 0.1 to 2.0 dB, a decimal comma included', () => {
    // A SIC's tones take their own range (0.5 to 6.0 dB).
    expect(parseTolerance('2', SIC_TOLERANCE_RANGE)).toEqual({ ok: true, value: 2 });
    expect(parseTolerance('0.2', SIC_TOLERANCE_RANGE)).toEqual({
      ok: false,
      message: 'The tolerance must be between 0.5 dB and 6.0 dB.',
    });
    expect(parseTolerance('x', SIC_TOLERANCE_RANGE)).toEqual({
      ok: false,
      message: 'Enter a number of decibels, such as 2.0.',
    });
    expect(parseTolerance(' 0,5 ')).toEqual({ ok: true, value: 0.5 });
    expect(parseTolerance('2')).toEqual({ ok: true, value: 2 });
    expect(parseTolerance('0.1')).toEqual({ ok: true, value: 0.1 });
  });

  it('refuses anything else with the reason', () => {
    expect(parseTolerance('')).toMatchObject({
      ok: false,
      message: expect.stringContaining('between 0.1 dB and 2.0 dB'),
    });
    expect(parseTolerance('2.5')).toEqual({
      ok: false,
      message: 'The tolerance must be between 0.1 dB and 2.0 dB.',
    });
    expect(parseTolerance('0.05')).toMatchObject({ ok: false });
    expect(parseTolerance('-1')).toMatchObject({
      ok: false,
      message: 'Enter a number of decibels, such as 0.5.',
    });
    expect(parseTolerance('half')).toMatchObject({ ok: false });
  });
});
