/**
 * Every answer is bounded: a slow drip ends at the deadline, a stalled body at the stall limit, an
 * answer past its size limit is cut there (the connection closed, the rest never read), each with a
 * message of its own; a site sync behind a stalled answer finishes. The default limits stand well
 * above the largest answers the demo service sends for each endpoint's maximum range.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { createServiceClient, type ServiceClientOptions } from '../../../src/main/backend/service/client';
import {
  ANSWER_LIMIT_DEFAULTS,
  answerByteLimit,
  type AnswerLimits,
} from '../../../src/main/backend/service/answer-limits';
import {
  checkQuery,
  DEFAULT_INSTRUMENT_PERIODS,
  NOISE_TIME_HISTORY_VALUES,
  planIntervals,
  requestQuery,
} from '../../../src/main/backend/service/data-params';
import type { Backend } from '../../../src/main/backend/backend';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import type { DatasetQuery, SyncSnapshot } from '../../../src/shared/data';
import { NOISE_MEASUREMENT_VALUES } from '../../../src/shared/service/limits';
import { createRecordingBackend, DEMO_TEST_KEY, demoBackendOptions } from './backend-helpers';
import { startGarblingProxy, type GarblingProxy } from './garbling-proxy';
import {
  failureOf,
  makeTempDir,
  sendJson,
  startTestServer,
  wireInstrument,
  type TestServer,
} from './helpers';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FAST_RETRY = { limit: 2, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 200 };

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer(handler);
  servers.push(server);
  return server;
}

const clientFor = (baseUrl: string, extra: Partial<ServiceClientOptions> = {}) =>
  createServiceClient({ baseUrl, apiKey: 'k', timeoutMs: 10_000, retry: FAST_RETRY, ...extra });

/** Writes `piece` again and again, as fast as the client takes it, until the client hangs up. */
function endless(res: ServerResponse, piece: Buffer, headers: Record<string, string | number> = {}) {
  res.writeHead(200, { 'Content-Type': 'application/json', ...headers });
  res.write('[');
  const more = () => {
    while (!res.destroyed && res.write(piece));
    if (!res.destroyed) res.once('drain', more);
  };
  more();
}

/** Resolves when the client closed the connection of `res`. */
const closedByClient = (res: ServerResponse) =>
  new Promise<void>((resolve) => res.once('close', () => resolve()));

describe('an answer that takes too long', () => {
  it('a slow drip ends at the deadline for the whole answer, not retried', async () => {
    const whole = Buffer.from(JSON.stringify([wireInstrument('QT1')]));
    let drip: NodeJS.Timeout | undefined;
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': whole.byteLength });
      let sent = 0;
      // A byte at a time, each well within the stall limit: only the deadline can end it.
      drip = setInterval(() => {
        if (sent < whole.byteLength - 1) res.write(whole.subarray(sent, ++sent));
      }, 10);
      res.once('close', () => clearInterval(drip));
    });
    const error = await failureOf(
      clientFor(server.baseUrl, { answerLimits: { deadlineMs: 400 } }).listInstruments(),
    );
    clearInterval(drip);
    expect(error).toMatchObject({ code: 'timeout', retryable: true });
    expect(error.message).toBe(
      `${server.host} did not send its whole answer within 1 second: it came too slowly. Check your connection and try again.`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('a body that stops ends at the stall limit, with its own message', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 500 });
      res.write('[{"serialNumber": "QT1"');
      // …and nothing more, the connection left open.
    });
    const error = await failureOf(
      clientFor(server.baseUrl, {
        timeoutMs: 1_000,
        answerLimits: { deadlineMs: 600_000 },
      }).listInstruments(),
    );
    expect(error).toMatchObject({ code: 'timeout', retryable: true });
    expect(error.message).toBe(
      `${server.host} stopped sending its answer for 1 second. Check your connection and try again.`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('headers that never come end at the time limit, as before', async () => {
    const server = await serve(() => undefined);
    const error = await failureOf(clientFor(server.baseUrl, { timeoutMs: 200 }).listInstruments());
    expect(error.message).toBe(
      `${server.host} did not answer within 1 second. Check your connection and try again.`,
    );
  });
});

