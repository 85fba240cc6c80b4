/**
 * Field actions as operations: Identify, Calibration and SIC.
 *
 * `reduceAction` is the whole behaviour as a pure state machine (state + event → state), so tests
 * drive it directly; `startActionOperation` is the thin runner that feeds it events from the
 * service (the start request, a progress source, a time-out timer, a cancel) and reports every
 * change to the operations registry.
 *
 * Flow: `starting` (POST …/action) → `running` (watching for a result) → `succeeded` | `failed` |
 * `timedOut` | `cancelled`. Identify finishes on the POST's answer.
 */
import { toErrorData, type FieldDeskErrorData } from '../../../shared/errors';
import {
  ACTION_EXPECTED_DURATION_MS,
  isFinishedState,
  type ActionName,
  type CalibrationOutcome,
  type OperationSnapshot,
  type Settings,
  type SicOutcome,
} from '../../../shared/operations';
import type { CalibrationStatus, SicStatus } from '../../../shared/service/schemas';
import type { ActionProgressSource, ProgressObservation } from './action-progress';
import type { ServiceClient } from '../service/client';
import type { OperationRegistry } from '../operations/registry';

/**
 * A result counts for this operation only if the instrument recorded it after the operation
 * started. The time comes from the service's clock and the start from ours, and the two may
 * differ by a few seconds; a result stamped up to 5 s "before" our start is still ours. An older
 * result cannot be: a calibration takes tens of seconds, and the service refuses to start one
 * while another runs, so no earlier run can finish within 5 s of ours starting.
 */
export const CLOCK_SKEW_ALLOWANCE_MS = 5_000;

/**
 * Once the instrument says the action is no longer running but no new result is there, the
 * result may still be on its way to the service: keep looking this long before giving up.
 */
export const RESULT_GRACE_MS = 15_000;

/** Calibration and SIC time out at 3× their expected duration, and never sooner than this. */
export const MIN_WATCH_TIMEOUT_MS = 120_000;

/** Identify finishes with the POST's answer; this only guards against a request that never ends. */
export const IDENTIFY_TIMEOUT_MS = 30_000;

export function actionTimeoutMs(action: ActionName): number {
  if (action === 'Identify') return IDENTIFY_TIMEOUT_MS;
  return Math.max(3 * ACTION_EXPECTED_DURATION_MS[action], MIN_WATCH_TIMEOUT_MS);
}

export const PHASES = {
  sending: 'Sending request',
  waiting: 'Waiting for the instrument',
  reading: 'Reading the result',
  reconnecting: 'Waiting for the connection',
  done: 'Done',
  failed: 'Failed',
  timedOut: 'Timed out',
  cancelled: 'Stopped watching',
} as const;

const WHAT: Record<ActionName, string> = {
  Identify: 'Identify',
  Calibration: 'the calibration',
  SIC: 'the system integrity check',
};

