/**
 * The data client without the demo service: request planning (property tests), checks before
 * sending, and robust parsing of scripted answers (case variants, offset-less times, nulls,
 * unknown fields, bad times), the gap convention, and split answers joining to a single one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createDataClient, type DataClientOptions } from '../../../src/main/backend/service/data-client';
import { canonicalBandName } from '../../../src/main/backend/service/parse/names';
import { bandCentreFrequency } from '../../../src/shared/service/bands';
import { parseDataset } from '../../../src/main/backend/service/parse/records';
import { TOLERANCE_MS } from '../../../src/main/backend/service/parse/series';
import type { Answer } from '../../../src/main/backend/service/parse/time-history';
import { createCacheStore } from '../../../src/main/backend/cache/cache-store';
import { useTempDatabaseFolder } from './temp-database';
import { DATA_ENDPOINT_LIMITS } from '../../../src/shared/service/limits';
import { DATASETS, type Dataset, type DatasetQuery, type SeriesChannel } from '../../../src/shared/data';
import { FieldDeskError } from '../../../src/shared/errors';
import { formatServiceTime } from '../../../src/shared/service/time';
import { sendJson, startTestServer, type TestServer } from './helpers';

const API_KEY = 'sk-data-test-key';
const T0 = Date.UTC(2025, 5, 1);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A scripted service answering every request with `body(url)`. */
async function scripted(body: (url: URL) => unknown, extra: Partial<DataClientOptions> = {}) {
  const server = await startTestServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    sendJson(res, 200, body(url));
  });
  servers.push(server);
  const client = createDataClient({
    baseUrl: server.baseUrl,
    apiKey: API_KEY,
    timeoutMs: 2_000,
    retry: { limit: 0 },
    ...extra,
  });
  return { server, client };
}

const q = (
  dataset: Dataset,
  start = T0,
  end = T0 + HOUR,
  options?: DatasetQuery['options'],
): DatasetQuery => ({
  serial: 'QT1',
  dataset,
  start,
  end,
  ...(options ? { options } : {}),
});

function refusal(run: () => unknown): FieldDeskError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FieldDeskError);
    return error as FieldDeskError;
  }
  throw new Error('expected a refusal');
}

const channel = (series: SeriesChannel[], name: string): SeriesChannel => {
  const found = series.find((c) => c.name === name);
  if (!found) throw new Error(`no channel ${name}`);
  return found;
};

describe('band names', () => {
  it.each([
    ['31.5Hz', 31.5],
    ['1KHz', 1000],
    ['1.25KHz3', 1250],
    ['6.3Hz3', 6.3],
    ['63Hz', 63],
    ['20KHz3', 20_000],
    ['_8KHz', 8000],
    ['1khz', 1000],
  ])('%s is centred on %d Hz', (name, hz) => {
    expect(bandCentreFrequency(name)).toBe(hz);
  });

  it('refuses what is not a band and canonicalises spelling', () => {
    expect(bandCentreFrequency('LAeq')).toBeNull();
    expect(bandCentreFrequency('Hz')).toBeNull();
    expect(canonicalBandName('1.25khz3')).toBe('1.25KHz');
    expect(canonicalBandName('16KHz3')).toBe('16KHz');
    expect(canonicalBandName('Overall')).toBe('Overall');
  });
});

