/**
 * Garbled answers never become data. A backend reads the demo service through a proxy that garbles
 * a day's noise levels (96 records) as a bad link would — a field twice, bytes that are not UTF-8, a
 * 10 MB text — and then heals: the read says what was left out and why, the cache does not hold the
 * day, and the next read (and a site sync's resume) asks again and gets the day whole.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE_NAME } from '../../../src/main/backend/core/database';
import { parseJson, UnreadableItem } from '../../../src/main/backend/service/answers';
import { createDataClient } from '../../../src/main/backend/service/data-client';
import { findGarbledParts } from '../../../src/main/backend/service/json-text';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import type { SyncSnapshot } from '../../../src/shared/data';
import type { Backend } from '../../../src/main/backend/backend';
import { createRecordingBackend, DEMO_TEST_KEY, demoBackendOptions } from './backend-helpers';
import {
  replaceOccurrences,
  sendInstead,
  startGarblingProxy,
  type Fault,
  type GarblingProxy,
} from './garbling-proxy';
import { makeTempDir } from './helpers';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A noise instrument of the demo fleet (seed 1). */
const NOISE = 'QT930998';
/** A settled day (more than the open hour ago): once read whole, it is answered from the cache. */
const END = Math.floor(Date.now() / HOUR) * HOUR - DAY;
const THE_DAY = { serial: NOISE, dataset: 'noiseMeasurements' as const, start: END - DAY, end: END };
const LEVELS_PATH = '/v1/data/noise/measurements';

let service: RunningDemoService;
let proxy: GarblingProxy;
let dataDir: { path: string; remove(): Promise<void> };
const backends: Backend[] = [];

beforeEach(async () => {
  service = await startDemoService({ port: 0, keys: { [DEMO_TEST_KEY]: '*' }, rateLimit: 100_000 });
  proxy = await startGarblingProxy(service.baseUrl);
  dataDir = await makeTempDir();
});
afterEach(async () => {
  await Promise.all(backends.splice(0).map((backend) => backend.close()));
  await proxy.close();
  await service.close();
  await dataDir.remove();
});

async function makeBackend() {
  const made = await createRecordingBackend({
    ...demoBackendOptions(dataDir.path, service),
    // The demo account reaches the service through the proxy.
    startDemo: async () => ({ baseUrl: proxy.baseUrl, apiKey: DEMO_TEST_KEY, close: async () => undefined }),
    clientOptions: {
      timeoutMs: 10_000,
      retry: { limit: 2, baseDelayMs: 5, maxDelayMs: 10, maxRetryAfterMs: 200 },
    },
  });
  backends.push(made.backend);
  await made.handlers['accounts.tryDemo']({});
  return made;
}

const levelRequests = () => proxy.requests.filter((r) => r.startsWith(LEVELS_PATH)).length;

/** Garbles the day's noise levels with `garble` while `on`: records 3, 40 and 77 of 96 (0-based 2, 39, 76). */
function garbleLevels(garble: (body: Buffer) => Buffer): Fault {
  return (url, answer, res) => {
    if (url.pathname !== LEVELS_PATH || answer.status !== 200) return false;
    return sendInstead(res, 200, garble(answer.body));
  };
}

const INSTRUMENT_FIELD = `"instrument":"${NOISE}"`;
const GARBLED_RECORDS = [2, 39, 76];
const garblings: Array<[string, (body: Buffer) => Buffer, RegExp, number]> = [
  [
    'a field twice (the second naming another instrument)',
    (body) =>
      replaceOccurrences(body, INSTRUMENT_FIELD, GARBLED_RECORDS, (field) =>
        Buffer.concat([field, Buffer.from(',"instrument":"QT000001"')]),
      ),
    /^3 records of the 96 the service sent \(noise measurements\) could not be read and are left out \(record 3: the field “instrument” appears twice; record 40: the field “instrument” appears twice; 1 more\)\. FieldDesk asks for them again\.$/,
    93,
  ],
  [
    'a 10 MB text in instrument',
    (body) =>
      replaceOccurrences(body, INSTRUMENT_FIELD, [GARBLED_RECORDS[0]!], () =>
        Buffer.from(`"instrument":"${'Q'.repeat(10 * 1024 * 1024)}"`),
      ),
    /^1 record of the 96 the service sent \(noise measurements\) could not be read and is left out \(record 3: a text of 10,485,760 characters \(no field holds more than 65,536\)\)\. FieldDesk asks for it again\.$/,
    95,
  ],
  [
    'bytes that are not UTF-8 in a serial number',
    (body) =>
      replaceOccurrences(body, INSTRUMENT_FIELD, GARBLED_RECORDS, (field) => {
        const garbled = Buffer.from(field);
        garbled[garbled.length - 3] = 0xff;
        return garbled;
      }),
    /^The service's answer arrived garbled: it is not UTF-8 text \(expected the whole answer\)\. Try again\.$/,
    0,
  ],
];

