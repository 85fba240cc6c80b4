import { describe, expect, it } from 'vitest';
import { createDemoApp } from '../../../src/simulator';
import { generateDemoFleet } from '../../../src/simulator/fleet';
import { buildHealthProfiles } from '../../../src/simulator/health-profiles';
import { parseServiceTime } from '../../../src/shared/service/time';
import { call, errorBody } from './helpers';
import { action, DAY_MS, history, historyPath, isHealthyOnlineNoise, key, setUp } from './health-helpers';

interface CalibrationRecord {
  time: string;
  status: string;
  instrument: string;
  level: number;
  offset: number;
}
interface SicRecord {
  time: string;
  instrument: string;
  status: string;
  _500Hz: number;
  _1KHz: number;
  _8KHz: number;
}
interface LogRecord {
  time: string;
  user: string;
  message: string;
}

const ENDPOINTS = ['/data/calibrations', '/data/calibrations/log', '/data/sic'] as const;
const YEAR_MS = 365 * DAY_MS;
const timeOf = (text: string): number => parseServiceTime(text) ?? Number.NaN;

function expectTimeOrdered(records: ReadonlyArray<{ time: string }>): void {
  const times = records.map((r) => timeOf(r.time));
  expect(times.every((t) => Number.isFinite(t))).toBe(true);
  for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1] as number);
}

describe('history query parameters', () => {
  it.each(ENDPOINTS)(
    '%s accepts exactly 365 days and refuses one day more, giving the limit',
    async (path) => {
      const { app, fleet, createdAtMs } = await setUp();
      const serials = fleet.map((m) => m.wire.serialNumber);
      const startMs = createdAtMs - 400 * DAY_MS;
      const ok = await call(app, 'GET', historyPath(path, serials, startMs, startMs + YEAR_MS), { key });
      expect(ok.status).toBe(200);
      const tooLong = await call(
        app,
        'GET',
        historyPath(path, serials, startMs, startMs + YEAR_MS + DAY_MS),
        { key },
      );
      expect(tooLong.status).toBe(400);
      const body = await errorBody(tooLong);
      expect(body.error).toBe('InvalidParam');
      expect(body.description).toContain('365 days');
      expect(body.description).toContain(path);
    },
  );

  it.each(ENDPOINTS)('%s names a missing, malformed or reversed start or end', async (path) => {
    const { app, fleet } = await setUp();
    const serial = fleet[0]?.wire.serialNumber ?? '';
    const ask = (query: string) => call(app, 'GET', `${path}?instruments=${serial}&${query}`, { key });
    const cases: Array<[string, number, string, RegExp]> = [
      ['end=2025-06-01T00:00:00Z', 400, 'MissingParam', /\bstart\b/],
      ['start=2025-05-01T00:00:00Z', 400, 'MissingParam', /\bend\b/],
      ['start=yesterday&end=2025-06-01T00:00:00Z', 400, 'InvalidParam', /start .*ISO 8601/],
      ['start=2025-05-01T00:00:00Z&end=2025-02-30T00:00:00Z', 400, 'InvalidParam', /end .*ISO 8601/],
      ['start=2025-06-01T00:00:00Z&end=2025-05-01T00:00:00Z', 400, 'InvalidParam', /start .* is after end/],
    ];
    for (const [query, status, code, description] of cases) {
      const response = await ask(query);
      expect(response.status, query).toBe(status);
      const body = await errorBody(response);
      expect(body.error, query).toBe(code);
      expect(body.description, query).toMatch(description);
    }
  });

  it.each(ENDPOINTS)('%s needs instruments and names unknown serials', async (path) => {
    const { app, fleet } = await setUp();
    const known = fleet[0]?.wire.serialNumber ?? '';
    const range = 'start=2025-05-01T00:00:00Z&end=2025-06-01T00:00:00Z';
    const missing = await call(app, 'GET', `${path}?${range}`, { key });
    expect(missing.status).toBe(400);
    expect((await errorBody(missing)).error).toBe('MissingParam');
    const unknown = await call(app, 'GET', `${path}?instruments=${known},QT000000&${range}`, { key });
    expect(unknown.status).toBe(404);
    const body = await errorBody(unknown);
    expect(body.error).toBe('NotFound');
    expect(body.description).toContain('QT000000');
    expect(body.description).not.toContain(known);
  });

  it('accepts instruments repeated or comma-joined alike', async () => {
    const { app, fleet } = await setUp();
    const [a, b] = fleet.filter((m) => m.wire.type === 'Noise').map((m) => m.wire.serialNumber);
    const range = 'start=2025-04-01T00:00:00Z&end=2025-06-01T00:00:00Z';
    const joined = await call(app, 'GET', `/data/calibrations?instruments=${a},${b}&${range}`, { key });
    const repeated = await call(app, 'GET', `/data/calibrations?instruments=${a}&instruments=${b}&${range}`, {
      key,
    });
    expect(await repeated.json()).toEqual(await joined.json());
  });

  it('needs the data.system:read scope', async () => {
    const app = createDemoApp({ keys: { reader: ['instruments:read'] } });
    for (const path of ENDPOINTS) {
      const response = await call(app, 'GET', path, { key: 'reader' });
      expect(response.status).toBe(403);
      expect((await errorBody(response)).description).toContain('data.system:read');
    }
  });
});

