/**
 * `data.liveLevels`: an instrument's newest 1 s LAeq, read from the demo service every time,
 * including the interval still being recorded, and never stored in the cache.
 */
import { afterEach, expect, it } from 'vitest';
import { dispatchRequest } from '../../../src/shared/ipc/contract';
import { newestReadingEnd } from '../../../src/shared/live';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import { createRecordingBackend, DEMO_TEST_KEY, demoBackendOptions } from './backend-helpers';
import { makeTempDir } from './helpers';

/** 12:07:30.4 UTC: seven and a half minutes into a 15-minute interval the service has not closed. */
const NOW = Date.UTC(2025, 5, 2, 12, 7, 30, 400);

/** The readings of a live read as [time, LAeq] (its NaN markers of where readings stop left out). */
const readings = (live: { times: Float64Array; values: Float32Array }): [number, number][] =>
  [...live.times].flatMap((t, i) =>
    Number.isNaN(live.values[i]) ? [] : [[t, live.values[i]!] as [number, number]],
  );

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function liveBackend() {
  let now = NOW;
  const service: RunningDemoService = await startDemoService({
    port: 0,
    keys: { [DEMO_TEST_KEY]: '*' },
    rateLimit: 10_000,
    now: () => now,
  });
  closers.push(() => service.close());
  const dataDir = await makeTempDir();
  closers.push(() => dataDir.remove());
  const made = await createRecordingBackend({ ...demoBackendOptions(dataDir.path, service), now: () => now });
  closers.push(() => made.backend.close());
  await made.handlers['accounts.tryDemo']({});
  const fleet = await made.handlers['instruments.list']({});
  const recording = fleet.entries.find((e) => e.instrument.type === 'Noise' && e.status?.measuring);
  if (recording === undefined) throw new Error('the demo fleet has a recording noise instrument');
  return {
    ...made,
    serial: recording.instrument.serialNumber,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

it('reads the newest 1 s LAeq up to the last whole second, the open interval included', async () => {
  const { handlers, serial } = await liveBackend();
  const live = await handlers['data.liveLevels']({ serial });
  expect(live.serial).toBe(serial);
  expect(live.fetchedAt).toBe(NOW);
  expect(live.sampleMs).toBe(1000);
  // 150 s back from the second being measured (12:07:31): 12:05:01 to 12:07:29, every second.
  const read = readings(live);
  expect(read[0]?.[0]).toBe(Date.UTC(2025, 5, 2, 12, 5, 1));
  expect(read).toHaveLength(149);
  expect(newestReadingEnd(live)).toBe(Date.UTC(2025, 5, 2, 12, 7, 30));
  expect(read.every(([, v]) => v > 20 && v < 140)).toBe(true);
  expect(live.notes).toEqual([]);
});

it('reads the service again each time and stores nothing in the cache', async () => {
  const { handlers, serial, advance } = await liveBackend();
  const first = await handlers['data.liveLevels']({ serial, windowMs: 60_000 });
  advance(5_000);
  const second = await handlers['data.liveLevels']({ serial, windowMs: 60_000 });
  expect(newestReadingEnd(second)).toBe(newestReadingEnd(first)! + 5_000);
  // The seconds both reads hold are the same readings; the second has five newer ones.
  const older = new Map(readings(first));
  const both = readings(second).filter(([t]) => older.has(t));
  expect(both).toHaveLength(readings(first).length - 5);
  for (const [t, v] of both) expect(v).toBe(older.get(t));
  expect((await handlers['cache.summary']({})).instruments).toEqual([]);
});

it('refuses a window outside 30 s to 5 minutes, saying which', async () => {
  const { handlers, serial } = await liveBackend();
  const tooShort = await dispatchRequest(handlers, 'data.liveLevels', { serial, windowMs: 1_000 });
  expect(tooShort).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
  expect(JSON.stringify(tooShort)).toContain('at least the last 30 seconds');
  const tooLong = await dispatchRequest(handlers, 'data.liveLevels', { serial, windowMs: 3_600_000 });
  expect(JSON.stringify(tooLong)).toContain('at most the last 5 minutes');
});
