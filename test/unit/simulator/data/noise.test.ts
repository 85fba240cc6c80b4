import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WireErrorBody } from '../../../../src/shared/service/wire';
import {
  DAY,
  HOUR,
  NOW,
  demo,
  energeticMean,
  iso,
  samples,
  valueOf,
  type Fleet,
  type Measurement,
  type THRecord,
} from './data-helpers';

let get: Awaited<ReturnType<typeof demo>>['get'];
let fleet: Fleet;
let serial: string;
beforeAll(async () => {
  ({ get, fleet } = await demo());
  serial = fleet.recordingNoise[0]!.serialNumber;
});

/** A weekday well before now: Wednesday 28 May 2025. */
const DAY0 = Date.UTC(2025, 4, 28);

const measurements = async (query: string): Promise<Measurement[]> => {
  const response = await get<Measurement[]>(`/data/noise/measurements?${query}`);
  expect(response.status).toBe(200);
  return response.body;
};
const timeHistory = async (query: string): Promise<THRecord[]> => {
  const response = await get<THRecord[]>(`/data/noise/timehistory?${query}`);
  expect(response.status).toBe(200);
  return response.body;
};

describe('noise measurements', () => {
  it('answer 15-minute records of LAeq, LCPeak and LAFMax by default', async () => {
    const records = await measurements(
      `instruments=${serial}&start=${iso(DAY0)}&end=${iso(DAY0 + 2 * HOUR)}`,
    );
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      expect(record.values.map((v) => v.name)).toEqual(['LAeq', 'LCPeak', 'LAFMax']);
      expect(record.duration).toBe(900);
      expect(Date.parse(record.endTime) - Date.parse(record.startTime)).toBe(900_000);
      expect(record.instrument).toBe(serial);
      expect(typeof record.overload).toBe('boolean');
      expect(record.LeqT1Type).toBeUndefined();
    }
  });

  it('ignore unknown value names but refuse a request where every name is unknown', async () => {
    const range = `instruments=${serial}&start=${iso(DAY0)}&end=${iso(DAY0 + HOUR)}`;
    const some = await measurements(`${range}&values=LAeq,Bogus&values=LZZ`);
    expect(some[0]!.values.map((v) => v.name)).toEqual(['LAeq']);
    const none = await get<WireErrorBody>(`/data/noise/measurements?${range}&values=Bogus,LZZ`);
    expect(none.status).toBe(400);
    expect(none.body.description).toContain('Bogus');
  });

  it('refuse statistical levels with a period, and serve them without', async () => {
    const range = `instruments=${serial}&start=${iso(DAY0)}&end=${iso(DAY0 + HOUR)}`;
    const refused = await get<WireErrorBody>(
      `/data/noise/measurements?${range}&values=LAeq,LAF90&period=PT1H`,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.description).toContain('LAF90');
    const served = await measurements(`${range}&values=LAF90`);
    expect(served).toHaveLength(4);
  });

  it('carry LeqT1Type and LeqT2Type when a moving average is asked for', async () => {
    const records = await measurements(
      `instruments=${serial}&start=${iso(DAY0)}&end=${iso(DAY0 + HOUR)}&values=LeqT2Max`,
    );
    expect(records[0]!.LeqT1Type).toBe('LAeq,1min');
    expect(records[0]!.LeqT2Type).toBe('LAeq,5min');
  });

  it('hang together like real acoustics', async () => {
    const names = [
      'LAeq',
      'LCeq',
      'LZeq',
      'LAE',
      'LEX8',
      'LAPeak',
      'LCPeak',
      'LZPeak',
      'LAFMax',
      'LASMax',
      'LAIMax',
      'LCFMax',
      'LAF1',
      'LAF5',
      'LAF10',
      'LAF50',
      'LAF90',
      'LAF95',
      'LAF99',
      'LeqT1Max',
      'LeqT2Max',
    ];
    const serials = fleet.recordingNoise.map((i) => i.serialNumber).join(',');
    const records = await measurements(
      `instruments=${serials}&start=${iso(DAY0)}&end=${iso(DAY0 + DAY)}&values=${names.join(',')}`,
    );
    expect(records.length).toBeGreaterThan(90);
    for (const r of records) {
      const v = (name: string) => valueOf(r, name);
      expect(v('LAFMax')).toBeGreaterThanOrEqual(v('LAeq'));
      expect(v('LCPeak')).toBeGreaterThanOrEqual(v('LAFMax'));
      expect(v('LAPeak')).toBeGreaterThanOrEqual(v('LAFMax'));
      expect(v('LAIMax')).toBeGreaterThanOrEqual(v('LAFMax'));
      expect(v('LASMax')).toBeLessThanOrEqual(v('LAFMax'));
      expect(v('LAFMax')).toBeGreaterThanOrEqual(v('LAF1'));
      const stats = ['LAF1', 'LAF5', 'LAF10', 'LAF50', 'LAF90', 'LAF95', 'LAF99'].map(v);
      for (let i = 1; i < stats.length; i++) expect(stats[i - 1]).toBeGreaterThanOrEqual(stats[i]!);
      expect(v('LeqT1Max')).toBeGreaterThanOrEqual(v('LeqT2Max') - 0.05);
      expect(v('LeqT2Max')).toBeGreaterThanOrEqual(v('LAeq') - 0.05);
      expect(v('LAE')).toBeCloseTo(v('LAeq') + 10 * Math.log10(r.duration), 0);
      expect(Math.abs(v('LAE') - v('LAeq') - 10 * Math.log10(r.duration))).toBeLessThanOrEqual(0.1);
      expect(Math.abs(v('LEX8') - (v('LAE') - 10 * Math.log10(8 * 3600)))).toBeLessThanOrEqual(0.1);
      // Road traffic carries more low-frequency energy than the A-weighting lets through.
      expect(v('LCeq')).toBeGreaterThan(v('LAeq'));
    }
  });

  it('recalculate a period as the energetic mean and the maximum of the recorded records', async () => {
    const range = `instruments=${serial}&start=${iso(DAY0)}&end=${iso(DAY0 + DAY)}&values=LAeq,LAFMax,LCPeak,LAE`;
    const fine = await measurements(range);
    const hourly = await measurements(`${range}&period=PT1H`);
    expect(hourly.length).toBeGreaterThan(0);
    for (const hour of hourly) {
      const t = Date.parse(hour.startTime);
      const parts = fine.filter((r) => Date.parse(r.startTime) >= t && Date.parse(r.startTime) < t + HOUR);
      expect(hour.duration).toBe(parts.length * 900);
      expect(
        Math.abs(valueOf(hour, 'LAeq') - energeticMean(parts.map((p) => valueOf(p, 'LAeq')))),
      ).toBeLessThanOrEqual(0.1);
      expect(valueOf(hour, 'LAFMax')).toBe(Math.max(...parts.map((p) => valueOf(p, 'LAFMax'))));
      expect(valueOf(hour, 'LCPeak')).toBe(Math.max(...parts.map((p) => valueOf(p, 'LCPeak'))));
      // An arithmetic mean would sit lower whenever the levels differ.
      const arithmetic = parts.reduce((sum, p) => sum + valueOf(p, 'LAeq'), 0) / parts.length;
      expect(valueOf(hour, 'LAeq')).toBeGreaterThanOrEqual(arithmetic - 0.05);
    }
  });

  it('are quiet at night and busy by day on every recording instrument', async () => {
    for (const instrument of fleet.recordingNoise) {
      const records = await measurements(
        `instruments=${instrument.serialNumber}&start=${iso(DAY0)}&end=${iso(DAY0 + DAY)}&values=LAeq&period=PT1H`,
      );
      const at = (hour: number) => records.find((r) => new Date(r.startTime).getUTCHours() === hour);
      const night = at(3);
      const day = at(11) ?? at(14);
      if (!night || !day) continue; // an outage; the other instruments still check
      expect(valueOf(night, 'LAeq')).toBeGreaterThan(38);
      expect(valueOf(night, 'LAeq')).toBeLessThan(54);
      expect(valueOf(day, 'LAeq')).toBeGreaterThan(60);
      expect(valueOf(day, 'LAeq')).toBeLessThan(78);
      expect(valueOf(day, 'LAeq') - valueOf(night, 'LAeq')).toBeGreaterThan(10);
    }
  });

  it('are the same for the same query, and for a new service with the same seed', async () => {
    const query = `instruments=${serial}&start=${iso(DAY0)}&end=${iso(DAY0 + 6 * HOUR)}&values=LAeq,LAF10`;
    const first = await measurements(query);
    expect(await measurements(query)).toEqual(first);
    const other = await demo();
    expect((await other.get(`/data/noise/measurements?${query}`)).body).toEqual(first);
  });
});