describe('planning requests', () => {
  const client = createDataClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: API_KEY });
  const limitOf = (dataset: Dataset) =>
    dataset === 'vibrationPPV' || dataset === 'vibrationVDV'
      ? DATA_ENDPOINT_LIMITS.vibration.maxRangeMs
      : DATA_ENDPOINT_LIMITS[dataset].maxRangeMs;

  it('covers [start, end) exactly with consecutive pieces within the endpoint maximum', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DATASETS),
        fc.integer({ min: T0 - 3000 * DAY, max: T0 }),
        fc.integer({ min: 1, max: 800 * DAY }),
        (dataset, start, length) => {
          const end = start + length;
          const pieces = client.planRequests({ serial: 'QT1', dataset, start, end });
          const max = limitOf(dataset);
          expect(pieces[0]!.start).toBe(start);
          expect(pieces[pieces.length - 1]!.end).toBe(end);
          expect(pieces.length).toBe(Math.ceil(length / max));
          pieces.forEach((piece, i) => {
            expect(piece.end).toBeGreaterThan(piece.start);
            expect(piece.end - piece.start).toBeLessThanOrEqual(max);
            if (i > 0) expect(piece.start).toBe(pieces[i - 1]!.end);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('honours a smaller per-dataset maximum, never a larger one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 * DAY }),
        fc.integer({ min: 1000, max: 40 * DAY }),
        (length, override) => {
          const c = createDataClient({
            baseUrl: 'http://127.0.0.1:9/v1',
            apiKey: API_KEY,
            maxRangeMs: { frequencyTimeHistory: override },
          });
          const pieces = c.planRequests(q('frequencyTimeHistory', T0, T0 + length));
          const max = Math.min(override, DAY);
          expect(pieces.every((p) => p.end - p.start <= max)).toBe(true);
          expect(pieces.length).toBe(Math.ceil(length / max));
        },
      ),
    );
  });

  it('refuses an invalid query when planning too', () => {
    expect(() => client.planRequests(q('weather', T0, T0))).toThrow(FieldDeskError);
  });
});

describe('checks before sending', () => {
  const client = createDataClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: API_KEY });

  it('refuses an empty range, a missing serial, and an unknown dataset', () => {
    expect(refusal(() => client.validate(q('weather', T0, T0))).field).toBe('end');
    expect(refusal(() => client.validate({ ...q('weather'), serial: ' ' })).message).toBe(
      'The query parameter instruments is required, e.g. instruments=QT123456.',
    );
    expect(refusal(() => client.validate({ ...q('weather'), dataset: 'noise' as Dataset })).field).toBe(
      'dataset',
    );
    expect(refusal(() => client.validate(q('weather', T0, Number.NaN))).field).toBe('end');
  });

  it('accepts the bounds themselves and fractional seconds only on time history', () => {
    client.validate(q('noiseTimeHistory', T0, T0 + HOUR, { period: 'PT0.1S' }));
    client.validate(q('noiseTimeHistory', T0, T0 + HOUR, { period: 'PT1M' }));
    client.validate(q('noiseMeasurements', T0, T0 + HOUR, { period: 'PT15M' }));
    client.validate(q('weather', T0, T0 + HOUR, { period: 'P1D' }));
    expect(refusal(() => client.validate(q('weather', T0, T0 + HOUR, { period: 'PT90.5S' }))).message).toBe(
      'The query parameter period (PT90.5S) must be whole seconds on /data/weather.',
    );
    expect(refusal(() => client.validate(q('weather', T0, T0 + HOUR, { period: 'PT59S' }))).message).toBe(
      'The query parameter period (PT59S) must be from 1 min to 1 day on /data/weather.',
    );
  });

  it('takes the instrument-dependent minimums from an option', () => {
    expect(() => client.validate(q('noiseMeasurements', T0, T0 + HOUR, { period: 'PT5M' }))).toThrow(
      'must be from 15 min to 1 day',
    );
    const fiveMinutes = createDataClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: API_KEY,
      instrumentPeriods: (serial) => (serial === 'QT1' ? { measurementPeriodMs: 5 * 60_000 } : undefined),
    });
    fiveMinutes.validate(q('noiseMeasurements', T0, T0 + HOUR, { period: 'PT5M' }));
    expect(() =>
      fiveMinutes.validate({ ...q('noiseMeasurements', T0, T0 + HOUR, { period: 'PT5M' }), serial: 'QT2' }),
    ).toThrow('must be from 15 min');
    const oneSecondTh = createDataClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: API_KEY,
      instrumentPeriods: { timeHistoryPeriodMs: 1000 },
    });
    expect(() => oneSecondTh.validate(q('noiseTimeHistory', T0, T0 + HOUR, { period: 'PT0.5S' }))).toThrow(
      'The query parameter period (PT0.5S) must be from 1 s to 1 min on /data/noise/timehistory.',
    );
  });

  it('refuses statistical levels on time history as all-invalid', () => {
    expect(
      refusal(() => client.validate(q('noiseTimeHistory', T0, T0 + HOUR, { values: ['LAF90', 'LeqT1Max'] })))
        .field,
    ).toBe('values');
    client.validate(q('noiseTimeHistory', T0, T0 + HOUR, { values: ['laeq', 'LXX'] }));
  });

  it('sends only the options that apply, and leaves out a period statistics do not allow', async () => {
    const { server, client: c } = await scripted(() => []);
    await c.fetchDataset(
      q('calibrations', T0, T0 + DAY, { period: 'PT1M', values: ['LAeq'], bands: 'Third' }),
    );
    await c.fetchDataset(
      q('noiseMeasurements', T0, T0 + DAY, { period: 'PT15M', values: ['LAF90', 'LAeq'] }),
    );
    await c.fetchDataset(
      q('frequencyMeasurements', T0, T0 + DAY, {
        bands: 'third' as never,
        weighting: 'a' as never,
        values: [],
      }),
    );
    await c.fetchDataset(q('noiseTimeHistory', T0, T0 + DAY, { values: [] }));
    const params = server.requests.map((r) => Object.fromEntries(new URL(r.url, 'http://x').searchParams));
    const base = { instruments: 'QT1', start: formatServiceTime(T0), end: formatServiceTime(T0 + DAY) };
    expect(params).toEqual([
      base,
      { ...base, values: 'LAF90,LAeq' },
      { ...base, bands: 'Third', weighting: 'A' },
      base,
    ]);
    expect(server.requests.map((r) => new URL(r.url, 'http://x').pathname)).toEqual([
      '/v1/data/calibrations',
      '/v1/data/noise/measurements',
      '/v1/data/frequency/measurements',
      '/v1/data/noise/timehistory',
    ]);
  });
});

