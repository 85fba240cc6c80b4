/**
 * The live view's state (features/live/live-levels.ts) over the fake backend and vitest's fake
 * clock: it reads while its scope (the view) lives and stops reading when the view is left. It reads
 * through the data store, as LiveView does.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { effectScope } from 'vue';
import type { LiveLevels } from '../../../src/shared/live';
import { FieldDeskError } from '../../../src/shared/errors';
import { createFakeBackend, fakePinia } from './fake-api';
import { useLiveLevels } from '../../../src/renderer/src/features/live/live-levels';
import { useDataStore } from '../../../src/renderer/src/features/data/store';

const backend = createFakeBackend();
const fake = backend.api;

const TIMING = { intervalMs: 3_000, hiddenIntervalMs: 15_000, maxBackoffMs: 60_000 };

const answer = (serial: string, at: number): LiveLevels => ({
  serial,
  times: Float64Array.of(at - 1000),
  values: Float32Array.of(94),
  sampleMs: 1000,
  fetchedAt: at,
  notes: [],
});

beforeEach(() => {
  vi.useFakeTimers();
  fakePinia(backend);
  backend.reset();
});
afterEach(() => {
  vi.useRealTimers();
});

it('reads every interval while the view is open, and never again once it is left', async () => {
  fake.data.liveLevels.mockImplementation(async ({ serial }) => answer(serial, Date.now()));
  const data = useDataStore();
  const scope = effectScope();
  const live = scope.run(() => useLiveLevels(() => 'QT1', data.liveLevels, TIMING))!;
  await vi.advanceTimersByTimeAsync(0);
  expect(fake.data.liveLevels).toHaveBeenCalledTimes(1);
  expect(fake.data.liveLevels).toHaveBeenLastCalledWith({ serial: 'QT1' });
  expect(live.latest.value?.values[0]).toBe(94);
  await vi.advanceTimersByTimeAsync(9_000);
  expect(fake.data.liveLevels).toHaveBeenCalledTimes(4);
  expect(live.polling.value).toBe(true);

  scope.stop();
  expect(live.polling.value).toBe(false);
  await vi.advanceTimersByTimeAsync(10 * 60_000);
  expect(fake.data.liveLevels).toHaveBeenCalledTimes(4);
});

it('says a failed read and when it tries again, and clears that once a read succeeds', async () => {
  fake.data.liveLevels.mockRejectedValueOnce(new FieldDeskError('serverError', 'The service failed.'));
  fake.data.liveLevels.mockImplementation(async ({ serial }) => answer(serial, Date.now()));
  const data = useDataStore();
  const scope = effectScope();
  const live = scope.run(() => useLiveLevels(() => 'QT1', data.liveLevels, TIMING))!;
  await vi.advanceTimersByTimeAsync(0);
  expect(live.error.value?.message).toBe('The service failed.');
  expect(live.retryInMs.value).toBe(6_000);
  await vi.advanceTimersByTimeAsync(6_000);
  expect(live.error.value).toBeNull();
  expect(live.latest.value).not.toBeNull();
  scope.stop();
});