describe('instruments that were offline', () => {
  it('have no data for their recent offline stretch, while recording ones reach now', async () => {
    const stopped = fleet.noise.filter((i) => !fleet.status.get(i.serialNumber)?.measuring);
    expect(stopped.length).toBeGreaterThan(0);
    const range = `start=${iso(NOW - 3 * DAY)}&end=${iso(NOW)}&values=LAeq`;
    for (const instrument of stopped) {
      const records = await measurements(`instruments=${instrument.serialNumber}&${range}`);
      const last = Math.max(...records.map((r) => Date.parse(r.endTime)));
      expect(last).toBeLessThanOrEqual(NOW - 2 * HOUR);
    }
    for (const instrument of fleet.recordingNoise) {
      const records = await measurements(`instruments=${instrument.serialNumber}&${range}`);
      expect(records.at(-1)!.endTime).toBe(iso(NOW));
    }
  });

  it('show occasional outages of hours for everyone, as gaps between time history blocks', async () => {
    // Over May, some instrument is missing some 15-minute records.
    const serials = fleet.recordingNoise.map((i) => i.serialNumber);
    let gapSerial: string | undefined;
    let gapStart = 0;
    for (const s of serials) {
      const records = await measurements(
        `instruments=${s}&start=${iso(Date.UTC(2025, 4, 1))}&end=${iso(Date.UTC(2025, 4, 31))}&values=LAeq&period=PT1H`,
      );
      const short = records.find((r) => r.duration < 3600);
      if (short) {
        gapSerial = s;
        gapStart = Date.parse(short.startTime);
        break;
      }
    }
    expect(gapSerial).toBeDefined();
    const [record] = await timeHistory(
      `instruments=${gapSerial}&start=${iso(gapStart - 12 * HOUR)}&end=${iso(gapStart + 12 * HOUR)}&values=LAeq&period=PT1M`,
    );
    const blocks = record!.blocks;
    const gaps = blocks.slice(1).filter((b, i) => Date.parse(b.start) > Date.parse(blocks[i]!.end));
    expect(gaps.length).toBeGreaterThan(0);
  });
});

