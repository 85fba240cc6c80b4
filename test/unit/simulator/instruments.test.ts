import { describe, expect, it } from 'vitest';
import { createDemoApp, DEFAULT_DEMO_KEY } from '../../../src/simulator';
import { INSTRUMENT_NAME_MAX_LENGTH } from '../../../src/shared/service/limits';
import { instrumentSchema, instrumentStatusSchema } from '../../../src/shared/service/schemas';
import { parseServiceTime } from '../../../src/shared/service/time';
import {
  INSTRUMENT_FEATURES,
  SUBSCRIPTION_STATUSES,
  SUBSCRIPTION_TIERS,
  type WireInstrument,
  type WireInstrumentStatus,
} from '../../../src/shared/service/wire';
import { call, errorBody, manualClock } from './helpers';

const key = DEFAULT_DEMO_KEY;
const SERIAL_PATTERN: Record<string, RegExp> = {
  Noise: /^QT\d{6}$/,
  AirQuality: /^AQ\d{6}$/,
  Vibration: /^VB\d{6}$/,
};

async function listInstruments(app: ReturnType<typeof createDemoApp>): Promise<WireInstrument[]> {
  const response = await call(app, 'GET', '/control/instruments', { key });
  expect(response.status).toBe(200);
  return (await response.json()) as WireInstrument[];
}

async function getInstrument(app: ReturnType<typeof createDemoApp>, serial: string): Promise<WireInstrument> {
  const response = await call(app, 'GET', `/control/instruments/${serial}`, { key });
  expect(response.status).toBe(200);
  return (await response.json()) as WireInstrument;
}

describe('GET /control/instruments', () => {
  it('lists the whole fleet as valid Instruments', async () => {
    const instruments = await listInstruments(createDemoApp());
    expect(instruments.length).toBeGreaterThanOrEqual(9);
    expect(instruments.length).toBeLessThanOrEqual(10);
    expect(new Set(instruments.map((i) => i.serialNumber)).size).toBe(instruments.length);
    for (const instrument of instruments) {
      // The client's own schema accepts it.
      expect(instrumentSchema.safeParse(instrument).success).toBe(true);
      expect(instrument.serialNumber).toMatch(SERIAL_PATTERN[instrument.type] ?? /^$/);
      expect(instrument.model).toMatch(/^[A-Z]{2}:\d{3}/);
      expect(instrument.name.length).toBeGreaterThan(0);
      expect([...instrument.name].length).toBeLessThanOrEqual(INSTRUMENT_NAME_MAX_LENGTH);
      expect(new URL(instrument.image).protocol).toBe('https:');
      expect(SUBSCRIPTION_STATUSES).toContain(instrument.subscription.status);
      expect(SUBSCRIPTION_TIERS).toContain(instrument.subscription.tier);
      for (const feature of instrument.feature) expect(INSTRUMENT_FEATURES).toContain(feature);
      // Great Britain.
      expect(instrument.position.lat).toBeGreaterThan(49.9);
      expect(instrument.position.lat).toBeLessThan(58.7);
      expect(instrument.position.long).toBeGreaterThan(-6.5);
      expect(instrument.position.long).toBeLessThan(1.8);
    }
    const types = new Set(instruments.map((i) => i.type));
    expect([...types].sort()).toEqual(['AirQuality', 'Noise', 'Vibration']);
  });
});

describe('GET /control/instruments/:serial', () => {
  it('returns each instrument of the list', async () => {
    const app = createDemoApp({ seed: 3 });
    for (const instrument of await listInstruments(app)) {
      expect(await getInstrument(app, instrument.serialNumber)).toEqual(instrument);
    }
  });

  it('answers 404 NotFound naming an unknown serial', async () => {
    const response = await call(createDemoApp(), 'GET', '/control/instruments/QT000000', { key });
    expect(response.status).toBe(404);
    const body = await errorBody(response);
    expect(body.error).toBe('NotFound');
    expect(body.description).toContain('QT000000');
  });
});

