/**
 * What the action operations say to the engineer: the phase names and the messages of every step
 * (time-outs in words by `durationWords`, shared/format.ts). Kept apart from the state machine so the wording
 * can be read and reviewed in one place, and the machine reads as transitions only.
 */
import { durationWords } from '../../../shared/format';
import type { FieldDeskErrorData } from '../../../shared/errors';
import type { ActionName } from '../../../shared/operations';

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

/** Where the instrument's own record of an action is read, for the engineer to check. */
const HISTORY: Record<'Calibration' | 'SIC', string> = {
  Calibration: 'calibration log',
  SIC: 'SIC history',
};

/** The lead of every message about a service lost mid-run. */
const serviceStopped = (action: 'Calibration' | 'SIC') =>
  `The service stopped answering during ${WHAT[action]}; its result is unknown —`;

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
  /**
   * The service stopped answering while the instrument ran the action and no result followed: the
   * named cause, never the calibrator or the instrument, which nothing says were at fault.
   */
  serviceLost: {
    noResult: (action: 'Calibration' | 'SIC') =>
      `${serviceStopped(action)} when it answered again it had no result from this run, so FieldDesk cannot tell whether the instrument finished it. Check the instrument's status and its ${HISTORY[action]} before starting another.`,
  },
  cannotFollow: (action: ActionName, error: FieldDeskErrorData) =>
    `FieldDesk cannot follow ${WHAT[action]}: ${error.message} The instrument may still be running it; check its status.`,
  /**
   * `lostContact`: the service does not answer now; `lostDuringRun`: it stopped answering at some
   * point while the action ran (it may have answered again since). Identify is never watched.
   */
  timedOut: (action: ActionName, timeoutMs: number, lostContact: boolean, lostDuringRun: boolean) => {
    const within = durationWords(timeoutMs);
    if (action !== 'Identify' && lostContact) {
      return `${serviceStopped(action)} FieldDesk could not reach it again within ${within}. Check your connection, then check the instrument's status before starting another.`;
    }
    if (action !== 'Identify' && lostDuringRun) {
      return `${serviceStopped(action)} it answered again, but no result came within ${within}. Check the instrument's status and its ${HISTORY[action]} before starting another.`;
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
