/**
 * The data client against the REAL demo service (which enforces the same limits): every dataset
 * fetches and parses, a week of 1 s time history, split requests equal one request, the client's
 * refusals read like the server's, bounded concurrency, a retried 503, a server 400 surfaced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../src/main/backend/service/client';
import { createDataClient, type DataClientOptions } from '../../../src/main/backend/service/data-client';
import { startDemoService, isQuantumModel, type RunningDemoService } from '../../../src/simulator';
import { DATASETS, type Dataset, type DatasetQuery, type SeriesChannel } from '../../../src/shared/data';
import { FieldDeskError } from '../../../src/shared/errors';
import type { Instrument } from '../../../src/shared/service/schemas';
import { formatServiceTime } from '../../../src/shared/service/time';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A fixed clock: the demo's data are a function of seed and time, so every run sees the same. */
const NOW = Date.UTC(2025, 5, 20, 12);
const FAST_RETRY = { limit: 2, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 500 };

let service: RunningDemoService;
let apiKey: string;
let fleet: Instrument[];

beforeAll(async () => {
  service = await startDemoService({ port: 0, rateLimit: 100_000, now: () => NOW });
  apiKey = service.defaultKey as string;
  fleet = await createServiceClient({ baseUrl: service.baseUrl, apiKey }).listInstruments();
});
afterAll(() => service.close());

function client(extra: Partial<DataClientOptions> = {}) {
  return createDataClient({
    baseUrl: service.baseUrl,
    apiKey,
    timeoutMs: 30_000,
    retry: FAST_RETRY,
    ...extra,
  });
}

const pick = (predicate: (i: Instrument) => boolean): string => {
  const found = fleet.find(predicate);
  if (found === undefined) throw new Error('the demo fleet has no such instrument');
  return found.serialNumber;
};
const quantum = () => pick((i) => i.type === 'Noise' && isQuantumModel(i.model));
const serialFor = (dataset: Dataset): string => {
  if (dataset.startsWith('vibration')) return pick((i) => i.type === 'Vibration');
  if (dataset === 'particulates' || dataset === 'gases') return pick((i) => i.type === 'AirQuality');
  if (dataset === 'weather') return pick((i) => i.feature.includes('Weather'));
  if (dataset === 'audio') return pick((i) => (i.subscription?.addons ?? []).includes('Audio'));
  return quantum();
};

/** Bit-exact equality of two channel lists (NaN included). */
function expectSameSeries(actual: SeriesChannel[], expected: SeriesChannel[]) {
  expect(actual.map((c) => [c.name, c.unit, c.times.length])).toEqual(
    expected.map((c) => [c.name, c.unit, c.times.length]),
  );
  // The bytes of each array (a view may sit in a larger buffer), compared bit for bit.
  const bytes = (array: Float64Array | Float32Array) =>
    Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  actual.forEach((channel, i) => {
    const other = expected[i] as SeriesChannel;
    expect(bytes(channel.times).equals(bytes(other.times))).toBe(true);
    expect(bytes(channel.values).equals(bytes(other.values))).toBe(true);
  });
}

const EXPECTED_UNITS: Partial<Record<Dataset, Record<string, string | null>>> = {
  noiseMeasurements: { LAeq: 'dB', LCPeak: 'dB', LAFMax: 'dB' },
  noiseTimeHistory: { LAeq: 'dB', LCPeak: 'dB', LAFMax: 'dB' },
  weather: {
    windSpeed: 'm/s',
    windDirection: '°',
    temperature: '°C',
    pressure: 'bar',
    humidity: '%',
    precipitation: 'mm/h',
  },
  particulates: { pM1: 'µg/m³', pM2p5: 'µg/m³', pM4p25: 'µg/m³', pM10: 'µg/m³' },
  gases: { co: 'ppb', h2S: 'ppb', no: 'ppb', nO2: 'ppb', o3: 'ppb', sO2: 'ppb', cO2: 'ppm', voc: null },
  vibrationPPV: { vMaxX: 'mm/s', vMaxY: 'mm/s', vMaxZ: 'mm/s', fDomX: 'Hz', fDomY: 'Hz', fDomZ: 'Hz' },
  vibrationVDV: { vdvX: 'm/s¹·⁷⁵', vdvY: 'm/s¹·⁷⁵', vdvZ: 'm/s¹·⁷⁵' },
  calibrations: { level: 'dB', offset: 'dB' },
  sic: { _500Hz: 'dB', _1KHz: 'dB', _8KHz: 'dB' },
};

