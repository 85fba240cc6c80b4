import { beforeAll, describe, expect, it } from 'vitest';
import { DATA_ENDPOINT_LIMITS } from '../../../../src/shared/service/limits';
import type { WireErrorBody } from '../../../../src/shared/service/wire';
import { DAY, HOUR, NOW, demo, iso, type Fleet } from './data-helpers';

let get: Awaited<ReturnType<typeof demo>>['get'];
let fleet: Fleet;
beforeAll(async () => {
  ({ get, fleet } = await demo());
});

/** An instrument each endpoint serves (monitor endpoints only serve Quantum monitors). */
const serialFor = (path: string): string => {
  if (path.startsWith('/data/monitor')) return fleet.quantum[0]!.serialNumber;
  if (path.includes('particulates') || path.includes('gases'))
    return fleet.all.find((i) => i.type === 'AirQuality')!.serialNumber;
  if (path.includes('vibration')) return fleet.all.find((i) => i.type === 'Vibration')!.serialNumber;
  return fleet.noise[0]!.serialNumber;
};

const RANGED = Object.values(DATA_ENDPOINT_LIMITS)
  .filter((limit) => !['/data/calibrations', '/data/calibrations/log', '/data/sic'].includes(limit.path))
  .map((limit) => ({ ...limit, url: limit.path.replace(':type', 'PPV') }));

describe('range limits of every data endpoint', () => {
  // Ranges after "now" have no data: the answers are quick, and only the limit is exercised.
  const start = NOW + DAY;

  it.each(RANGED)('$path accepts its maximum range and refuses one second more', async (limit) => {
    const q = (end: number) =>
      `${limit.url}?instruments=${serialFor(limit.path)}&start=${iso(start)}&end=${iso(end)}`;
    const ok = await get(q(start + limit.maxRangeMs));
    expect(ok.status).toBe(200);
    // No data after now: no records (time history: one record per value, without blocks).
    for (const record of ok.body as { blocks?: unknown[] }[]) expect(record.blocks).toEqual([]);
    const tooLong = await get<WireErrorBody>(q(start + limit.maxRangeMs + 1000));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.description).toMatch(/longer than/);
  });

  it('takes the table from src/shared: 7 days of noise time history, 1 day of frequency time history', () => {
    expect(DATA_ENDPOINT_LIMITS.noiseTimeHistory.maxRangeMs).toBe(7 * DAY);
    expect(DATA_ENDPOINT_LIMITS.frequencyTimeHistory.maxRangeMs).toBe(DAY);
    expect(DATA_ENDPOINT_LIMITS.noiseMeasurements.maxRangeMs).toBe(31 * DAY);
  });
});

describe('period bounds', () => {
  const range = `start=${iso(NOW - 2 * HOUR)}&end=${iso(NOW - HOUR)}`;
  const cases: [string, string, number][] = [
    ['/data/noise/timehistory', 'PT0.1S', 200],
    ['/data/noise/timehistory', 'PT0.05S', 400],
    ['/data/noise/timehistory', 'PT1M', 200],
    ['/data/noise/timehistory', 'PT61S', 400],
    ['/data/noise/timehistory', 'PT0.15S', 400],
    ['/data/frequency/timehistory', 'PT0.1S', 200],
    ['/data/frequency/timehistory', 'PT2M', 400],
    ['/data/noise/measurements', 'PT15M', 200],
    ['/data/noise/measurements', 'PT14M', 400],
    ['/data/noise/measurements', 'P1D', 200],
    ['/data/noise/measurements', 'P1DT15M', 400],
    ['/data/noise/measurements', 'PT20M', 400],
    ['/data/frequency/measurements', 'PT1H', 200],
    ['/data/frequency/measurements', 'PT5M', 400],
    ['/data/weather', 'PT1M', 200],
    ['/data/weather', 'PT30S', 400],
    ['/data/particulates', 'P1D', 200],
    ['/data/gases', 'P2D', 400],
    ['/data/vibration/VDV', 'PT59S', 400],
    ['/data/vibration/PPV', 'PT10M', 200],
  ];
  it.each(cases)('%s with period %s answers %i', async (path, period, status) => {
    const response = await get<WireErrorBody>(
      `${path}?instruments=${serialFor(path)}&${range}&period=${period}`,
    );
    expect(response.status).toBe(status);
    if (status === 400) {
      expect(response.body.error).toBe('InvalidParam');
      expect(response.body.description).toContain('period');
    }
  });

  it('refuses fractional seconds where the interface allows none, with the words the client uses', async () => {
    const response = await get<WireErrorBody>(
      `/data/weather?instruments=${serialFor('/data/weather')}&${range}&period=PT90.5S`,
    );
    expect(response.status).toBe(400);
    expect(response.body.description).toBe(
      'The query parameter period (PT90.5S) must be whole seconds on /data/weather.',
    );
  });

  it('refuses a period that is not an ISO 8601 duration, naming the parameter', async () => {
    const response = await get<WireErrorBody>(
      `/data/noise/measurements?instruments=${serialFor('')}&${range}&period=15min`,
    );
    expect(response.status).toBe(400);
    expect(response.body.description).toMatch(/period .*ISO 8601 duration/);
  });
});