describe('GET /data/calibrations', () => {
  it('gives months of weekly-ish calibrations per noise instrument, none for others, in time order', async () => {
    const { app, fleet, createdAtMs } = await setUp();
    const records = await history<CalibrationRecord>(
      app,
      '/data/calibrations',
      fleet.map((m) => m.wire.serialNumber),
      createdAtMs - YEAR_MS,
      createdAtMs,
    );
    expectTimeOrdered(records);
    for (const member of fleet) {
      const own = records.filter((r) => r.instrument === member.wire.serialNumber);
      if (member.wire.type !== 'Noise') {
        expect(own).toEqual([]);
        continue;
      }
      expect(own.length).toBeGreaterThanOrEqual(40);
      expect(own.length).toBeLessThanOrEqual(70);
      const successes = own.filter((r) => r.status === 'Success');
      const gapsDays = successes
        .slice(1)
        .map((r, i) => (timeOf(r.time) - timeOf(successes[i]?.time ?? '')) / DAY_MS);
      expect(Math.max(...gapsDays)).toBeLessThanOrEqual(35);
      for (const record of own) {
        expect(Object.keys(record).sort()).toEqual(['instrument', 'level', 'offset', 'status', 'time']);
        expect(['Success', 'Failed']).toContain(record.status);
        expect(record.offset).toBeCloseTo(record.level - member.profile.referenceDb, 2);
        if (record.status === 'Success') expect(Math.abs(record.offset)).toBeLessThanOrEqual(0.5);
        // Calibration is done on site, on working days.
        expect([1, 2, 3, 4, 5]).toContain(new Date(timeOf(record.time)).getUTCDay());
      }
    }
    // Offsets drift slowly rather than jumping about: consecutive passes differ by little.
    const first = fleet.find((m) => m.wire.type === 'Noise' && m.profile.fault === 'none');
    const passes = records.filter((r) => r.instrument === first?.wire.serialNumber && r.status === 'Success');
    const steps = passes.slice(1).map((r, i) => Math.abs(r.offset - (passes[i]?.offset ?? 0)));
    expect(steps.filter((step) => step <= 0.1).length / steps.length).toBeGreaterThan(0.8);
    // An occasional failure across the fleet, but mostly passes.
    const failed = records.filter((r) => r.status === 'Failed').length;
    expect(failed).toBeGreaterThan(0);
    expect(failed / records.length).toBeLessThan(0.15);
  });

  it('reaches back about 18 months before the fleet was created and no further', async () => {
    const { app, pick, createdAtMs } = await setUp();
    const serial = pick('noise instrument', (m) => m.wire.type === 'Noise').wire.serialNumber;
    const oldest = await history<CalibrationRecord>(
      app,
      '/data/calibrations',
      [serial],
      createdAtMs - 548 * DAY_MS,
      createdAtMs - 500 * DAY_MS,
    );
    expect(oldest.length).toBeGreaterThan(3);
    const before = await history<CalibrationRecord>(
      app,
      '/data/calibrations',
      [serial],
      createdAtMs - 900 * DAY_MS,
      createdAtMs - 549 * DAY_MS,
    );
    expect(before).toEqual([]);
  });

  it('is deterministic: the same query, or the same seed in a new service, gives the same answer', async () => {
    const query = async (seed: number) => {
      const { app, fleet, createdAtMs } = await setUp({ seed });
      const serials = fleet.map((m) => m.wire.serialNumber);
      const ask = () =>
        history<CalibrationRecord>(
          app,
          '/data/calibrations',
          serials,
          createdAtMs - 200 * DAY_MS,
          createdAtMs,
        );
      const first = await ask();
      expect(await ask()).toEqual(first);
      return first;
    };
    const one = await query(2);
    expect(await query(2)).toEqual(one);
    expect(await query(3)).not.toEqual(one);
  });

  it('does not depend on when the service started: two services hours apart agree on the past', async () => {
    const base = Date.UTC(2026, 10, 22, 7, 36, 12, 345);
    const calibrationsAt = async (createdAtMs: number) => {
      const app = createDemoApp({ seed: 1, now: () => createdAtMs });
      const listed = (await (await call(app, 'GET', '/control/instruments', { key })).json()) as Array<{
        serialNumber: string;
      }>;
      return history<CalibrationRecord>(
        app,
        '/data/calibrations',
        listed.map((i) => i.serialNumber),
        base - 120 * DAY_MS,
        base - 2 * DAY_MS,
      );
    };
    const early = await calibrationsAt(base);
    expect(early.length).toBeGreaterThan(10);
    expect(await calibrationsAt(base + 3 * 3_600_000 + 17 * 60_000 + 891)).toEqual(early);
  });

  it('ends with each instrument’s status.lastCalibration', async () => {
    for (const seed of [1, 2, 3]) {
      const { app, fleet, createdAtMs } = await setUp({ seed });
      for (const member of fleet.filter((m) => m.wire.type === 'Noise')) {
        const serial = member.wire.serialNumber;
        const records = await history<CalibrationRecord>(
          app,
          '/data/calibrations',
          [serial],
          createdAtMs - 90 * DAY_MS,
          createdAtMs,
        );
        expect(records.at(-1)).toEqual({ ...member.status.lastCalibration, instrument: serial });
      }
    }
  });

  it('keeps records inside the requested range, inclusive at both ends', async () => {
    const { app, pick, createdAtMs } = await setUp();
    const serial = pick('noise instrument', (m) => m.wire.type === 'Noise').wire.serialNumber;
    const wide = await history<CalibrationRecord>(
      app,
      '/data/calibrations',
      [serial],
      createdAtMs - 120 * DAY_MS,
      createdAtMs,
    );
    const [, second, , fourth] = wide;
    if (!second || !fourth) throw new Error('too few calibrations');
    const narrow = await history<CalibrationRecord>(
      app,
      '/data/calibrations',
      [serial],
      timeOf(second.time),
      timeOf(fourth.time),
    );
    expect(narrow).toEqual(wide.slice(1, 4));
  });
});