describe('every dataset against the demo service', () => {
  it.each(DATASETS)('%s fetches and parses', async (dataset) => {
    // A year for the sparse health records, two days for the rest.
    const sparse = ['calibrations', 'calibrationLog', 'sic'].includes(dataset);
    // Time history over 3 h: the demo computes it from per-second levels, which takes a while.
    const start =
      NOW - 6 * HOUR - (sparse ? 365 * DAY : dataset.endsWith('TimeHistory') ? 3 * HOUR : 2 * DAY);
    const query: DatasetQuery = { serial: serialFor(dataset), dataset, start, end: NOW - 6 * HOUR };
    const chunk = await client().fetchDataset(query);
    expect(chunk.interval).toEqual({ start: query.start, end: query.end });
    expect(chunk.bytes).toBeGreaterThan(100);

    const units = EXPECTED_UNITS[dataset];
    if (units !== undefined) {
      expect(Object.fromEntries(chunk.series.map((c) => [c.name, c.unit]))).toEqual(units);
    }
    for (const channel of chunk.series) {
      expect(channel.times).toBeInstanceOf(Float64Array);
      expect(channel.values).toBeInstanceOf(Float32Array);
      expect(channel.values.length).toBe(channel.times.length);
      // Times strictly increasing, all within the range.
      for (let i = 1; i < channel.times.length; i++) {
        expect(channel.times[i]! > channel.times[i - 1]!).toBe(true);
      }
      if (channel.times.length > 0) {
        expect(channel.times[0]).toBeGreaterThanOrEqual(query.start);
        expect(channel.times[channel.times.length - 1]).toBeLessThan(query.end);
      }
    }
    if (dataset.endsWith('TimeHistory')) {
      expect(chunk.records).toBeNull();
      const total = chunk.series.reduce((sum, c) => sum + c.times.length, 0);
      expect(total).toBeGreaterThan(30_000);
      return;
    }
    const records = chunk.records!;
    expect(records.rows.length).toBeGreaterThan(0);
    const keys = records.columns.map((c) => c.key);
    for (const row of records.rows) expect(Object.keys(row).sort()).toEqual([...keys].sort());
    const timeKey = keys.includes('time') ? 'time' : 'startTime';
    for (const row of records.rows) {
      expect(typeof row[timeKey]).toBe('number');
      expect(row[timeKey] as number).toBeGreaterThanOrEqual(query.start - 10_000);
      expect(row[timeKey] as number).toBeLessThan(query.end);
    }
    // Record-based series: one reading per row (plus gap markers).
    for (const channel of chunk.series) {
      const readings = Array.from(channel.values).filter((v) => !Number.isNaN(v)).length;
      const nonNull = records.rows.filter((row) => row[channel.name] !== null).length;
      expect(readings).toBe(nonNull);
    }
  });

  it('measurements give one row per 15-minute record with the measurement columns', async () => {
    const serial = quantum();
    const chunk = await client().fetchDataset({
      serial,
      dataset: 'noiseMeasurements',
      start: NOW - 2 * DAY,
      end: NOW - DAY,
      options: { values: ['LAeq', 'LAF90', 'LeqT1Max'] },
    });
    expect(chunk.records!.columns.map((c) => c.key)).toEqual([
      'startTime',
      'endTime',
      'duration',
      'overload',
      'LAeq',
      'LAF90',
      'LeqT1Max',
      'LeqT1Type',
      'LeqT2Type',
    ]);
    const first = chunk.records!.rows[0]!;
    expect((first.endTime as number) - (first.startTime as number)).toBe(15 * 60_000);
    expect(typeof first.overload).toBe('boolean');
    expect(first.LeqT1Type).toBe('LAeq,1min');
    expect(chunk.series.map((c) => c.name)).toEqual(['LAeq', 'LAF90', 'LeqT1Max']);
    expect(chunk.series[0]!.times[0]).toBe(first.startTime);
  });

  it('frequency time history gives one channel per band, named as the service names them', async () => {
    const chunk = await client().fetchDataset({
      serial: quantum(),
      dataset: 'frequencyTimeHistory',
      start: NOW - 2 * DAY,
      end: NOW - 2 * DAY + HOUR,
      options: { bands: 'Third', weighting: 'A', period: 'PT1M' },
    });
    expect(chunk.series.map((c) => c.name)).toHaveLength(36);
    expect(chunk.series[0]!.name).toBe('6.3Hz');
    expect(chunk.series[35]!.name).toBe('20KHz');
    // One-minute samples over one hour (unless the hour is an outage).
    const samples = chunk.series[0]!.times.length;
    expect(samples === 60 || samples === 0).toBe(true);
  });

  it('a week of 1 s time history gives 604,800 samples per value', async () => {
    const c = client();
    // A week in which the instrument recorded throughout: all 672 of its 15-minute measurements.
    const weekStart = Date.UTC(2025, 5, 9);
    const weekEnd = weekStart + 7 * DAY;
    let serial: string | undefined;
    for (const candidate of fleet.filter((i) => i.type === 'Noise')) {
      const measurements = await c.fetchDataset({
        serial: candidate.serialNumber,
        dataset: 'noiseMeasurements',
        start: weekStart,
        end: weekEnd,
      });
      if (measurements.records!.rows.length === 672) {
        serial = candidate.serialNumber;
        break;
      }
    }
    expect(serial).toBeDefined();
    const query: DatasetQuery = {
      serial: serial!,
      dataset: 'noiseTimeHistory',
      start: weekStart,
      end: weekEnd,
    };
    expect(c.planRequests(query)).toEqual([{ start: weekStart, end: weekEnd }]);
    const chunk = await c.fetchDataset(query);
    expect(chunk.series.map((s) => s.name)).toEqual(['LAeq', 'LCPeak', 'LAFMax']);
    for (const channel of chunk.series) {
      expect(channel.times.length).toBe(604_800);
      expect(channel.times[0]).toBe(weekStart);
      expect(channel.times[604_799]).toBe(weekEnd - 1000);
      expect(Array.from(channel.values.subarray(0, 1000)).every((v) => v > 10 && v < 150)).toBe(true);
    }
    expect(chunk.bytes).toBeGreaterThan(604_800 * 3 * 2);
  });
});