describe('parsing answers', () => {
  it("event time history: the documented sample's placeholders become gaps and notes, the numbers stay", async () => {
    const { client } = await scripted(() => [
      {
        type: 'LAeq',
        blocks: [
          {
            start: '2025-06-01T00:00:00Z',
            sampleDuration: 100,
            values: [61.2, 'string', 63.4, null, '64.5'],
          },
          'string',
          { start: '2025-06-01T00:00:01Z', sampleDuration: 100, values: 'string' },
        ],
      },
    ]);
    const { series, notes } = await client.eventTimeHistory('th_1');
    expect(series).toHaveLength(1);
    const laeq = series[0]!;
    const readings = Array.from(laeq.values).filter((v) => !Number.isNaN(v));
    expect(readings).toEqual([61.2, 63.4, 64.5].map(Math.fround));
    // The placeholder is a gap at its own time, not a reading and not left out of the timeline.
    const at = (t: number) => laeq.values[Array.from(laeq.times).indexOf(T0 + t)];
    expect(at(100)).toBeNaN();
    expect(at(200)).toBe(Math.fround(63.4));
    expect(notes).toEqual([
      'The service sent one reading as text instead of a number; it shows as a gap.',
      'The service sent 2 blocks of readings that could not be read; they are left out.',
    ]);
  });

  it("monitor current: the documented answer names no instrument; for one serial it is that serial's", async () => {
    const documented = {
      cpu: 12,
      mem: 41.5,
      temp: 48,
      voltage: 12.1,
      disk: 30,
      network: 96,
      simQuota: 5000,
      simUsage: 1200,
      uptime: 86400,
    };
    const { client } = await scripted(() => [documented]);
    expect(await client.monitorCurrent(['QT1'])).toEqual([{ ...documented, instrument: 'QT1' }]);
    // Asked for two, an unnamed state cannot be placed: it is kept without a serial, never guessed.
    expect((await client.monitorCurrent(['QT1', 'QT2']))[0]!.instrument).toBeNull();
  });

  it('noise time history still refuses text where a reading should be (only the event time history is documented with placeholders)', async () => {
    const { client } = await scripted(() => [
      {
        type: 'LAeq',
        blocks: [{ start: '2025-06-01T00:00:00Z', sampleDuration: 1000, values: [61.2, 'string'] }],
      },
    ]);
    await expect(client.fetchDataset(q('noiseTimeHistory', T0, T0 + HOUR))).rejects.toMatchObject({
      code: 'badResponse',
    });
  });

  it('weather: case variants, offset-less times with 7 digits, unknown fields, nulls', async () => {
    const { client } = await scripted(() => [
      {
        Time: '2025-06-01T00:00:00.1234567',
        Instrument: 'QT1',
        WindSpeed: 3.5,
        winddirection: 270,
        temperature: null,
        pressure: 1.013,
        Humidity: 80,
        precipitation: 0,
        gustSpeed: 9, // not in the interface: ignored
      },
      {
        time: '2025-06-01T00:01:00+01:00',
        instrument: 'QT1',
        windSpeed: null,
        windDirection: 10,
        temperature: 12,
      },
      { time: '2025-06-01T00:02:00Z', instrument: 'QT1', windSpeed: 4, windDirection: 11, temperature: 12.5 },
    ]);
    // The +01:00 record is 23:01 UTC the day before: outside the range, dropped.
    const chunk = await client.fetchDataset(q('weather', T0, T0 + HOUR));
    const rows = chunk.records!.rows;
    expect(rows.map((r) => r.time)).toEqual([T0 + 123, T0 + 120_000]);
    expect(rows[0]).toEqual({
      time: T0 + 123,
      windSpeed: 3.5,
      windDirection: 270,
      temperature: null,
      pressure: 1.013,
      humidity: 80,
      precipitation: 0,
    });
    expect(rows[1]!.pressure).toBeNull();
    const temperature = channel(chunk.series, 'temperature');
    expect(temperature.unit).toBe('°C');
    // A null is NaN, never zero; the 1-minute hole at 00:01 gets a marker at 00:01:00.123.
    expect(Array.from(temperature.times)).toEqual([T0 + 123, T0 + 60_123, T0 + 120_000, T0 + 180_000]);
    expect(Array.from(temperature.values)).toEqual([NaN, NaN, 12.5, NaN]);
    expect(chunk.records!.columns.find((c) => c.key === 'pressure')).toEqual({
      key: 'pressure',
      label: 'Pressure',
      unit: 'bar',
      type: 'number',
    });
    expect(chunk.records!.timeKey).toBe('time');
  });

  it('a record with an unreadable time fails as badResponse naming the dataset and field', async () => {
    const { client } = await scripted(() => [
      { startTime: '2025-06-01T00:00:00Z', pM1: 1 },
      { startTime: 'yesterday', pM1: 2 },
    ]);
    const error = await client.fetchDataset(q('particulates')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FieldDeskError);
    expect((error as FieldDeskError).code).toBe('badResponse');
    expect((error as FieldDeskError).message).toBe(
      'The service sent particulate records with an unreadable startTime ("yesterday") (record 2): FieldDesk expected an ISO 8601 date-time such as 2025-06-01T00:00:00Z.',
    );
  });

  it('missing times, wrong kinds and non-lists fail with plain messages', async () => {
    const answers: unknown[] = [
      [{ level: 94 }],
      [{ time: '2025-06-01T00:00:00Z', level: 'loud' }],
      { records: [] },
      [
        {
          instrument: 'QT1',
          type: 'LAeq',
          blocks: [{ start: '2025-06-01T00:00:00Z', sampleDuration: 0, values: [1] }],
        },
      ],
    ];
    let n = 0;
    const { client } = await scripted(() => answers[n++]);
    const messages: string[] = [];
    for (const dataset of ['calibrations', 'calibrations', 'sic', 'noiseTimeHistory'] as const) {
      const error = (await client.fetchDataset(q(dataset)).catch((e: unknown) => e)) as FieldDeskError;
      expect(error.code).toBe('badResponse');
      messages.push(error.message);
    }
    expect(messages).toEqual([
      'The service sent calibration records without a time (record 1).',
      'The service sent calibration records whose level is text ("loud") instead of a number (record 1).',
      'The service sent an object where FieldDesk expected a list of SIC records.',
      'The service sent noise time history with a blocks.sampleDuration (0) that is not a positive number of milliseconds (record 1, block 1).',
    ]);
  });

  it('time history: blocks concatenated, sampleDuration in ms, nulls NaN, gaps marked once', async () => {
    const { client } = await scripted(() => [
      {
        Instrument: 'QT1',
        Type: 'laeq',
        Blocks: [
          // Out of order on purpose; the second block follows a 1-second hole.
          { Start: '2025-06-01T00:00:01.5', End: '…', SampleDuration: 100, Values: [40, null, 42] },
          {
            start: '2025-06-01T00:00:00Z',
            end: '2025-06-01T00:00:00.2Z',
            sampleDuration: 100,
            values: [30, 31],
          },
        ],
      },
      {
        instrument: 'QT9',
        type: 'LAeq',
        blocks: [{ start: '2025-06-01T00:00:00Z', sampleDuration: 100, values: [99] }],
      },
    ]);
    const chunk = await client.fetchDataset(q('noiseTimeHistory', T0, T0 + 1800));
    expect(chunk.records).toBeNull();
    expect(chunk.series).toHaveLength(1);
    const laeq = chunk.series[0]!;
    expect(laeq.name).toBe('LAeq');
    expect(laeq.unit).toBe('dB');
    expect(Array.from(laeq.times)).toEqual([T0, T0 + 100, T0 + 200, T0 + 1500, T0 + 1600, T0 + 1700]);
    expect(Array.from(laeq.values)).toEqual([30, 31, NaN, 40, NaN, 42]);
  });

  it('frequency time history: a channel per band, names canonical, case variants read', async () => {
    const { client } = await scripted(() => [
      {
        instrument: 'QT1',
        type: 'Octave',
        blocks: [
          {
            start: '2025-06-01T00:00:00Z',
            sampleDuration: 1000,
            Bands: [
              { Name: '1KHz3', Values: [50, 51] },
              { name: '31.5Hz', values: [60, null] },
            ],
          },
        ],
      },
    ]);
    const chunk = await client.fetchDataset(q('frequencyTimeHistory', T0, T0 + 2000));
    expect(chunk.series.map((c) => [c.name, c.unit, Array.from(c.values)])).toEqual([
      ['1KHz', 'dB', [50, 51]],
      ['31.5Hz', 'dB', [60, NaN]],
    ]);
  });

  it('measurements: a row per record with its values, a series per value at the start time', async () => {
    const { client } = await scripted(() => [
      {
        StartTime: '2025-06-01T00:00:00',
        endTime: '2025-06-01T00:15:00',
        Duration: 900,
        overload: false,
        values: [
          { Name: 'laeq', Value: 55.5 },
          { name: 'LAF90', value: null },
        ],
      },
      {
        startTime: '2025-06-01T00:15:00Z',
        endTime: '2025-06-01T00:30:00Z',
        duration: 900,
        overload: true,
        values: [{ name: 'LAeq', value: 57 }],
        LeqT1Type: 'LAeq,1min',
      },
    ]);
    const chunk = await client.fetchDataset(q('noiseMeasurements', T0, T0 + 30 * 60_000));
    expect(chunk.records!.columns.map((c) => [c.key, c.unit])).toEqual([
      ['startTime', null],
      ['endTime', null],
      ['duration', 's'],
      ['overload', null],
      ['LAeq', 'dB'],
      ['LAF90', 'dB'],
      ['LeqT1Type', null],
    ]);
    expect(chunk.records!.rows[1]).toEqual({
      startTime: T0 + 15 * 60_000,
      endTime: T0 + 30 * 60_000,
      duration: 900,
      overload: true,
      LAeq: 57,
      LAF90: null,
      LeqT1Type: 'LAeq,1min',
    });
    expect(Array.from(channel(chunk.series, 'LAeq').times)).toEqual([T0, T0 + 15 * 60_000]);
    expect(Array.from(channel(chunk.series, 'LAF90').values)).toEqual([NaN, NaN]);
  });

  it('monitor events show whatever fields arrive; events show band lists as text', async () => {
    const answers: unknown[] = [
      [
        {
          time: '2025-06-01T00:10:00Z',
          instrument: 'QT1',
          type: 'Reboot',
          message: 'Restarted.',
          severity: 2,
        },
      ],
      [
        {
          type: 'Noise',
          name: 'High',
          level: 75,
          startTime: '2025-06-01T00:00:05Z',
          endTime: '2025-06-01T00:00:15Z',
          audioTime: null,
          instrument: 'QT1',
          overall: [73.5, 81.6, 95.9],
          octave: null,
          thirdOctave: null,
          timeHistoryId: 'th_1',
          audioId: null,
        },
      ],
    ];
    let n = 0;
    const { client } = await scripted(() => answers[n++]);
    const monitor = await client.fetchDataset(q('monitorEvents'));
    expect(monitor.records!.columns.map((c) => c.key)).toEqual(['time', 'type', 'message', 'severity']);
    expect(monitor.records!.rows[0]!.severity).toBe(2);
    const events = await client.fetchDataset(q('events'));
    expect(events.records!.rows[0]).toMatchObject({
      overall: '73.5, 81.6, 95.9',
      octave: null,
      timeHistoryId: 'th_1',
    });
    expect(events.series).toEqual([]);
  });

  it('counts the bytes of the answers', async () => {
    const body = [{ time: '2025-06-01T00:00:00Z', status: 'Success', level: 94, offset: 0.1 }];
    const { client } = await scripted(() => body, { maxRangeMs: { calibrations: 20 * 60_000 } });
    const chunk = await client.fetchDataset(q('calibrations', T0, T0 + HOUR));
    expect(chunk.bytes).toBe(3 * Buffer.byteLength(JSON.stringify(body)));
    expect(chunk.records!.rows).toHaveLength(1);
    // Calibrations are points: no gap markers.
    expect(Array.from(channel(chunk.series, 'level').values)).toEqual([94]);
  });
});