describe('GET /data/sic', () => {
  it('gives a nightly SIC for each SIC-capable instrument, none for others, in time order', async () => {
    const { app, fleet, createdAtMs } = await setUp({ seed: 2 });
    const records = await history<SicRecord>(
      app,
      '/data/sic',
      fleet.map((m) => m.wire.serialNumber),
      createdAtMs - 60 * DAY_MS,
      createdAtMs,
    );
    expectTimeOrdered(records);
    for (const member of fleet) {
      const own = records.filter((r) => r.instrument === member.wire.serialNumber);
      if (!member.wire.feature.includes('SIC')) {
        expect(own).toEqual([]);
        continue;
      }
      expect(own.length).toBeGreaterThanOrEqual(59);
      expect(own.length).toBeLessThanOrEqual(61);
      for (const record of own) {
        expect(Object.keys(record).sort()).toEqual([
          '_1KHz',
          '_500Hz',
          '_8KHz',
          'instrument',
          'status',
          'time',
        ]);
        expect(['Success', 'Failed', 'Error']).toContain(record.status);
        const hour = new Date(timeOf(record.time)).getUTCHours();
        expect(hour).toBeGreaterThanOrEqual(2);
        expect(hour).toBeLessThan(4);
        if (record.status === 'Success') {
          for (const band of ['_500Hz', '_1KHz', '_8KHz'] as const) {
            expect(Math.abs(record[band] - member.profile.sicBaseline[band])).toBeLessThanOrEqual(2);
          }
        }
      }
      expect(own.at(-1)).toEqual({ ...member.status.lastSic, instrument: member.wire.serialNumber });
    }
  });

  it('shows the wet microphone failing its nightly SIC since the fault began', async () => {
    let checked = 0;
    for (const seed of [1, 2, 3, 4]) {
      const { app, fleet, createdAtMs } = await setUp({ seed });
      const degraded = fleet.find(
        (m) => m.profile.fault === 'degradedMicrophone' && m.wire.feature.includes('SIC'),
      );
      if (!degraded || degraded.profile.faultSinceMs === null) continue;
      checked++;
      const since = degraded.profile.faultSinceMs;
      const records = await history<SicRecord>(
        app,
        '/data/sic',
        [degraded.wire.serialNumber],
        since - 20 * DAY_MS,
        createdAtMs,
      );
      const after = records.filter((r) => timeOf(r.time) >= since);
      expect(after.length).toBeGreaterThanOrEqual(7);
      // Never passes again; a night may still end in Error (too much background noise to test).
      expect(after.filter((r) => r.status === 'Success')).toEqual([]);
      expect(after.filter((r) => r.status === 'Failed').length).toBeGreaterThanOrEqual(after.length - 1);
      expect(records.filter((r) => timeOf(r.time) < since).some((r) => r.status === 'Success')).toBe(true);
    }
    expect(checked).toBeGreaterThan(0);
  });
});

