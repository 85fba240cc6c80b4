import { beforeAll, describe, expect, it } from 'vitest';
import type { WireErrorBody } from '../../../../src/shared/service/wire';
import { DAY, NOW, demo, iso, type Fleet } from './data-helpers';
import { createDemoApp, DEFAULT_DEMO_KEY, inOutageAt } from '../../../../src/simulator';

type Row = Record<string, number | string | null>;
let get: Awaited<ReturnType<typeof demo>>['get'];
let fleet: Fleet;
beforeAll(async () => {
  ({ get, fleet } = await demo());
});
const range = `start=${iso(NOW - 2 * DAY)}&end=${iso(NOW)}`;

describe('system monitor', () => {
  it('answers only for Quantum monitors, naming the unsupported instrument', async () => {
    const other = fleet.noise.find((i) => !/Quantum/.test(i.model))!.serialNumber;
    for (const path of ['/data/monitor/stats', '/data/monitor/events']) {
      const response = await get<WireErrorBody>(
        `${path}?instruments=${fleet.quantum[0]!.serialNumber},${other}&${range}`,
      );
      expect(response.status).toBe(400);
      expect(response.body.description).toContain(other);
      expect(response.body.description).toMatch(/supported only by Quantum/);
    }
    const current = await get<WireErrorBody>(`/data/monitor/current?instruments=${other}`);
    expect(current.status).toBe(400);
    expect(current.body.description).toContain(other);
  });

  it('stats: a sample every 10 minutes while online, with the documented fields and units', async () => {
    const online = fleet.quantum.filter((i) => fleet.status.get(i.serialNumber)?.online);
    const response = await get<Row[]>(`/data/monitor/stats?instruments=${online[0]!.serialNumber}&${range}`);
    expect(response.status).toBe(200);
    const stats = response.body;
    expect(stats.length).toBeGreaterThan(200);
    expect(stats.length).toBeLessThanOrEqual(288);
    let previous: Row | undefined;
    for (const row of stats) {
      for (const field of [
        'cpu',
        'mem',
        'cache',
        'temp',
        'voltage',
        'disk',
        'netRx',
        'netTx',
        'mTot',
        'dTot',
        'ping',
      ]) {
        expect(typeof row[field]).toBe('number');
      }
      expect(row.samplePeriod).toBe(600);
      expect(row.mem as number).toBeGreaterThan(100); // MB, not %
      expect(row.voltage as number).toBeGreaterThan(11);
      expect(row.voltage as number).toBeLessThan(15);
      // Running totals only grow within a day (they reset at midnight and on restarts).
      if (previous && (previous.time as string).slice(0, 10) === (row.time as string).slice(0, 10)) {
        expect(row.dTot as number).toBeGreaterThanOrEqual(previous.dTot as number);
      }
      previous = row;
    }
  });

  it('current: memory and disk as percentages, and an uptime', async () => {
    const online = fleet.quantum.filter((i) => fleet.status.get(i.serialNumber)?.online);
    const response = await get<Row[]>(
      `/data/monitor/current?instruments=${online.map((i) => i.serialNumber).join(',')}`,
    );
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(online.length);
    for (const row of response.body) {
      expect(row.mem as number).toBeLessThanOrEqual(100);
      expect(row.disk as number).toBeLessThanOrEqual(100);
      expect(row.uptime as number).toBeGreaterThan(0);
      expect(row.simUsage as number).toBeLessThanOrEqual(row.simQuota as number);
    }
  });

  it('current: a state at any minute, not only when the last quarter hour has closed', async () => {
    const online = fleet.quantum.filter((i) => fleet.status.get(i.serialNumber)?.online);
    // NOW is on the hour; the interval under way is not recorded yet, whatever minute it is.
    for (const minutes of [0, 7, 14, 29, 44, 59]) {
      const at = createDemoApp({ now: () => NOW + minutes * 60_000, seed: 1, rateLimit: 100_000 });
      const response = await at.request(
        `/v1/data/monitor/current?instruments=${online.map((i) => i.serialNumber).join(',')}`,
        { headers: { 'X-Api-Key': DEFAULT_DEMO_KEY } },
      );
      expect((await response.json()) as Row[], `${minutes} min past`).toHaveLength(online.length);
    }
  });

  it('current: an online monitor in one of its outages has none, as `inOutageAt` tells tests', async () => {
    const online = fleet.quantum.filter((i) => fleet.status.get(i.serialNumber)?.online);
    // The first quarter hour within 60 days at which one online monitor is in an outage.
    let found: { serial: string; atMs: number } | null = null;
    for (let atMs = NOW; found === null && atMs > NOW - 60 * DAY; atMs -= 15 * 60_000) {
      const serial = online.find((i) => inOutageAt(i.serialNumber, 1, atMs))?.serialNumber;
      if (serial !== undefined) found = { serial, atMs };
    }
    if (found === null) throw new Error('no outage of an online demo monitor in 60 days');
    const at = createDemoApp({ now: () => found.atMs, seed: 1, rateLimit: 100_000 });
    const response = await at.request(
      `/v1/data/monitor/current?instruments=${online.map((i) => i.serialNumber).join(',')}`,
      { headers: { 'X-Api-Key': DEFAULT_DEMO_KEY } },
    );
    const answered = ((await response.json()) as Row[]).map((row) => row.instrument);
    const connected = online.filter((i) => !inOutageAt(i.serialNumber, 1, found.atMs));
    expect(answered.sort()).toEqual(connected.map((i) => i.serialNumber).sort());
    expect(answered).not.toContain(found.serial);
  });

  it('events: restarts after outages and weekly, with time, instrument, type and message', async () => {
    const serials = fleet.quantum.map((i) => i.serialNumber).join(',');
    const response = await get<Row[]>(
      `/data/monitor/events?instruments=${serials}&start=${iso(NOW - 31 * DAY)}&end=${iso(NOW)}`,
    );
    expect(response.status).toBe(200);
    const reboots = response.body.filter((e) => e.type === 'Reboot');
    expect(reboots.some((e) => /weekly/.test(e.message as string))).toBe(true);
    for (const event of response.body)
      expect(Object.keys(event)).toEqual(['time', 'instrument', 'type', 'message']);
  });

  it('stats stop for an offline Quantum monitor', async () => {
    const offline = fleet.quantum.filter((i) => !fleet.status.get(i.serialNumber)?.online);
    expect(offline.length).toBeGreaterThan(0);
    for (const instrument of offline) {
      const stats = (
        await get<Row[]>(
          `/data/monitor/stats?instruments=${instrument.serialNumber}&start=${iso(NOW - 2 * 3_600_000)}&end=${iso(NOW)}`,
        )
      ).body;
      expect(stats).toEqual([]);
    }
  });

  it('one online monitor has a failing battery: below 11.8 V all day, the others above it', async () => {
    const online = fleet.quantum.filter((i) => fleet.status.get(i.serialNumber)?.online);
    const lows: string[] = [];
    for (const instrument of online) {
      const stats = (await get<Row[]>(`/data/monitor/stats?instruments=${instrument.serialNumber}&${range}`))
        .body;
      const voltages = stats.map((row) => row.voltage as number);
      if (Math.max(...voltages) < 11.8) lows.push(instrument.serialNumber);
      else expect(Math.min(...voltages), instrument.serialNumber).toBeGreaterThan(11.8);
    }
    expect(lows).toHaveLength(1);
  });
});
