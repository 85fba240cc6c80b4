/**
 * Field actions end to end through the backend against the REAL demo service, with its time
 * scale at 0.01 (a calibration takes well under a second) and fast polling. Network loss is
 * simulated with a fetch wrapper.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ATTENTION_THRESHOLDS } from '../../../src/shared/attention';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createBackend, type Backend, type BackendOptions } from '../../../src/main/backend/backend';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import { FieldDeskError } from '../../../src/shared/errors';
import type { InstrumentEntry } from '../../../src/shared/ipc/contract';
import { isFinishedState, type OperationSnapshot } from '../../../src/shared/operations';
import {
  createRecordingBackend,
  DEMO_TEST_KEY,
  demoBackendOptions,
  FAST_ACTION_OPTIONS,
  TEST_APP_INFO,
  type RecordedEvent,
} from './backend-helpers';
import { makeTempDir } from './helpers';

const YEAR_MS = 365 * 86_400_000;

let service: RunningDemoService;
let dataDir: { path: string; remove(): Promise<void> };
const backends: Backend[] = [];
/** While true, every request fails as if the network were down. */
let networkDown = false;

beforeEach(async () => {
  networkDown = false;
  service = await startDemoService({
    port: 0,
    keys: { [DEMO_TEST_KEY]: '*' },
    rateLimit: 10_000,
    timeScale: 0.01,
  });
  dataDir = await makeTempDir();
});

afterEach(async () => {
  await Promise.all(backends.splice(0).map((backend) => backend.close()));
  await service.close();
  await dataDir.remove();
});

async function makeBackend(overrides: Partial<BackendOptions> = {}) {
  const made = await createRecordingBackend({
    ...demoBackendOptions(dataDir.path, service),
    fetch: (input, init) => {
      if (networkDown)
        return Promise.reject(
          Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
        );
      return fetch(input, init);
    },
    ...FAST_ACTION_OPTIONS,
    ...overrides,
  });
  backends.push(made.backend);
  await made.handlers['accounts.tryDemo']({});
  return made;
}

