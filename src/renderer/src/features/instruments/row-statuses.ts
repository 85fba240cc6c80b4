/**
 * Statuses of a large fleet's rows on screen (`instruments.statuses`): the list of a fleet over
 * STATUS_EAGER_LIMIT comes without statuses, so the rows the user can see ask for theirs.
 *
 * - Rows shown are asked for after a short quiet time (debounce), so a fast scroll asks nothing
 *   for the rows it only flew past.
 * - At most `maxInFlight` requests of at most STATUS_BATCH_MAX serials are out at once; what to
 *   ask next is worked out from the rows on screen when a request comes back, so rows that
 *   scrolled away meanwhile are never asked (a request already sent cannot be called back: the
 *   contract has no cancel, and its answer is still true, so it is kept).
 * - A status older than `refreshMs` is asked again while its row is on screen.
 * - An answer older than what is already known, or one that arrives after `reset`/`stop`, is dropped.
 *
 * No Vue here: the store wires it to its state, tests drive it with a fake clock.
 */
import { STATUS_BATCH_MAX, type InstrumentStatuses } from '../../../../shared/ipc/contract';
import type { FieldDeskErrorData } from '../../../../shared/errors';
import type { InstrumentStatus } from '../../../../shared/service/schemas';
import { asFieldDeskError } from '../../errors';

export interface RowStatus {
  status: InstrumentStatus | null;
  statusError: FieldDeskErrorData | null;
  /** When the backend read it (epoch ms, the backend's clock): newer answers win. */
  fetchedAt: number;
  /** When it arrived here (epoch ms, `now()`): decides when it is due again. */
  receivedAt: number;
}

export interface RowStatusOptions {
  read: (serials: string[]) => Promise<InstrumentStatuses>;
  /** Called with every status known after each change (a new map each time). */
  onChange: (statuses: ReadonlyMap<string, RowStatus>) => void;
  now?: () => number;
  /** Whether scheduled refreshes may run now (e.g. the window is visible). Default: always. */
  mayRefresh?: () => boolean;
  /** Quiet time after the rows on screen change before asking (ms). */
  debounceMs?: number;
  /** A status is asked again once it is this old and its row is on screen (ms). */
  refreshMs?: number;
  /** How often to look for rows whose status became due (ms). */
  checkMs?: number;
  maxInFlight?: number;
  batchMax?: number;
}

export interface RowStatusLoader {
  /** The rows on screen now whose status comes from here (serials, top to bottom). */
  show(serials: readonly string[]): void;
  /** Asks the rows on screen again now (the Refresh button), keeping their statuses shown meanwhile. */
  refreshShown(): void;
  /** Forgets every status and the rows on screen, and drops answers on their way (another account). */
  reset(): void;
  /** `reset`, and no more requests or timers until `start`. */
  stop(): void;
  start(): void;
  /** Requests out now (for tests and the "loading" hint). */
  readonly inFlight: number;
}

export const ROW_STATUS_DEFAULTS = {
  debounceMs: 150,
  refreshMs: 60_000,
  checkMs: 5_000,
  maxInFlight: 2,
} as const;

