/**
 * The live check's polling: read, wait, read again — one read at a time (the next is scheduled only
 * once the last has answered, so reads never overlap or pile up on a slow link), every few seconds
 * while the window is shown and less often while it is hidden, backing off after failures and
 * waiting at least as long as a 429's Retry-After asked. `stop()` ends it: no read starts after,
 * and the answer of one under way is dropped.
 */

export interface LiveReaderTiming {
  /** Between reads while the window is shown. */
  intervalMs: number;
  /** Between reads while it is hidden (minimised, another window in front of it). */
  hiddenIntervalMs: number;
  /** The longest wait after failures. */
  maxBackoffMs: number;
}

/**
 * Three seconds: the service's 1 s readings arrive as they are measured, and 20 reads a minute of a
 * few kB each stay far inside any rate limit (the demo service allows 50 requests a second).
 */
export const LIVE_READER_TIMING: LiveReaderTiming = {
  intervalMs: 3_000,
  hiddenIntervalMs: 15_000,
  maxBackoffMs: 60_000,
};

/**
 * How long to wait before the next read: the interval after a good read; after `failures` failed
 * reads in a row, the interval doubled per failure up to `maxBackoffMs`; never less than the
 * service's Retry-After.
 */
export function nextReadDelayMs(
  timing: LiveReaderTiming,
  state: { hidden: boolean; failures: number; retryAfterMs?: number | undefined },
): number {
  const base = state.hidden ? timing.hiddenIntervalMs : timing.intervalMs;
  const backoff = state.failures === 0 ? base : Math.min(timing.maxBackoffMs, base * 2 ** state.failures);
  return Math.max(backoff, state.retryAfterMs ?? 0);
}

export interface LiveReaderOptions<T> {
  read: () => Promise<T>;
  onRead: (value: T) => void;
  /** A read failed; the next is in `nextInMs`. */
  onError: (error: unknown, nextInMs: number) => void;
  /** Whether the window is hidden now (default: never). */
  isHidden?: () => boolean;
  timing?: LiveReaderTiming;
}

export interface LiveReader {
  /** Reads now, then keeps reading; does nothing while already running. */
  start(): void;
  /** Stops: nothing is read after, and a read under way is not delivered. */
  stop(): void;
  /** The window came back into view: read now unless a read is under way, instead of the hidden wait. */
  wake(): void;
  /**
   * The connection is back: read now, forgetting the backoff of the failures while it was gone
   * (nothing is read while a read is under way).
   */
  retryNow(): void;
  readonly running: boolean;
}

/** The service's Retry-After of a failed read, when it gave one. */
function retryAfterOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('retryAfterMs' in error)) return undefined;
  const value = (error as { retryAfterMs: unknown }).retryAfterMs;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

export function createLiveReader<T>(options: LiveReaderOptions<T>): LiveReader {
  const timing = options.timing ?? LIVE_READER_TIMING;
  const isHidden = options.isHidden ?? (() => false);
  let running = false;
  /** Bumped at every start and stop: an answer from an earlier run is not delivered. */
  let generation = 0;
  let inFlight = false;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const clearTimer = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  const schedule = (delayMs: number): void => {
    clearTimer();
    timer = setTimeout(() => {
      timer = null;
      void readOnce();
    }, delayMs);
  };

  async function readOnce(): Promise<void> {
    if (!running || inFlight) return;
    const mine = generation;
    inFlight = true;
    let outcome: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await options.read() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    inFlight = false;
    if (mine !== generation) {
      // Stopped and started again while this was under way: the new run's first read is now.
      if (running && timer === null) void readOnce();
      return;
    }
    if (outcome.ok) {
      failures = 0;
      schedule(nextReadDelayMs(timing, { hidden: isHidden(), failures }));
      options.onRead(outcome.value);
    } else {
      failures += 1;
      const delay = nextReadDelayMs(timing, {
        hidden: isHidden(),
        failures,
        retryAfterMs: retryAfterOf(outcome.error),
      });
      schedule(delay);
      options.onError(outcome.error, delay);
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      generation += 1;
      failures = 0;
      void readOnce();
    },
    stop() {
      running = false;
      generation += 1;
      clearTimer();
    },
    wake() {
      // After failures the backoff stands (and a Retry-After must be honoured): only a hidden wait is cut short.
      if (!running || inFlight || failures > 0) return;
      clearTimer();
      void readOnce();
    },
    retryNow() {
      if (!running || inFlight) return;
      failures = 0;
      clearTimer();
      void readOnce();
    },
    get running() {
      return running;
    },
  };
}
