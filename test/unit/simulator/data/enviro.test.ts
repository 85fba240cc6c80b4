import { beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, NOW, demo, iso, type Fleet } from './data-helpers';

type Row = Record<string, number | string | null>;

let get: Awaited<ReturnType<typeof demo>>['get'];
let fleet: Fleet;
const MAY = Date.UTC(2025, 4, 1);
const rows = async (path: string, serials: string[], start: number, end: number, extra = '') => {
  const response = await get<Row[]>(
    `${path}?instruments=${serials.join(',')}&start=${iso(start)}&end=${iso(end)}${extra}`,
  );
  expect(response.status).toBe(200);
  return response.body;
};
const num = (row: Row, field: string): number | null => row[field] as number | null;
const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
const hourOf = (row: Row) => new Date((row.time ?? row.startTime) as string).getUTCHours();
const weekday = (row: Row) => {
  const day = new Date((row.time ?? row.startTime) as string).getUTCDay();
  return day >= 1 && day <= 5;
};

beforeAll(async () => {
  ({ get, fleet } = await demo());
});

const ofType = (type: string) => fleet.all.filter((i) => i.type === type).map((i) => i.serialNumber);

describe('weather', () => {
  it('comes from instruments with a weather station, with fronts moving wind, rain and pressure together', async () => {
    const serials = fleet.all.filter((i) => i.feature.includes('Weather')).map((i) => i.serialNumber);
    expect(serials.length).toBeGreaterThan(0);
    const data = await rows('/data/weather', serials, MAY, MAY + 31 * DAY, '&period=PT1H');
    expect(data.length).toBeGreaterThan(500);
    for (const row of data) {
      expect(Object.keys(row)).toEqual([
        'time',
        'instrument',
        'windSpeed',
        'windDirection',
        'temperature',
        'pressure',
        'humidity',
        'precipitation',
      ]);
      if (num(row, 'pressure') !== null) {
        expect(num(row, 'pressure')).toBeGreaterThan(0.95);
        expect(num(row, 'pressure')).toBeLessThan(1.06);
      }
      if (num(row, 'humidity') !== null) expect(num(row, 'humidity')).toBeLessThanOrEqual(100);
      if (num(row, 'precipitation') !== null) expect(num(row, 'precipitation')).toBeGreaterThanOrEqual(0);
    }
    const wet = data.filter((r) => (num(r, 'precipitation') ?? 0) > 0.2);
    const dry = data.filter((r) => num(r, 'precipitation') === 0);
    expect(wet.length).toBeGreaterThan(10);
    const avg = (set: Row[], field: string) =>
      mean(set.map((r) => num(r, field)).filter((v): v is number => v !== null));
    expect(avg(wet, 'pressure')).toBeLessThan(avg(dry, 'pressure'));
    expect(avg(wet, 'windSpeed')).toBeGreaterThan(avg(dry, 'windSpeed'));
    // Afternoons are warmer than small hours.
    expect(
      avg(
        data.filter((r) => hourOf(r) === 15),
        'temperature',
      ),
    ).toBeGreaterThan(
      avg(
        data.filter((r) => hourOf(r) === 4),
        'temperature',
      ) + 2,
    );
  });
});

describe('particulates', () => {
  it('keep pM1 ≤ pM2p5 ≤ pM4p25 ≤ pM10 and peak in working hours', async () => {
    const data = await rows('/data/particulates', ofType('AirQuality'), MAY, MAY + 14 * DAY, '&period=PT1H');
    expect(data.length).toBeGreaterThan(300);
    for (const row of data) {
      expect(row.duration).toBeGreaterThan(0);
      const values = ['pM1', 'pM2p5', 'pM4p25', 'pM10'].map((f) => num(row, f));
      if (values.some((v) => v === null)) continue;
      for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThanOrEqual(values[i - 1]!);
    }
    const pm10 = (set: Row[]) => mean(set.map((r) => num(r, 'pM10') ?? 0));
    const working = data.filter((r) => weekday(r) && hourOf(r) >= 9 && hourOf(r) < 17);
    const night = data.filter((r) => hourOf(r) < 5);
    expect(pm10(working)).toBeGreaterThan(pm10(night) * 1.5);
  });
});