/** The longest records table stored, and whether any stored chunk covers the day. */
function cacheContents(): { longestRecords: number; chunksInDay: number } {
  const db = new Database(join(dataDir.path, DATABASE_FILE_NAME), { readonly: true });
  try {
    const longest = db
      .prepare<[], { n: number | null }>('SELECT MAX(LENGTH(records_json)) AS n FROM cache_chunks')
      .get();
    const inDay = db
      .prepare<[string, number, number], { n: number }>(
        `SELECT COUNT(*) AS n FROM cache_chunks c JOIN cache_keys k ON k.id = c.key_id
         WHERE k.dataset = ? AND c.end_ms > ? AND c.start_ms < ?`,
      )
      .get('noiseMeasurements', THE_DAY.start, THE_DAY.end);
    return { longestRecords: longest?.n ?? 0, chunksInDay: inDay?.n ?? 0 };
  } finally {
    db.close();
  }
}

async function syncFinished(handlers: Backend['handlers'], id: string): Promise<SyncSnapshot> {
  for (;;) {
    const snapshot = (await handlers['sync.list']({})).find((s) => s.id === id);
    if (snapshot !== undefined && snapshot.state !== 'running' && snapshot.state !== 'starting')
      return snapshot;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a day whose answer arrives garbled', () => {
  it.each(garblings)(
    '%s: the read says what was left out, the day is not cached, and it is asked again once healed',
    async (_what, garble, reason, rowsShown) => {
      const { handlers } = await makeBackend();
      proxy.fault = garbleLevels(garble);

      const garbled = await handlers['data.read'](THE_DAY);
      expect(garbled.provenance).toEqual({
        source: 'partial',
        cachedAt: null,
        missing: [{ start: THE_DAY.start, end: THE_DAY.end }],
        reason: { code: 'badResponse', message: expect.stringMatching(reason), retryable: true },
      });
      // What could be read is shown; nothing of a garbled record is.
      expect(garbled.records?.rows ?? []).toHaveLength(rowsShown);
      for (const row of garbled.records?.rows ?? []) expect(Object.values(row).join('')).not.toMatch(/QQQQ/);
      // The day is not held as covered, and no garbled text reached the cache.
      expect(cacheContents().chunksInDay).toBe(0);
      expect(cacheContents().longestRecords).toBeLessThan(100_000);

      // Asked again, Refresh or not, while the garbling lasts: still partial, still not cached.
      const asked = levelRequests();
      const again = await handlers['data.read']({ ...THE_DAY, refresh: true });
      expect(levelRequests()).toBeGreaterThan(asked);
      expect(again.provenance.source).toBe('partial');
      expect(cacheContents().chunksInDay).toBe(0);

      // The service heals: the next read asks again and gets the day whole, then keeps it.
      proxy.fault = null;
      const healed = await handlers['data.read'](THE_DAY);
      expect(healed.provenance.source).toBe('fresh');
      expect(healed.records?.rows).toHaveLength(96);
      expect(healed.notes).toBeUndefined();
      const requestsWhole = levelRequests();
      const cached = await handlers['data.read'](THE_DAY);
      expect(levelRequests()).toBe(requestsWhole);
      expect(cached.provenance.source).toBe('cached');
      expect(cached.records?.rows).toEqual(healed.records?.rows);
    },
  );

  it('a site sync under the garbling is not "ready": the day is missing and resumable, and a resume once healed gets it', async () => {
    const { handlers } = await makeBackend();
    proxy.fault = garbleLevels(garblings[0]![1]);
    const started = await handlers['sync.start']({
      serials: [NOISE],
      start: THE_DAY.start,
      end: THE_DAY.end,
      datasets: { [NOISE]: ['noiseMeasurements'] },
    });
    const garbled = await syncFinished(handlers, started.id);
    expect(garbled.state).not.toBe('succeeded');
    expect(garbled.message).not.toMatch(/Ready for the site visit/);
    const levels = garbled.failures.find((f) => f.dataset === 'noiseMeasurements');
    expect(levels).toMatchObject({
      serial: NOISE,
      dataset: 'noiseMeasurements',
      missing: [{ start: THE_DAY.start, end: THE_DAY.end }],
      message: expect.stringMatching(garblings[0]![2]),
      retryable: true,
    });
    expect(cacheContents().chunksInDay).toBe(0);

    proxy.fault = null;
    await handlers['sync.resume']({ id: started.id });
    const resumed = await syncFinished(handlers, started.id);
    expect(resumed).toMatchObject({ state: 'succeeded', failures: [] });
    expect(resumed.message).toMatch(/^Ready for the site visit/);
    const requestsWhole = levelRequests();
    const synced = await handlers['data.read'](THE_DAY);
    expect(levelRequests()).toBe(requestsWhole);
    expect(synced.provenance.source).toBe('cached');
    expect(synced.records?.rows).toHaveLength(96);
  });
});