/** Plain messages; functions where the words depend on the action or the numbers. */
export const ACTION_MESSAGES = {
  sending: (action: ActionName) => `Asking the service to start ${WHAT[action]}…`,
  identified: "The instrument's LED is flashing.",
  identifyFailed:
    'The service reported that Identify did not work. Check that the instrument is online, then try again.',
  startRefused: (action: ActionName) =>
    `The service reported that ${WHAT[action]} could not start. Check the instrument's status, then try again.`,
  requested: {
    Calibration:
      'Calibration requested. Keep the calibrator fitted and switched on until FieldDesk shows the result.',
    SIC: 'System integrity check requested. Waiting for the instrument to report its result.',
  },
  inProgress: {
    Calibration:
      'The instrument is calibrating. Keep the calibrator fitted and switched on until FieldDesk shows the result.',
    SIC: 'The instrument is running its system integrity check.',
  },
  reading: (action: 'Calibration' | 'SIC') =>
    `The instrument has finished; FieldDesk is waiting for the service to publish the ${action === 'Calibration' ? 'calibration' : 'SIC'} result.`,
  lostContact: (error: FieldDeskErrorData) =>
    `FieldDesk has lost contact with the service and keeps trying. The instrument carries on without it. (${error.message})`,
  noResult: {
    Calibration:
      'The instrument stopped calibrating without reporting a new result. Check that the calibrator was fitted and switched on, then look at the calibration log.',
    SIC: 'The instrument stopped its system integrity check without reporting a new result. Check its status, then try again.',
  },
  cannotFollow: (action: ActionName, error: FieldDeskErrorData) =>
    `FieldDesk cannot follow ${WHAT[action]}: ${error.message} The instrument may still be running it; check its status.`,
  timedOut: (action: ActionName, timeoutMs: number, lostContact: boolean) => {
    const within = formatDuration(timeoutMs);
    if (lostContact) {
      return `FieldDesk could not reach the service and did not learn the result within ${within}. Check your connection, then check the instrument's status.`;
    }
    if (action === 'Calibration') {
      return `The instrument did not report a result in ${within}. Check it is online and the calibrator is fitted, then check its status.`;
    }
    return `The instrument did not report a result in ${within}. Check it is online, then check its status.`;
  },
  cancelled: {
    Identify: 'FieldDesk stopped watching. The instrument may still flash its LED.',
    Calibration:
      'FieldDesk stopped watching. The instrument may still be running the calibration; check its status before starting another.',
    SIC: 'FieldDesk stopped watching. The instrument may still be running the SIC; check its status before starting another.',
  },
  /** Added to a start failure when the request may have reached the service after all. */
  maybeStarted: ' The request may have reached the instrument anyway: check its status before trying again.',
} as const;

/** "2 min", "90 s". */
export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120 || seconds % 60 !== 0) return `${seconds} s`;
  return `${seconds / 60} min`;
}

/** A dB figure with one decimal, or two when the second one matters. */
export function formatDb(value: number): string {
  const tenths = value * 10;
  return value.toFixed(Math.abs(tenths - Math.round(tenths)) < 1e-6 ? 1 : 2);
}