describe('GET /control/instruments/:serial/status', () => {
  it('reports a consistent status for every instrument, with the schema’s field names', async () => {
    const clock = manualClock();
    for (const seed of [1, 2, 3, 4, 5]) {
      const app = createDemoApp({ seed, now: clock.now });
      const statuses: Array<[WireInstrument, WireInstrumentStatus]> = [];
      for (const instrument of await listInstruments(app)) {
        const response = await call(app, 'GET', `/control/instruments/${instrument.serialNumber}/status`, {
          key,
        });
        expect(response.status).toBe(200);
        statuses.push([instrument, (await response.json()) as WireInstrumentStatus]);
      }
      for (const [instrument, status] of statuses) {
        const label = `seed ${seed} ${instrument.serialNumber}`;
        expect(instrumentStatusSchema.safeParse(status).success, label).toBe(true);
        expect(Object.keys(status).sort()).toEqual(
          [
            'calibrationInProgress',
            'lastCalibration',
            'lastSic',
            'measuring',
            'online',
            'sicInProgress',
          ].sort(),
        );
        expect(status.calibrationInProgress).toBe(false);
        expect(status.sicInProgress).toBe(false);
        if (!status.online) expect(status.measuring, label).toBe(false);

        // Never run is `{}`, as the real service documents it.
        const given = <T extends object>(value: T | Record<string, never> | null | undefined): T | null =>
          value === null || value === undefined || Object.keys(value).length === 0 ? null : (value as T);
        const calibration = given(status.lastCalibration);
        if (instrument.type !== 'Noise') {
          expect(status.lastCalibration, label).toEqual({});
        } else {
          expect(calibration, label).not.toBeNull();
          expect(Object.keys(calibration ?? {}).sort()).toEqual(['level', 'offset', 'status', 'time']);
          expect(['Success', 'Failed']).toContain(calibration?.status);
          // A 94 dB or 114 dB calibrator; offset = level - reference, within ±0.5 dB when passed.
          const level = calibration?.level ?? 0;
          const reference = Math.abs(level - 114) < Math.abs(level - 94) ? 114 : 94;
          expect(calibration?.offset).toBeCloseTo(level - reference, 2);
          if (calibration?.status === 'Success')
            expect(Math.abs(calibration.offset)).toBeLessThanOrEqual(0.5);
          expectPastUtcTime(calibration?.time ?? '', clock.now(), 8 * 7);
        }

        const sic = given(status.lastSic);
        if (!instrument.feature.includes('SIC')) {
          expect(status.lastSic, label).toEqual({});
        } else {
          expect(sic, label).not.toBeNull();
          expect(Object.keys(sic ?? {}).sort()).toEqual(['_1KHz', '_500Hz', '_8KHz', 'status', 'time']);
          expect(['Success', 'Failed', 'Error']).toContain(sic?.status);
          for (const level of [sic?._500Hz, sic?._1KHz, sic?._8KHz]) {
            expect(level).toBeGreaterThanOrEqual(60);
            expect(level).toBeLessThanOrEqual(100);
          }
          expectPastUtcTime(sic?.time ?? '', clock.now(), 8 * 7);
        }
      }
      const online = statuses.filter(([, s]) => s.online);
      expect(online.length).toBeLessThan(statuses.length);
      expect(online.some(([, s]) => s.measuring)).toBe(true);
      expect(online.some(([, s]) => !s.measuring)).toBe(true);
    }
  });

  it('answers 404 for an unknown serial', async () => {
    const response = await call(createDemoApp(), 'GET', '/control/instruments/VB000000/status', { key });
    expect(response.status).toBe(404);
    expect((await errorBody(response)).error).toBe('NotFound');
  });
});

function expectPastUtcTime(text: string, nowMs: number, maxDaysAgo: number): void {
  expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  const epoch = parseServiceTime(text) ?? Number.NaN;
  expect(epoch).toBeLessThan(nowMs);
  expect(epoch).toBeGreaterThan(nowMs - maxDaysAgo * 86_400_000);
}

