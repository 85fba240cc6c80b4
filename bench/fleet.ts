/**
 * A fleet of 5,000 instruments (the demo service's `--fleet-size`, in a process of its own so
 * its memory is not counted): how long until the instrument list shows its first rows with their
 * statuses, and how much memory the backend holds at its peak and after the list is left.
 *
 * - Baseline: GET /control/instruments + JSON.parse, the least any client must do to list.
 * - First rows: `instruments.list` plus `instruments.statuses` for one screen (30 rows), what the
 *   list view asks for before it can show its first rows; then their health columns
 *   (`instruments.health`, a batch of HEALTH_BATCH_MAX at a time, as the list view's reader asks).
 * - Needs attention: the health of the whole fleet read as the view does, one batch at a time, and
 *   the last known health of all 5,000 answered again without a request (how the view opens).
 * - For comparison, reading every status with the list, as FieldDesk did before (one request per
 *   instrument on every refresh).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createBackend } from '../src/main/backend/backend';
import { createMemoryVault } from '../src/main/backend/accounts/vault';
import { createServiceClient } from '../src/main/backend/service/client';
import { HEALTH_BATCH_MAX } from '../src/shared/ipc/contract';
import { medianMs } from './timing';

const FLEET_SIZE = 5_000;
const SCREEN_ROWS = 30;
const ROUNDS = 5;

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`;

/** Starts the demo service in a child process; resolves with its address and key. */
async function startFleetService(): Promise<{ baseUrl: string; apiKey: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/simulator/cli.ts',
      '--port',
      '0',
      '--fleet-size',
      String(FLEET_SIZE),
      '--rate-limit',
      '1000000',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let baseUrl = '';
  for await (const line of createInterface({ input: child.stdout! })) {
    baseUrl ||= /demo service at (\S+)/.exec(line)?.[1] ?? '';
    const key = /^\s+(\S+)\s+every scope/.exec(line)?.[1];
    if (baseUrl !== '' && key !== undefined) return { baseUrl, apiKey: key, child };
  }
  throw new Error('the demo service did not start');
}

/** Peak heap while `work` runs, sampled every few milliseconds (and at its end). */
async function peakHeapDuring<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    return { result, peak };
  } finally {
    clearInterval(sampler);
  }
}

const collect = () => (globalThis as { gc?: () => void }).gc?.();

export async function benchFleet(): Promise<void> {
  const service = await startFleetService();
  const dataDir = mkdtempSync(join(tmpdir(), 'fielddesk-bench-fleet-'));
  const backend = await createBackend({
    dataDir,
    vault: createMemoryVault('benchmark'),
    appInfo: { version: 'bench', shell: 'harness' },
    startDemo: () => Promise.reject(new Error('not used')),
  });
  try {
    const { handlers } = backend;
    await handlers['accounts.add']({ name: 'Fleet', baseUrl: service.baseUrl, apiKey: service.apiKey });
    const url = `${service.baseUrl}/control/instruments`;
    const baseline = await medianMs(
      async () => JSON.parse(await (await fetch(url, { headers: { 'X-Api-Key': service.apiKey } })).text()),
      ROUNDS,
    );
    collect();
    const before = process.memoryUsage().heapUsed;
    const firstRows = async () => {
      const list = await handlers['instruments.list']({});
      const screen = list.entries.slice(0, SCREEN_ROWS).map((e) => e.instrument.serialNumber);
      return handlers['instruments.statuses']({ serials: screen });
    };
    // The health columns of the first screen, read after the list as the list view's reader asks
    // (a batch of HEALTH_BATCH_MAX at a time), alongside the statuses.
    const screenSerials = (await handlers['instruments.list']({})).entries
      .slice(0, SCREEN_ROWS)
      .map((e) => e.instrument.serialNumber);
    const healthColumns = await medianMs(async () => {
      for (let i = 0; i < screenSerials.length; i += HEALTH_BATCH_MAX)
        await handlers['instruments.health']({ serials: screenSerials.slice(i, i + HEALTH_BATCH_MAX) });
    }, ROUNDS);
    const { peak } = await peakHeapDuring(firstRows);
    const subject = await medianMs(firstRows, ROUNDS);
    collect();
    const after = process.memoryUsage().heapUsed;

    // Needs attention: the whole fleet's health, one batch at a time, then the last known of all.
    const fleetSerials = (await handlers['instruments.list']({})).entries.map(
      (e) => e.instrument.serialNumber,
    );
    collect();
    const beforeSweep = process.memoryUsage().heapUsed;
    const sweepStarted = performance.now();
    const { peak: sweepPeak } = await peakHeapDuring(async () => {
      for (let i = 0; i < fleetSerials.length; i += HEALTH_BATCH_MAX)
        await handlers['instruments.health']({ serials: fleetSerials.slice(i, i + HEALTH_BATCH_MAX) });
    });
    const sweepMs = performance.now() - sweepStarted;
    let knownCount = 0;
    const knownMs = await medianMs(async () => {
      knownCount = (await handlers['instruments.knownHealth']({})).entries.length;
    }, ROUNDS);

    // Before: every status read with the list (the old instruments.list).
    const client = createServiceClient({ baseUrl: service.baseUrl, apiKey: service.apiKey });
    const everyStatus = await medianMs(
      async () => {
        const instruments = await client.listInstruments();
        for (let i = 0; i < instruments.length; i += 4) {
          await Promise.all(
            instruments.slice(i, i + 4).map((x) => client.getInstrumentStatus(x.serialNumber)),
          );
        }
      },
      1,
      0,
    );

    console.log(
      `\nInstrument list of a ${FLEET_SIZE.toLocaleString('en-GB')}-instrument fleet (demo service in its own process)`,
    );
    console.log('  baseline  GET /control/instruments + JSON.parse: 1.00x');
    console.log(
      `  subject   first rows shown (instruments.list + ${SCREEN_ROWS} statuses): ${(subject / baseline).toFixed(2)}x the baseline's time`,
    );
    console.log(
      `  subject   the first screen's health columns filled (instruments.health, ${SCREEN_ROWS} instruments): ${(healthColumns / baseline).toFixed(2)}x the baseline's time`,
    );
    console.log(
      `  before    every status with the list: ${(everyStatus / baseline).toFixed(1)}x the baseline's time`,
    );
    console.log(
      `  backend heap: ${mb(before)} before, ${mb(peak)} at the peak (${(peak / before).toFixed(2)}x), ${mb(after)} after the list is left${
        (globalThis as { gc?: unknown }).gc === undefined ? ' (without --expose-gc: not collected first)' : ''
      }`,
    );
    console.log(
      `  attention whole fleet's health, ${HEALTH_BATCH_MAX} at a time (one request in flight): ${(sweepMs / 1000).toFixed(1)} s, ${(sweepMs / baseline).toFixed(1)}x the baseline's time; heap ${mb(beforeSweep)} → ${mb(sweepPeak)} at the peak`,
    );
    console.log(
      `  attention last known health of ${knownCount.toLocaleString('en-GB')} (how the view opens): ${(knownMs / baseline).toFixed(2)}x the baseline's time`,
    );
    console.log('  Aim: first rows within a few times the bare listing, memory back to where it was.');
  } finally {
    await backend.close();
    service.child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
