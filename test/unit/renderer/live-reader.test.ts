/**
 * The live check's polling (features/live/live-reader.ts) on vitest's fake clock: reads every few
 * seconds, one at a time, less often while hidden, backing off after failures and for a 429's
 * Retry-After, and nothing after stop.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FieldDeskError } from '../../../src/shared/errors';
import {
  createLiveReader,
  nextReadDelayMs,
  type LiveReaderTiming,
} from '../../../src/renderer/src/features/live/live-reader';
import { deferred } from './fixtures';

const TIMING: LiveReaderTiming = { intervalMs: 3_000, hiddenIntervalMs: 15_000, maxBackoffMs: 60_000 };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A reader whose reads the test answers by hand; `answered` counts answers delivered. */
function harness(options: { hidden?: () => boolean } = {}) {
  const pending: Array<ReturnType<typeof deferred<number>>> = [];
  const read = vi.fn(() => {
    const next = deferred<number>();
    pending.push(next);
    return next.promise;
  });
  const onRead = vi.fn();
  const onError = vi.fn();
  const reader = createLiveReader({
    read,
    onRead,
    onError,
    timing: TIMING,
    ...(options.hidden ? { isHidden: options.hidden } : {}),
  });
  /** Answers the oldest unanswered read, and lets its promise settle. */
  const answer = async (value: number | Error) => {
    const next = pending.shift();
    if (next === undefined) throw new Error('no read is waiting');
    if (value instanceof Error) next.reject(value);
    else next.resolve(value);
    await vi.advanceTimersByTimeAsync(0);
  };
  return { reader, read, onRead, onError, answer, pending };
}

describe('the live reader', () => {
  it('reads at once, then every interval after each answer', async () => {
    const { reader, read, onRead, answer } = harness();
    reader.start();
    expect(read).toHaveBeenCalledTimes(1);
    await answer(60);
    expect(onRead).toHaveBeenLastCalledWith(60);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(2);
    await answer(61);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(read).toHaveBeenCalledTimes(3);
    reader.stop();
  });

  it('never starts a read while one is under way, however long it takes', async () => {
    const { reader, read, answer } = harness();
    reader.start();
    reader.start();
    reader.wake();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(read).toHaveBeenCalledTimes(1);
    await answer(60);
    // The next one waits a whole interval from the answer, not from when the slow read began.
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(read).toHaveBeenCalledTimes(2);
    reader.stop();
  });

  it('makes no read after stop, and drops the answer of one under way', async () => {
    const { reader, read, onRead, answer } = harness();
    reader.start();
    await answer(60);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(read).toHaveBeenCalledTimes(2);
    reader.stop();
    expect(reader.running).toBe(false);
    await answer(99);
    expect(onRead).not.toHaveBeenCalledWith(99);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(read).toHaveBeenCalledTimes(2);
    reader.wake();
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('started again while an old read is under way, reads for the new run once that one ends', async () => {
    const { reader, read, onRead, answer } = harness();
    reader.start();
    reader.stop();
    reader.start();
    expect(read).toHaveBeenCalledTimes(1);
    await answer(1);
    expect(onRead).not.toHaveBeenCalled();
    expect(read).toHaveBeenCalledTimes(2);
    await answer(2);
    expect(onRead).toHaveBeenCalledWith(2);
    reader.stop();
  });

  it('reads less often while the window is hidden, and at once when it is shown again', async () => {
    let hidden = true;
    const { reader, read, answer } = harness({ hidden: () => hidden });
    reader.start();
    await answer(60);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(read).toHaveBeenCalledTimes(1);
    hidden = false;
    reader.wake();
    expect(read).toHaveBeenCalledTimes(2);
    await answer(61);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(read).toHaveBeenCalledTimes(3);
    reader.stop();
  });

  it('backs off after failures, doubling up to the cap, and returns to the interval after a good read', async () => {
    const { reader, read, onError, answer } = harness();
    reader.start();
    await answer(new FieldDeskError('serverError', 'Down'));
    expect(onError).toHaveBeenLastCalledWith(expect.any(FieldDeskError), 6_000);
    await vi.advanceTimersByTimeAsync(5_999);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(2);
    await answer(new FieldDeskError('serverError', 'Down'));
    expect(onError).toHaveBeenLastCalledWith(expect.any(FieldDeskError), 12_000);
    await vi.advanceTimersByTimeAsync(12_000);
    await answer(60);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(read).toHaveBeenCalledTimes(4);
    reader.stop();
  });

  it("waits at least as long as a 429's Retry-After, and a wake does not cut that short", async () => {
    const { reader, read, onError, answer } = harness();
    reader.start();
    await answer(new FieldDeskError('rateLimited', 'Too many', { retryAfterMs: 30_000 }));
    expect(onError).toHaveBeenLastCalledWith(expect.any(FieldDeskError), 30_000);
    reader.wake();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(2);
    reader.stop();
  });
});

describe('reading again once the connection is back', () => {
  it('reads at once past the backoff, but never beside a read under way or after stop', async () => {
    const { reader, read, answer } = harness();
    reader.start();
    await answer(new FieldDeskError('offline', 'No connection'));
    reader.retryNow();
    expect(read).toHaveBeenCalledTimes(2);
    reader.retryNow();
    expect(read).toHaveBeenCalledTimes(2);
    await answer(60);
    // Back to the plain interval after the good read.
    await vi.advanceTimersByTimeAsync(3_000);
    expect(read).toHaveBeenCalledTimes(3);
    reader.stop();
    reader.retryNow();
    expect(read).toHaveBeenCalledTimes(3);
  });
});

describe('the delay before the next read', () => {
  it('is the interval, the hidden interval, the capped backoff, or the Retry-After when longer', () => {
    expect(nextReadDelayMs(TIMING, { hidden: false, failures: 0 })).toBe(3_000);
    expect(nextReadDelayMs(TIMING, { hidden: true, failures: 0 })).toBe(15_000);
    expect(nextReadDelayMs(TIMING, { hidden: false, failures: 3 })).toBe(24_000);
    expect(nextReadDelayMs(TIMING, { hidden: false, failures: 10 })).toBe(60_000);
    expect(nextReadDelayMs(TIMING, { hidden: false, failures: 1, retryAfterMs: 2_000 })).toBe(6_000);
    expect(nextReadDelayMs(TIMING, { hidden: false, failures: 1, retryAfterMs: 45_000 })).toBe(45_000);
  });
});