describe('GET /data/calibrations/log', () => {
  it('has time, user and message only, and the fitted/passed lines of every calibration', async () => {
    const { app, pick, fleet, createdAtMs } = await setUp();
    const serial = pick(
      'healthy noise instrument',
      (m) => m.wire.type === 'Noise' && m.profile.fault === 'none',
    ).wire.serialNumber;
    const [startMs, endMs] = [createdAtMs - 180 * DAY_MS, createdAtMs];
    const log = await history<LogRecord>(app, '/data/calibrations/log', [serial], startMs, endMs);
    const calibrations = await history<CalibrationRecord>(
      app,
      '/data/calibrations',
      [serial],
      startMs,
      endMs,
    );
    expectTimeOrdered(log);
    for (const line of log) expect(Object.keys(line).sort()).toEqual(['message', 'time', 'user']);
    const fitted = log.filter((l) =>
      /^Calibrator fitted by (.+) \(CR:515 #\d+, (94|114)\.0 dB\)\.$/.test(l.message),
    );
    for (const line of fitted) expect(line.message).toContain(line.user);
    const results = log.filter((l) => /^Calibration (passed|failed)/.test(l.message));
    expect(results.map((l) => l.time)).toEqual(calibrations.map((c) => c.time));
    expect(results.every((l) => l.user === 'system')).toBe(true);
    expect(fitted.length).toBeGreaterThanOrEqual(20);
    // Maintenance lines over a year of the whole fleet.
    const all = await history<LogRecord>(
      app,
      '/data/calibrations/log',
      fleet.map((m) => m.wire.serialNumber),
      createdAtMs - YEAR_MS,
      createdAtMs,
    );
    expect(all.some((l) => /^Windshield replaced \(.+\)\.$/.test(l.message))).toBe(true);
    expect(all.some((l) => /^Microphone replaced \(MK:224 serial \d{5}\)/.test(l.message))).toBe(true);
  });

  it('filters by instrument although its records carry no instrument field', async () => {
    const { app, fleet, createdAtMs } = await setUp();
    const noCalibrator = fleet.find((m) => m.profile.fault === 'noCalibrator');
    const other = fleet.find((m) => m.wire.type === 'Noise' && m.profile.fault === 'none');
    if (!noCalibrator || !other) throw new Error('seed 1 lacks the instruments this test needs');
    const [a, b] = [noCalibrator.wire.serialNumber, other.wire.serialNumber];
    const [startMs, endMs] = [createdAtMs - 60 * DAY_MS, createdAtMs];
    const onlyA = await history<LogRecord>(app, '/data/calibrations/log', [a], startMs, endMs);
    const onlyB = await history<LogRecord>(app, '/data/calibrations/log', [b], startMs, endMs);
    const both = await history<LogRecord>(app, '/data/calibrations/log', [a, b], startMs, endMs);
    expect(onlyA.length).toBeGreaterThan(0);
    expect(onlyB.length).toBeGreaterThan(0);
    expect(both).toHaveLength(onlyA.length + onlyB.length);
    expect([...both].sort(byText)).toEqual([...onlyA, ...onlyB].sort(byText));
    const removal = /taken off site for its annual calibration/;
    expect(onlyA.some((l) => removal.test(l.message))).toBe(true);
    expect(onlyB.some((l) => removal.test(l.message))).toBe(false);
    // Non-noise instruments have no calibration log.
    const airQuality = fleet.find((m) => m.wire.type === 'AirQuality');
    expect(
      await history(app, '/data/calibrations/log', [airQuality?.wire.serialNumber ?? ''], startMs, endMs),
    ).toEqual([]);
  });
});

const byText = (a: LogRecord, b: LogRecord): number =>
  `${a.time}${a.user}${a.message}`.localeCompare(`${b.time}${b.user}${b.message}`);

describe('results of actions in the history', () => {
  it('appear in calibrations, SIC and the log of their instrument only, once finished', async () => {
    const { app, clock, pick, createdAtMs } = await setUp();
    const target = pick(
      'healthy online SIC noise instrument',
      (m) => isHealthyOnlineNoise(m) && m.wire.feature.includes('SIC'),
    );
    const bystander = pick('another noise instrument', (m) => m.wire.type === 'Noise' && m !== target);
    const serial = target.wire.serialNumber;
    const query = () => ({ from: createdAtMs - 30 * DAY_MS, to: clock.now() });
    const before = await history<CalibrationRecord>(
      app,
      '/data/calibrations',
      [serial],
      query().from,
      query().to,
    );

    clock.advance(5 * 60_000);
    expect((await action(app, serial, 'Calibration')).status).toBe(200);
    // Running: no record yet, but the start is logged.
    const runningCalibrations = await history<CalibrationRecord>(
      app,
      '/data/calibrations',
      [serial],
      query().from,
      query().to,
    );
    expect(runningCalibrations).toEqual(before);
    const runningLog = await history<LogRecord>(
      app,
      '/data/calibrations/log',
      [serial],
      query().from,
      query().to,
    );
    expect(runningLog.at(-1)).toMatchObject({
      user: 'api',
      message: expect.stringMatching(/^Calibration started remotely/),
    });

    clock.advance(60_000);
    expect((await action(app, serial, 'SIC')).status).toBe(200);
    clock.advance(60_000);

    const calibrations = await history<CalibrationRecord>(
      app,
      '/data/calibrations',
      [serial],
      query().from,
      query().to,
    );
    expect(calibrations.slice(0, -1)).toEqual(before);
    const status = (await (
      await call(app, 'GET', `/control/instruments/${serial}/status`, { key })
    ).json()) as {
      lastCalibration: unknown;
      lastSic: unknown;
    };
    expect(calibrations.at(-1)).toEqual({ ...(status.lastCalibration as object), instrument: serial });
    const sics = await history<SicRecord>(app, '/data/sic', [serial], query().from, query().to);
    expect(sics.at(-1)).toEqual({ ...(status.lastSic as object), instrument: serial });
    expect(timeOf(sics.at(-1)?.time ?? '')).toBeGreaterThan(createdAtMs);

    const log = await history<LogRecord>(app, '/data/calibrations/log', [serial], query().from, query().to);
    expect(log.at(-1)?.message).toMatch(/^Calibration passed: /);
    const bystanderLog = await history<LogRecord>(
      app,
      '/data/calibrations/log',
      [bystander.wire.serialNumber],
      createdAtMs,
      clock.now(),
    );
    expect(bystanderLog).toEqual([]);

    // A range that ends before the action leaves it out.
    const earlier = await history<CalibrationRecord>(
      app,
      '/data/calibrations',
      [serial],
      query().from,
      createdAtMs,
    );
    expect(earlier).toEqual(before);
  });
});

describe('health profiles of the demo fleets', () => {
  it.each(Array.from({ length: 60 }, (_, i) => i))(
    'seed %i: both faults sit on online noise instruments, a healthy one remains, last results are recent',
    (seed) => {
      const createdAtMs = Date.UTC(2025, 5, 1, 12);
      const fleet = generateDemoFleet(seed, createdAtMs);
      const profiles = buildHealthProfiles(seed, fleet, createdAtMs);
      const withFault = (fault: string) =>
        fleet.filter((i) => profiles.get(i.wire.serialNumber)?.fault === fault);
      for (const fault of ['noCalibrator', 'degradedMicrophone']) {
        const [only, ...more] = withFault(fault);
        expect(more).toEqual([]);
        expect(only?.wire.type).toBe('Noise');
        expect(only?.condition.online).toBe(true);
        const since = profiles.get(only?.wire.serialNumber ?? '')?.faultSinceMs ?? Number.NaN;
        expect(since).toBeLessThan(createdAtMs - DAY_MS);
        expect(since).toBeGreaterThan(createdAtMs - 14 * DAY_MS);
      }
      expect(withFault('none').some((i) => i.wire.type === 'Noise' && i.condition.online)).toBe(true);
      const references = new Set<number>();
      for (const instrument of fleet) {
        const profile = profiles.get(instrument.wire.serialNumber);
        if (instrument.wire.type === 'Noise') references.add(profile?.referenceDb ?? 0);
        const calibration = instrument.condition.lastCalibration;
        expect(calibration === null).toBe(instrument.wire.type !== 'Noise');
        if (calibration) expect(createdAtMs - timeOf(calibration.time)).toBeLessThan(42 * DAY_MS);
        const sic = instrument.condition.lastSic;
        expect(sic === null).toBe(!instrument.wire.feature.includes('SIC'));
        if (sic) expect(createdAtMs - timeOf(sic.time)).toBeLessThan(2 * DAY_MS);
      }
      expect([...references].every((level) => level === 94 || level === 114)).toBe(true);
    },
  );
});