describe('the data client, through the proxy', () => {
  const client = () =>
    createDataClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_TEST_KEY, retry: { limit: 0 } });
  const HOUR_BEFORE = { serial: NOISE, start: END - HOUR, end: END };

  it('leaves out a time history record (one value) that could not be read, and says the answer is not whole', async () => {
    proxy.fault = (url, answer, res) =>
      url.pathname === '/v1/data/noise/timehistory' &&
      sendInstead(
        res,
        200,
        replaceOccurrences(answer.body, '"type":"LCPeak"', [0], (field) =>
          Buffer.concat([field, Buffer.from(',"Type":"LAeq"')]),
        ),
      );
    const chunk = await client().fetchDataset({ ...HOUR_BEFORE, dataset: 'noiseTimeHistory' });
    expect(chunk.series.map((s) => s.name)).toEqual(['LAeq', 'LAFMax']);
    expect(chunk.unreadable).toEqual({
      records: 1,
      message:
        '1 record of the 3 the service sent (noise time history) could not be read and is left out (record 2: the field “Type” appears twice). FieldDesk asks for it again.',
    });
  });

  it('says so when records name another instrument, and the answer is whole all the same', async () => {
    proxy.fault = (url, answer, res) =>
      url.pathname === LEVELS_PATH &&
      sendInstead(
        res,
        200,
        replaceOccurrences(answer.body, INSTRUMENT_FIELD, [0, 1], () =>
          Buffer.from('"instrument":"QT000002"'),
        ),
      );
    const chunk = await client().fetchDataset({ ...HOUR_BEFORE, dataset: 'noiseMeasurements' });
    expect(chunk.records?.rows).toHaveLength(2);
    expect(chunk.unreadable).toBeUndefined();
    expect(chunk.notes).toEqual([
      'The service sent 2 records of another instrument (QT000002) with the noise measurements; they are not shown.',
    ]);
  });
});

describe('what JSON.parse lets through, found in the text', () => {
  it('a field twice, in any letter case or escaped, and a text past the bound, by top-level list item', () => {
    const text = `[{"a":1},{"a\\u0062":1,"ab":2},{"x":"${'y'.repeat(70_000)}"},{"k":{"q":1,"Q":2}},7,{"a\\\\b":1,"a\\\\b":2}]`;
    expect(findGarbledParts(text)).toEqual([
      { item: 1, problem: 'the field “ab” appears twice' },
      { item: 2, problem: 'a text of 70,000 characters (no field holds more than 65,536)' },
      { item: 3, problem: 'the field “Q” appears twice' },
      { item: 4, problem: 'the field “a\\b” appears twice' },
    ]);
    // Fields of the same name in different objects, and the same text as a value, are fine.
    expect(findGarbledParts('[{"a":{"a":1},"b":"a"},{"a":2}]')).toEqual([]);
  });

  it('reading items one by one, each garbled item stands as unreadable in its place; otherwise the answer is', () => {
    const text = '[{"a":1},[1],{"b":1,"b":2},{"c":3}]';
    const items = parseJson(text, 'a list', { eachItem: true }) as unknown[];
    expect(items[0]).toEqual({ a: 1 });
    expect(items[1]).toEqual([1]);
    expect(items[2]).toEqual(new UnreadableItem('the field “b” appears twice'));
    expect(items[3]).toEqual({ c: 3 });
    expect(() => parseJson(text, 'a list')).toThrow(
      /^The service's answer could not be read \(expected a list\): the field “b” appears twice\. Try again\.$/,
    );
    expect(() => parseJson('{"name":"a","Name":"b"}', 'an instrument', { eachItem: true })).toThrow(
      /the field “Name” appears twice/,
    );
  });
});
