/**
 * The action runner with the polling progress source, on vitest's fake clock, against a scripted
 * fake instrument (a fake client). Every test advances time and looks at what the registry saw.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPollingProgressSource } from '../../../src/main/backend/actions/action-progress';
import { startActionOperation } from '../../../src/main/backend/actions/action-operation';
import type { ServiceClient } from '../../../src/main/backend/service/client';
import {
  createOperationRegistry,
  type OperationRegistry,
} from '../../../src/main/backend/operations/registry';
import { FieldDeskError } from '../../../src/shared/errors';
import { DEFAULT_SETTINGS, type ActionName, type OperationSnapshot } from '../../../src/shared/operations';
import type { CalibrationStatus, InstrumentStatus, SicStatus } from '../../../src/shared/service/schemas';

const T0 = Date.UTC(2025, 5, 12, 10, 0, 0);
const SERIAL = 'QT100001';

/** A scripted instrument behind a fake client: tests change `status` and friends as time passes. */
function fakeInstrument() {
  const yesterday: CalibrationStatus = { time: T0 - 86_400_000, status: 'Success', level: 94, offset: 0 };
  const fake = {
    status: {
      online: true,
      measuring: true,
      calibrationInProgress: false,
      sicInProgress: false,
      lastCalibration: yesterday,
      lastSic: null,
    } as InstrumentStatus,
    /** What GET …/calibration answers (may run ahead of the status). */
    latestCalibration: yesterday as CalibrationStatus | null,
    latestSic: null as SicStatus | null,
    startAnswer: { action: 'Calibration', status: 'InProgress' } as { action: string; status: string },
    startError: null as FieldDeskError | null,
    /** Thrown by status reads while set (network loss). */
    readError: null as FieldDeskError | null,
    /** How long each status read takes. */
    readDelayMs: 0,
    calls: [] as string[],
    inFlight: 0,
    maxInFlight: 0,
  };
  const read = async <T>(name: string, value: () => T, signal?: AbortSignal): Promise<T> => {
    fake.calls.push(name);
    fake.inFlight++;
    fake.maxInFlight = Math.max(fake.maxInFlight, fake.inFlight);
    try {
      if (fake.readDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.readDelayMs));
      if (signal?.aborted) throw new FieldDeskError('cancelled', 'The request was cancelled.');
      if (fake.readError !== null) throw fake.readError;
      return value();
    } finally {
      fake.inFlight--;
    }
  };
  const client: Pick<ServiceClient, 'startAction' | 'getInstrumentStatus' | 'getCalibration' | 'getSic'> = {
    startAction: async (serial, action) => {
      fake.calls.push(`start ${action}`);
      if (fake.startError !== null) throw fake.startError;
      // Like the demo service: the flag goes up as the action starts.
      if (action === 'Calibration') fake.status = { ...fake.status, calibrationInProgress: true };
      if (action === 'SIC') fake.status = { ...fake.status, sicInProgress: true };
      return { ...fake.startAnswer, action };
    },
    getInstrumentStatus: (_serial, signal) => read('status', () => structuredClone(fake.status), signal),
    getCalibration: (_serial, signal) => read('calibration', () => fake.latestCalibration, signal),
    getSic: (_serial, signal) => read('sic', () => fake.latestSic, signal),
  };
  /** The instrument finishes a calibration now with this level. */
  const finishCalibration = (level: number, status = 'Success') => {
    const result = { time: Date.now() - 500, status, level, offset: 0.2 };
    fake.status = { ...fake.status, calibrationInProgress: false, lastCalibration: result };
    fake.latestCalibration = result;
  };
  return { fake, client, finishCalibration };
}

let registry: OperationRegistry;
let changes: OperationSnapshot[];
let finished: OperationSnapshot[];

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  changes = [];
  finished = [];
  registry = createOperationRegistry({
    onChange: (snapshot) => changes.push(snapshot),
    onFinished: (snapshot) => finished.push(snapshot),
  });
});

afterEach(() => {
  registry.cancelAll();
  vi.useRealTimers();
});

function launch(instrument: ReturnType<typeof fakeInstrument>, action: ActionName = 'Calibration') {
  return startActionOperation(
    {
      client: instrument.client,
      progress: createPollingProgressSource(instrument.client),
      registry,
      now: Date.now,
    },
    { accountId: 'acc', serial: SERIAL, action, settings: DEFAULT_SETTINGS },
  );
}

const current = (id: string) => registry.get(id) as OperationSnapshot;