describe('split requests join to what one request gives', () => {
  // Ranges start off the sampling grid so that requests cut through samples.
  const cases: Array<{ dataset: Dataset; span: number; pieceMs: number; options?: DatasetQuery['options'] }> =
    [
      { dataset: 'noiseTimeHistory', span: 2 * DAY, pieceMs: HOUR },
      {
        dataset: 'noiseTimeHistory',
        span: 3 * HOUR,
        pieceMs: 7 * 60_000 + 333,
        options: { period: 'PT0.5S' },
      },
      { dataset: 'frequencyTimeHistory', span: 6 * HOUR, pieceMs: 50 * 60_000, options: { period: 'PT10S' } },
      { dataset: 'noiseMeasurements', span: 10 * DAY, pieceMs: 121 * 60_000 },
      { dataset: 'weather', span: 3 * DAY, pieceMs: 5 * HOUR + 30_500 },
      { dataset: 'events', span: 4 * DAY, pieceMs: 7 * HOUR },
      { dataset: 'monitorStats', span: 10 * DAY, pieceMs: 7 * HOUR },
      { dataset: 'calibrationLog', span: 300 * DAY, pieceMs: 17 * DAY },
    ];
  it.each(cases)(
    '$dataset over $span ms in pieces of $pieceMs ms',
    async ({ dataset, span, pieceMs, options }) => {
      const start = NOW - span - 20 * DAY + 7 * 60_000 + 250;
      const query: DatasetQuery = {
        serial: serialFor(dataset),
        dataset,
        start,
        end: start + span,
        ...(options ? { options } : {}),
      };
      const single = await client().fetchDataset(query);
      const splitClient = client({ maxRangeMs: { [dataset]: pieceMs } });
      const plan = splitClient.planRequests(query);
      expect(plan.length).toBe(Math.ceil(span / pieceMs));
      const split = await splitClient.fetchDataset(query);
      expect(split.interval).toEqual(single.interval);
      expectSameSeries(split.series, single.series);
      expect(split.records).toEqual(single.records);
      expect(single.series.length + (single.records?.rows.length ?? 0)).toBeGreaterThan(0);
    },
  );

  it('a 2-day time history with an outage marks the gap with one NaN at the end of the last sample', async () => {
    // Find an instrument and day with an outage: fewer than 96 measurements in a full day.
    const c = client();
    let found: { serial: string; day: number } | undefined;
    for (let d = 30; d >= 2 && found === undefined; d--) {
      const day = Date.UTC(2025, 5, 20) - d * DAY;
      for (const instrument of fleet.filter(
        (i) => i.type === 'Noise' && i.subscription?.status !== 'Cancelled',
      )) {
        const m = await c.fetchDataset({
          serial: instrument.serialNumber,
          dataset: 'noiseMeasurements',
          start: day,
          end: day + DAY,
        });
        const n = m.records!.rows.length;
        if (
          n > 0 &&
          n < 96 &&
          m.records!.rows[0]!.startTime === day &&
          m.records!.rows[n - 1]!.startTime === day + DAY - 15 * 60_000
        ) {
          found = { serial: instrument.serialNumber, day };
          break;
        }
      }
    }
    expect(found).toBeDefined();
    const chunk = await c.fetchDataset({
      serial: found!.serial,
      dataset: 'noiseTimeHistory',
      start: found!.day,
      end: found!.day + DAY,
      options: { values: ['LAeq'], period: 'PT1M' },
    });
    const { times, values } = chunk.series[0]!;
    const nanAt = [...values.keys()].filter((i) => Number.isNaN(values[i]!));
    // The service's minute samples carry no nulls: every NaN is a gap marker.
    expect(nanAt.length).toBeGreaterThanOrEqual(1);
    for (const i of nanAt) {
      expect(times[i]! - times[i - 1]!).toBe(60_000); // right after the last sample ends
      expect(times[i + 1]! - times[i]!).toBeGreaterThanOrEqual(15 * 60_000);
      // Outages cover whole 15-minute measurement intervals.
      expect(times[i]! % (15 * 60_000)).toBe(0);
      expect(times[i + 1]! % (15 * 60_000)).toBe(0);
    }
    expect(times.length - nanAt.length).toBeLessThan(1440);
  });
});

