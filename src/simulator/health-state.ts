/**
 * Calibration and SIC actions while the demo service runs. Time comes only from the injected
 * clock: a running action is finished lazily, by `settleActions`, whenever something reads the
 * state (status, calibration, SIC, history, a new action), so tests step the clock instead of
 * waiting; `onActionFinished` tells listeners (webhooks) when one ends.
 */
import { API_USER, SYSTEM_USER, type LogEntry } from './health-history';
import {
  calibrationActionResult,
  calibrationLogMessage,
  calibrationStatusOf,
  sicActionResult,
  sicStatusOf,
  type CalibrationEntry,
  type SicEntry,
} from './health-measurements';
import { buildHealthProfiles, type HealthProfile, type HealthSubject } from './health-profiles';
import type { InstrumentCondition } from './fleet';

export type TimedAction = 'Calibration' | 'SIC';

export interface RunningAction {
  action: TimedAction;
  instrument: string;
  startedMs: number;
  finishesMs: number;
  /** How many earlier runs of this action the instrument had in this process (0 for the first). */
  run: number;
  /** Held by a test: does not finish, however long it runs, until released (`releaseActions`). */
  held: boolean;
}

export interface FinishedAction {
  action: TimedAction;
  instrument: string;
  startedMs: number;
  finishedMs: number;
  status: 'Success' | 'Failed' | 'Error';
  /** Human-readable reason when not Success (the `error` of a CalibrationFinished webhook). */
  error: string | null;
  calibration: CalibrationEntry | null;
  sic: SicEntry | null;
}

export interface HealthState {
  /** Multiplies every simulated duration (1 = realistic; 0.01 for fast end-to-end tests). */
  timeScale: number;
  profiles: ReadonlyMap<string, HealthProfile>;
  /** At most one per instrument. */
  running: Map<string, RunningAction>;
  /** Every finished action of this process, in finishing order. */
  finished: FinishedAction[];
  /** Calibration log lines written by actions of this process, in time order. */
  log: LogEntry[];
  /** Called once for each action as it finishes. */
  listeners: Set<(finished: FinishedAction) => void>;
  /** Whether actions started now are held until released (a test control, never the app's). */
  hold: boolean;
}

/** The part of the demo state the actions work on (a structural slice of `DemoState`). */
export interface ActionHost {
  instruments: ReadonlyMap<string, { condition: InstrumentCondition }>;
  health: HealthState;
  now: () => number;
}

export function createHealthState(
  seed: number,
  fleet: readonly HealthSubject[],
  createdAtMs: number,
  timeScale = 1,
): HealthState {
  if (!Number.isFinite(timeScale) || timeScale <= 0) {
    throw new RangeError(`The time scale must be a number greater than 0, not ${timeScale}.`);
  }
  return {
    timeScale,
    profiles: buildHealthProfiles(seed, fleet, createdAtMs),
    running: new Map(),
    finished: [],
    log: [],
    listeners: new Set(),
    hold: false,
  };
}

/** Simulated duration of an action on an instrument, after the time scale (ms, at least 1). */
export function actionDurationMs(health: HealthState, profile: HealthProfile, action: TimedAction): number {
  const seconds = action === 'Calibration' ? profile.calibrationSeconds : profile.sicSeconds;
  return Math.max(1, Math.round(seconds * 1000 * health.timeScale));
}

/** Starts a Calibration or SIC; the caller has checked that the instrument may run it. */
export function startAction(host: ActionHost, serial: string, action: TimedAction): RunningAction {
  const { health } = host;
  const profile = health.profiles.get(serial);
  const instrument = host.instruments.get(serial);
  if (profile === undefined || instrument === undefined) throw new Error(`No instrument ${serial}.`);
  const startedMs = host.now();
  const run = health.finished.filter((f) => f.instrument === serial && f.action === action).length;
  const running: RunningAction = {
    action,
    instrument: serial,
    startedMs,
    finishesMs: startedMs + actionDurationMs(health, profile, action),
    run,
    held: health.hold,
  };
  health.running.set(serial, running);
  if (action === 'Calibration') {
    instrument.condition.calibrationInProgress = true;
    health.log.push({
      timeMs: startedMs,
      instrument: serial,
      user: API_USER,
      message: `Calibration started remotely; expecting the ${profile.referenceDb.toFixed(1)} dB calibrator on the microphone.`,
    });
  } else {
    instrument.condition.sicInProgress = true;
  }
  return running;
}

function finish(host: ActionHost, running: RunningAction): FinishedAction {
  const { health } = host;
  const profile = health.profiles.get(running.instrument) as HealthProfile;
  const { condition } = host.instruments.get(running.instrument) as { condition: InstrumentCondition };
  const base = {
    action: running.action,
    instrument: running.instrument,
    startedMs: running.startedMs,
    finishedMs: running.finishesMs,
  };
  let finished: FinishedAction;
  if (running.action === 'Calibration') {
    const calibration = calibrationActionResult(profile, running.finishesMs, running.run);
    condition.calibrationInProgress = false;
    condition.lastCalibration = calibrationStatusOf(calibration);
    health.log.push({
      timeMs: calibration.timeMs,
      instrument: running.instrument,
      user: SYSTEM_USER,
      message: calibrationLogMessage(calibration),
    });
    finished = { ...base, status: calibration.status, error: calibration.reason, calibration, sic: null };
  } else {
    const sic = sicActionResult(profile, running.finishesMs, running.run);
    condition.sicInProgress = false;
    condition.lastSic = sicStatusOf(sic);
    if (sic.reason !== null) {
      health.log.push({
        timeMs: sic.timeMs,
        instrument: running.instrument,
        user: SYSTEM_USER,
        message: sic.reason,
      });
    }
    finished = { ...base, status: sic.status, error: sic.reason, calibration: null, sic };
  }
  health.running.delete(running.instrument);
  health.finished.push(finished);
  return finished;
}

/**
 * Finishes every running action whose simulated time is up at `host.now()`, in finishing
 * order, and returns them. Cheap when nothing runs; call it before reading any action state.
 */
export function settleActions(host: ActionHost): FinishedAction[] {
  const { health } = host;
  if (health.running.size === 0) return [];
  const nowMs = host.now();
  const due = [...health.running.values()]
    .filter((running) => !running.held && running.finishesMs <= nowMs)
    .sort((a, b) => a.finishesMs - b.finishesMs);
  const done = due.map((running) => finish(host, running));
  for (const finished of done) for (const listener of health.listeners) listener(finished);
  return done;
}

/**
 * Lets held actions finish — every one, or the one on `serial` — as soon as their time is up, and
 * at once if it already is. Returns how many were released.
 */
export function releaseActions(host: ActionHost, serial?: string): number {
  let released = 0;
  const nowMs = host.now();
  for (const running of host.health.running.values()) {
    if (!running.held || (serial !== undefined && running.instrument !== serial)) continue;
    running.held = false;
    running.finishesMs = Math.max(running.startedMs + 1, Math.min(running.finishesMs, nowMs));
    released++;
  }
  return released;
}

/** Subscribes to finished actions; returns the unsubscribe function. */
export function onActionFinished(
  health: HealthState,
  listener: (finished: FinishedAction) => void,
): () => void {
  health.listeners.add(listener);
  return () => health.listeners.delete(listener);
}
