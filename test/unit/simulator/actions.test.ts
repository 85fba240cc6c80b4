import { describe, expect, it } from 'vitest';
import { createDemo, createDemoApp } from '../../../src/simulator';
import { createDemoState } from '../../../src/simulator/state';
import {
  onActionFinished,
  settleActions,
  startAction,
  type FinishedAction,
} from '../../../src/simulator/health-state';
import { parseServiceTime } from '../../../src/shared/service/time';
import type {
  WireActionResult,
  WireCalibrationStatus,
  WireInstrumentStatus,
  WireSicStatus,
} from '../../../src/shared/service/wire';
import { call, errorBody, manualClock } from './helpers';
import {
  action,
  DAY_MS,
  history,
  isHealthyOnlineNoise,
  key,
  setUp,
  statusOf,
  type FleetMember,
} from './health-helpers';

type App = ReturnType<typeof createDemoApp>;
const timeOf = (text: string): number => parseServiceTime(text) ?? Number.NaN;

async function latest<T>(app: App, serial: string, what: 'calibration' | 'sic'): Promise<T> {
  const response = await call(app, 'GET', `/control/instruments/${serial}/${what}`, { key });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** Starts an action and steps the clock a second at a time until the instrument's flag drops. */
async function runToEnd(
  app: App,
  clock: ReturnType<typeof manualClock>,
  serial: string,
  name: 'Calibration' | 'SIC',
): Promise<{ durationMs: number; status: WireInstrumentStatus }> {
  const flag = name === 'Calibration' ? 'calibrationInProgress' : 'sicInProgress';
  const started = await action(app, serial, name);
  expect(started.status).toBe(200);
  expect(await started.json()).toEqual({ action: name, status: 'InProgress' } satisfies WireActionResult);
  const startMs = clock.now();
  for (let step = 0; step < 120; step++) {
    const status = await statusOf(app, serial);
    if (!status[flag]) return { durationMs: clock.now() - startMs, status };
    clock.advance(1000);
  }
  throw new Error(`${name} on ${serial} never finished`);
}

describe('POST /control/instruments/:serial/action — Identify', () => {
  it('succeeds at once on an online instrument of any type and changes no flag', async () => {
    const { app, fleet } = await setUp();
    for (const member of fleet.filter((m) => m.status.online)) {
      const response = await action(app, member.wire.serialNumber, 'Identify');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ action: 'Identify', status: 'Success' });
      expect(await statusOf(app, member.wire.serialNumber)).toEqual(member.status);
    }
  });

  it('is refused with 400 InstrumentOffline on an offline instrument', async () => {
    const { app, pick } = await setUp();
    const offline = pick('offline instrument', (m) => !m.status.online);
    const response = await action(app, offline.wire.serialNumber, 'Identify');
    expect(response.status).toBe(400);
    const body = await errorBody(response);
    expect(body.error).toBe('InstrumentOffline');
    expect(body.description).toContain(offline.wire.serialNumber);
    expect(body.description).toMatch(/offline/);
  });
});

