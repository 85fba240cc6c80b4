/**
 * The data cache: a week of 1 s noise time history for one value (≈ 600,000 samples) from the demo
 * service on loopback, fetched and stored, then read back from the cache.
 *
 * - Ingest: fetch + parse + store in SQLite, against fetch + `JSON.parse` of the same body. The body is
 *   generated once by the demo service and then replayed from a plain loopback server, so the demo's
 *   own work of generating a week of data is in neither timing.
 * - Read: `data.read` answered from the cache (typed arrays assembled from the stored blocks),
 *   against a plain SQLite read of the same blobs, with the times decoded (regenerated when stored
 *   evenly spaced, see `series-times.ts`): the least any reader of the cache has to do.
 *
 * Aims: the cache read of that week under 50 ms; fetch-and-store within 1.5x of fetch + JSON.parse.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCacheStore } from '../src/main/backend/cache/cache-store';
import { createDataClient } from '../src/main/backend/service/data-client';
import { cacheKeyOf } from '../src/main/backend/cache/cache-key';
import { readDataset } from '../src/main/backend/data/read-through-cache';
import { openDatabase } from '../src/main/backend/core/database';
import { decodeTimes } from '../src/main/backend/cache/series-times';
import type { DatasetQuery } from '../src/shared/data';
import { startDemoService } from '../src/simulator';
import { medianMs, middleOf } from './timing';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const perSecond = (samples: number, ms: number) =>
  `${Math.round(samples / (ms / 1000)).toLocaleString('en-GB')} samples/s`;

export async function benchCache(): Promise<void> {
  const demo = await startDemoService({ port: 0, rateLimit: 100_000 });
  const dir = mkdtempSync(join(tmpdir(), 'fielddesk-bench-'));
  const database = openDatabase(dir);
  try {
    const apiKey = demo.defaultKey ?? '';
    let lastUrl = '';
    const client = createDataClient({
      baseUrl: demo.baseUrl,
      apiKey,
      fetch: (input, init) => {
        lastUrl = String(input instanceof Request ? input.url : input);
        return fetch(input, init);
      },
    });
    const store = createCacheStore(database.db);
    const end = Math.floor(Date.now() / HOUR) * HOUR - DAY;
    const query: DatasetQuery = {
      serial: 'QT930998',
      dataset: 'noiseTimeHistory',
      start: end - 7 * DAY,
      end,
      options: { values: ['LAeq'], period: 'PT1S' },
    };
    const key = cacheKeyOf('bench', query);
    let samples = 0;

    // ---- ingest ----
    await client.fetchDataset(query); // learns the request's address
    const body = Buffer.from(
      await (await fetch(lastUrl, { headers: { 'X-Api-Key': apiKey } })).arrayBuffer(),
    );
    const replay = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.byteLength });
      response.end(body);
    });
    await new Promise<void>((resolve) => replay.listen(0, '127.0.0.1', resolve));
    const replayUrl = `http://127.0.0.1:${(replay.address() as AddressInfo).port}/`;
    const replayClient = createDataClient({
      baseUrl: demo.baseUrl,
      apiKey,
      fetch: (input, init) =>
        fetch(replayUrl, { ...init, ...(input instanceof Request ? { signal: input.signal } : {}) }),
    });
    // Baseline and subject alternate round by round, so a busy machine slows both alike.
    const ingestSubject = async () => {
      store.clear('bench');
      const chunk = await replayClient.fetchDataset(query);
      samples = chunk.series.reduce((n, s) => n + s.times.length, 0);
      store.store(key, { start: query.start, end: query.end }, chunk, Date.now());
    };
    const ingestBaseline = async () => {
      const response = await fetch(replayUrl, { headers: { 'X-Api-Key': apiKey } });
      return JSON.parse(await response.text()) as unknown;
    };
    await ingestSubject();
    await ingestBaseline();
    const baselineTimes: number[] = [];
    const subjectTimes: number[] = [];
    // 15 rounds: on a shared machine 7 let one busy spell move the median of one side.
    for (let round = 0; round < 15; round++) {
      let t = performance.now();
      await ingestBaseline();
      baselineTimes.push(performance.now() - t);
      t = performance.now();
      await ingestSubject();
      subjectTimes.push(performance.now() - t);
    }
    const baselineIngest = middleOf(baselineTimes);
    const subjectIngest = middleOf(subjectTimes);
    replay.close();
    replay.closeAllConnections();

    // ---- read ----
    const context = { store, source: client, now: () => end + 7 * DAY, accountId: 'bench', offline: null };
    let readSamples = 0;
    const subjectRead = await medianMs(async () => {
      const result = await readDataset(context, query);
      if (result.provenance.source !== 'cached')
        throw new Error('the bench read was not answered from the cache');
      readSamples = result.series[0]?.times.length ?? 0;
    });
    const plain = database.db.prepare<
      [],
      { count: number; times: Buffer; times_codec: number; vals: Buffer }
    >(
      `SELECT s.count, s.times, s.times_codec, s.vals FROM cache_series s
       JOIN cache_chunks c ON c.id = s.chunk_id JOIN cache_keys k ON k.id = c.key_id
       WHERE k.account_id = 'bench' ORDER BY c.start_ms`,
    );
    const baselineRead = await medianMs(() =>
      plain
        .all()
        .map((row) => ({ times: decodeTimes(row.times_codec, row.times, row.count), vals: row.vals })),
    );
    const stored = database.db
      .prepare<[], { codecs: string; times: number; vals: number }>(
        `SELECT group_concat(DISTINCT times_codec) AS codecs, SUM(length(times)) AS times,
           SUM(length(vals)) AS vals FROM cache_series`,
      )
      .get();

    console.log('\nData cache: a week of 1 s noise time history (LAeq) from the demo service on loopback');
    console.log(`  ${samples.toLocaleString('en-GB')} samples`);
    if (stored !== undefined)
      console.log(
        `  stored: times ${stored.times.toLocaleString('en-GB')} bytes (codec ${stored.codecs}), ` +
          `values ${stored.vals.toLocaleString('en-GB')} bytes`,
      );
    console.log('  ingest');
    console.log(
      `    baseline  fetch + JSON.parse of the same bytes:  ${perSecond(samples, baselineIngest)} (1.00x)`,
    );
    console.log(
      `    subject   fetch + parse + store in the cache:  ${perSecond(samples, subjectIngest)} ` +
        `(${(subjectIngest / baselineIngest).toFixed(2)}x the baseline's time; aim ≤ 1.5x)`,
    );
    console.log('  read');
    console.log(
      `    baseline  plain SQLite read + decode of times:  ${perSecond(readSamples, baselineRead)} (1.00x)`,
    );
    console.log(
      `    subject   data.read answered from the cache:   ${perSecond(readSamples, subjectRead)} ` +
        `(${(subjectRead / baselineRead).toFixed(2)}x the baseline's time; ${subjectRead.toFixed(1)} ms, aim < 50 ms)`,
    );
  } finally {
    database.close();
    rmSync(dir, { recursive: true, force: true });
    await demo.close();
  }
}