describe('validation reads like the server', () => {
  /** The server's description for a query sent as is, without the client's checks. */
  async function serverSays(
    dataset: Dataset,
    serial: string,
    start: number,
    end: number,
    params: Record<string, string>,
  ) {
    const paths: Partial<Record<Dataset, string>> = {
      noiseMeasurements: '/data/noise/measurements',
      noiseTimeHistory: '/data/noise/timehistory',
      frequencyMeasurements: '/data/frequency/measurements',
      weather: '/data/weather',
      vibrationPPV: '/data/vibration/PPV',
    };
    const query = new URLSearchParams({
      instruments: serial,
      start: formatServiceTime(start),
      end: formatServiceTime(end),
      ...params,
    });
    const response = await fetch(`${service.baseUrl}${paths[dataset]}?${query}`, {
      headers: { 'X-Api-Key': apiKey },
    });
    expect(response.status).toBe(400);
    return ((await response.json()) as { description: string }).description;
  }

  const start = NOW - 2 * DAY;
  const end = NOW - DAY;
  const cases: Array<[string, Dataset, Record<string, string>, DatasetQuery['options'], string]> = [
    ['period syntax', 'weather', { period: 'PT1X' }, { period: 'PT1X' }, 'period'],
    [
      'period below the measurement period',
      'noiseMeasurements',
      { period: 'PT5M' },
      { period: 'PT5M' },
      'period',
    ],
    [
      'period above 1 minute on time history',
      'noiseTimeHistory',
      { period: 'PT2M' },
      { period: 'PT2M' },
      'period',
    ],
    [
      'period not a multiple of 100 ms',
      'noiseTimeHistory',
      { period: 'PT0.15S' },
      { period: 'PT0.15S' },
      'period',
    ],
    ['period over a day', 'vibrationPPV', { period: 'P2D' }, { period: 'P2D' }, 'period'],
    [
      'statistical levels with a period',
      'noiseMeasurements',
      { period: 'PT1H', values: 'LAeq,LAF90' },
      { period: 'PT1H', values: ['LAeq', 'LAF90'] },
      'values',
    ],
    ['every value invalid', 'noiseMeasurements', { values: 'LXX,foo' }, { values: ['LXX', 'foo'] }, 'values'],
    ['bands', 'frequencyMeasurements', { bands: 'Sixth' }, { bands: 'Sixth' as never }, 'bands'],
    ['weighting', 'frequencyMeasurements', { weighting: 'B' }, { weighting: 'B' as never }, 'weighting'],
  ];
  it.each(cases)('%s', async (_name, dataset, params, options, field) => {
    const serial = serialFor(dataset);
    const expected = await serverSays(dataset, serial, start, end, params);
    const c = client();
    let error: unknown;
    try {
      c.validate({ serial, dataset, start, end, options });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FieldDeskError);
    expect((error as FieldDeskError).code).toBe('invalidInput');
    expect((error as FieldDeskError).field).toBe(field);
    expect((error as FieldDeskError).message).toBe(expected);
    // fetchDataset refuses the same way, before sending anything.
    await expect(c.fetchDataset({ serial, dataset, start, end, options })).rejects.toMatchObject({
      code: 'invalidInput',
      message: expected,
    });
  });

  it('start after end', async () => {
    const serial = quantum();
    const expected = await serverSays('weather', serial, end, start, {});
    expect(() => client().validate({ serial, dataset: 'weather', start: end, end: start })).toThrow(expected);
  });
});