describe('POST /control/instruments/:serial/action — Calibration', () => {
  it('answers InProgress, runs 30–45 s of simulated time, then records a result newer than the start', async () => {
    const { app, clock, pick } = await setUp();
    const target = pick('healthy online noise instrument', isHealthyOnlineNoise);
    const serial = target.wire.serialNumber;
    const startMs = clock.now();

    const before = await action(app, serial, 'Calibration');
    expect(await before.json()).toEqual({ action: 'Calibration', status: 'InProgress' });
    const running = await statusOf(app, serial);
    expect(running.calibrationInProgress).toBe(true);
    expect(running.sicInProgress).toBe(false);
    // While it runs, the latest calibration is still the previous one.
    expect(running.lastCalibration).toEqual(target.status.lastCalibration);
    expect(await latest(app, serial, 'calibration')).toEqual(target.status.lastCalibration);

    clock.advance(29_000);
    expect((await statusOf(app, serial)).calibrationInProgress).toBe(true);
    clock.advance(16_000); // 45 s: every instrument has finished
    const done = await statusOf(app, serial);
    expect(done.calibrationInProgress).toBe(false);
    const result = done.lastCalibration as WireCalibrationStatus;
    expect(result.status).toBe('Success');
    expect(timeOf(result.time)).toBeGreaterThan(startMs + 29_000);
    expect(timeOf(result.time)).toBeLessThanOrEqual(clock.now());
    expect(Math.abs(result.level - target.profile.referenceDb)).toBeLessThanOrEqual(0.5);
    expect(result.offset).toBeCloseTo(result.level - target.profile.referenceDb, 2);
    expect(Math.abs(result.offset)).toBeLessThanOrEqual(0.5);
    // The same result everywhere: calibration endpoint and history.
    expect(await latest(app, serial, 'calibration')).toEqual(result);
    const records = await history<WireCalibrationStatus & { instrument: string }>(
      app,
      '/data/calibrations',
      [serial],
      startMs - DAY_MS,
      clock.now(),
    );
    expect(records.at(-1)).toEqual({ ...result, instrument: serial });
  });

  it('takes the instrument’s own duration, from 30 to 45 s, the same on every run', async () => {
    const { app, clock, fleet } = await setUp({ seed: 4 });
    const durations = new Set<number>();
    for (const member of fleet.filter((m) => m.wire.type === 'Noise' && m.status.online)) {
      const first = await runToEnd(app, clock, member.wire.serialNumber, 'Calibration');
      const second = await runToEnd(app, clock, member.wire.serialNumber, 'Calibration');
      expect(first.durationMs).toBe(second.durationMs);
      expect(first.durationMs).toBe(member.profile.calibrationSeconds * 1000);
      expect(first.durationMs).toBeGreaterThanOrEqual(30_000);
      expect(first.durationMs).toBeLessThanOrEqual(45_000);
      durations.add(first.durationMs);
    }
    expect(durations.size).toBeGreaterThan(1);
  });

  it.each([1, 2, 3, 4, 5])(
    'seed %i: one instrument always finds no calibrator, one is always out of tolerance, the others pass',
    async (seed) => {
      const outcomes = async () => {
        const { app, clock, fleet } = await setUp({ seed });
        const result = new Map<string, Array<{ calibration: WireCalibrationStatus; log: string[] }>>();
        const online = fleet.filter((m) => m.wire.type === 'Noise' && m.status.online);
        for (let run = 0; run < 2; run++) {
          for (const member of online) {
            const serial = member.wire.serialNumber;
            const { status } = await runToEnd(app, clock, serial, 'Calibration');
            const log = await history<{ message: string }>(
              app,
              '/data/calibrations/log',
              [serial],
              clock.now() - 60_000,
              clock.now(),
            );
            result.set(serial, [
              ...(result.get(serial) ?? []),
              {
                calibration: status.lastCalibration as WireCalibrationStatus,
                log: log.map((l) => l.message),
              },
            ]);
          }
        }
        return { fleet: online, result };
      };
      const { fleet, result } = await outcomes();
      const failing = (pattern: RegExp) =>
        fleet.filter((m) =>
          (result.get(m.wire.serialNumber) ?? []).every(
            (run) => run.calibration.status === 'Failed' && run.log.some((line) => pattern.test(line)),
          ),
        );
      const noCalibrator = failing(/^Calibration failed: no calibrator signal detected/);
      const outOfTolerance = failing(/^Calibration failed: level out of tolerance/);
      expect(noCalibrator).toHaveLength(1);
      expect(outOfTolerance).toHaveLength(1);
      for (const run of result.get(noCalibrator[0]?.wire.serialNumber ?? '') ?? []) {
        // Only ambient noise reaches the microphone.
        expect(run.calibration.level).toBeLessThan(70);
      }
      for (const run of result.get(outOfTolerance[0]?.wire.serialNumber ?? '') ?? []) {
        expect(Math.abs(run.calibration.offset)).toBeGreaterThan(0.5);
        expect(Math.abs(run.calibration.offset)).toBeLessThan(2);
      }
      const passing = fleet.filter((m) => !noCalibrator.includes(m) && !outOfTolerance.includes(m));
      expect(passing.length).toBeGreaterThanOrEqual(1);
      for (const member of passing) {
        for (const run of result.get(member.wire.serialNumber) ?? []) {
          expect(run.calibration.status).toBe('Success');
          expect(
            run.log.some((line) => /^Calibration passed: \d+\.\d\d dB, offset [+-]\d\.\d\d dB\.$/.test(line)),
          ).toBe(true);
        }
      }
      // The same seed gives the same results, in a new service.
      expect((await outcomes()).result).toEqual(result);
    },
  );

  it('is refused with 400 FeatureUnavailable on AirQuality and Vibration instruments', async () => {
    const { app, fleet } = await setUp();
    const others = fleet.filter((m) => m.wire.type !== 'Noise' && m.status.online);
    expect(others.length).toBeGreaterThan(0);
    for (const member of others) {
      const response = await action(app, member.wire.serialNumber, 'Calibration');
      expect(response.status).toBe(400);
      const body = await errorBody(response);
      expect(body.error).toBe('FeatureUnavailable');
      expect(body.description).toContain(member.wire.type);
      expect(body.description).toMatch(/noise instruments/);
      expect((await statusOf(app, member.wire.serialNumber)).calibrationInProgress).toBe(false);
    }
  });

  it('keeps the reason of a failure for webhooks and notifies listeners once', () => {
    const clock = manualClock();
    const state = createDemoState(1, clock.now);
    const failing = [...state.health.profiles.values()].find((p) => p.fault === 'noCalibrator');
    if (!failing) throw new Error('seed 1 has no noCalibrator instrument');
    const heard: FinishedAction[] = [];
    onActionFinished(state.health, (finished) => heard.push(finished));
    startAction(state, failing.serial, 'Calibration');
    expect(settleActions(state)).toEqual([]);
    clock.advance(failing.calibrationSeconds * 1000);
    const [finished] = settleActions(state);
    expect(settleActions(state)).toEqual([]);
    expect(heard).toEqual([finished]);
    expect(finished?.status).toBe('Failed');
    expect(finished?.error).toMatch(
      /no calibrator signal detected \(level \d+\.\d dB, expected (94|114)\.0 dB\)/,
    );
    expect(finished?.finishedMs).toBe(clock.now());
  });
});

