/**
 * One record model, end to end: records of every dataset placed exactly on, just before and just
 * after the boundaries between requests and between cache chunks come through fetch, cache and
 * read exactly once each — even from a sloppy service that answers every request with everything.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCacheStore } from '../../../src/main/backend/cache/cache-store';
import { readDataset } from '../../../src/main/backend/data/read-through-cache';
import { createDataClient } from '../../../src/main/backend/service/data-client';
import { DATASET_ENDPOINTS } from '../../../src/main/backend/service/data-params';
import { DATASETS, type Dataset } from '../../../src/shared/data';
import { formatServiceTime } from '../../../src/shared/service/time';
import { sendJson, startTestServer, type TestServer } from './helpers';
import { useTempDatabaseFolder } from './temp-database';

const T0 = Date.UTC(2025, 5, 1);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const START = T0;
const END = T0 + 4 * HOUR;
/** Requests are split every hour; the cache is read in two parts that meet at 90 minutes. */
const REQUEST_BOUNDARIES = [T0 + HOUR, T0 + 2 * HOUR, T0 + 3 * HOUR];
const CHUNK_BOUNDARY = T0 + 90 * MINUTE;
const EDGES = [...REQUEST_BOUNDARIES, CHUNK_BOUNDARY];
/** Every record time: each boundary −1 ms, on it, +1 ms, and the range's first and last millisecond. */
const TIMES = [START, ...EDGES.flatMap((b) => [b - 1, b, b + 1]), END - 1].sort((a, b) => a - b);
/** Audio recordings start 5 s before their trigger: the trigger is their time. */
const AUDIO_LEAD_MS = 5_000;
const SERIAL = 'QT1';

const iso = formatServiceTime;

/** What the service would send for one record of a dataset at time `t` (its own time field). */
function wireRecord(dataset: Dataset, t: number): Record<string, unknown> {
  const base = { instrument: SERIAL };
  switch (dataset) {
    case 'noiseMeasurements':
      return {
        ...base,
        startTime: iso(t),
        endTime: iso(t + 1),
        duration: 0.001,
        values: [{ name: 'LAeq', value: 55 }],
      };
    case 'frequencyMeasurements':
      return { ...base, startTime: iso(t), duration: 0.001, values: [{ name: '1KHz', value: 40 }] };
    case 'weather':
      return { ...base, time: iso(t), windSpeed: 2, temperature: 11 };
    case 'particulates':
      return { ...base, startTime: iso(t), duration: 60, pM10: 12 };
    case 'gases':
      return { ...base, startTime: iso(t), duration: 60, nO2: 20 };
    case 'vibrationPPV':
      return { ...base, startTime: iso(t), duration: 60, vMaxX: 0.4, fDomX: 12 };
    case 'vibrationVDV':
      return { ...base, startTime: iso(t), duration: 60, vdvX: 0.1 };
    case 'events':
      return {
        ...base,
        startTime: iso(t),
        endTime: iso(t + 2_000),
        type: 'Noise',
        name: 'LAeq > 75',
        level: 75,
      };
    case 'audio':
      return {
        ...base,
        id: `au_${t}`,
        startTime: iso(t - AUDIO_LEAD_MS),
        endTime: iso(t + 10_000),
        triggerStartTime: iso(t),
        triggerEndTime: iso(t + 5_000),
        triggerName: 'LAeq > 75',
      };
    case 'calibrations':
      return { ...base, time: iso(t), status: 'Success', level: 94, offset: 0.1 };
    case 'calibrationLog':
      return { ...base, time: iso(t), user: 'engineer', message: 'Calibrated' };
    case 'sic':
      return { ...base, time: iso(t), status: 'Success', _500Hz: 1, _1KHz: 1, _8KHz: 1 };
    case 'monitorStats':
      return { ...base, time: iso(t), samplePeriod: 60, cpu: 5 };
    case 'monitorEvents':
      return { ...base, time: iso(t), type: 'Info', message: 'Rebooted' };
    case 'noiseTimeHistory':
    case 'frequencyTimeHistory':
      throw new Error('time histories are blocks, not records');
  }
}

