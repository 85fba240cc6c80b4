/**
 * An opened event's own time history without signal: read once online, it answers from the local
 * database offline (said with the time it was read); one never read still gets the service's error.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Backend } from '../../../src/main/backend/backend';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import { createRecordingBackend, DEMO_TEST_KEY, demoBackendOptions } from './backend-helpers';
import { makeTempDir } from './helpers';

const HOUR = 3_600_000;
const NOISE = 'QT930998';

let service: RunningDemoService;
let dataDir: { path: string; remove(): Promise<void> };
let networkDown = false;
const backends: Backend[] = [];

beforeEach(async () => {
  networkDown = false;
  service = await startDemoService({ port: 0, keys: { [DEMO_TEST_KEY]: '*' }, rateLimit: 100_000 });
  dataDir = await makeTempDir();
});

afterEach(async () => {
  await Promise.all(backends.splice(0).map((backend) => backend.close()));
  await service.close();
  await dataDir.remove();
});

/** A backend on the test's data folder; the demo account is added once, and kept across restarts. */
async function makeBackend(addDemo = true) {
  const made = await createRecordingBackend({
    ...demoBackendOptions(dataDir.path, service),
    fetch: async (input, init) => {
      if (networkDown)
        throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
      return fetch(input, init);
    },
    clientOptions: {
      timeoutMs: 5_000,
      retry: { limit: 0, baseDelayMs: 5, maxDelayMs: 10, maxRetryAfterMs: 200 },
    },
  });
  backends.push(made.backend);
  if (addDemo) await made.handlers['accounts.tryDemo']({});
  return made;
}

describe('an event’s time history offline', () => {
  it('answers as last read, after a restart too, with when it was read', async () => {
    const first = await makeBackend();
    const end = Math.floor(Date.now() / HOUR) * HOUR;
    const events = await first.handlers['data.read']({
      serial: NOISE,
      dataset: 'events',
      start: end - 24 * HOUR,
      end,
    });
    const ids = (events.records?.rows ?? [])
      .map((row) => row['timeHistoryId'])
      .filter((id): id is string => typeof id === 'string' && id !== '');
    expect(ids.length).toBeGreaterThan(1);
    const live = await first.handlers['data.eventTimeHistory']({ id: ids[0]! });
    expect(live.cachedAt).toBeUndefined();
    expect(live.series.length).toBeGreaterThan(0);
    await first.backend.close();
    backends.splice(backends.indexOf(first.backend), 1);

    networkDown = true;
    const second = await makeBackend(false);
    const offline = await second.handlers['data.eventTimeHistory']({ id: ids[0]! });
    expect(offline.cachedAt).toEqual(expect.any(Number));
    expect(offline.range).toEqual(live.range);
    expect(offline.series.map((s) => s.name)).toEqual(live.series.map((s) => s.name));
    expect(Array.from(offline.series[0]!.values)).toEqual(Array.from(live.series[0]!.values));
    expect(offline.figures).toEqual(live.figures);
    // One never read is not made up.
    await expect(second.handlers['data.eventTimeHistory']({ id: ids[1]! })).rejects.toMatchObject({
      code: 'offline',
    });
  });
});