const signedDb = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${formatDb(Math.abs(value))}`;
const isSuccess = (status: string) => status.trim().toLowerCase() === 'success';

/** Judges a calibration against the reference and tolerance in force when it started. */
export function judgeCalibration(
  record: CalibrationStatus,
  settings: Settings,
): { outcome: CalibrationOutcome; message: string } {
  const reference = settings.calibrationReferenceDb;
  const tolerance = settings.calibrationToleranceDb;
  const deviation = record.level === null ? null : Math.round((record.level - reference) * 1000) / 1000;
  const statusOk = isSuccess(record.status);
  // A hair of slack so 94.5 against 94.0 ± 0.5 passes despite binary fractions.
  const withinTolerance = deviation !== null && Math.abs(deviation) <= tolerance + 1e-9;
  const passed = statusOk && withinTolerance;
  const outcome: CalibrationOutcome = {
    kind: 'calibration',
    time: record.time,
    status: record.status,
    level: record.level,
    offset: record.offset,
    referenceDb: reference,
    toleranceDb: tolerance,
    passed,
    deviationDb: deviation,
  };
  if (passed && record.level !== null && deviation !== null) {
    return {
      outcome,
      message:
        `Calibration passed: ${formatDb(record.level)} dB against the ${formatDb(reference)} dB reference ` +
        `(${signedDb(deviation)} dB, within ±${formatDb(tolerance)} dB).`,
    };
  }
  const reasons: string[] = [];
  if (!statusOk) reasons.push(`the instrument reported the calibration as “${record.status}”`);
  if (record.level === null) reasons.push('the instrument reported no level');
  else if (!withinTolerance && deviation !== null) {
    reasons.push(
      `the level ${formatDb(record.level)} dB is ${formatDb(Math.abs(deviation))} dB from the ` +
        `${formatDb(reference)} dB reference, outside the ±${formatDb(tolerance)} dB tolerance`,
    );
  }
  return {
    outcome,
    message:
      `Calibration failed: ${reasons.join(', and ')}. Check that the calibrator is fitted firmly, switched on ` +
      `and set to ${formatDb(reference)} dB, then calibrate again.`,
  };
}

export function judgeSic(record: SicStatus): { outcome: SicOutcome; message: string } {
  const passed = isSuccess(record.status);
  const outcome: SicOutcome = {
    kind: 'sic',
    time: record.time,
    status: record.status,
    _500Hz: record._500Hz,
    _1KHz: record._1KHz,
    _8KHz: record._8KHz,
    passed,
  };
  const band = (label: string, value: number | null) =>
    `${label} ${value === null ? 'no reading' : `${formatDb(value)} dB`}`;
  const levels = [
    band('500 Hz', record._500Hz),
    band('1 kHz', record._1KHz),
    band('8 kHz', record._8KHz),
  ].join(', ');
  return {
    outcome,
    message: passed
      ? `System integrity check passed (${levels}).`
      : `System integrity check failed: the instrument reported “${record.status}” (${levels}). ` +
        'Check the microphone and its cable, then run the check again.',
  };
}

// ---- the state machine ------------------------------------------------------------------------

export interface ActionOperationState {
  snapshot: OperationSnapshot;
  /** Calibration and reference settings as they were at the start. */
  settings: Settings;
  /** Results recorded before this (epoch ms) are ignored: startedAt − CLOCK_SKEW_ALLOWANCE_MS. */
  sinceMs: number;
  timeoutMs: number;
  /** The instrument has reported the action as running at least once. */
  sawInProgress: boolean;
  /** When the instrument first reported "not running, no new result" (reset by "running"). */
  idleSince: number | null;
  /** When the service stopped answering (reset by any answer). */
  lostContactSince: number | null;
}

export type ActionEvent =
  /** The service answered the start request with this status (`Success`, `Failed`, `InProgress`). */
  | { type: 'accepted'; at: number; status: string }
  /** The start request failed (refused, forbidden, unreachable…). */
  | { type: 'startFailed'; at: number; error: FieldDeskErrorData }
  | { type: 'observed'; at: number; observation: ProgressObservation }
  /** Time passes: finishes as `timedOut` once the time-out is reached. */
  | { type: 'tick'; at: number }
  | { type: 'cancel'; at: number };

export interface NewActionOperation {
  id: string;
  accountId: string;
  serial: string;
  action: ActionName;
  startedAt: number;
  settings: Settings;
  /** Default `actionTimeoutMs(action)`. */
  timeoutMs?: number;
}

export function initialActionState(init: NewActionOperation): ActionOperationState {
  return {
    snapshot: {
      id: init.id,
      kind: 'action',
      accountId: init.accountId,
      serial: init.serial,
      action: init.action,
      state: 'starting',
      phase: PHASES.sending,
      startedAt: init.startedAt,
      updatedAt: init.startedAt,
      elapsedMs: 0,
      expectedDurationMs: ACTION_EXPECTED_DURATION_MS[init.action],
      message: ACTION_MESSAGES.sending(init.action),
      result: null,
      error: null,
    },
    settings: { ...init.settings },
    sinceMs: init.startedAt - CLOCK_SKEW_ALLOWANCE_MS,
    timeoutMs: init.timeoutMs ?? actionTimeoutMs(init.action),
    sawInProgress: false,
    idleSince: null,
    lostContactSince: null,
  };
}

type SnapshotChange = Partial<Pick<OperationSnapshot, 'state' | 'phase' | 'message' | 'result' | 'error'>>;

function change(
  state: ActionOperationState,
  at: number,
  snapshot: SnapshotChange,
  internal: Partial<Omit<ActionOperationState, 'snapshot'>> = {},
): ActionOperationState {
  // Time never runs backwards inside one operation, whatever the clock does.
  const updatedAt = Math.max(at, state.snapshot.updatedAt);
  return {
    ...state,
    ...internal,
    snapshot: { ...state.snapshot, ...snapshot, updatedAt, elapsedMs: updatedAt - state.snapshot.startedAt },
  };
}

function finishWithResult(
  state: ActionOperationState,
  at: number,
  record: CalibrationStatus | SicStatus,
): ActionOperationState {
  const judged =
    state.snapshot.action === 'Calibration'
      ? judgeCalibration(record as CalibrationStatus, state.settings)
      : judgeSic(record as SicStatus);
  return change(state, at, {
    state: judged.outcome.passed ? 'succeeded' : 'failed',
    phase: judged.outcome.passed ? PHASES.done : PHASES.failed,
    message: judged.message,
    result: judged.outcome,
    error: null,
  });
}

function observe(
  state: ActionOperationState,
  at: number,
  observation: ProgressObservation,
): ActionOperationState {
  const action = state.snapshot.action;
  if (action === 'Identify') return state;
  switch (observation.kind) {
    case 'result':
      // An older result is the previous run's: ignore it and keep watching.
      if (observation.record.time < state.sinceMs) return state;
      return finishWithResult(state, at, observation.record);
    case 'inProgress':
      return change(
        state,
        at,
        { phase: PHASES.waiting, message: ACTION_MESSAGES.inProgress[action] },
        { sawInProgress: true, idleSince: null, lostContactSince: null },
      );
    case 'idle': {
      const idleSince = state.idleSince ?? at;
      if (at - idleSince >= RESULT_GRACE_MS) {
        return change(
          state,
          at,
          { state: 'failed', phase: PHASES.failed, message: ACTION_MESSAGES.noResult[action] },
          { idleSince, lostContactSince: null },
        );
      }
      // Before the instrument has ever said it is running, it may simply not have started yet.
      const message = state.sawInProgress
        ? ACTION_MESSAGES.reading(action)
        : ACTION_MESSAGES.requested[action];
      const phase = state.sawInProgress ? PHASES.reading : PHASES.waiting;
      return change(state, at, { phase, message }, { idleSince, lostContactSince: null });
    }
    case 'unreachable':
      return change(
        state,
        at,
        { phase: PHASES.reconnecting, message: ACTION_MESSAGES.lostContact(observation.error) },
        { lostContactSince: state.lostContactSince ?? at },
      );
    case 'failed':
      return change(state, at, {
        state: 'failed',
        phase: PHASES.failed,
        message: ACTION_MESSAGES.cannotFollow(action, observation.error),
        error: observation.error,
      });
  }
}

/** The whole behaviour of an action operation. Returns `state` itself when nothing changes. */
export function reduceAction(state: ActionOperationState, event: ActionEvent): ActionOperationState {
  const { snapshot } = state;
  if (isFinishedState(snapshot.state)) return state;
  const action = snapshot.action;
  switch (event.type) {
    case 'accepted': {
      if (snapshot.state !== 'starting') return state;
      const status = event.status.trim().toLowerCase();
      if (action === 'Identify') {
        // Identify has nothing to watch: the service's answer is the outcome.
        return status === 'failed'
          ? change(state, event.at, {
              state: 'failed',
              phase: PHASES.failed,
              message: ACTION_MESSAGES.identifyFailed,
            })
          : change(state, event.at, {
              state: 'succeeded',
              phase: PHASES.done,
              message: ACTION_MESSAGES.identified,
              result: { kind: 'identify' },
            });
      }
      if (status === 'failed') {
        return change(state, event.at, {
          state: 'failed',
          phase: PHASES.failed,
          message: ACTION_MESSAGES.startRefused(action),
        });
      }
      // `InProgress` (or an early `Success`): the outcome is the new result, so watch for it.
      return change(state, event.at, {
        state: 'running',
        phase: PHASES.waiting,
        message: ACTION_MESSAGES.requested[action],
      });
    }
    case 'startFailed': {
      if (snapshot.state !== 'starting') return state;
      const ambiguous =
        event.error.code === 'timeout' || /dropped|failed on the way/.test(event.error.message);
      return change(state, event.at, {
        state: 'failed',
        phase: PHASES.failed,
        message: event.error.message + (ambiguous ? ACTION_MESSAGES.maybeStarted : ''),
        error: event.error,
      });
    }
    case 'observed':
      if (snapshot.state !== 'running') return state;
      return observe(state, event.at, event.observation);
    case 'tick': {
      if (event.at - snapshot.startedAt < state.timeoutMs) return state;
      const message = ACTION_MESSAGES.timedOut(action, state.timeoutMs, state.lostContactSince !== null);
      return change(state, event.at, {
        state: 'timedOut',
        phase: PHASES.timedOut,
        message,
        error: { code: 'timeout', message, retryable: true },
      });
    }
    case 'cancel':
      return change(state, event.at, {
        state: 'cancelled',
        phase: PHASES.cancelled,
        message: ACTION_MESSAGES.cancelled[action],
        error: null,
      });
  }
}

// ---- the runner -------------------------------------------------------------------------------

export interface ActionRunnerDeps {
  client: Pick<ServiceClient, 'startAction'>;
  progress: ActionProgressSource;
  registry: OperationRegistry;
  now: () => number;
}

/**
 * Starts an action operation and returns its first snapshot at once; the work continues in the
 * background, reported through the registry. Never throws for service failures: they end the
 * operation as `failed`.
 */
export function startActionOperation(
  deps: ActionRunnerDeps,
  params: Omit<NewActionOperation, 'id' | 'startedAt'>,
): OperationSnapshot {
  const { client, progress, registry, now } = deps;
  let state = initialActionState({ ...params, id: registry.newId(), startedAt: now() });
  const controller = new AbortController();

  const dispatch = (event: ActionEvent): void => {
    const next = reduceAction(state, event);
    if (next === state) return;
    state = next;
    if (isFinishedState(state.snapshot.state)) {
      clearTimeout(timer);
      // Stops the start request or the watcher; the registry gets the final snapshot below.
      controller.abort();
    }
    registry.update(state.snapshot);
  };

  registry.begin(state.snapshot, { cancel: () => dispatch({ type: 'cancel', at: now() }) });
  // Declared after `dispatch` but set before anything can call it (begin() does not cancel).
  const timer = setTimeout(() => dispatch({ type: 'tick', at: now() }), state.timeoutMs);

  const drive = async (): Promise<void> => {
    let answer;
    try {
      answer = await client.startAction(params.serial, params.action, controller.signal);
    } catch (error) {
      if (!controller.signal.aborted) dispatch({ type: 'startFailed', at: now(), error: toErrorData(error) });
      return;
    }
    dispatch({ type: 'accepted', at: now(), status: answer.status });
    if (state.snapshot.state !== 'running' || params.action === 'Identify') return;
    const watching = progress.watch({
      serial: params.serial,
      action: params.action,
      sinceMs: state.sinceMs,
      signal: controller.signal,
    });
    for await (const observation of watching) {
      dispatch({ type: 'observed', at: now(), observation });
      if (isFinishedState(state.snapshot.state)) break;
    }
  };

  void drive().catch((error: unknown) => {
    // A bug, not a service failure: end the operation rather than leave it running forever.
    if (isFinishedState(state.snapshot.state)) return;
    const data = toErrorData(error);
    state = change(state, now(), {
      state: 'failed',
      phase: PHASES.failed,
      message: data.message,
      error: data,
    });
    clearTimeout(timer);
    controller.abort();
    registry.update(state.snapshot);
  });

  return state.snapshot;
}