describe('requests', () => {
  /** A fetch that counts requests in flight, and can fail chosen requests. */
  function countingFetch(fail?: (url: URL, attempt: number) => Response | null) {
    const stats = { inFlight: 0, maxInFlight: 0, requests: [] as URL[] };
    const attempts = new Map<string, number>();
    const wrapped: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      stats.requests.push(url);
      const attempt = (attempts.get(url.href) ?? 0) + 1;
      attempts.set(url.href, attempt);
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      try {
        // Hold each request a little so that they overlap.
        await new Promise((resolve) => setTimeout(resolve, 15));
        const failure = fail?.(url, attempt);
        if (failure) return failure;
        return await fetch(input, init);
      } finally {
        stats.inFlight--;
      }
    };
    return { stats, fetch: wrapped };
  }

  const query = (): DatasetQuery => ({
    serial: quantum(),
    dataset: 'noiseMeasurements',
    start: NOW - 10 * DAY,
    end: NOW - 5 * DAY,
  });

  it('keeps at most `concurrency` requests in flight (default 3), across calls', async () => {
    const counting = countingFetch();
    const c = client({ fetch: counting.fetch, maxRangeMs: { noiseMeasurements: 6 * HOUR } });
    await Promise.all([c.fetchDataset(query()), c.fetchDataset(query())]);
    expect(counting.stats.requests.length).toBe(40);
    expect(counting.stats.maxInFlight).toBe(3);

    for (const concurrency of [1, 8]) {
      const limited = countingFetch();
      await client({
        fetch: limited.fetch,
        concurrency,
        maxRangeMs: { noiseMeasurements: 6 * HOUR },
      }).fetchDataset(query());
      expect(limited.stats.maxInFlight).toBe(concurrency);
    }
  });

  it('sends instruments, start and end in ISO 8601 UTC, period and values as given', async () => {
    const counting = countingFetch();
    await client({ fetch: counting.fetch }).fetchDataset({
      ...query(),
      options: { values: ['LAeq', 'LAFMax'], period: 'PT1H' },
    });
    const url = counting.stats.requests[0]!;
    expect(url.pathname).toBe('/v1/data/noise/measurements');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      instruments: quantum(),
      start: formatServiceTime(query().start),
      end: formatServiceTime(query().end),
      values: 'LAeq,LAFMax',
      period: 'PT1H',
    });
  });

  it('retries a 503 on one piece and still returns the whole range', async () => {
    const counting = countingFetch((url, attempt) =>
      url.searchParams.get('start') === formatServiceTime(query().start + DAY) && attempt === 1
        ? new Response(JSON.stringify({ error: 'Unavailable', description: 'Busy' }), {
            status: 503,
            headers: { 'Content-Type': 'application/json' },
          })
        : null,
    );
    const c = client({ fetch: counting.fetch, maxRangeMs: { noiseMeasurements: DAY } });
    const chunk = await c.fetchDataset(query());
    expect(counting.stats.requests.length).toBe(6);
    const unretried = await client().fetchDataset(query());
    expect(chunk.records).toEqual(unretried.records);
  });

  it('surfaces the server’s description of a 400', async () => {
    const optimus = pick((i) => i.type === 'Noise' && !isQuantumModel(i.model));
    const error = await client()
      .fetchDataset({ serial: optimus, dataset: 'monitorStats', start: NOW - DAY, end: NOW })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FieldDeskError);
    expect((error as FieldDeskError).code).toBe('invalidRequest');
    expect((error as FieldDeskError).status).toBe(400);
    expect((error as FieldDeskError).message).toMatch(
      new RegExp(`^System monitor data is supported only by Quantum noise monitors; unsupported: ${optimus}`),
    );
  });

  it('stops after the first failure and reports it, not the cancellations it caused', async () => {
    const counting = countingFetch((url) =>
      url.searchParams.get('start') === formatServiceTime(query().start)
        ? new Response(
            JSON.stringify({
              error: 'AccessDenied',
              description: 'The API key lacks the required scope: data.noise:read.',
            }),
            {
              status: 403,
              headers: { 'Content-Type': 'application/json' },
            },
          )
        : null,
    );
    const c = client({ fetch: counting.fetch, maxRangeMs: { noiseMeasurements: 2 * HOUR } });
    const error = (await c.fetchDataset(query()).catch((e: unknown) => e)) as FieldDeskError;
    expect(error.code).toBe('forbidden');
    expect(error.missingScope).toBe('data.noise:read');
    // 60 pieces planned; the queue was dropped after the failure.
    expect(counting.stats.requests.length).toBeLessThan(10);
  });

  it('is cancelled by its signal', async () => {
    const controller = new AbortController();
    const c = client({ maxRangeMs: { noiseMeasurements: HOUR } });
    const pending = c.fetchDataset(query(), controller.signal);
    setTimeout(() => controller.abort(), 5);
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('reports every request through onExchange with the endpoint scope', async () => {
    const exchanges: Array<{ path: string; scopes: readonly string[]; error: unknown }> = [];
    await client({ onExchange: (e) => exchanges.push(e), maxRangeMs: { vibrationPPV: DAY } }).fetchDataset({
      serial: serialFor('vibrationPPV'),
      dataset: 'vibrationPPV',
      start: NOW - 3 * DAY,
      end: NOW - DAY,
    });
    expect(exchanges).toEqual([
      { method: 'GET', path: '/data/vibration/PPV', scopes: ['data.enviro:read'], error: null },
      { method: 'GET', path: '/data/vibration/PPV', scopes: ['data.enviro:read'], error: null },
    ]);
  });

  it('reads the current monitor state and an event time history', async () => {
    const c = client();
    const serial = fleet.find((i) => isQuantumModel(i.model))!.serialNumber;
    const current = await c.monitorCurrent([serial]);
    expect(current.length).toBeLessThanOrEqual(1);
    for (const state of current) {
      expect(state.instrument).toBe(serial);
      expect(state.mem).toBeGreaterThan(0);
      expect(state.mem).toBeLessThanOrEqual(100);
    }
    const events = await c.fetchDataset({ serial, dataset: 'events', start: NOW - 3 * DAY, end: NOW - DAY });
    const event = events.records!.rows[0]!;
    const { series, notes } = await c.eventTimeHistory(event.timeHistoryId as string);
    expect(notes).toEqual([]);
    expect(series.map((s) => [s.name, s.unit])).toEqual([
      ['LAeq', 'dB'],
      ['LAFMax', 'dB'],
    ]);
    // 100 ms samples from 5 s before the event to 5 s after it.
    const { times } = series[0]!;
    expect(times[1]! - times[0]!).toBe(100);
    expect(times[0]).toBe((event.startTime as number) - 5000);
    expect(times[times.length - 1]).toBe((event.endTime as number) + 5000 - 100);
    await expect(c.eventTimeHistory('th_nothing')).rejects.toMatchObject({ code: 'notFound' });
  });
});
