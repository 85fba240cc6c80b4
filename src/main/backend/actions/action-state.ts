/**
 * An action operation's whole behaviour as a pure state machine (state + event → state):
 * `reduceAction`, with the timing rules it applies (clock skew, the grace for a late result, the
 * time-outs). No timers and no service here, so tests drive every transition with one call; the
 * runner in `action-operation.ts` feeds it the events.
 *
 * Flow: `starting` (POST …/action) → `running` (watching for a result) → `succeeded` | `failed` |
 * `timedOut` | `cancelled`. Identify finishes on the POST's answer.
 */
import type { CalibratorSnapshot } from '../../../shared/calibrators';
import type { FieldDeskErrorData } from '../../../shared/errors';
import {
  ACTION_EXPECTED_DURATION_MS,
  isFinishedState,
  type ActionName,
  type OperationSnapshot,
  type Settings,
} from '../../../shared/operations';
import type { SicToneReference } from '../../../shared/check-verdicts';
import type { CalibrationStatus, SicStatus } from '../../../shared/service/schemas';
import { ACTION_MESSAGES, PHASES } from './action-messages';
import type { ProgressObservation } from './action-progress';
import { judgeCalibration, judgeSic } from './action-verdicts';

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

export interface ActionOperationState {
  snapshot: OperationSnapshot;
  /** Calibration and reference settings as they were at the start. */
  settings: Settings;
  /** SIC: each tone's reference from the instrument's earlier passing checks, read at the start. */
  sicReferences: SicToneReference[];
  /** Results recorded before this (epoch ms) are ignored: startedAt − CLOCK_SKEW_ALLOWANCE_MS. */
  sinceMs: number;
  timeoutMs: number;
  /** The instrument has reported the action as running at least once. */
  sawInProgress: boolean;
  /** When the instrument first reported "not running, no new result" (reset by "running"). */
  idleSince: number | null;
  /** When the service stopped answering (reset by any answer). */
  lostContactSince: number | null;
  /**
   * The service stopped answering at some point while the action ran (never reset): a run that then
   * ends without a result is put down to the service, not the calibrator or the instrument.
   */
  lostContactDuringRun: boolean;
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
  /**
   * SIC: each tone's reference (the median of the instrument's last passing checks), read before
   * the start; empty when there is no history (or it could not be read): the tones are then not
   * judged and the instrument's status decides.
   */
  sicReferences?: SicToneReference[];
  /** Default `actionTimeoutMs(action)`. */
  timeoutMs?: number;
  /** Calibration: the calibrator fitted (null: none named); kept with the result. */
  calibrator?: CalibratorSnapshot | null;
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
      ...(init.action === 'Calibration' ? { calibrator: init.calibrator ?? null } : {}),
    },
    settings: { ...init.settings },
    sicReferences: init.sicReferences ?? [],
    sinceMs: init.startedAt - CLOCK_SKEW_ALLOWANCE_MS,
    timeoutMs: init.timeoutMs ?? actionTimeoutMs(init.action),
    sawInProgress: false,
    idleSince: null,
    lostContactSince: null,
    lostContactDuringRun: false,
  };
}

type SnapshotChange = Partial<Pick<OperationSnapshot, 'state' | 'phase' | 'message' | 'result' | 'error'>>;

/** The state with `snapshot` changed (and internal fields, if given); `updatedAt` never goes back. */
export function change(
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
      ? judgeCalibration(record as CalibrationStatus, state.settings, state.snapshot.calibrator ?? null)
      : judgeSic(record as SicStatus, state.sicReferences, state.settings.sicToleranceDb);
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
        const message = state.lostContactDuringRun
          ? ACTION_MESSAGES.serviceLost.noResult(action)
          : ACTION_MESSAGES.noResult[action];
        return change(
          state,
          at,
          { state: 'failed', phase: PHASES.failed, message },
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
        { lostContactSince: state.lostContactSince ?? at, lostContactDuringRun: true },
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
      const message = ACTION_MESSAGES.timedOut(
        action,
        state.timeoutMs,
        state.lostContactSince !== null,
        state.lostContactDuringRun,
      );
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