describe('gases', () => {
  it('are plausible (ppb; cO2 in ppm) with occasional missing readings as null', async () => {
    const data = await rows('/data/gases', ofType('AirQuality'), MAY, MAY + 7 * DAY);
    expect(data.length).toBeGreaterThan(10_000);
    let nulls = 0;
    for (const row of data) {
      for (const field of ['co', 'h2S', 'no', 'nO2', 'o3', 'sO2', 'cO2', 'voc']) {
        const value = num(row, field);
        if (value === null) {
          nulls++;
          continue;
        }
        expect(value).toBeGreaterThanOrEqual(0);
        if (field === 'cO2') {
          expect(value).toBeGreaterThanOrEqual(405);
          expect(value).toBeLessThanOrEqual(455);
        }
        if (field === 'nO2') expect(value).toBeLessThan(100);
      }
    }
    expect(nulls).toBeGreaterThan(0);
    expect(nulls / (data.length * 8)).toBeLessThan(0.02);
  });
});

describe('vibration', () => {
  it('PPV is higher during construction hours and carries dominant frequencies', async () => {
    const data = await rows('/data/vibration/PPV', ofType('Vibration'), MAY, MAY + 14 * DAY, '&period=PT10M');
    for (const row of data) {
      expect(Object.keys(row)).toEqual([
        'startTime',
        'duration',
        'instrument',
        'vMaxX',
        'vMaxY',
        'vMaxZ',
        'fDomX',
        'fDomY',
        'fDomZ',
      ]);
    }
    const z = (set: Row[]) => mean(set.map((r) => num(r, 'vMaxZ') ?? 0));
    const working = data.filter((r) => weekday(r) && hourOf(r) >= 9 && hourOf(r) < 17);
    const night = data.filter((r) => hourOf(r) < 6);
    expect(z(working)).toBeGreaterThan(z(night) * 3);
  });

  it('VDV over a period is the fourth root of the sum of the fourth powers of the minutes', async () => {
    const serial = ofType('Vibration')[0]!;
    const start = Date.UTC(2025, 4, 28, 10);
    const minutes = await rows('/data/vibration/VDV', [serial], start, start + HOUR);
    const [hour] = await rows('/data/vibration/VDV', [serial], start, start + HOUR, '&period=PT1H');
    const values = minutes.map((r) => num(r, 'vdvZ')).filter((v): v is number => v !== null);
    const expected = values.reduce((sum, v) => sum + v ** 4, 0) ** 0.25;
    expect(Math.abs(num(hour!, 'vdvZ')! - expected)).toBeLessThan(0.002);
  });
});

describe('environmental gaps', () => {
  it('an instrument that stopped recording has no data for its recent stretch', async () => {
    // Seed 2 has an air-quality instrument that is online but not measuring.
    const other = await demo(2);
    const stopped = other.fleet.all.filter(
      (i) => i.type !== 'Noise' && !other.fleet.status.get(i.serialNumber)?.measuring,
    );
    expect(stopped.length).toBeGreaterThan(0);
    for (const instrument of stopped) {
      const path = instrument.type === 'Vibration' ? '/data/vibration/PPV' : '/data/gases';
      const query = (start: number) =>
        `${path}?instruments=${instrument.serialNumber}&start=${iso(start)}&end=${iso(start + 2 * HOUR)}`;
      expect((await other.get(query(NOW - 2 * HOUR))).body).toEqual([]);
      // A week earlier it was recording.
      expect(((await other.get(query(NOW - 7 * DAY))).body as unknown[]).length).toBeGreaterThan(0);
    }
  });
});