describe('POST /control/instruments/:serial/action — SIC', () => {
  it('answers InProgress, runs 20–30 s, then records three tone levels in status, /sic and /data/sic', async () => {
    const { app, clock, pick } = await setUp();
    const target = pick(
      'healthy online SIC instrument',
      (m) => m.status.online && m.wire.feature.includes('SIC') && m.profile.fault !== 'degradedMicrophone',
    );
    const serial = target.wire.serialNumber;
    const startMs = clock.now();
    const { durationMs, status } = await runToEnd(app, clock, serial, 'SIC');
    expect(durationMs).toBeGreaterThanOrEqual(20_000);
    expect(durationMs).toBeLessThanOrEqual(30_000);
    expect(status.calibrationInProgress).toBe(false);
    const sic = status.lastSic as WireSicStatus;
    expect(sic.status).toBe('Success');
    expect(timeOf(sic.time)).toBeGreaterThan(startMs);
    expect(Object.keys(sic).sort()).toEqual(['_1KHz', '_500Hz', '_8KHz', 'status', 'time']);
    for (const band of ['_500Hz', '_1KHz', '_8KHz'] as const) {
      expect(Math.abs(sic[band] - target.profile.sicBaseline[band])).toBeLessThanOrEqual(2);
    }
    expect(await latest(app, serial, 'sic')).toEqual(sic);
    const records = await history<WireSicStatus>(app, '/data/sic', [serial], startMs - DAY_MS, clock.now());
    expect(records.at(-1)).toEqual({ ...sic, instrument: serial });
  });

  it('fails on the instrument with a wet microphone, naming the 8 kHz tone, every time', async () => {
    // Seeds whose degraded microphone has SIC (two or more online SIC instruments).
    let checked = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const { app, clock, fleet } = await setUp({ seed });
      const degraded = fleet.find(
        (m) => m.profile.fault === 'degradedMicrophone' && m.wire.feature.includes('SIC'),
      );
      if (!degraded) continue;
      checked++;
      const serial = degraded.wire.serialNumber;
      for (let run = 0; run < 2; run++) {
        const { status } = await runToEnd(app, clock, serial, 'SIC');
        const sic = status.lastSic as WireSicStatus;
        expect(sic.status).toBe('Failed');
        expect(degraded.profile.sicBaseline._8KHz - sic._8KHz).toBeGreaterThan(2);
        const log = await history<{ message: string }>(
          app,
          '/data/calibrations/log',
          [serial],
          clock.now() - 60_000,
          clock.now(),
        );
        expect(log.map((l) => l.message)).toContainEqual(
          expect.stringMatching(/^SIC failed: 8 kHz tone \d+\.\d dB, expected \d+\.\d ± 2\.0 dB\./),
        );
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('is refused with 400 FeatureUnavailable on an instrument without the SIC feature', async () => {
    const { app, pick } = await setUp();
    const target = pick(
      'noise instrument without SIC',
      (m) => m.wire.type === 'Noise' && !m.wire.feature.includes('SIC'),
    );
    const response = await action(app, target.wire.serialNumber, 'SIC');
    expect(response.status).toBe(400);
    const body = await errorBody(response);
    expect(body.error).toBe('FeatureUnavailable');
    expect(body.description).toContain(target.wire.serialNumber);
    expect(body.description).toMatch(/no SIC feature/);
  });
});

describe('POST /control/instruments/:serial/action — refusals', () => {
  it('refuses every action while a Calibration or SIC runs on that instrument, and not on others', async () => {
    const { app, clock, pick, fleet } = await setUp();
    const target = pick(
      'healthy online SIC instrument',
      (m) => isHealthyOnlineNoise(m) && m.wire.feature.includes('SIC'),
    );
    const serial = target.wire.serialNumber;
    for (const running of ['Calibration', 'SIC'] as const) {
      expect((await action(app, serial, running)).status).toBe(200);
      for (const name of ['Identify', 'Calibration', 'SIC']) {
        const response = await action(app, serial, name);
        expect(response.status, `${name} during ${running}`).toBe(400);
        const body = await errorBody(response);
        expect(body.error).toBe('ActionInProgress');
        expect(body.description).toContain(`already running a ${running}`);
        expect(body.description).toMatch(/about \d+ s left/);
      }
      const other = fleet.find((m) => m !== target && m.status.online) as FleetMember;
      expect((await action(app, other.wire.serialNumber, 'Identify')).status).toBe(200);
      clock.advance(60_000);
    }
    expect((await action(app, serial, 'Identify')).status).toBe(200);
  });

  it.each([
    ['no action parameter', '', 'MissingParam'],
    ['an empty action', '?action=', 'MissingParam'],
    ['an unknown action', '?action=Reboot', 'InvalidParam'],
  ])('answers 400 to %s, listing the actions', async (_, query, code) => {
    const { app, pick } = await setUp();
    const target = pick('online instrument', (m) => m.status.online);
    const response = await call(
      app,
      'POST',
      `/control/instruments/${target.wire.serialNumber}/action${query}`,
      {
        key,
      },
    );
    expect(response.status).toBe(400);
    const body = await errorBody(response);
    expect(body.error).toBe(code);
    expect(body.description).toContain('Identify, Calibration or SIC');
    expect(await statusOf(app, target.wire.serialNumber)).toEqual(target.status);
  });

  it('refuses a wrongly capitalised action, suggesting the right name', async () => {
    const { app, pick } = await setUp();
    const target = pick('online noise instrument', (m) => m.status.online && m.wire.type === 'Noise');
    const response = await action(app, target.wire.serialNumber, 'calibration');
    expect(response.status).toBe(400);
    expect((await errorBody(response)).description).toMatch(/did you mean Calibration\?/);
    expect((await statusOf(app, target.wire.serialNumber)).calibrationInProgress).toBe(false);
  });

  it('answers 404 NotFound for an unknown serial', async () => {
    const response = await action(createDemoApp(), 'QT000000', 'Identify');
    expect(response.status).toBe(404);
    const body = await errorBody(response);
    expect(body.error).toBe('NotFound');
    expect(body.description).toContain('QT000000');
  });

  it('needs the instruments:action scope', async () => {
    const app = createDemoApp({ keys: { reader: ['instruments:read'] } });
    const response = await action(app, 'QT000000', 'Identify', 'reader');
    expect(response.status).toBe(403);
    expect((await errorBody(response)).description).toContain('instruments:action');
  });
});

describe('time scale', () => {
  it('multiplies the simulated durations', async () => {
    const { app, clock, pick } = await setUp({ timeScale: 0.01 });
    const target = pick('healthy online noise instrument', isHealthyOnlineNoise);
    const serial = target.wire.serialNumber;
    const durationMs = target.profile.calibrationSeconds * 10; // 1000 ms × 0.01
    expect((await action(app, serial, 'Calibration')).status).toBe(200);
    clock.advance(durationMs - 1);
    expect((await statusOf(app, serial)).calibrationInProgress).toBe(true);
    clock.advance(1);
    const done = await statusOf(app, serial);
    expect(done.calibrationInProgress).toBe(false);
    expect(done.lastCalibration?.status).toBe('Success');
    expect(durationMs).toBeLessThan(500);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s', (timeScale) => {
    expect(() => createDemoApp({ timeScale })).toThrow(/time scale must be a number greater than 0/);
  });
});

describe('GET /control/instruments/:serial/calibration and /sic', () => {
  it('match the status’s last results for every instrument that has them, and 404 for the others', async () => {
    const { app, fleet } = await setUp({ seed: 3 });
    for (const member of fleet) {
      const serial = member.wire.serialNumber;
      const calibration = await call(app, 'GET', `/control/instruments/${serial}/calibration`, { key });
      if (member.wire.type === 'Noise') {
        expect(calibration.status).toBe(200);
        expect(await calibration.json()).toEqual(member.status.lastCalibration);
      } else {
        expect(calibration.status).toBe(404);
        const body = await errorBody(calibration);
        expect(body.error).toBe('NotFound');
        expect(body.description).toMatch(new RegExp(`${serial} has no calibration: .*noise instruments`));
      }
      const sic = await call(app, 'GET', `/control/instruments/${serial}/sic`, { key });
      if (member.wire.feature.includes('SIC')) {
        expect(sic.status).toBe(200);
        expect(await sic.json()).toEqual(member.status.lastSic);
      } else {
        expect(sic.status).toBe(404);
        expect((await errorBody(sic)).description).toMatch(/has no SIC feature/);
      }
    }
  });

  it('answer 404 for an unknown serial', async () => {
    for (const what of ['calibration', 'sic']) {
      const response = await call(createDemoApp(), 'GET', `/control/instruments/QT000000/${what}`, { key });
      expect(response.status).toBe(404);
      expect((await errorBody(response)).description).toContain('QT000000');
    }
  });
});

describe('held actions (a test control, never exposed over HTTP)', () => {
  it('a held calibration runs until released, however long that takes, then finishes with its result', async () => {
    const clock = manualClock();
    const { app, actions } = createDemo({ now: clock.now, holdActions: true });
    const listed = (await (await call(app, 'GET', '/control/instruments', { key })).json()) as Array<{
      serialNumber: string;
    }>;
    let serial: string | null = null;
    for (const { serialNumber } of listed) {
      const response = await action(app, serialNumber, 'Calibration');
      if (response.status === 200) {
        serial = serialNumber;
        break;
      }
    }
    expect(serial).not.toBeNull();
    expect(actions.held()).toEqual([{ serial, action: 'Calibration' }]);
    // Ten minutes later — far past any calibration — it still runs.
    clock.advance(600_000);
    expect((await statusOf(app, serial!)).calibrationInProgress).toBe(true);

    expect(actions.release('QT-not-running')).toBe(0);
    expect(actions.release(serial!)).toBe(1);
    expect(actions.held()).toEqual([]);
    const status = await statusOf(app, serial!);
    expect(status.calibrationInProgress).toBe(false);
    expect(status.lastCalibration?.status).toMatch(/^(Success|Failed)$/);
  });
});
