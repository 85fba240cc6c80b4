/**
 * Site sync against a fake data client: progress numbers, failures named per instrument and
 * dataset, cancel, and resume after a stop or a "restart" (a NEW database connection and manager
 * on the same data folder) without fetching any stored chunk twice.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCacheStore, type CacheStore } from '../../../src/main/backend/cache/cache-store';
import { cacheKeyOf } from '../../../src/main/backend/cache/cache-key';
import { readDataset } from '../../../src/main/backend/data/read-through-cache';
import { openDatabase, type FieldDeskDatabase } from '../../../src/main/backend/core/database';
import {
  createSyncManager,
  type SyncManager,
  type SyncPlanRequest,
} from '../../../src/main/backend/sync/sync-manager';
import type { Dataset, SyncSnapshot } from '../../../src/shared/data';
import { DEFAULT_SYNC_CHOICES, optionSetsOf, type SyncItem } from '../../../src/shared/sync-choices';
import { FieldDeskError } from '../../../src/shared/errors';
import { fakeDataSource, offlineError } from './fake-data-source';
import { makeTempDir } from './helpers';
import { checkCacheConsistency } from './cache-checks';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2025, 5, 1);

let dir: { path: string; remove(): Promise<void> };
const open: Array<{ database: FieldDeskDatabase; manager: SyncManager }> = [];

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  for (const { database, manager } of open.splice(0)) {
    await manager.stopAll();
    database.close();
  }
  await dir.remove();
});

function start(): {
  database: FieldDeskDatabase;
  store: CacheStore;
  manager: SyncManager;
  events: SyncSnapshot[];
} {
  const database = openDatabase(dir.path);
  const store = createCacheStore(database.db);
  const events: SyncSnapshot[] = [];
  const manager = createSyncManager({ db: database.db, store, now: () => T0, emit: (s) => events.push(s) });
  open.push({ database, manager });
  return { database, store, manager, events };
}

async function finished(manager: SyncManager, id: string): Promise<SyncSnapshot> {
  for (let i = 0; i < 500; i++) {
    const snapshot = manager.get(id);
    if (snapshot !== undefined && !['running', 'starting'].includes(snapshot.state)) return snapshot;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the sync did not finish');
}

const request = (datasets: Dataset[], serials = ['QT1', 'QT2'], days = 2): SyncPlanRequest => ({
  serials,
  start: T0 - days * DAY,
  end: T0,
  // Each dataset with the first option set a noise survey fetches it with (the time history: LAeq at 1 s).
  items: Object.fromEntries(
    serials.map((s) => [
      s,
      datasets.map((dataset): SyncItem => {
        const options = optionSetsOf(dataset, DEFAULT_SYNC_CHOICES.noise)[0];
        return { dataset, ...(options === undefined ? {} : { options }), span: 'range' };
      }),
    ]),
  ),
});

describe('site sync', () => {
  it('fetches every chunk as one operation with monotonic progress, bytes and a time-left estimate', async () => {
    const { manager, events, store, database } = start();
    const source = fakeDataSource({ maxRangeMs: 6 * HOUR, delayMs: 2 });
    const first = manager.start('acc-1', request(['noiseTimeHistory', 'calibrations']), source);
    expect(first.state).toBe('running');
    expect(first.total).toBe(2 * (8 + 8));
    const done = await finished(manager, first.id);
    expect(done).toMatchObject({ state: 'succeeded', done: 32, total: 32, failures: [], error: null });
    expect(done.message).toMatch(/Ready for the site visit: 2 instruments/);
    expect(source.requests).toHaveLength(32);

    const mine = events.filter((e) => e.id === first.id);
    for (let i = 1; i < mine.length; i++) {
      expect(mine[i]!.done).toBeGreaterThanOrEqual(mine[i - 1]!.done);
      expect(mine[i]!.bytes).toBeGreaterThanOrEqual(mine[i - 1]!.bytes);
      expect(mine[i]!.total).toBe(32);
    }
    expect(mine.at(-1)!.bytes).toBeGreaterThan(0);
    expect(mine.some((e) => e.state === 'running' && e.etaMs !== null && e.etaMs >= 0)).toBe(true);

    // Everything is in the cache: a read of the range makes no request, even offline.
    const before = source.requests.length;
    const read = await readDataset(
      { store, source, now: () => T0, accountId: 'acc-1', offline: null },
      {
        serial: 'QT1',
        dataset: 'noiseTimeHistory',
        start: T0 - 2 * DAY,
        end: T0 - HOUR,
        options: { values: ['LAeq'], period: 'PT1S' },
      },
    );
    expect(source.requests.length).toBe(before);
    expect(read.series[0]!.times.length).toBe((2 * DAY - HOUR) / 1000);
    checkCacheConsistency(database.db);
  });

  it('skips chunks the cache already covers without a request', async () => {
    const { manager } = start();
    const source = fakeDataSource({ maxRangeMs: 12 * HOUR });
    // Settled data (a day old): nothing of it can still change at the service.
    const past = (serials: string[]) => ({ ...request(['noiseTimeHistory'], serials), end: T0 - DAY });
    const one = manager.start('acc-1', past(['QT1']), source);
    await finished(manager, one.id);
    expect(source.requests).toHaveLength(2);
    const two = manager.start('acc-1', past(['QT1', 'QT2']), source);
    const done = await finished(manager, two.id);
    expect(source.requests).toHaveLength(4);
    expect(source.requests.slice(2).every((r) => r.serial === 'QT2')).toBe(true);
    expect(done).toMatchObject({ state: 'succeeded', done: 4, total: 4 });

    // The still-open recent interval is fetched again by a later sync.
    const recent = manager.start('acc-1', request(['noiseTimeHistory'], ['QT1']), source);
    await finished(manager, recent.id);
    const three = manager.start('acc-1', request(['noiseTimeHistory'], ['QT1']), source);
    const before = source.requests.length;
    await finished(manager, three.id);
    expect(source.requests.slice(before).map((r) => r.end - r.start)).toEqual([12 * HOUR]);
  });

  it('names what failed per instrument and dataset, and completes with the rest', async () => {
    const { manager } = start();
    const source = fakeDataSource({
      maxRangeMs: 4 * HOUR,
      fault: (r) =>
        r.serial === 'QT2' && r.dataset === 'calibrations'
          ? new FieldDeskError('forbidden', 'This key lacks the data.system:read scope.', {
              missingScope: 'data.system:read',
            })
          : null,
    });
    const snapshot = manager.start('acc-1', request(['noiseTimeHistory', 'calibrations']), source);
    const done = await finished(manager, snapshot.id);
    expect(done.state).toBe('withGaps');
    expect(done.phase).toBe('Finished with gaps');
    // Every request is done, but one pair of four got nothing: three quarters are in the cache.
    expect(done.fetched).toBe((done.total * 3) / 4);
    // The whole range is missing for that pair: named with its years, so a year's gap never reads as a day.
    expect(done.failures).toEqual([
      {
        serial: 'QT2',
        dataset: 'calibrations',
        missing: [{ start: T0 - 2 * DAY, end: T0 }],
        message: 'This key lacks the data.system:read scope.',
        // Asking again cannot help until the key changes: Resume is not offered for it.
        retryable: false,
      },
    ]);
    expect(done.message).toMatch(
      /^Finished with gaps: fetched .*; missing QT2 Calibrations 30 May 2025 00:00 – 1 Jun 2025 00:00 UTC \(This key lacks the data.system:read scope\)/,
    );
    // A lasting refusal is not asked again for the other chunks of that dataset.
    // (Up to the requests already in flight when the first refusal came.)
    expect(
      source.requests.filter((r) => r.serial === 'QT2' && r.dataset === 'calibrations').length,
    ).toBeLessThanOrEqual(3);
    expect(done.done).toBe(done.total);
  });

  it('fails only when nothing could be fetched, with the reason', async () => {
    const { manager } = start();
    const source = fakeDataSource({
      maxRangeMs: 12 * HOUR,
      fault: () => new FieldDeskError('serverError', 'The service had an internal problem (500).'),
    });
    const snapshot = manager.start('acc-1', request(['noiseTimeHistory']), source);
    const done = await finished(manager, snapshot.id);
    expect(done.state).toBe('failed');
    expect(done.error).toMatchObject({ code: 'serverError' });
    expect(done.failures.map((f) => f.serial)).toEqual(['QT1', 'QT2']);
  });

  it('stops asking once the service is unreachable, names what is left, and a resume fetches it', async () => {
    const { manager } = start();
    let down = false;
    let served = 0;
    const source = fakeDataSource({
      maxRangeMs: 6 * HOUR,
      fault: () => {
        if (!down && ++served === 5) down = true;
        return down ? offlineError() : null;
      },
    });
    const snapshot = manager.start('acc-1', request(['noiseTimeHistory']), source);
    const done = await finished(manager, snapshot.id);
    expect(done.state).toBe('withGaps');
    expect(source.requests.length).toBeLessThan(16);
    expect(done.failures.map((f) => f.serial).sort()).toEqual(['QT1', 'QT2']);
    expect(done.failures.every((f) => f.missing.length > 0)).toBe(true);
    expect(done.message).toMatch(/missing .*Cannot reach/);

    down = false;
    served = -1000;
    const before = source.requests.length;
    manager.resume(snapshot.id, source);
    const again = await finished(manager, snapshot.id);
    expect(again).toMatchObject({ state: 'succeeded', failures: [], done: 16, total: 16 });
    // Only what had not been stored was asked for.
    expect(source.requests.length - before).toBe(16 - 4);
  });

  it('resumes after a restart: interrupted in the list, no chunk fetched twice, no sample twice', async () => {
    const first = start();
    const slow = fakeDataSource({ maxRangeMs: 3 * HOUR, delayMs: 15 });
    const snapshot = first.manager.start('acc-1', request(['noiseTimeHistory', 'calibrations']), slow);
    while ((first.manager.get(snapshot.id)?.done ?? 0) < 10) await new Promise((r) => setTimeout(r, 5));
    // "Kill": stop the work and drop the connection without finishing the sync.
    await first.manager.stopAll();
    first.database.close();
    open.splice(0);

    const second = start();
    const listed = second.manager.list().find((s) => s.id === snapshot.id);
    expect(listed).toMatchObject({ state: 'interrupted', total: 64 });
    expect(listed!.done).toBeGreaterThanOrEqual(10);
    checkCacheConsistency(second.database.db);

    const source = fakeDataSource({ maxRangeMs: 3 * HOUR });
    const resumed = second.manager.resume(snapshot.id, source);
    expect(resumed.state).toBe('running');
    const done = await finished(second.manager, snapshot.id);
    expect(done).toMatchObject({ state: 'succeeded', done: 64, total: 64 });
    expect(source.requests.length).toBe(64 - listed!.done);

    const key = cacheKeyOf('acc-1', {
      serial: 'QT1',
      dataset: 'noiseTimeHistory',
      options: { values: ['LAeq'], period: 'PT1S' },
    });
    const read = second.store.read(key, { start: T0 - 2 * DAY, end: T0 });
    const times = read.series[0]!.times;
    expect(times.length).toBe((2 * DAY) / 1000);
    for (let i = 1; i < times.length; i++)
      if (!(times[i]! > times[i - 1]!)) throw new Error(`sample twice at ${i}`);
    checkCacheConsistency(second.database.db);
  });

  it('cancel stops the sync, keeps what was fetched, and resume fetches the rest', async () => {
    const { manager } = start();
    const source = fakeDataSource({ maxRangeMs: 3 * HOUR, delayMs: 10 });
    const snapshot = manager.start('acc-1', request(['noiseTimeHistory'], ['QT1']), source);
    while ((manager.get(snapshot.id)?.done ?? 0) < 3) await new Promise((r) => setTimeout(r, 5));
    manager.cancel(snapshot.id);
    const stopped = await finished(manager, snapshot.id);
    expect(stopped.state).toBe('cancelled');
    expect(stopped.message).toMatch(/Stopped\. What was fetched/);
    const kept = stopped.done;
    expect(kept).toBeGreaterThanOrEqual(3);
    expect(kept).toBeLessThan(16);
    manager.resume(snapshot.id, fakeDataSource({ maxRangeMs: 3 * HOUR }));
    expect(await finished(manager, snapshot.id)).toMatchObject({ state: 'succeeded', done: 16 });
  });
});
