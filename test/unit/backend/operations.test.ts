/**
 * The action state machine as a pure function (state + event → state), and the operations
 * registry. No timers, no service: every transition is one call.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  CLOCK_SKEW_ALLOWANCE_MS,
  initialActionState,
  reduceAction,
  RESULT_GRACE_MS,
  type ActionEvent,
  type ActionOperationState,
} from '../../../src/main/backend/actions/action-state';
import { judgeCalibration, judgeSic } from '../../../src/main/backend/actions/action-verdicts';
import { sicReferences } from '../../../src/shared/check-verdicts';
import { createOperationRegistry } from '../../../src/main/backend/operations/registry';
import { FieldDeskError } from '../../../src/shared/errors';
import { DEFAULT_SETTINGS, type ActionName, type OperationSnapshot } from '../../../src/shared/operations';

const T0 = Date.UTC(2025, 5, 12, 10, 0, 0);

function start(action: ActionName, settings = DEFAULT_SETTINGS): ActionOperationState {
  return initialActionState({
    id: 'op-1',
    accountId: 'acc',
    serial: 'QT100001',
    action,
    startedAt: T0,
    settings,
  });
}

function run(state: ActionOperationState, ...events: ActionEvent[]): ActionOperationState {
  return events.reduce(reduceAction, state);
}

const accepted = (at = T0 + 300, status = 'InProgress'): ActionEvent => ({ type: 'accepted', at, status });
const calibration = (offsetMs: number, level: number | null, status = 'Success') => ({
  time: T0 + offsetMs,
  status,
  level,
  offset: 0.1,
});
const observed = (at: number, observation: Extract<ActionEvent, { type: 'observed' }>['observation']) =>
  ({ type: 'observed', at, observation }) as const;

describe('reduceAction: starting', () => {
  it('starts in `starting` with the expected duration and a time-out of 3× (at least 2 min)', () => {
    const calibrationState = start('Calibration');
    expect(calibrationState.snapshot).toMatchObject({
      state: 'starting',
      phase: 'Sending request',
      elapsedMs: 0,
      expectedDurationMs: 40_000,
      result: null,
      error: null,
    });
    expect(calibrationState.timeoutMs).toBe(120_000);
    expect(start('SIC').timeoutMs).toBe(120_000);
    expect(start('SIC').snapshot.expectedDurationMs).toBe(30_000);
    expect(start('Identify').snapshot.expectedDurationMs).toBe(2_000);
    expect(calibrationState.sinceMs).toBe(T0 - CLOCK_SKEW_ALLOWANCE_MS);
  });

  it('finishes Identify on the service answer: the LED is flashing', () => {
    const state = run(start('Identify'), accepted(T0 + 400, 'Success'));
    expect(state.snapshot).toMatchObject({
      state: 'succeeded',
      message: "The instrument's LED is flashing.",
      result: { kind: 'identify' },
      elapsedMs: 400,
      updatedAt: T0 + 400,
    });
  });

  it('fails at once when the service refuses the start, with its own description', () => {
    const error = {
      code: 'invalidRequest' as const,
      message: 'QT100001 is offline: Calibration needs the instrument to be online.',
      retryable: false,
      status: 400,
    };
    const state = run(start('Calibration'), { type: 'startFailed', at: T0 + 200, error });
    expect(state.snapshot.state).toBe('failed');
    expect(state.snapshot.message).toBe(error.message);
    expect(state.snapshot.error).toEqual(error);
  });

  it('fails when the key lacks instruments:action, naming the scope', () => {
    const error = new FieldDeskError(
      'forbidden',
      'This key cannot run Identify, Calibration and SIC: it lacks instruments:action.',
      { missingScope: 'instruments:action', status: 403 },
    ).toData();
    const state = run(start('SIC'), { type: 'startFailed', at: T0 + 100, error });
    expect(state.snapshot).toMatchObject({ state: 'failed', error: { missingScope: 'instruments:action' } });
    expect(state.snapshot.message).toContain('instruments:action');
  });

  it('warns that a dropped start request may have reached the instrument anyway', () => {
    const error = {
      code: 'offline' as const,
      message: 'Cannot reach host: the connection was dropped before the answer arrived.',
      retryable: true,
    };
    const state = run(start('Calibration'), { type: 'startFailed', at: T0 + 100, error });
    expect(state.snapshot.message).toMatch(/may have reached the instrument anyway/);
  });

  it('moves Calibration to `running` on InProgress and ignores progress before that', () => {
    const early = run(
      start('Calibration'),
      observed(T0 + 100, { kind: 'result', record: calibration(50, 94) }),
    );
    expect(early.snapshot.state).toBe('starting');
    const running = run(start('Calibration'), accepted());
    expect(running.snapshot).toMatchObject({ state: 'running', phase: 'Waiting for the instrument' });
  });

  it('fails when the service answers the start with Failed', () => {
    const state = run(start('SIC'), accepted(T0 + 100, 'Failed'));
    expect(state.snapshot.state).toBe('failed');
    expect(state.snapshot.message).toMatch(/could not start/);
  });
});

describe('reduceAction: watching a calibration', () => {
  const running = () => run(start('Calibration'), accepted(), observed(T0 + 2_000, { kind: 'inProgress' }));

  it('passes a Success within tolerance and records the judgement', () => {
    const state = run(
      running(),
      observed(T0 + 42_000, { kind: 'result', record: calibration(41_000, 94.3) }),
    );
    expect(state.snapshot.state).toBe('succeeded');
    expect(state.snapshot.result).toEqual({
      kind: 'calibration',
      time: T0 + 41_000,
      status: 'Success',
      level: 94.3,
      offset: 0.1,
      referenceDb: 94,
      toleranceDb: 0.5,
      passed: true,
      deviationDb: 0.3,
      instrumentPassed: true,
      probableCalibratorDb: null,
    });
    expect(state.snapshot.message).toBe(
      'Calibration passed: 94.3 dB against the 94.0 dB reference (+0.3 dB, within ±0.5 dB).',
    );
    expect(state.snapshot.elapsedMs).toBe(42_000);
  });

  it('fails a level outside the tolerance and says which rule failed', () => {
    const state = run(
      running(),
      observed(T0 + 42_000, { kind: 'result', record: calibration(41_000, 95.2) }),
    );
    expect(state.snapshot.state).toBe('failed');
    expect(state.snapshot.result).toMatchObject({ passed: false, deviationDb: 1.2 });
    expect(state.snapshot.message).toContain('the level 95.2 dB is 1.2 dB from the 94.0 dB reference');
    expect(state.snapshot.message).toContain('outside the ±0.5 dB tolerance');
    expect(state.snapshot.message).not.toContain('reported the calibration as');
  });

  it('fails a service status other than Success even when the level is fine', () => {
    const state = run(
      running(),
      observed(T0 + 42_000, { kind: 'result', record: calibration(41_000, 94, 'Failed') }),
    );
    expect(state.snapshot.state).toBe('failed');
    expect(state.snapshot.message).toContain('the instrument reported the calibration as “Failed”');
    expect(state.snapshot.message).not.toContain('outside');
  });

  it('judges against the settings at the start (114 dB reference, ±0.2 dB)', () => {
    const settings = { calibrationReferenceDb: 114 as const, calibrationToleranceDb: 0.2 };
    const edge = judgeCalibration({ time: T0, status: 'success', level: 114.2, offset: 0 }, settings);
    expect(edge.outcome.passed).toBe(true);
    const over = judgeCalibration({ time: T0, status: 'Success', level: 113.75, offset: 0 }, settings);
    expect(over.outcome).toMatchObject({
      passed: false,
      deviationDb: -0.25,
      referenceDb: 114,
      toleranceDb: 0.2,
    });
    expect(over.message).toContain('0.25 dB from the 114.0 dB reference');
  });

  it('ignores a result older than the start (less the clock-skew allowance) and keeps watching', () => {
    const before = running();
    const old = observed(T0 + 4_000, {
      kind: 'result',
      record: calibration(-CLOCK_SKEW_ALLOWANCE_MS - 1_000, 94),
    });
    expect(reduceAction(before, old)).toBe(before);
    // A result stamped slightly before our start (service clock behind ours) is still ours.
    const skewed = run(before, observed(T0 + 4_000, { kind: 'result', record: calibration(-3_000, 94) }));
    expect(skewed.snapshot.state).toBe('succeeded');
  });

  it('waits a grace period when the instrument stops without a result, then fails with advice', () => {
    const idleAt = T0 + 30_000;
    const reading = run(running(), observed(idleAt, { kind: 'idle' }));
    expect(reading.snapshot).toMatchObject({ state: 'running', phase: 'Reading the result' });
    const stillReading = run(reading, observed(idleAt + RESULT_GRACE_MS - 1, { kind: 'idle' }));
    expect(stillReading.snapshot.state).toBe('running');
    const failed = run(stillReading, observed(idleAt + RESULT_GRACE_MS, { kind: 'idle' }));
    expect(failed.snapshot.state).toBe('failed');
    expect(failed.snapshot.message).toMatch(/without reporting a new result.*calibrator/);
  });

  it('restarts the grace period when the instrument reports running again', () => {
    const state = run(
      running(),
      observed(T0 + 10_000, { kind: 'idle' }),
      observed(T0 + 12_000, { kind: 'inProgress' }),
      observed(T0 + 10_000 + RESULT_GRACE_MS + 1_000, { kind: 'idle' }),
    );
    expect(state.snapshot.state).toBe('running');
  });

  it('treats lost contact as a pause, not a failure, and recovers', () => {
    const offline = { code: 'offline' as const, message: 'Cannot reach host.', retryable: true };
    const lost = run(running(), observed(T0 + 6_000, { kind: 'unreachable', error: offline }));
    expect(lost.snapshot).toMatchObject({ state: 'running', phase: 'Waiting for the connection' });
    expect(lost.snapshot.message).toContain('keeps trying');
    const back = run(lost, observed(T0 + 20_000, { kind: 'inProgress' }));
    expect(back.snapshot.phase).toBe('Waiting for the instrument');
    expect(back.lostContactSince).toBeNull();
  });

  it('stops when the source can no longer follow the action (e.g. a scope was removed)', () => {
    const error = {
      code: 'forbidden' as const,
      message: 'This key cannot list instruments.',
      retryable: false,
    };
    const state = run(running(), observed(T0 + 6_000, { kind: 'failed', error }));
    expect(state.snapshot).toMatchObject({ state: 'failed', error });
    expect(state.snapshot.message).toMatch(/^FieldDesk cannot follow the calibration: This key cannot/);
  });

  it('times out at the time-out, not before, with advice', () => {
    const state = running();
    expect(reduceAction(state, { type: 'tick', at: T0 + 119_999 })).toBe(state);
    const timedOut = run(state, { type: 'tick', at: T0 + 120_000 });
    expect(timedOut.snapshot).toMatchObject({
      state: 'timedOut',
      phase: 'Timed out',
      error: { code: 'timeout' },
    });
    expect(timedOut.snapshot.message).toBe(
      'The instrument did not report a result in 2 min. Check it is online and the calibrator is fitted, then check its status.',
    );
  });

  it('says the connection was the problem when it times out while unreachable', () => {
    const offline = { code: 'offline' as const, message: 'Cannot reach host.', retryable: true };
    const state = run(running(), observed(T0 + 60_000, { kind: 'unreachable', error: offline }), {
      type: 'tick',
      at: T0 + 120_000,
    });
    expect(state.snapshot.state).toBe('timedOut');
    expect(state.snapshot.message).toMatch(/could not reach it again within 2 min\. Check your connection/);
  });

  it('a service that stopped answering mid-run is the named cause, never the calibrator', () => {
    const offline = { code: 'offline' as const, message: 'Cannot reach host.', retryable: true };
    const lost = run(
      running(),
      observed(T0 + 6_000, { kind: 'inProgress' }),
      observed(T0 + 20_000, { kind: 'unreachable', error: offline }),
    );
    // Back, but the service knows of no run and no result (restarted): after the grace, its fault.
    const backIdle = run(
      lost,
      observed(T0 + 40_000, { kind: 'idle' }),
      observed(T0 + 40_000 + RESULT_GRACE_MS, { kind: 'idle' }),
    );
    expect(backIdle.snapshot.state).toBe('failed');
    expect(backIdle.snapshot.message).toBe(
      "The service stopped answering during the calibration; its result is unknown — when it answered again it had no result from this run, so FieldDesk cannot tell whether the instrument finished it. Check the instrument's status and its calibration log before starting another.",
    );
    // Never answering again until the time-out.
    const stillLost = run(lost, { type: 'tick', at: T0 + 120_000 });
    expect(stillLost.snapshot).toMatchObject({ state: 'timedOut', error: { code: 'timeout' } });
    expect(stillLost.snapshot.message).toBe(
      "The service stopped answering during the calibration; its result is unknown — FieldDesk could not reach it again within 2 min. Check your connection, then check the instrument's status before starting another.",
    );
    // Answering again (the run still shown as going) but no result before the time-out.
    const backRunning = run(lost, observed(T0 + 50_000, { kind: 'inProgress' }), {
      type: 'tick',
      at: T0 + 120_000,
    });
    expect(backRunning.snapshot.message).toBe(
      "The service stopped answering during the calibration; its result is unknown — it answered again, but no result came within 2 min. Check the instrument's status and its calibration log before starting another.",
    );
    for (const state of [backIdle, stillLost, backRunning])
      expect(state.snapshot.message).not.toMatch(/calibrator/);
    // A result after the loss is still the result.
    const found = run(lost, observed(T0 + 45_000, { kind: 'result', record: calibration(44_000, 94) }));
    expect(found.snapshot.state).toBe('succeeded');
    // SIC alike.
    const sic = run(
      start('SIC'),
      accepted(),
      observed(T0 + 9_000, { kind: 'unreachable', error: offline }),
      observed(T0 + 20_000, { kind: 'idle' }),
      observed(T0 + 20_000 + RESULT_GRACE_MS, { kind: 'idle' }),
    );
    expect(sic.snapshot.message).toMatch(
      /^The service stopped answering during the system integrity check; its result is unknown — .* its SIC history before starting another\.$/,
    );
  });

  it('cancels with a plain warning, and ignores everything once finished', () => {
    const cancelled = run(running(), { type: 'cancel', at: T0 + 9_000 });
    expect(cancelled.snapshot).toMatchObject({ state: 'cancelled', elapsedMs: 9_000 });
    expect(cancelled.snapshot.message).toBe(
      'FieldDesk stopped watching. The instrument may still be running the calibration; check its status before starting another.',
    );
    for (const event of [
      observed(T0 + 10_000, { kind: 'result', record: calibration(9_500, 94) }),
      { type: 'tick', at: T0 + 500_000 } as const,
      { type: 'cancel', at: T0 + 11_000 } as const,
    ]) {
      expect(reduceAction(cancelled, event)).toBe(cancelled);
    }
  });
});

describe('reduceAction: SIC', () => {
  it('passes on Success and fails otherwise, listing the band levels', () => {
    const running = run(start('SIC'), accepted());
    const record = { time: T0 + 30_000, status: 'Success', _500Hz: 82.1, _1KHz: 84, _8KHz: null };
    const passed = run(running, observed(T0 + 31_000, { kind: 'result', record }));
    expect(passed.snapshot.state).toBe('succeeded');
    expect(passed.snapshot.result).toMatchObject({ kind: 'sic', passed: true, _8KHz: null });
    expect(passed.snapshot.message).toBe(
      'System integrity check passed (500 Hz 82.1 dB, 1 kHz 84.0 dB, 8 kHz no reading). ' +
        'No earlier passing check to judge the tones against, so the instrument’s status decides.',
    );
    const failed = run(
      running,
      observed(T0 + 31_000, { kind: 'result', record: { ...record, status: 'Error' } }),
    );
    expect(failed.snapshot).toMatchObject({ state: 'failed', result: { passed: false, status: 'Error' } });
  });
});

describe('calibration verdict beside the instrument’s', () => {
  const settings114 = { calibrationReferenceDb: 114 as const, calibrationToleranceDb: 0.5 };

  it('says the calibrator is probably on 94 dB when 114 dB was chosen and it read 94.32 dB', () => {
    // 94.32 − 114 = −19.68 dB: far outside ±0.5 dB, but only 0.32 dB from the 94 dB calibrator level.
    const judged = judgeCalibration({ time: T0, status: 'Success', level: 94.32, offset: 0.32 }, settings114);
    expect(judged.outcome).toMatchObject({
      passed: false,
      instrumentPassed: true,
      status: 'Success',
      deviationDb: -19.68,
      referenceDb: 114,
      probableCalibratorDb: 94,
    });
    expect(judged.message).toBe(
      'Calibration failed: the instrument read 94.32 dB, which is 94.0 dB within tolerance: the calibrator ' +
        'is probably set to 94.0 dB, not 114.0 dB. Set it to 114.0 dB, or choose 94.0 dB as the reference, ' +
        'and calibrate again. The instrument itself reported “Success”.',
    );
  });

  it('gives the hint the other way (94 dB chosen, 114.6 dB read) within two tolerances, and not further', () => {
    const settings94 = { calibrationReferenceDb: 94 as const, calibrationToleranceDb: 0.5 };
    const near = judgeCalibration({ time: T0, status: 'Success', level: 114.6, offset: 0 }, settings94);
    expect(near.outcome.probableCalibratorDb).toBe(114);
    expect(near.message).toContain(
      'which is 0.6 dB from 114.0 dB: the calibrator is probably set to 114.0 dB',
    );
    // 1.01 dB from 114 is more than two tolerances (1.0 dB): no hint, the plain deviation.
    const far = judgeCalibration({ time: T0, status: 'Success', level: 115.01, offset: 0 }, settings94);
    expect(far.outcome.probableCalibratorDb).toBeNull();
    expect(far.message).toContain('the level 115.01 dB is 21.01 dB from the 94.0 dB reference');
    // A level within tolerance of its reference never gets the hint.
    const fine = judgeCalibration({ time: T0, status: 'Success', level: 94.2, offset: 0 }, settings94);
    expect(fine.outcome).toMatchObject({ passed: true, probableCalibratorDb: null });
  });
});

describe('SIC verdict: each tone against its own reference', () => {
  const history = [
    // Ten passing checks, then a failed one that must not count: 8 kHz medians (79.5, 79.7) → 79.6.
    ...[79.4, 79.5, 79.5, 79.5, 79.5, 79.7, 79.7, 79.8, 79.9, 80.0].map((eightK, i) => ({
      time: T0 - (20 - i) * 86_400_000,
      status: 'Success',
      _500Hz: 82 + (i % 2) * 0.2,
      _1KHz: 84,
      _8KHz: eightK,
    })),
    { time: T0 - 86_400_000, status: 'Failed', _500Hz: 70, _1KHz: 70, _8KHz: 60 },
    // An older pass outside the last ten is left out: it would move the 8 kHz median.
    { time: T0 - 40 * 86_400_000, status: 'Success', _500Hz: 82, _1KHz: 84, _8KHz: 90 },
  ];

  it('takes each tone’s reference as the median of the last 10 passing checks', () => {
    expect(sicReferences(history, T0)).toEqual([
      { tone: '_500Hz', medianDb: 82.1, checks: 10 },
      { tone: '_1KHz', medianDb: 84, checks: 10 },
      { tone: '_8KHz', medianDb: 79.6, checks: 10 },
    ]);
    // Checks at or after the new one's time are not its history: before T0 − 15 days there are five of
    // the ten and the older pass (79.4, 79.5 ×4, 90 → median 79.5).
    expect(sicReferences(history, T0 - 15 * 86_400_000).find((r) => r.tone === '_8KHz')).toEqual({
      tone: '_8KHz',
      medianDb: 79.5,
      checks: 6,
    });
  });

  it('names the failing tone, its reading and its allowed band, even when the instrument said Success', () => {
    const references = sicReferences(history, T0);
    const record = { time: T0, status: 'Success', _500Hz: 82.3, _1KHz: 84.1, _8KHz: 74.1 };
    const judged = judgeSic(record, references, 2);
    expect(judged.outcome).toMatchObject({ passed: false, instrumentPassed: true, toleranceDb: 2 });
    expect(judged.outcome.tones.find((t) => t.tone === '_8KHz')).toEqual({
      tone: '_8KHz',
      levelDb: 74.1,
      referenceDb: 79.6,
      referenceChecks: 10,
      toleranceDb: 2,
      within: false,
    });
    expect(judged.message).toContain(
      '8 kHz tone 74.1 dB, expected 79.6 ± 2.0 dB (the median of the last 10 passing checks)',
    );
    expect(judged.message).not.toMatch(/500 Hz tone|1 kHz tone/);
    expect(judged.message).toContain('The instrument itself reported “Success”.');
  });

  it('judges with the SIC tolerance of the settings in force at the start', () => {
    // 8 kHz 78.1 is 1.5 dB below its 79.6 dB reference: outside ±1.0 dB, inside ±2.0 dB.
    const record = { time: T0 + 30_000, status: 'Success', _500Hz: 82.1, _1KHz: 84, _8KHz: 78.1 };
    const startWith = (sicToleranceDb: number) =>
      initialActionState({
        id: 'op-sic',
        accountId: 'acc',
        serial: 'QT100001',
        action: 'SIC',
        startedAt: T0,
        settings: { ...DEFAULT_SETTINGS, sicToleranceDb },
        sicReferences: sicReferences(history, T0),
      });
    const strict = run(startWith(1), accepted(), observed(T0 + 31_000, { kind: 'result', record }));
    expect(strict.snapshot.state).toBe('failed');
    expect(strict.snapshot.message).toContain('8 kHz tone 78.1 dB, expected 79.6 ± 1.0 dB');
    const usual = run(startWith(2), accepted(), observed(T0 + 31_000, { kind: 'result', record }));
    expect(usual.snapshot.state).toBe('succeeded');
    expect(usual.snapshot.message).toContain('each within ±2.0 dB of its usual level');
  });

  it('without earlier passes says the tones cannot be judged and lets the instrument’s status decide', () => {
    const record = { time: T0, status: 'Failed', _500Hz: 82.1, _1KHz: 84, _8KHz: 70 };
    const judged = judgeSic(record, sicReferences([], T0), 2);
    expect(judged.outcome.passed).toBe(false);
    expect(judged.outcome.tones.every((t) => t.within === null && t.referenceDb === null)).toBe(true);
    expect(judged.message).toContain(
      'the instrument reported “Failed” (500 Hz 82.1 dB, 1 kHz 84.0 dB, 8 kHz 70.0 dB)',
    );
    expect(judged.message).toContain('No earlier passing check to judge the tones against');
  });
});

describe('operations registry', () => {
  const snapshot = (id: string, startedAt: number, state: OperationSnapshot['state'] = 'running') =>
    ({ ...start('Calibration').snapshot, id, startedAt, state }) as OperationSnapshot;

  it('lists running operations first, newest first, and keeps only the last finished ones', () => {
    const changes: string[] = [];
    const finished: string[] = [];
    const registry = createOperationRegistry({
      onChange: (s) => changes.push(`${s.id}:${s.state}`),
      onFinished: (s) => finished.push(s.id),
      keepFinished: 2,
    });
    for (let i = 1; i <= 4; i++) registry.begin(snapshot(`op${i}`, T0 + i), { cancel: () => undefined });
    registry.begin(snapshot('live', T0), { cancel: () => undefined });
    for (let i = 1; i <= 4; i++) registry.update(snapshot(`op${i}`, T0 + i, 'succeeded'));
    expect(registry.list().map((s) => s.id)).toEqual(['live', 'op4', 'op3']);
    expect(finished).toEqual(['op1', 'op2', 'op3', 'op4']);
    // A late update of a finished operation is dropped.
    registry.update(snapshot('op4', T0 + 4, 'running'));
    expect(registry.get('op4')?.state).toBe('succeeded');
    expect(changes.filter((c) => c.startsWith('op4'))).toEqual(['op4:running', 'op4:succeeded']);
  });

  it('cancels through the handle, answers a finished one as it is, and refuses unknown ids', () => {
    const registry = createOperationRegistry({ onChange: () => undefined });
    const cancel = vi.fn(() => registry.update(snapshot('a', T0, 'cancelled')));
    registry.begin(snapshot('a', T0), { cancel });
    expect(registry.cancel('a').state).toBe('cancelled');
    expect(registry.cancel('a').state).toBe('cancelled');
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(() => registry.cancel('nope')).toThrow(/no record of that operation/);
  });

  it('keeps working when a receiver or the history store throws', () => {
    const registry = createOperationRegistry({
      onChange: () => {
        throw new Error('window gone');
      },
      onFinished: () => {
        throw new Error('disk full');
      },
    });
    registry.begin(snapshot('a', T0), { cancel: () => undefined });
    registry.update(snapshot('a', T0, 'failed'));
    expect(registry.get('a')?.state).toBe('failed');
    expect(registry.running()).toEqual([]);
    expect(registry.newId()).toMatch(/^[A-Za-z0-9-]{36}$/);
  });
});
