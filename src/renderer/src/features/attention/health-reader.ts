/**
 * Reads instruments' health (`instruments.health`) gently: one request of at most
 * HEALTH_BATCH_MAX instruments in flight at a time, the rows on screen first, then — while the
 * Needs attention view is open — the rest of the fleet (a sweep, with its progress). An
 * instrument read less than `freshMs` ago is not asked again. When the service cannot be reached
 * the sweep stops: what is known stays, said as last known.
 *
 * No Vue here: the store wires it to its state, tests drive it with a fake `read`.
 */
import { HEALTH_BATCH_MAX, type InstrumentHealthRead } from '../../../../shared/ipc/contract';

export interface SweepProgress {
  /** Instruments of the sweep read (or fresh enough) so far. */
  done: number;
  total: number;
  running: boolean;
}

export interface HealthReaderOptions {
  read: (serials: string[]) => Promise<InstrumentHealthRead>;
  /** Every answer, as it comes. */
  onRead: (read: InstrumentHealthRead) => void;
  /** A request that failed as a whole (the sweep stops). */
  onError: (error: unknown) => void;
  onProgress: (progress: SweepProgress) => void;
  /** When each serial was last read (epoch ms), or undefined. */
  readAt: (serial: string) => number | undefined;
  now?: () => number;
  freshMs?: number;
  batchSize?: number;
}

export interface HealthReader {
  /** The rows on screen now: read first. */
  show(serials: readonly string[]): void;
  /** Reads every one of `serials` not fresh, a batch at a time, reporting progress. */
  sweep(serials: readonly string[]): void;
  stopSweep(): void;
  /** Forgets everything (another account); an answer still on its way is dropped. */
  reset(): void;
  readonly inFlight: boolean;
}

export const HEALTH_FRESH_MS = 5 * 60_000;

export function createHealthReader(options: HealthReaderOptions): HealthReader {
  const now = options.now ?? Date.now;
  const freshMs = options.freshMs ?? HEALTH_FRESH_MS;
  const batchSize = Math.min(options.batchSize ?? HEALTH_BATCH_MAX, HEALTH_BATCH_MAX);
  let shown: string[] = [];
  let sweepList: string[] = [];
  let sweeping = false;
  /** Asked in this round (screen or sweep) and answered: not asked again until they turn stale. */
  const asked = new Set<string>();
  let inFlight = false;
  let generation = 0;

  const isFresh = (serial: string): boolean => {
    const at = options.readAt(serial);
    return at !== undefined && now() - at < freshMs;
  };
  const due = (serial: string): boolean => !asked.has(serial) && !isFresh(serial);

  function progress(): void {
    const done = sweepList.filter((serial) => asked.has(serial) || isFresh(serial)).length;
    options.onProgress({ done, total: sweepList.length, running: sweeping && done < sweepList.length });
  }

  function nextBatch(): string[] {
    const batch = shown.filter(due).slice(0, batchSize);
    if (batch.length > 0 || !sweeping) return batch;
    return sweepList.filter(due).slice(0, batchSize);
  }

  function pump(): void {
    if (inFlight) return;
    const batch = nextBatch();
    if (batch.length === 0) {
      if (sweeping) {
        sweeping = false;
        progress();
      }
      return;
    }
    inFlight = true;
    const started = generation;
    options
      .read(batch)
      .then(
        (answer) => {
          if (started !== generation) return;
          for (const serial of batch) asked.add(serial);
          options.onRead(answer);
          // Without the service the rest would answer the same last known states: stop asking.
          if (answer.lastKnown !== undefined) stop();
        },
        (error: unknown) => {
          if (started !== generation) return;
          for (const serial of batch) asked.add(serial);
          options.onError(error);
          stop();
        },
      )
      .finally(() => {
        if (started !== generation) return;
        inFlight = false;
        progress();
        pump();
      });
  }

  function stop(): void {
    sweeping = false;
    shown = [];
  }

  return {
    show(serials) {
      shown = [...serials];
      // A serial that turned stale since it was asked may be asked again.
      for (const serial of shown) if (!isFresh(serial)) asked.delete(serial);
      pump();
    },
    sweep(serials) {
      sweepList = [...new Set(serials)];
      for (const serial of sweepList) if (!isFresh(serial)) asked.delete(serial);
      sweeping = true;
      progress();
      pump();
    },
    stopSweep() {
      sweeping = false;
      progress();
    },
    reset() {
      generation += 1;
      shown = [];
      sweepList = [];
      sweeping = false;
      asked.clear();
      inFlight = false;
      progress();
    },
    get inFlight() {
      return inFlight;
    },
  };
}