describe('common parameters', () => {
  const start = iso(NOW - 2 * HOUR);
  const end = iso(NOW - HOUR);

  it.each(['instruments', 'start', 'end'])(
    'refuses a request without %s as MissingParam naming it',
    async (name) => {
      const params = new URLSearchParams({ instruments: serialFor(''), start, end });
      params.delete(name);
      const response = await get<WireErrorBody>(`/data/noise/measurements?${params}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('MissingParam');
      expect(response.body.description).toContain(name);
    },
  );

  it.each([
    ['start', 'yesterday'],
    ['end', '2025-13-01T00:00:00Z'],
    ['start', '2025-02-30T00:00:00Z'],
  ])('refuses a malformed %s (%s) naming it', async (name, value) => {
    const params = new URLSearchParams({ instruments: serialFor(''), start, end, [name]: value });
    const response = await get<WireErrorBody>(`/data/weather?${params}`);
    expect(response.status).toBe(400);
    expect(response.body.description).toContain(`parameter ${name}`);
  });

  it('refuses start after end, and answers an empty range with no records', async () => {
    const after = await get<WireErrorBody>(
      `/data/noise/measurements?instruments=${serialFor('')}&start=${end}&end=${start}`,
    );
    expect(after.status).toBe(400);
    expect(after.body.description).toMatch(/start .* is after end/);
    const empty = await get(
      `/data/noise/measurements?instruments=${serialFor('')}&start=${start}&end=${start}`,
    );
    expect(empty).toEqual({ status: 200, body: [] });
  });

  it('answers 404 naming every unknown instrument', async () => {
    const response = await get<WireErrorBody>(
      `/data/events?instruments=${serialFor('')},QT000000&instruments=ZZ1&start=${start}&end=${end}`,
    );
    expect(response.status).toBe(404);
    expect(response.body.error).toBe('NotFound');
    expect(response.body.description).toContain('QT000000');
    expect(response.body.description).toContain('ZZ1');
  });

  it('reads instruments repeated or comma-joined alike', async () => {
    const [a, b] = fleet.noise.map((i) => i.serialNumber);
    const range = `start=${start}&end=${end}&values=LAeq`;
    const joined = await get(`/data/noise/timehistory?instruments=${a},${b}&${range}`);
    const repeated = await get(`/data/noise/timehistory?instruments=${a}&instruments=${b}&${range}`);
    expect(joined.status).toBe(200);
    expect(repeated).toEqual(joined);
    expect((joined.body as unknown[]).length).toBe(2);
  });

  it('answers an empty result for an instrument of the wrong type, not an error', async () => {
    const vibration = fleet.all.find((i) => i.type === 'Vibration')!.serialNumber;
    const noise = await get(`/data/noise/measurements?instruments=${vibration}&start=${start}&end=${end}`);
    expect(noise).toEqual({ status: 200, body: [] });
    const gases = await get(`/data/gases?instruments=${serialFor('')}&start=${start}&end=${end}`);
    expect(gases).toEqual({ status: 200, body: [] });
  });

  it('refuses an unknown vibration type naming it', async () => {
    const response = await get<WireErrorBody>(
      `/data/vibration/ACC?instruments=${serialFor('/data/vibration')}&start=${start}&end=${end}`,
    );
    expect(response.status).toBe(400);
    expect(response.body.description).toContain('ACC');
  });
});
