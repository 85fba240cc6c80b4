/**
 * Where an action's progress comes from. Today: polling the service (`PollingProgressSource`).
 * The real service also has a live websocket per instrument that pushes `ActionStatus` messages
 * (service-facts.md, "Live channel"); a push source implementing the same interface can replace
 * polling without touching the state machine or the runner.
 */
import { toErrorData, type FieldDeskErrorData } from '../../../shared/errors';
import type { CalibrationStatus, SicStatus } from '../../../shared/service/schemas';
import type { ServiceClient } from '../service/client';

/** What a source can say about a running Calibration or SIC. */
export type ProgressObservation =
  /** The instrument reports the action as running. */
  | { kind: 'inProgress' }
  /** The instrument reports it as not running, and no result newer than `sinceMs` exists yet. */
  | { kind: 'idle' }
  /** A result recorded at or after `sinceMs`: the action's outcome. */
  | { kind: 'result'; record: CalibrationStatus | SicStatus }
  /** The source cannot reach the service for now; it keeps trying. */
  | { kind: 'unreachable'; error: FieldDeskErrorData }
  /** The source can no longer follow the action (e.g. the key lost a scope); it stops. */
  | { kind: 'failed'; error: FieldDeskErrorData };

export interface ProgressWatchRequest {
  serial: string;
  action: 'Calibration' | 'SIC';
  /** Results recorded before this time (epoch ms) belong to earlier runs and are not reported. */
  sinceMs: number;
  /** Aborting ends the iteration. */
  signal: AbortSignal;
}

export interface ActionProgressSource {
  watch(request: ProgressWatchRequest): AsyncIterable<ProgressObservation>;
}

export interface PollingOptions {
  /** Poll interval during the first `fastPhaseMs` (default 2 s). */
  fastIntervalMs?: number;
  /** Poll interval afterwards (default 5 s). */
  slowIntervalMs?: number;
  /** Default 20 s: most of a SIC, half a calibration. */
  fastPhaseMs?: number;
  now?: () => number;
}

export const POLLING_DEFAULTS = {
  fastIntervalMs: 2_000,
  slowIntervalMs: 5_000,
  fastPhaseMs: 20_000,
} as const;

/** Errors a later poll may not meet again: keep trying (until the operation's own time-out). */
const TRANSIENT_CODES: ReadonlySet<FieldDeskErrorData['code']> = new Set([
  'offline',
  'timeout',
  'serverError',
  'rateLimited',
  'badResponse',
]);

/**
 * Waits `ms`, or less if `signal` aborts first (never rejects: the caller checks the signal).
 * Built on the global `setTimeout` rather than `node:timers/promises` on purpose: the polling
 * tests drive it with a test clock (fake timers), which cannot reach Node's internal timers.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

type PollingClient = Pick<ServiceClient, 'getInstrumentStatus' | 'getCalibration' | 'getSic'>;

/**
 * Polls `GET …/status` (which carries the in-progress flag and the last result), and, once the
 * flag is down without a new result there, the result endpoint (`…/calibration` or `…/sic`),
 * which may be updated before the status is. One request at a time: the next poll is scheduled
 * only after the previous one has answered.
 */
export function createPollingProgressSource(
  client: PollingClient,
  options: PollingOptions = {},
): ActionProgressSource {
  const fast = options.fastIntervalMs ?? POLLING_DEFAULTS.fastIntervalMs;
  const slow = options.slowIntervalMs ?? POLLING_DEFAULTS.slowIntervalMs;
  const fastPhase = options.fastPhaseMs ?? POLLING_DEFAULTS.fastPhaseMs;
  const now = options.now ?? Date.now;

  async function poll(request: ProgressWatchRequest): Promise<ProgressObservation> {
    const { serial, action, sinceMs, signal } = request;
    const isNew = (record: { time: number } | null): record is CalibrationStatus | SicStatus =>
      record !== null && record.time >= sinceMs;
    const status = await client.getInstrumentStatus(serial, signal);
    const last = action === 'Calibration' ? status.lastCalibration : status.lastSic;
    if (isNew(last)) return { kind: 'result', record: last };
    const running = action === 'Calibration' ? status.calibrationInProgress : status.sicInProgress;
    if (running) return { kind: 'inProgress' };
    const latest =
      action === 'Calibration'
        ? await client.getCalibration(serial, signal)
        : await client.getSic(serial, signal);
    return isNew(latest) ? { kind: 'result', record: latest } : { kind: 'idle' };
  }

  return {
    async *watch(request) {
      const startedAt = now();
      while (!request.signal.aborted) {
        // The first poll waits too: right after the start the instrument has had no time to react.
        await sleep(now() - startedAt < fastPhase ? fast : slow, request.signal);
        if (request.signal.aborted) return;
        let observation: ProgressObservation;
        try {
          observation = await poll(request);
        } catch (error) {
          if (request.signal.aborted) return;
          const data = toErrorData(error);
          observation = TRANSIENT_CODES.has(data.code)
            ? { kind: 'unreachable', error: data }
            : { kind: 'failed', error: data };
        }
        yield observation;
        if (observation.kind === 'failed' || observation.kind === 'result') return;
      }
    },
  };
}