async function finished(backend: Backend, id: string, timeoutMs = 10_000): Promise<OperationSnapshot> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const snapshot = (await backend.handlers['operations.list']({})).find((op) => op.id === id);
    if (snapshot !== undefined && isFinishedState(snapshot.state)) return snapshot;
    if (Date.now() > until) throw new Error(`operation ${id} still ${snapshot?.state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const onlineNoise = (entries: InstrumentEntry[]) =>
  entries.filter((e) => e.instrument.type === 'Noise' && e.status?.online === true);

describe('field actions against the demo service', () => {
  it('runs a calibration on every online noise instrument to a judged result, stored in the history', async () => {
    const { backend, handlers, events } = await makeBackend();
    const { entries, accountId } = await handlers['instruments.list']({});
    const noise = onlineNoise(entries);
    expect(noise.length).toBeGreaterThanOrEqual(2);

    const started = await Promise.all(
      noise.map((e) =>
        handlers['actions.start']({ serial: e.instrument.serialNumber, action: 'Calibration' }),
      ),
    );
    for (const op of started)
      expect(op).toMatchObject({ state: 'starting', accountId, expectedDurationMs: 40_000 });
    const outcomes = await Promise.all(started.map((op) => finished(backend, op.id)));

    for (const outcome of outcomes) {
      expect(['succeeded', 'failed']).toContain(outcome.state);
      const result = outcome.result;
      expect(result?.kind).toBe('calibration');
      if (result?.kind !== 'calibration') continue;
      // The result is this run's, not the one the instrument had before.
      expect(result.time).toBeGreaterThanOrEqual(outcome.startedAt - 5_000);
      const before = noise.find((e) => e.instrument.serialNumber === outcome.serial)?.status?.lastCalibration;
      expect(result.time).not.toBe(before?.time);
      const passes =
        result.status === 'Success' && result.level !== null && Math.abs(result.level - 94) <= 0.5 + 1e-9;
      expect(result.passed).toBe(passes);
      expect(outcome.state).toBe(passes ? 'succeeded' : 'failed');
      expect(outcome.message).toMatch(passes ? /^Calibration passed/ : /^Calibration failed: /);
    }
    // The demo fleet has healthy instruments and instruments with a standing fault.
    expect(outcomes.some((o) => o.state === 'succeeded')).toBe(true);
    expect(outcomes.some((o) => o.state === 'failed')).toBe(true);

    const first = outcomes[0] as OperationSnapshot;
    const progress = events.filter(
      (e): e is Extract<RecordedEvent, { channel: 'operations.progress' }> =>
        e.channel === 'operations.progress' && e.payload.id === first.id,
    );
    expect(progress[0]?.payload.state).toBe('starting');
    expect(progress.map((e) => e.payload.state)).toContain('running');
    expect(progress.at(-1)?.payload).toEqual(first);

    const history = await handlers['actions.history']({ serial: first.serial });
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      id: first.id,
      state: first.state,
      finishedAt: first.updatedAt,
      result: first.result,
    });

    // The service's own history has the new calibration; two years are read as two requests.
    const now = Date.now();
    const read = await handlers['history.calibrations']({
      serial: first.serial,
      start: now - 2 * YEAR_MS,
      end: now + 60_000,
    });
    expect(read.provenance.source).toBe('fresh');
    const records = read.records;
    expect(records.length).toBeGreaterThan(10);
    expect(records.map((r) => r.time)).toEqual([...records.map((r) => r.time)].sort((a, b) => a - b));
    expect(records.find((r) => r.time === (first.result as { time: number }).time)).toMatchObject({
      instrument: first.serial,
    });
    const { records: log } = await handlers['history.calibrationLog']({
      serial: first.serial,
      start: now - 86_400_000,
      end: now + 60_000,
    });
    expect(log.some((entry) => /Calibration started remotely/.test(entry.message))).toBe(true);
  });

  it('reads the service history through the cache: a new calibration shows online, the copy answers offline', async () => {
    const { backend, handlers } = await makeBackend();
    const [entry, other] = onlineNoise((await handlers['instruments.list']({})).entries);
    const serial = entry?.instrument.serialNumber as string;
    const start = Date.now() - 60 * 86_400_000;
    const firstEnd = Date.now();
    const first = await handlers['history.calibrations']({ serial, start, end: firstEnd });
    expect(first.provenance.source).toBe('fresh');
    expect(first.records.length).toBeGreaterThan(0);
    for (const record of first.records) {
      expect(record.instrument).toBe(serial);
      expect(typeof record.time).toBe('number');
      expect(record.time).toBeGreaterThanOrEqual(start);
      expect(record.time).toBeLessThan(firstEnd);
    }
    const times = first.records.map((r) => r.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // Online, the still-open recent interval is asked again: a new calibration shows at once.
    const op = await handlers['actions.start']({ serial, action: 'Calibration' });
    const done = await finished(backend, op.id);
    const resultTime = (done.result as { time: number }).time;
    const afterwards = await handlers['history.calibrations']({ serial, start, end: Date.now() + 1 });
    expect(afterwards.records.find((r) => r.time === resultTime)).toMatchObject({
      instrument: serial,
      status: expect.any(String),
    });
    expect(afterwards.records.length).toBe(first.records.length + 1);

    // Offline, the cache answers what it holds and says so; no error.
    networkDown = true;
    const cached = await handlers['history.calibrations']({ serial, start, end: firstEnd });
    expect(cached.provenance.source).toBe('cached');
    expect(cached.records).toEqual(first.records);
    await new Promise((resolve) => setTimeout(resolve, 5)); // time passes since the last fetch
    const recent = await handlers['history.calibrations']({ serial, start, end: Date.now() + 60_000 });
    // The time since the last fetch is the copy's end, not a gap in it.
    expect(recent.provenance).toMatchObject({ source: 'cached', upTo: expect.any(Number) });
    const upTo = (recent.provenance as { upTo: number }).upTo;
    expect(upTo).toBeGreaterThanOrEqual(resultTime);
    expect(upTo).toBeLessThanOrEqual(Date.now());
    expect(recent.records.map((r) => r.time)).toContain(resultTime);

    // With nothing cached at all, the history gets the reason as an error, not an empty table.
    const never = await handlers['history.sic']({
      serial: other?.instrument.serialNumber as string,
      start,
      end: Date.now(),
    }).catch((e: unknown) => e);
    expect(never).toBeInstanceOf(FieldDeskError);
    expect(never).toMatchObject({ code: 'offline' });
  });

  it('refuses a second action on the same instrument while one runs, and runs Identify at once elsewhere', async () => {
    const { backend, handlers } = await makeBackend();
    const [a, b] = onlineNoise((await handlers['instruments.list']({})).entries);
    const serialA = a?.instrument.serialNumber as string;
    const serialB = b?.instrument.serialNumber as string;
    const calibration = await handlers['actions.start']({ serial: serialA, action: 'Calibration' });
    const conflict = await handlers['actions.start']({ serial: serialA, action: 'Identify' }).catch(
      (e: unknown) => e,
    );
    expect(conflict).toBeInstanceOf(FieldDeskError);
    expect(conflict).toMatchObject({ code: 'conflict' });
    expect((conflict as Error).message).toContain(`Calibration is already running on ${serialA}`);

    const identify = await handlers['actions.start']({ serial: serialB, action: 'Identify' });
    const identified = await finished(backend, identify.id);
    expect(identified).toMatchObject({ state: 'succeeded', message: "The instrument's LED is flashing." });
    await finished(backend, calibration.id);
  });

  it('fails at once with the service description when the instrument cannot run the action', async () => {
    const { backend, handlers } = await makeBackend();
    const { entries } = await handlers['instruments.list']({});
    const noSic = entries.find((e) => e.status?.online === true && !e.instrument.feature.includes('SIC'));
    const op = await handlers['actions.start']({
      serial: noSic?.instrument.serialNumber as string,
      action: 'SIC',
    });
    const outcome = await finished(backend, op.id);
    expect(outcome).toMatchObject({ state: 'failed', error: { code: 'invalidRequest', status: 400 } });
    expect(outcome.message).toMatch(/cannot run a system integrity check/);
  });

  it('keeps watching through a network loss, shows the connection as offline, then finishes', async () => {
    const { backend, handlers, events } = await makeBackend({
      // Slow enough to see the loss before the (fast) instrument finishes.
      polling: { fastIntervalMs: 150, slowIntervalMs: 150, fastPhaseMs: 1_000 },
    });
    const [entry] = onlineNoise((await handlers['instruments.list']({})).entries);
    const op = await handlers['actions.start']({
      serial: entry?.instrument.serialNumber as string,
      action: 'Calibration',
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    networkDown = true;
    await new Promise((resolve) => setTimeout(resolve, 700));
    const during = (await handlers['operations.list']({})).find((s) => s.id === op.id);
    expect(during).toMatchObject({ state: 'running', phase: 'Waiting for the connection' });
    const connectivity = events.filter((e) => e.channel === 'connectivity.changed').map((e) => e.payload);
    expect(connectivity.at(-1)).toMatchObject({ state: 'offline' });

    networkDown = false;
    const outcome = await finished(backend, op.id);
    expect(['succeeded', 'failed']).toContain(outcome.state);
    expect(outcome.result?.kind).toBe('calibration');
    const after = events.filter((e) => e.channel === 'connectivity.changed').map((e) => e.payload);
    expect(after.at(-1)).toMatchObject({ state: 'online' });
  });

  it('the demo service killed mid-calibration and started again without the run: the service is the named cause', async () => {
    // Real time here: the calibration (40 s) must still be running when the service goes.
    const slow = await startDemoService({ port: 0, keys: { [DEMO_TEST_KEY]: '*' }, rateLimit: 10_000 });
    let restarted: RunningDemoService | null = null;
    try {
      const made = await createRecordingBackend({
        ...demoBackendOptions(dataDir.path, slow),
        ...FAST_ACTION_OPTIONS,
      });
      backends.push(made.backend);
      await made.handlers['accounts.tryDemo']({});
      const [entry] = onlineNoise((await made.handlers['instruments.list']({})).entries);
      const op = await made.handlers['actions.start']({
        serial: entry?.instrument.serialNumber as string,
        action: 'Calibration',
      });
      const phase = async () =>
        (await made.handlers['operations.list']({})).find((s) => s.id === op.id)?.phase;
      await expect.poll(phase, { timeout: 10_000 }).toBe('Waiting for the instrument');
      await slow.close();
      await expect.poll(phase, { timeout: 10_000 }).toBe('Waiting for the connection');
      // Started again on the same address: it knows of no calibration running, and has no new result.
      restarted = await startDemoService({
        port: slow.port,
        keys: { [DEMO_TEST_KEY]: '*' },
        rateLimit: 10_000,
      });
      // The result's grace (15 s) runs out before the calibration's time-out (2 min).
      const outcome = await finished(made.backend, op.id, 30_000);
      expect(outcome.state).toBe('failed');
      expect(outcome.message).toMatch(
        /^The service stopped answering during the calibration; its result is unknown — when it answered again it had no result from this run/,
      );
      expect(outcome.message).not.toMatch(/calibrator/);
      // The history keeps the same words.
      const [kept] = await made.handlers['actions.history']({
        serial: entry?.instrument.serialNumber as string,
      });
      expect(kept).toMatchObject({ id: op.id, state: 'failed', message: outcome.message });
    } finally {
      await restarted?.close();
    }
  }, 60_000);

  it('stops watching on close and keeps the stopped action in the history for the next start', async () => {
    const { backend, handlers } = await makeBackend({
      polling: { fastIntervalMs: 5_000, slowIntervalMs: 5_000 },
    });
    const [entry] = onlineNoise((await handlers['instruments.list']({})).entries);
    const serial = entry?.instrument.serialNumber as string;
    const op = await handlers['actions.start']({ serial, action: 'Calibration' });
    await backends.splice(backends.indexOf(backend), 1)[0]?.close();

    const reopened = await createBackend({
      dataDir: dataDir.path,
      vault: createMemoryVault('tests'),
      appInfo: TEST_APP_INFO,
      startDemo: async () => {
        throw new Error('not needed: the history is local');
      },
    });
    backends.push(reopened);
    const history = await reopened.handlers['actions.history']({ serial });
    expect(history).toMatchObject([{ id: op.id, state: 'cancelled' }]);
    expect(history[0]?.message).toMatch(/^FieldDesk stopped watching/);
    expect(await reopened.handlers['operations.list']({})).toEqual([]);
  });

  it('after settings that could not be read, a calibration waits for the user to confirm them', async () => {
    await writeFile(join(dataDir.path, 'settings.json'), '{"version": 1, "settings": {"calibrationToler');
    const { handlers } = await makeBackend();
    const state = await handlers['settings.get']({});
    expect(state).toMatchObject({ needsConfirmation: true, settings: { calibrationToleranceDb: 0.5 } });
    expect(state.notice).toMatch(/^Your settings are damaged, so the defaults apply/);
    expect((await handlers['app.notices']({})).map((n) => n.id)).toEqual(['settings-file']);
    const [entry] = onlineNoise((await handlers['instruments.list']({})).entries);
    const serial = entry?.instrument.serialNumber as string;
    const refused = await handlers['actions.start']({ serial, action: 'Calibration' }).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ code: 'invalidInput', field: 'settings' });
    // Identify and SIC do not depend on the calibration settings.
    expect((await handlers['actions.start']({ serial, action: 'Identify' })).action).toBe('Identify');
    expect(await handlers['settings.confirm']({})).toMatchObject({ needsConfirmation: false, notice: null });
    expect(await handlers['app.notices']({})).toEqual([]);
  });

  it('judges a calibration against the settings in force when it started', async () => {
    const { backend, handlers } = await makeBackend();
    expect(await handlers['settings.get']({})).toEqual({
      settings: {
        calibrationReferenceDb: 94,
        calibrationToleranceDb: 0.5,
        sicToleranceDb: 2,
        refreshCachedAfterMinutes: 5,
        ...DEFAULT_ATTENTION_THRESHOLDS,
      },
      notice: null,
      needsConfirmation: false,
    });
    expect((await handlers['settings.update']({ calibrationToleranceDb: 1.5 })).settings).toEqual({
      calibrationReferenceDb: 94,
      calibrationToleranceDb: 1.5,
      sicToleranceDb: 2,
      refreshCachedAfterMinutes: 5,
      ...DEFAULT_ATTENTION_THRESHOLDS,
    });
    const [entry] = onlineNoise((await handlers['instruments.list']({})).entries);
    const op = await handlers['actions.start']({
      serial: entry?.instrument.serialNumber as string,
      action: 'Calibration',
    });
    // A change after the start does not move the goalposts of the running calibration.
    await handlers['settings.update']({ calibrationReferenceDb: 114 });
    const outcome = await finished(backend, op.id);
    expect(outcome.result).toMatchObject({ kind: 'calibration', referenceDb: 94, toleranceDb: 1.5 });
  });

  it('with 114 dB chosen, a 94 dB calibrator gives both verdicts and the probable level, kept in the history', async () => {
    const { backend, handlers } = await makeBackend();
    await handlers['settings.update']({ calibrationReferenceDb: 114 });
    const noise = onlineNoise((await handlers['instruments.list']({})).entries);
    const started = await Promise.all(
      noise.map((e) =>
        handlers['actions.start']({ serial: e.instrument.serialNumber, action: 'Calibration' }),
      ),
    );
    const outcomes = await Promise.all(started.map((op) => finished(backend, op.id)));
    // Most demo instruments have a 94 dB calibrator: those that read it well get the hint.
    const on94 = outcomes.filter(
      (o) =>
        o.result?.kind === 'calibration' && o.result.level !== null && Math.abs(o.result.level - 94) <= 0.5,
    );
    expect(on94.length).toBeGreaterThan(0);
    for (const outcome of on94) {
      expect(outcome.state).toBe('failed');
      expect(outcome.result).toMatchObject({
        passed: false,
        instrumentPassed: true,
        probableCalibratorDb: 94,
      });
      expect(outcome.message).toContain('the calibrator is probably set to 94.0 dB, not 114.0 dB');
      const [kept] = await handlers['actions.history']({ serial: outcome.serial });
      expect(kept?.result).toEqual(outcome.result);
    }
  });

  it('judges a SIC’s tones against the instrument’s earlier passing checks read through the cache', async () => {
    const { backend, handlers } = await makeBackend();
    const entries = (await handlers['instruments.list']({})).entries;
    const withSic = entries.find((e) => e.status?.online === true && e.instrument.feature.includes('SIC'));
    expect(withSic).toBeDefined();
    const op = await handlers['actions.start']({
      serial: withSic?.instrument.serialNumber as string,
      action: 'SIC',
    });
    const outcome = await finished(backend, op.id);
    expect(outcome.result?.kind).toBe('sic');
    if (outcome.result?.kind !== 'sic') return;
    // The demo's history has months of daily checks: every tone has a reference of the last 10 passes.
    expect(outcome.result.tones.map((t) => [t.tone, t.referenceChecks, t.toleranceDb])).toEqual([
      ['_500Hz', 10, 2],
      ['_1KHz', 10, 2],
      ['_8KHz', 10, 2],
    ]);
    expect(outcome.result.passed).toBe(
      outcome.result.status === 'Success' && outcome.result.tones.every((t) => t.within !== false),
    );
  });

  it('cancels on request; an unknown id is refused plainly', async () => {
    const { backend, handlers } = await makeBackend({
      polling: { fastIntervalMs: 5_000, slowIntervalMs: 5_000 },
    });
    const [entry] = onlineNoise((await handlers['instruments.list']({})).entries);
    const op = await handlers['actions.start']({
      serial: entry?.instrument.serialNumber as string,
      action: 'Calibration',
    });
    const cancelled = await handlers['operations.cancel']({ id: op.id });
    expect(cancelled).toMatchObject({ id: op.id, state: 'cancelled' });
    expect(await finished(backend, op.id)).toEqual(cancelled);
    const unknown = await handlers['operations.cancel']({ id: 'nope' }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: 'invalidInput' });
  });
});