/**
 * A synthetic instrument sampled on a grid of `step` ms from T0, with chosen samples missing,
 * answering like the service: samples whose slot overlaps [start, end), i.e. from the slot
 * containing `start`; time history in blocks split at gaps and every `blockLength` samples.
 */
function syntheticService(step: number, recorded: boolean[], blockLength: number) {
  const level = (i: number) => 40 + ((i * 7) % 23);
  const slots = (start: number, end: number) => {
    const out: number[] = [];
    for (
      let i = Math.max(0, Math.floor((start - T0) / step));
      T0 + i * step < end && i < recorded.length;
      i++
    ) {
      if (recorded[i]) out.push(i);
    }
    return out;
  };
  return {
    timeHistory(interval: { start: number; end: number }): Answer {
      const blocks: Array<{ start: string; sampleDuration: number; values: number[] }> = [];
      let last = -2;
      for (const i of slots(interval.start, interval.end)) {
        if (i !== last + 1 || i % blockLength === 0) {
          blocks.push({ start: formatServiceTime(T0 + i * step), sampleDuration: step, values: [] });
        }
        blocks[blocks.length - 1]!.values.push(level(i));
        last = i;
      }
      return { interval, data: [{ instrument: 'QT1', type: 'LAeq', blocks }] };
    },
    measurements(interval: { start: number; end: number }): Answer {
      return {
        interval,
        data: slots(interval.start, interval.end).map((i) => ({
          startTime: formatServiceTime(T0 + i * step),
          endTime: formatServiceTime(T0 + (i + 1) * step),
          duration: step / 1000,
          overload: false,
          values: [{ name: 'LAeq', value: level(i) }],
        })),
      };
    },
  };
}

