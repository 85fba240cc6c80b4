/**
 * A site sync KILLED (SIGKILL, no chance to clean up) part-way in a child process, then resumed
 * by a new backend on the same data folder: the database passes integrity_check, no chunk is
 * fetched twice, no sample appears twice, and nothing is marked covered without its data.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createBackend, type Backend } from '../../../src/main/backend/backend';
import { createDataClient } from '../../../src/main/backend/service/data-client';
import { DATABASE_FILE_NAME } from '../../../src/main/backend/core/database';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import type { SyncRequest, SyncSnapshot } from '../../../src/shared/data';
import { checkCacheConsistency } from './cache-checks';
import { makeTempDir } from './helpers';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const END = Math.floor(Date.now() / HOUR) * HOUR - DAY;
const SERIALS = ['QT930998', 'QT882792'];
/** The same split as the child's (sync-child.ts), so a resumed plan is the same plan. */
const SPLIT_FOR_TEST = {
  noiseMeasurements: 6 * HOUR,
  calibrations: 400 * DAY,
  calibrationLog: 400 * DAY,
  sic: 400 * DAY,
};

let service: RunningDemoService;
let dataDir: { path: string; remove(): Promise<void> };
let backend: Backend | null = null;

beforeEach(async () => {
  service = await startDemoService({ port: 0, keys: { 'key-all': '*' }, rateLimit: 100_000 });
  dataDir = await makeTempDir();
});

afterEach(async () => {
  await backend?.close();
  backend = null;
  await service.close();
  await dataDir.remove();
});

/** Runs the child until `done` reaches `killAt`, then SIGKILLs it; returns the last progress seen. */
function runChildAndKill(request: SyncRequest, killAt: number): Promise<SyncSnapshot> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'sync-child.ts')], {
      cwd: join(__dirname, '../../..'),
      env: {
        ...process.env,
        DATA_DIR: dataDir.path,
        BASE_URL: service.baseUrl,
        API_KEY: 'key-all',
        SYNC_JSON: JSON.stringify(request),
        DELAY_MS: '40',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffer = '';
    let errors = '';
    let last: SyncSnapshot | null = null;
    let killed = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      buffer += text;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        last = JSON.parse(line) as SyncSnapshot;
        if (!killed && last.done >= killAt) {
          killed = true;
          child.kill('SIGKILL');
        }
      }
    });
    child.stderr.on('data', (text: Buffer) => (errors += text.toString()));
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL' && last !== null) resolve(last);
      else reject(new Error(`the child ended on its own (${code ?? signal}): ${errors}`));
    });
  });
}

describe('site sync killed part-way', () => {
  it('resumes in a new process without fetching twice; the database stays sound', async () => {
    const request: SyncRequest = {
      serials: SERIALS,
      start: END - 4 * DAY,
      end: END,
      datasets: Object.fromEntries(SERIALS.map((s) => [s, ['noiseMeasurements', 'calibrations']])),
    };
    const seen = await runChildAndKill(request, 6);
    expect(seen.state).toBe('running');
    const total = seen.total;
    // 4 days of levels in 6-hour pieces for each; the records (calibrations and their log for
    // both, SIC for the one with the feature) kept 24 months, in 400-day pieces: 2 requests each.
    expect(total).toBe(2 * 16 + 2 * (3 + 2));

    // The file as the killed process left it.
    const raw = new Database(join(dataDir.path, DATABASE_FILE_NAME));
    try {
      checkCacheConsistency(raw);
    } finally {
      raw.close();
    }

    const dataRequests: string[] = [];
    backend = await createBackend({
      dataDir: dataDir.path,
      vault: createMemoryVault('tests'),
      appInfo: { version: '0.1.0-test', shell: 'harness' },
      startDemo: async () => ({ baseUrl: service.baseUrl, apiKey: 'key-all', close: async () => undefined }),
      fetch: (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        if (url.includes('/data/')) dataRequests.push(url);
        return fetch(input, init);
      },
      createDataSource: (options) => createDataClient({ ...options, maxRangeMs: SPLIT_FOR_TEST }),
    });
    const handlers = backend.handlers;
    const listed = (await handlers['sync.list']({})).find((s) => s.id === seen.id);
    expect(listed).toMatchObject({ state: 'interrupted', total });
    expect(listed!.done).toBeGreaterThanOrEqual(seen.done);
    expect(listed!.done).toBeLessThan(total);

    await handlers['sync.resume']({ id: seen.id });
    let finished: SyncSnapshot | undefined;
    for (let i = 0; i < 1500 && finished === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished = (await handlers['sync.list']({})).find((s) => s.id === seen.id && s.state !== 'running');
    }
    expect(finished).toMatchObject({ state: 'succeeded', done: total, total, failures: [] });
    // Only the chunks not stored before the kill were asked for.
    expect(dataRequests).toHaveLength(total - listed!.done);

    for (const serial of SERIALS) {
      const read = await handlers['data.read']({
        serial,
        dataset: 'noiseMeasurements',
        start: request.start,
        end: END,
      });
      expect(read.provenance.source).toBe('cached');
      for (const channel of read.series) {
        for (let i = 1; i < channel.times.length; i++) {
          if (!(channel.times[i]! > channel.times[i - 1]!))
            throw new Error(`${serial} ${channel.name}: sample twice`);
        }
      }
      const times = read.records!.rows.map((r) => r.startTime as number);
      expect(new Set(times).size).toBe(times.length);
    }
    await backend.close();
    backend = null;
    const after = new Database(join(dataDir.path, DATABASE_FILE_NAME));
    try {
      checkCacheConsistency(after);
    } finally {
      after.close();
    }
  }, 180_000); // Two backends, a child process started, killed and resumed: long on a loaded machine.
});