describe('noise time history', () => {
  it('is one record per value with 1 s samples by default, in blocks of at most an hour', async () => {
    const records = await timeHistory(`instruments=${serial}&start=${iso(DAY0)}&end=${iso(DAY0 + 2 * HOUR)}`);
    expect(records.map((r) => r.type)).toEqual(['LAeq', 'LCPeak', 'LAFMax']);
    for (const record of records) {
      for (const block of record.blocks) {
        expect(block.sampleDuration).toBe(1000);
        expect(block.values.length).toBe((Date.parse(block.end) - Date.parse(block.start)) / 1000);
        expect(block.values.length).toBeLessThanOrEqual(3600);
      }
    }
    const [laeq, lcpeak, lafmax] = records.map(samples);
    laeq!.forEach(([, value], i) => {
      expect(lafmax![i]![1]).toBeGreaterThanOrEqual(value);
      expect(lcpeak![i]![1]).toBeGreaterThanOrEqual(lafmax![i]![1]);
    });
  });

  it('refuses values that have no time history when nothing else is asked for', async () => {
    const response = await get<WireErrorBody>(
      `/data/noise/timehistory?instruments=${serial}&start=${iso(DAY0)}&end=${iso(DAY0 + HOUR)}&values=LAF90`,
    );
    expect(response.status).toBe(400);
  });

  it('agrees with the measurements: 900 one-second LAeq make the 15-minute LAeq', async () => {
    const range = `instruments=${serial}&start=${iso(DAY0 + 9 * HOUR)}&end=${iso(DAY0 + 10 * HOUR)}`;
    const [th] = await timeHistory(`${range}&values=LAeq`);
    const records = await measurements(`${range}&values=LAeq,LAFMax`);
    const values = samples(th!);
    for (const record of records) {
      const t = Date.parse(record.startTime);
      const inside = values.filter(([time]) => time >= t && time < t + 900_000).map(([, v]) => v);
      expect(inside).toHaveLength(900);
      expect(Math.abs(energeticMean(inside) - valueOf(record, 'LAeq'))).toBeLessThanOrEqual(0.1);
    }
  });

  it('recalculates a period from the 1 s samples (energetic mean; maximum for maxima)', async () => {
    const base = DAY0 + 8 * HOUR;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 60 }),
        fc.integer({ min: 0, max: 3000 }),
        async (n, offset) => {
          const start = base + offset * 1000;
          const range = `instruments=${serial}&start=${iso(start)}&end=${iso(start + 5 * 60_000)}&values=LAeq,LAFMax`;
          const [fineLeq, fineMax] = (await timeHistory(range)).map(samples);
          const [coarseLeq, coarseMax] = (await timeHistory(`${range}&period=PT${n}S`)).map(samples);
          expect(coarseLeq!.length).toBeGreaterThan(0);
          coarseLeq!.forEach(([t, value], i) => {
            expect(t % (n * 1000)).toBe(0);
            const parts = fineLeq!.filter(([time]) => time >= t && time < t + n * 1000);
            // Samples overlapping the range edges reach outside it: check the whole ones.
            if (parts.length < n) return;
            expect(Math.abs(value - energeticMean(parts.map(([, v]) => v)))).toBeLessThanOrEqual(0.1);
            const maxParts = fineMax!.filter(([time]) => time >= t && time < t + n * 1000).map(([, v]) => v);
            expect(coarseMax![i]![1]).toBe(Math.max(...maxParts));
          });
        },
      ),
      { numRuns: 15 },
    );
  });

  it('splits seconds into ten 100 ms samples whose energetic mean is the second', async () => {
    const range = `instruments=${serial}&start=${iso(DAY0 + 12 * HOUR)}&end=${iso(DAY0 + 12 * HOUR + 60_000)}&values=LAeq`;
    const [second] = (await timeHistory(range)).map(samples);
    const [tenth] = (await timeHistory(`${range}&period=PT0.1S`)).map(samples);
    expect(tenth).toHaveLength(600);
    second!.forEach(([t, value], i) => {
      const parts = tenth!.slice(i * 10, i * 10 + 10);
      expect(parts[0]![0]).toBe(t);
      expect(Math.abs(value - energeticMean(parts.map(([, v]) => v)))).toBeLessThanOrEqual(0.1);
    });
  });

  it('answers a sub-range with exactly the overlapping samples of a larger query', async () => {
    const big = DAY0 + 7 * HOUR;
    const [whole] = (
      await timeHistory(`instruments=${serial}&start=${iso(big)}&end=${iso(big + 2 * HOUR)}&values=LAeq`)
    ).map(samples);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 7000 }),
        fc.integer({ min: 1, max: 1200 }),
        async (from, length) => {
          const start = big + from * 1000 + 250; // mid-sample starts round down to the sample
          const end = Math.min(big + 2 * HOUR, start + length * 1000);
          const [part] = (
            await timeHistory(`instruments=${serial}&start=${iso(start)}&end=${iso(end)}&values=LAeq`)
          ).map(samples);
          const expected = whole!.filter(([t]) => t + 1000 > start && t < end);
          expect(part).toEqual(expected);
        },
      ),
      { numRuns: 20 },
    );
  });

  it('answers a full week of 1 s samples: 604,800 of them', async () => {
    // A week in which one recording instrument had no outage (found from its daily records).
    let found: { serial: string; start: number } | undefined;
    for (const instrument of fleet.recordingNoise) {
      for (let week = 1; week <= 8 && !found; week++) {
        const start = Date.UTC(2025, 4, 26) - week * 7 * DAY;
        const daily = await measurements(
          `instruments=${instrument.serialNumber}&start=${iso(start)}&end=${iso(start + 7 * DAY)}&values=LAeq&period=P1D`,
        );
        if (daily.length === 7 && daily.every((d) => d.duration === 86_400)) {
          found = { serial: instrument.serialNumber, start };
        }
      }
      if (found) break;
    }
    expect(found).toBeDefined();
    const [record] = await timeHistory(
      `instruments=${found!.serial}&start=${iso(found!.start)}&end=${iso(found!.start + 7 * DAY)}&values=LAeq`,
    );
    const count = record!.blocks.reduce((sum, block) => sum + block.values.length, 0);
    expect(count).toBe(604_800);
    expect(record!.blocks).toHaveLength(7 * 24);
  });
});