/** A channel as a chart draws it: runs of readings, broken wherever a NaN lies between them. */
function lines(c: SeriesChannel): Array<Array<[number, number]>> {
  const runs: Array<Array<[number, number]>> = [[]];
  c.values.forEach((value, i) => {
    if (Number.isNaN(value)) runs.push([]);
    else runs[runs.length - 1]!.push([c.times[i]!, value]);
  });
  return runs.filter((run) => run.length > 0);
}

describe('split answers join exactly (property)', () => {
  const databases = useTempDatabaseFolder();
  const scenario = fc.record({
    step: fc.constantFrom(100, 1000, 900_000),
    recorded: fc.array(fc.boolean(), { minLength: 1, maxLength: 120 }),
    blockLength: fc.integer({ min: 1, max: 40 }),
    // Range start and end offsets (in steps, fractional so requests cut through samples).
    from: fc.double({ min: 0, max: 20, noNaN: true }),
    span: fc.double({ min: 0.5, max: 130, noNaN: true }),
    cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
  });

  it('many requests give exactly what one request gives, and so do separate fetches joined by the cache', () => {
    const cache = createCacheStore(databases.open().db);
    let run = 0;
    fc.assert(
      fc.property(
        scenario,
        fc.constantFrom('noiseTimeHistory', 'noiseMeasurements') as fc.Arbitrary<Dataset>,
        (s, dataset) => {
          const service = syntheticService(s.step, s.recorded, s.blockLength);
          const answer = dataset === 'noiseTimeHistory' ? service.timeHistory : service.measurements;
          const start = Math.round(T0 + s.from * s.step);
          const end = Math.max(start + 1, Math.round(start + s.span * s.step));
          const bounds = [...new Set(s.cuts.map((c) => Math.round(start + c * (end - start))))]
            .filter((b) => b > start && b < end)
            .sort((a, b) => a - b);
          const edges = [start, ...bounds, end];
          const intervals = edges.slice(1).map((e, i) => ({ start: edges[i]!, end: e }));
          const options = { serial: 'QT1', periodMs: s.step };
          const single = parseDataset(dataset, [answer({ start, end })], options);
          const split = parseDataset(dataset, intervals.map(answer), options);
          expect(split).toEqual(single);
          // Pieces at least one sample long, as requests are: a shorter one can lie wholly under the
          // reading before it, which it cannot see. A boundary within the parser's 1 ms slack of a
          // sample's edge is put on the edge: a piece 1 ms past where its last reading ends cannot
          // tell a missing sample from a rounded time (seed -1657300885 found that case).
          const spaced: number[] = [start];
          for (const cut of bounds) {
            const offset = (cut - T0) % s.step;
            const b =
              offset <= TOLERANCE_MS
                ? cut - offset
                : s.step - offset <= TOLERANCE_MS
                  ? cut + s.step - offset
                  : cut;
            if (b >= spaced[spaced.length - 1]! + s.step && b <= end - s.step) spaced.push(b);
          }
          spaced.push(end);
          const pieces = spaced.slice(1).map((e, i) => ({ start: spaced[i]!, end: e }));
          const key = { accountId: 'acc', serial: 'QT1', dataset, params: String(run++) };
          for (const interval of pieces)
            cache.store(key, interval, parseDataset(dataset, [answer(interval)], options), 0);
          const joined = cache.read(key, { start, end });
          // Drawn the same: the same readings, broken into the same lines. (A NaN marker may sit
          // elsewhere within a gap: a piece cannot know how far the reading before it reaches.)
          expect(joined.series.map(lines)).toEqual(single.series.map(lines));
          expect(joined.records).toEqual(single.records);
          // Every reading once; a NaN only where readings are missing.
          for (const c of single.series) {
            const readings = Array.from(c.values).filter((v) => !Number.isNaN(v)).length;
            const expected = s.recorded.filter(
              (r, i) => r && T0 + i * s.step >= start && T0 + i * s.step < end,
            ).length;
            expect(readings).toBe(expected);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