export function createRowStatusLoader(options: RowStatusOptions): RowStatusLoader {
  const now = options.now ?? (() => Date.now());
  const mayRefresh = options.mayRefresh ?? (() => true);
  const debounceMs = options.debounceMs ?? ROW_STATUS_DEFAULTS.debounceMs;
  const refreshMs = options.refreshMs ?? ROW_STATUS_DEFAULTS.refreshMs;
  const checkMs = options.checkMs ?? ROW_STATUS_DEFAULTS.checkMs;
  const maxInFlight = options.maxInFlight ?? ROW_STATUS_DEFAULTS.maxInFlight;
  const batchMax = Math.min(options.batchMax ?? STATUS_BATCH_MAX, STATUS_BATCH_MAX);

  let statuses = new Map<string, RowStatus>();
  let shown: readonly string[] = [];
  const asked = new Set<string>();
  /**
   * Rows the Refresh button asked for again, with the number of the last request sent before
   * the press: only the answer to a later request is the fresh reading asked for.
   */
  let refreshRequested = new Map<string, number>();
  let requestsSent = 0;
  let requests = 0;
  /** Bumped by reset/stop: answers to requests sent before are dropped. */
  let generation = 0;
  let running = false;
  let debounceTimer: ReturnType<typeof setTimeout> | null = null;
  let checkTimer: ReturnType<typeof setInterval> | null = null;

  const isDue = (serial: string): boolean => {
    if (asked.has(serial)) return false;
    const known = statuses.get(serial);
    return known === undefined || refreshRequested.has(serial) || now() - known.receivedAt >= refreshMs;
  };

  function publish(): void {
    options.onChange(new Map(statuses));
  }

  function pump(): void {
    while (running && requests < maxInFlight) {
      const batch = shown.filter(isDue).slice(0, batchMax);
      if (batch.length === 0) return;
      send(batch);
    }
  }

  function send(serials: string[]): void {
    const sentIn = generation;
    const requestNumber = ++requestsSent;
    requests += 1;
    for (const serial of serials) asked.add(serial);
    void options
      .read(serials)
      .then(
        (answer) => {
          if (sentIn === generation) keep(answer.entries, answer.fetchedAt, requestNumber);
        },
        (failure: unknown) => {
          if (sentIn === generation) keepFailure(serials, asFieldDeskError(failure).toData(), requestNumber);
        },
      )
      .finally(() => {
        if (sentIn !== generation) return;
        requests -= 1;
        for (const serial of serials) asked.delete(serial);
        pump();
      });
  }

  /** The row is refreshed as asked once a request sent after the Refresh press has come back. */
  function settleRefresh(serial: string, requestNumber: number): void {
    const before = refreshRequested.get(serial);
    if (before !== undefined && requestNumber > before) refreshRequested.delete(serial);
  }

  function keep(entries: InstrumentStatuses['entries'], fetchedAt: number, requestNumber: number): void {
    const receivedAt = now();
    let changed = false;
    for (const { serial, status, statusError } of entries) {
      const known = statuses.get(serial);
      // A slower, older answer must not overwrite a newer one.
      if (known !== undefined && known.fetchedAt > fetchedAt) {
        settleRefresh(serial, requestNumber);
        continue;
      }
      settleRefresh(serial, requestNumber);
      statuses.set(serial, { status, statusError, fetchedAt, receivedAt });
      changed = true;
    }
    if (changed) publish();
  }

  /** The request failed as a whole (offline, say): a status already shown stays, with the reason. */
  function keepFailure(serials: readonly string[], error: FieldDeskErrorData, requestNumber: number): void {
    const receivedAt = now();
    for (const serial of serials) {
      const known = statuses.get(serial);
      statuses.set(serial, {
        status: known?.status ?? null,
        statusError: error,
        fetchedAt: known?.fetchedAt ?? 0,
        // Not asked again before the next refresh: a failing service is not hammered.
        receivedAt,
      });
      settleRefresh(serial, requestNumber);
    }
    publish();
  }

  function schedule(): void {
    if (debounceTimer !== null) clearTimeout(debounceTimer);
    debounceTimer = setTimeout(() => {
      debounceTimer = null;
      pump();
    }, debounceMs);
  }

  function reset(): void {
    generation += 1;
    requests = 0;
    asked.clear();
    refreshRequested = new Map();
    if (debounceTimer !== null) clearTimeout(debounceTimer);
    debounceTimer = null;
    const hadStatuses = statuses.size > 0;
    statuses = new Map();
    if (hadStatuses) publish();
  }

  return {
    show(serials) {
      shown = [...serials];
      if (running) schedule();
    },
    refreshShown() {
      for (const serial of shown) refreshRequested.set(serial, requestsSent);
      if (running) schedule();
    },
    reset() {
      shown = [];
      reset();
    },
    stop() {
      running = false;
      shown = [];
      reset();
      if (checkTimer !== null) clearInterval(checkTimer);
      checkTimer = null;
    },
    start() {
      if (running) return;
      running = true;
      checkTimer = setInterval(() => {
        if (mayRefresh()) pump();
      }, checkMs);
      if (shown.length > 0) schedule();
    },
    get inFlight() {
      return requests;
    },
  };
}