describe('an answer that is too large', () => {
  const tooLarge =
    /^The service's answer was larger than FieldDesk takes for one request \(262 kB\), so it was stopped there\. Try again; if it happens again, choose a shorter range\.$/;
  const limits: Partial<AnswerLimits> = { maxBytes: 256 * 1024 };

  it('an endless answer is cut at the limit and the connection closed, not retried', async () => {
    let closed: Promise<void> | undefined;
    const server = await serve((_req, res) => {
      closed = closedByClient(res);
      endless(res, Buffer.from(`${JSON.stringify(wireInstrument('QT1'))},`.repeat(100)));
    });
    const error = await failureOf(clientFor(server.baseUrl, { answerLimits: limits }).listInstruments());
    expect(error).toMatchObject({ code: 'badResponse', retryable: true });
    expect(error.message).toMatch(tooLarge);
    await closed;
    expect(server.requests).toHaveLength(1);
  });

  it('an answer that declares a size past the limit is refused before its body is read', async () => {
    let closed: Promise<void> | undefined;
    const server = await serve((_req, res) => {
      closed = closedByClient(res);
      endless(res, Buffer.alloc(64 * 1024, 0x20), { 'Content-Length': 300 * 1024 * 1024 });
    });
    const error = await failureOf(clientFor(server.baseUrl, { answerLimits: limits }).listInstruments());
    expect(error.message).toMatch(tooLarge);
    await closed;
  });

  it('an answer just within the limit is read', async () => {
    const fleet = Array.from({ length: 500 }, (_, i) => wireInstrument(`QT${i}`));
    const size = Buffer.byteLength(JSON.stringify(fleet));
    const server = await serve((_req, res) => sendJson(res, 200, fleet));
    const instruments = await clientFor(server.baseUrl, {
      answerLimits: { maxBytes: size },
    }).listInstruments();
    expect(instruments).toHaveLength(500);
    const error = await failureOf(
      clientFor(server.baseUrl, { answerLimits: { maxBytes: size - 1 } }).listInstruments(),
    );
    expect(error.code).toBe('badResponse');
  });
});