describe('PUT /control/instruments/:serial', () => {
  async function setUp() {
    const app = createDemoApp({ seed: 2 });
    const [target, other] = await listInstruments(app);
    if (!target || !other) throw new Error('the fleet has fewer than two instruments');
    return { app, target, other };
  }
  const rename = (app: ReturnType<typeof createDemoApp>, serial: string, body: string) =>
    call(app, 'PUT', `/control/instruments/${serial}`, { key, body });

  it('renames with {name}: 204 without a body, the trimmed name visible in list and get', async () => {
    const { app, target, other } = await setUp();
    const response = await rename(app, target.serialNumber, JSON.stringify({ name: '  Compound gate  ' }));
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect((await getInstrument(app, target.serialNumber)).name).toBe('Compound gate');
    const listed = await listInstruments(app);
    expect(listed.find((i) => i.serialNumber === target.serialNumber)?.name).toBe('Compound gate');
    expect(listed.find((i) => i.serialNumber === other.serialNumber)?.name).toBe(other.name);
  });

  it('changes only the name when sent a whole, different Instrument', async () => {
    const { app, target, other } = await setUp();
    const body: WireInstrument = {
      ...other,
      serialNumber: other.serialNumber,
      name: 'Site office roof',
      model: 'XX:000',
      feature: [],
      position: { lat: 0, long: 0 },
    };
    expect((await rename(app, target.serialNumber, JSON.stringify(body))).status).toBe(204);
    expect(await getInstrument(app, target.serialNumber)).toEqual({ ...target, name: 'Site office roof' });
    expect(await getInstrument(app, other.serialNumber)).toEqual(other);
  });

  it('accepts a name of exactly the limit and refuses a longer one with 400 InvalidParam giving the limit', async () => {
    const { app, target } = await setUp();
    const atLimit = 'N'.repeat(INSTRUMENT_NAME_MAX_LENGTH);
    expect((await rename(app, target.serialNumber, JSON.stringify({ name: atLimit }))).status).toBe(204);
    const response = await rename(app, target.serialNumber, JSON.stringify({ name: `${atLimit}x` }));
    expect(response.status).toBe(400);
    const body = await errorBody(response);
    expect(body.error).toBe('InvalidParam');
    expect(body.description).toContain(String(INSTRUMENT_NAME_MAX_LENGTH));
    expect((await getInstrument(app, target.serialNumber)).name).toBe(atLimit);
  });

  it.each([
    ['an empty name', JSON.stringify({ name: '' })],
    ['a blank name', JSON.stringify({ name: ' \t ' })],
    ['no name', JSON.stringify({ model: 'CR:900' })],
    ['a null name', JSON.stringify({ name: null })],
    ['a body that is not JSON', '{name: North'],
    ['an empty body', ''],
    ['a JSON array', '["North"]'],
  ])('answers 400 MissingParam to %s and keeps the old name', async (_, requestBody) => {
    const { app, target } = await setUp();
    const response = await rename(app, target.serialNumber, requestBody);
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('MissingParam');
    expect((await getInstrument(app, target.serialNumber)).name).toBe(target.name);
  });

  it('answers 400 InvalidParam to a name that is not a string', async () => {
    const { app, target } = await setUp();
    const response = await rename(app, target.serialNumber, JSON.stringify({ name: 42 }));
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('InvalidParam');
  });

  it('answers 404 NotFound for an unknown serial', async () => {
    const { app } = await setUp();
    const response = await rename(app, 'QT000000', JSON.stringify({ name: 'Anywhere' }));
    expect(response.status).toBe(404);
    const body = await errorBody(response);
    expect(body.error).toBe('NotFound');
    expect(body.description).toContain('QT000000');
  });

  it('keeps renames in the one service: a new app starts from the generated names', async () => {
    const { app, target } = await setUp();
    await rename(app, target.serialNumber, JSON.stringify({ name: 'Temporary' }));
    expect((await getInstrument(createDemoApp({ seed: 2 }), target.serialNumber)).name).toBe(target.name);
  });
});