/** A time history of one-minute samples over the whole range, sent whole for every request. */
function wireTimeHistory(dataset: 'noiseTimeHistory' | 'frequencyTimeHistory'): unknown[] {
  const values = Array.from({ length: (END - START) / MINUTE }, (_, i) => 50 + (i % 7));
  const block = { start: iso(START), end: iso(END), sampleDuration: MINUTE };
  return dataset === 'noiseTimeHistory'
    ? [{ instrument: SERIAL, type: 'LAeq', blocks: [{ ...block, values }] }]
    : [{ instrument: SERIAL, type: 'Octave', blocks: [{ ...block, bands: [{ name: '1KHz', values }] }] }];
}

const RECORD_DATASETS = DATASETS.filter((d) => !d.endsWith('TimeHistory'));
const datasetOfPath = new Map(DATASETS.map((d) => [`/v1${DATASET_ENDPOINTS[d].path}`, d]));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const dataset = datasetOfPath.get(new URL(req.url, 'http://x').pathname);
    if (dataset === undefined) return sendJson(res, 404, { error: 'NotFound' });
    // A sloppy service: every request gets every record, whatever its range.
    if (dataset === 'noiseTimeHistory' || dataset === 'frequencyTimeHistory')
      return sendJson(res, 200, wireTimeHistory(dataset));
    return sendJson(
      res,
      200,
      TIMES.map((t) => wireRecord(dataset, t)),
    );
  });
  return () => server.close();
});

const databases = useTempDatabaseFolder();
afterEach(() => databases.closeAll());

/** Reads the range through a fresh cache in two overlapping parts, then whole from the cache alone. */
async function readInParts(dataset: Dataset) {
  const store = createCacheStore(databases.open().db);
  const maxRangeMs = Object.fromEntries(DATASETS.map((d) => [d, HOUR]));
  const source = createDataClient({ baseUrl: server.baseUrl, apiKey: 'k', maxRangeMs, retry: { limit: 0 } });
  const context = { store, now: () => END + 2 * HOUR, accountId: 'acc', offline: null };
  const query = { serial: SERIAL, dataset };
  await readDataset({ ...context, source }, { ...query, start: START, end: CHUNK_BOUNDARY });
  await readDataset({ ...context, source }, { ...query, start: T0 + 30 * MINUTE, end: END });
  const requestsBefore = server.requests.length;
  const whole = await readDataset({ ...context, source: null }, { ...query, start: START, end: END });
  expect(server.requests.length).toBe(requestsBefore);
  expect(whole.provenance.source).toBe('cached');
  return whole;
}

describe('records on chunk boundaries', () => {
  it.each(RECORD_DATASETS)('%s: every record exactly once through fetch, cache and read', async (dataset) => {
    const whole = await readInParts(dataset);
    const table = whole.records!;
    const times = table.rows.map((row) => row[table.timeKey]);
    expect(times).toEqual(TIMES);
    expect(table.columns.find((c) => c.key === table.timeKey)?.type).toBe('time');
    if (dataset === 'audio') {
      // Placed by the trigger, as the service selects them, though recordings start earlier.
      expect(table.timeKey).toBe('triggerStartTime');
      expect(table.rows.map((row) => row['startTime'])).toEqual(TIMES.map((t) => t - AUDIO_LEAD_MS));
    }
  });

  it.each(['noiseTimeHistory', 'frequencyTimeHistory'] as const)(
    '%s: every sample exactly once through fetch, cache and read',
    async (dataset) => {
      const whole = await readInParts(dataset);
      expect(whole.series).toHaveLength(1);
      const channel = whole.series[0]!;
      const readings = Array.from(channel.times).filter((_, i) => !Number.isNaN(channel.values[i]!));
      expect(readings).toEqual(Array.from({ length: (END - START) / MINUTE }, (_, i) => START + i * MINUTE));
    },
  );
});