describe('action runner with polling', () => {
  it('answers `starting` at once, then reports running, the result and stores it once', async () => {
    const instrument = fakeInstrument();
    const first = launch(instrument);
    expect(first).toMatchObject({ state: 'starting', phase: 'Sending request', serial: SERIAL });
    await vi.advanceTimersByTimeAsync(0);
    expect(current(first.id).state).toBe('running');

    await vi.advanceTimersByTimeAsync(30_000);
    expect(current(first.id)).toMatchObject({ state: 'running', phase: 'Waiting for the instrument' });
    instrument.finishCalibration(94.2);
    await vi.advanceTimersByTimeAsync(5_000);

    const done = current(first.id);
    expect(done).toMatchObject({
      state: 'succeeded',
      result: { kind: 'calibration', level: 94.2, passed: true },
    });
    expect(done.elapsedMs).toBe(35_000);
    expect(finished.map((s) => s.id)).toEqual([first.id]);
    expect(changes.map((s) => s.state)).toEqual(expect.arrayContaining(['starting', 'running', 'succeeded']));
    expect(changes.at(-1)?.state).toBe('succeeded');
  });

  it('polls every 2 s for the first 20 s, then every 5 s, one request at a time', async () => {
    const instrument = fakeInstrument();
    instrument.fake.readDelayMs = 1_500;
    launch(instrument);
    await vi.advanceTimersByTimeAsync(20_000);
    const early = instrument.fake.calls.filter((c) => c === 'status').length;
    // Each poll waits 2 s after the previous answer (1.5 s): about one every 3.5 s.
    expect(early).toBeGreaterThanOrEqual(5);
    expect(early).toBeLessThanOrEqual(6);
    await vi.advanceTimersByTimeAsync(40_000);
    const later = instrument.fake.calls.filter((c) => c === 'status').length - early;
    // 40 s at 5 s + 1.5 s per poll.
    expect(later).toBeGreaterThanOrEqual(6);
    expect(later).toBeLessThanOrEqual(7);
    expect(instrument.fake.maxInFlight).toBe(1);
  });

  it('fails with the reason when the level is outside the tolerance', async () => {
    const instrument = fakeInstrument();
    const op = launch(instrument);
    await vi.advanceTimersByTimeAsync(10_000);
    instrument.finishCalibration(92.9);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(current(op.id).state).toBe('failed');
    expect(current(op.id).message).toContain('the level 92.9 dB is 1.1 dB from the 94.0 dB reference');
    expect(finished).toHaveLength(1);
  });

  it('ignores the previous calibration in the status and keeps watching', async () => {
    const instrument = fakeInstrument();
    // The status still shows yesterday's result, and the flag is not (yet) up.
    instrument.client.startAction = async () => ({ action: 'Calibration', status: 'InProgress' });
    const op = launch(instrument);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(current(op.id)).toMatchObject({ state: 'running', result: null });
    // Not running and no new result: it asked the result endpoint too.
    expect(instrument.fake.calls).toContain('calibration');
    instrument.finishCalibration(94.1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(current(op.id)).toMatchObject({ state: 'succeeded', result: { level: 94.1 } });
  });

  it('fails with advice when the instrument stops without a new result', async () => {
    const instrument = fakeInstrument();
    const op = launch(instrument);
    await vi.advanceTimersByTimeAsync(10_000);
    instrument.fake.status = { ...instrument.fake.status, calibrationInProgress: false };
    await vi.advanceTimersByTimeAsync(4_000);
    expect(current(op.id)).toMatchObject({ state: 'running', phase: 'Reading the result' });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(current(op.id).state).toBe('failed');
    expect(current(op.id).message).toMatch(/stopped calibrating without reporting a new result/);
  });

  it('times out after 2 min and stops polling', async () => {
    const instrument = fakeInstrument();
    const op = launch(instrument);
    await vi.advanceTimersByTimeAsync(119_000);
    expect(current(op.id).state).toBe('running');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(current(op.id)).toMatchObject({ state: 'timedOut', elapsedMs: 120_000 });
    expect(current(op.id).message).toBe(
      'The instrument did not report a result in 2 min. Check it is online and the calibrator is fitted, then check its status.',
    );
    const polls = instrument.fake.calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(instrument.fake.calls.length).toBe(polls);
  });

  it('cancels: stops watching at once, says so plainly, and keeps the operation for re-attach', async () => {
    const instrument = fakeInstrument();
    const op = launch(instrument);
    await vi.advanceTimersByTimeAsync(8_000);
    const cancelled = registry.cancel(op.id);
    expect(cancelled).toMatchObject({ id: op.id, state: 'cancelled', elapsedMs: 8_000 });
    expect(cancelled.message).toBe(
      'FieldDesk stopped watching. The instrument may still be running the calibration; check its status before starting another.',
    );
    const polls = instrument.fake.calls.length;
    instrument.finishCalibration(94);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(instrument.fake.calls.length).toBe(polls);
    expect(current(op.id).state).toBe('cancelled');
    expect(registry.list().map((s) => [s.id, s.state])).toEqual([[op.id, 'cancelled']]);
    expect(finished.map((s) => s.state)).toEqual(['cancelled']);
  });

  it('lets a reloaded window re-attach: list() has the running operation, then its outcome', async () => {
    const instrument = fakeInstrument();
    const op = launch(instrument);
    const other = launch({ ...fakeInstrument() }, 'Identify');
    await vi.advanceTimersByTimeAsync(4_000);
    const listed = registry.list();
    expect(listed[0]).toMatchObject({ id: op.id, state: 'running' });
    expect(listed.find((s) => s.id === other.id)).toMatchObject({
      state: 'succeeded',
      message: "The instrument's LED is flashing.",
    });
    instrument.finishCalibration(94);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(registry.list().find((s) => s.id === op.id)?.state).toBe('succeeded');
  });

  it('keeps trying through a network loss, then finishes when the service answers again', async () => {
    const instrument = fakeInstrument();
    const op = launch(instrument);
    await vi.advanceTimersByTimeAsync(4_000);
    instrument.fake.readError = new FieldDeskError(
      'offline',
      'Cannot reach 127.0.0.1: the connection was refused.',
    );
    await vi.advanceTimersByTimeAsync(30_000);
    expect(current(op.id)).toMatchObject({ state: 'running', phase: 'Waiting for the connection' });
    expect(current(op.id).message).toContain('the connection was refused');
    instrument.finishCalibration(94.4);
    instrument.fake.readError = null;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(current(op.id)).toMatchObject({ state: 'succeeded', result: { level: 94.4 } });
  });

  it('a service that stops answering mid-calibration and comes back without the run names the service, not the calibrator', async () => {
    const instrument = fakeInstrument();
    const op = launch(instrument);
    await vi.advanceTimersByTimeAsync(6_000);
    expect(current(op.id)).toMatchObject({ state: 'running', phase: 'Waiting for the instrument' });
    // The service is killed: every read is refused.
    instrument.fake.readError = new FieldDeskError(
      'offline',
      'Cannot reach 127.0.0.1: the connection was refused.',
    );
    await vi.advanceTimersByTimeAsync(20_000);
    expect(current(op.id).phase).toBe('Waiting for the connection');
    // Started again, it knows of no run in progress and has no new result.
    instrument.fake.readError = null;
    instrument.fake.status = { ...instrument.fake.status, calibrationInProgress: false };
    await vi.advanceTimersByTimeAsync(25_000);
    const outcome = current(op.id);
    expect(outcome.state).toBe('failed');
    expect(outcome.message).toMatch(
      /^The service stopped answering during the calibration; its result is unknown — /,
    );
    expect(outcome.message).not.toMatch(/calibrator/);
    expect(finished.map((s) => s.id)).toEqual([op.id]);
  });

  it('a service that never answers again until the time-out is named too', async () => {
    const instrument = fakeInstrument();
    const op = launch(instrument);
    await vi.advanceTimersByTimeAsync(10_000);
    instrument.fake.readError = new FieldDeskError('timeout', 'The service did not answer within 2 s.');
    await vi.advanceTimersByTimeAsync(110_000);
    expect(current(op.id)).toMatchObject({ state: 'timedOut' });
    expect(current(op.id).message).toMatch(
      /^The service stopped answering during the calibration; its result is unknown — FieldDesk could not reach it again within 2 min\./,
    );
  });

  it('fails at once, without polling, when the service refuses the start', async () => {
    const instrument = fakeInstrument();
    instrument.fake.startError = new FieldDeskError(
      'invalidRequest',
      'QT100001 is already running a SIC (about 20 s left); try Calibration again when it has finished.',
      { status: 400, serverCode: 'ActionInProgress' },
    );
    const op = launch(instrument);
    await vi.advanceTimersByTimeAsync(0);
    expect(current(op.id)).toMatchObject({
      state: 'failed',
      message:
        'QT100001 is already running a SIC (about 20 s left); try Calibration again when it has finished.',
      error: { code: 'invalidRequest', serverCode: 'ActionInProgress' },
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(instrument.fake.calls).toEqual(['start Calibration']);
  });

  it('watches a SIC on the SIC fields only', async () => {
    const instrument = fakeInstrument();
    const op = launch(instrument, 'SIC');
    await vi.advanceTimersByTimeAsync(6_000);
    expect(current(op.id).state).toBe('running');
    const sic = { time: Date.now(), status: 'Failed', _500Hz: 70, _1KHz: 71, _8KHz: 60 };
    instrument.fake.status = { ...instrument.fake.status, sicInProgress: false, lastSic: sic };
    await vi.advanceTimersByTimeAsync(2_000);
    expect(current(op.id)).toMatchObject({
      state: 'failed',
      result: { kind: 'sic', passed: false, _8KHz: 60 },
    });
  });
});