describe('a site sync behind a stalled answer', () => {
  let service: RunningDemoService;
  let proxy: GarblingProxy;
  const backends: Backend[] = [];
  const dirs: Array<{ remove(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(backends.splice(0).map((backend) => backend.close()));
    await proxy?.close();
    await service?.close();
    await Promise.all(dirs.splice(0).map((dir) => dir.remove()));
  });

  async function syncFinished(handlers: Backend['handlers'], id: string): Promise<SyncSnapshot> {
    for (;;) {
      const snapshot = (await handlers['sync.list']({})).find((s) => s.id === id);
      if (snapshot !== undefined && snapshot.state !== 'running' && snapshot.state !== 'starting')
        return snapshot;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('finishes: the stalled part is missing with the stall named, the rest fetched', async () => {
    service = await startDemoService({ port: 0, keys: { [DEMO_TEST_KEY]: '*' }, rateLimit: 100_000 });
    proxy = await startGarblingProxy(service.baseUrl);
    // The noise levels start and then stop, the connection left open: a stalled link.
    proxy.fault = (url, answer, res) => {
      if (url.pathname !== '/v1/data/noise/measurements') return false;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': answer.body.byteLength });
      res.write(answer.body.subarray(0, answer.body.byteLength >> 1));
      return true;
    };
    const dir = await makeTempDir();
    dirs.push(dir);
    const { backend, handlers } = await createRecordingBackend({
      ...demoBackendOptions(dir.path, service),
      startDemo: async () => ({
        baseUrl: proxy.baseUrl,
        apiKey: DEMO_TEST_KEY,
        close: async () => undefined,
      }),
      // Long enough for every answer that does come, however busy the machine: the stall is held.
      clientOptions: { timeoutMs: 2_000, retry: FAST_RETRY },
    });
    backends.push(backend);
    await handlers['accounts.tryDemo']({});
    const end = Math.floor(Date.now() / HOUR) * HOUR - DAY;
    const started = await handlers['sync.start']({
      serials: ['QT930998'],
      start: end - DAY,
      end,
      datasets: { QT930998: ['noiseMeasurements', 'calibrations'] },
    });
    const done = await syncFinished(handlers, started.id);
    expect(done.state).toBe('withGaps');
    expect(done.failures).toEqual([
      expect.objectContaining({
        dataset: 'noiseMeasurements',
        message: expect.stringMatching(/stopped sending its answer for 2 seconds/),
        retryable: true,
      }),
    ]);
    expect(done.fetched).toBeGreaterThan(0);
  });
});

describe('the default limits and the real service’s largest answers', () => {
  const NOW = Date.UTC(2025, 5, 20, 12);
  let service: RunningDemoService;
  let apiKey: string;
  beforeAll(async () => {
    service = await startDemoService({ port: 0, rateLimit: 100_000, now: () => NOW });
    apiKey = service.defaultKey as string;
  });
  afterAll(() => service.close());

  /** The bytes the demo service answers to one request of `query`, and the limit FieldDesk sets for it. */
  async function measure(query: DatasetQuery): Promise<{ bytes: number; limit: number }> {
    const checked = checkQuery(query, DEFAULT_INSTRUMENT_PERIODS);
    const [interval, ...more] = planIntervals(checked);
    expect(more, 'one request covers the maximum range').toEqual([]);
    const url = new URL(`${service.baseUrl}${checked.endpoint.path}`);
    url.search = new URLSearchParams(requestQuery(checked, interval!)).toString();
    const response = await fetch(url, { headers: { 'X-Api-Key': apiKey } });
    expect(response.status).toBe(200);
    const bytes = (await response.arrayBuffer()).byteLength;
    return { bytes, limit: answerByteLimit(ANSWER_LIMIT_DEFAULTS, checked, interval!) };
  }

  const NOISE = 'QT930998';
  const AIR = 'AQ132935';
  const VIBRATION = 'VB287764';
  const span = (days: number) => ({ start: NOW - 7 * DAY - days * DAY, end: NOW - 7 * DAY });
  /** Each endpoint at its maximum range, with the most the app asks for. */
  const largest: Array<[string, DatasetQuery, number]> = [
    [
      'a week of 1 s noise time history, default values',
      { serial: NOISE, dataset: 'noiseTimeHistory', ...span(7) },
      8e6,
    ],
    [
      'a week of 1 s noise time history, every value',
      {
        serial: NOISE,
        dataset: 'noiseTimeHistory',
        ...span(7),
        options: { values: [...NOISE_TIME_HISTORY_VALUES] },
      },
      50e6,
    ],
    [
      'a day of 1 s third-octave time history',
      { serial: NOISE, dataset: 'frequencyTimeHistory', ...span(1), options: { bands: 'Third' } },
      14e6,
    ],
    [
      '31 days of noise levels, every value',
      {
        serial: NOISE,
        dataset: 'noiseMeasurements',
        ...span(31),
        options: { values: NOISE_MEASUREMENT_VALUES.filter((v) => !v.startsWith('LAF')) },
      },
      1e6,
    ],
    [
      '31 days of third-octave levels',
      { serial: NOISE, dataset: 'frequencyMeasurements', ...span(31), options: { bands: 'Third' } },
      3e6,
    ],
    ['31 days of 1 min weather', { serial: NOISE, dataset: 'weather', ...span(31) }, 6e6],
    ['31 days of 1 min gases', { serial: AIR, dataset: 'gases', ...span(31) }, 6e6],
    ['31 days of 1 min vibration (PPV)', { serial: VIBRATION, dataset: 'vibrationPPV', ...span(31) }, 6e6],
    ['31 days of events', { serial: NOISE, dataset: 'events', ...span(31) }, 1e5],
  ];

  it.each(largest)('%s fits at least four times over', async (_what, query, atLeast) => {
    const { bytes, limit } = await measure(query);
    // The measurement is of a real answer, not an empty one.
    expect(bytes).toBeGreaterThan(atLeast);
    expect(limit / bytes).toBeGreaterThanOrEqual(4);
    console.info(
      `${_what}: ${(bytes / 1e6).toFixed(1)} MB, limit ${(limit / 1e6).toFixed(0)} MB (${(limit / bytes).toFixed(1)}×)`,
    );
  });

  it('the largest default answer (a day of third octaves) arrives within the deadline at 1 Mbit/s', async () => {
    const { bytes } = await measure({
      serial: NOISE,
      dataset: 'frequencyTimeHistory',
      ...span(1),
      options: { bands: 'Third' },
    });
    const secondsAtOneMbit = (bytes * 8) / 1e6;
    expect(secondsAtOneMbit * 1000).toBeLessThan(ANSWER_LIMIT_DEFAULTS.deadlineMs);
  }, 120_000);
});
