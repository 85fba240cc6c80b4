/**
 * Long-running work the backend runs for the renderer (ARCHITECTURE.md, "Long-running work"):
 * field actions today (Identify, Calibration, SIC), site syncs and downloads later. `start`
 * answers a snapshot at once, every change is pushed as `operations.progress`, and
 * `operations.list` lets a reloaded window re-attach.
 *
 * Also the app's own settings and the parsed system-health records. Types only, plus the
 * constants both sides show (expected durations, calibration defaults).
 */
import type { CalibratorSnapshot } from './calibrators';
import { DEFAULT_ATTENTION_THRESHOLDS, type AttentionThresholds } from './attention';
import type { FieldDeskErrorData } from './errors';
import type { ActionName } from './service/wire';

export type { ActionName };

export const OPERATION_STATES = [
  'starting',
  'running',
  'succeeded',
  'failed',
  'timedOut',
  'cancelled',
] as const;
export type OperationState = (typeof OPERATION_STATES)[number];

export const FINISHED_OPERATION_STATES = ['succeeded', 'failed', 'timedOut', 'cancelled'] as const;
export type FinishedOperationState = (typeof FINISHED_OPERATION_STATES)[number];

export function isFinishedState(state: OperationState): state is FinishedOperationState {
  return (FINISHED_OPERATION_STATES as readonly string[]).includes(state);
}

/**
 * How long each action usually takes on an instrument (ms), so the UI can show elapsed against
 * expected. Identify only needs the service to answer; Calibration and SIC are the instrument's
 * own timings (about 40 s and 30 s).
 */
export const ACTION_EXPECTED_DURATION_MS: Readonly<Record<ActionName, number>> = {
  Identify: 2_000,
  Calibration: 40_000,
  SIC: 30_000,
};

/** A calibration judged against the reference level and tolerance in force when it started. */
export interface CalibrationOutcome {
  kind: 'calibration';
  /** When the instrument recorded the calibration (epoch ms). */
  time: number;
  /** The service's status string (`Success`, `Failed`, …). */
  status: string;
  /** Measured level (dB); null when the instrument reported none. */
  level: number | null;
  /** Offset from the factory calibration (dB). */
  offset: number | null;
  referenceDb: number;
  toleranceDb: number;
  /** FieldDesk's verdict: `status` is `Success` and |level − reference| ≤ tolerance. */
  passed: boolean;
  /** level − reference (dB, signed); null without a level. */
  deviationDb: number | null;
  /**
   * The instrument's own verdict, from `status`: `Success` true, `Failed`/`Error` false, another
   * word null. Kept beside `passed` so every view names both; records kept before it was stored
   * get it from `status` when read.
   */
  instrumentPassed: boolean | null;
  /**
   * The other calibrator level (94 or 114 dB) the measured level sits at, when it missed the
   * chosen reference by about 20 dB: the calibrator was probably set to it. Null otherwise (and
   * in records kept before it was stored).
   */
  probableCalibratorDb: number | null;
}

/** One SIC tone judged against its own reference: the median of that tone in earlier passing checks. */
export interface SicToneJudgement {
  tone: SicTone;
  /** The tone's reading (dB); null when the instrument reported none. */
  levelDb: number | null;
  /** The median of the tone in the instrument's last passing checks (dB); null without any. */
  referenceDb: number | null;
  /** How many passing checks the reference is the median of. */
  referenceChecks: number;
  toleranceDb: number;
  /** |level − reference| ≤ tolerance; null when either is missing. */
  within: boolean | null;
}

/** The three test tones of a SIC, as the service names their fields. */
export const SIC_TONES = ['_500Hz', '_1KHz', '_8KHz'] as const;
export type SicTone = (typeof SIC_TONES)[number];
export const SIC_TONE_LABELS: Readonly<Record<SicTone, string>> = {
  _500Hz: '500 Hz',
  _1KHz: '1 kHz',
  _8KHz: '8 kHz',
};

export interface SicOutcome {
  kind: 'sic';
  time: number;
  status: string;
  _500Hz: number | null;
  _1KHz: number | null;
  _8KHz: number | null;
  /**
   * FieldDesk's verdict: the service's status is `Success` and no tone lies outside its band
   * (a tone without a reference cannot fail it).
   */
  passed: boolean;
  /** The instrument's own verdict from `status` (see `CalibrationOutcome.instrumentPassed`). */
  instrumentPassed: boolean | null;
  /** Each tone against its reference; empty in records kept before tones were judged. */
  tones: SicToneJudgement[];
  /** The SIC tolerance in force (dB); null in records kept before it was stored. */
  toleranceDb: number | null;
}

export interface IdentifyOutcome {
  kind: 'identify';
}

export type ActionOutcome = CalibrationOutcome | SicOutcome | IdentifyOutcome;

export interface OperationSnapshot {
  /** Random id, used by `operations.cancel`. */
  id: string;
  kind: 'action';
  accountId: string;
  serial: string;
  action: ActionName;
  state: OperationState;
  /** Short label of the current step, e.g. "Waiting for the instrument". */
  phase: string;
  /** Epoch ms. */
  startedAt: number;
  updatedAt: number;
  /** Time from start to `updatedAt` (or to the end, once finished). */
  elapsedMs: number;
  /** See `ACTION_EXPECTED_DURATION_MS`. */
  expectedDurationMs: number;
  /** What is happening or what happened, in plain words. */
  message: string;
  result: ActionOutcome | null;
  error: FieldDeskErrorData | null;
  /**
   * Calibration: the calibrator the engineer said was fitted, as it was then; null when none was
   * named ("none / not listed"). Absent for Identify and SIC.
   */
  calibrator?: CalibratorSnapshot | null;
}

/** A finished action as kept in the local history (readable offline). */
export interface ActionRecord {
  id: string;
  accountId: string;
  serial: string;
  action: ActionName;
  state: FinishedOperationState;
  startedAt: number;
  finishedAt: number;
  message: string;
  result: ActionOutcome | null;
  error: FieldDeskErrorData | null;
  /**
   * The calibrator fitted for a calibration, as it was when the calibration ran; null when none
   * was named, for other actions, and in records kept before calibrators were recorded.
   */
  calibrator: CalibratorSnapshot | null;
}

// ---- settings ---------------------------------------------------------------------------------

/** Output levels of the acoustic calibrators in use (dB). */
export const CALIBRATION_REFERENCE_LEVELS_DB = [94, 114] as const;
export type CalibrationReferenceDb = (typeof CALIBRATION_REFERENCE_LEVELS_DB)[number];
export const CALIBRATION_TOLERANCE_MIN_DB = 0.1;
export const CALIBRATION_TOLERANCE_MAX_DB = 2.0;
/** Bounds of the SIC tolerance: how far a tone may lie from its usual level (dB). */
export const SIC_TOLERANCE_MIN_DB = 0.5;
export const SIC_TOLERANCE_MAX_DB = 6.0;

/** "Refresh cached data older than N minutes": whole minutes, within these bounds. */
export const REFRESH_CACHED_MIN_MINUTES = 1;
export const REFRESH_CACHED_MAX_MINUTES = 120;

/** The app's settings; the attention thresholds (shared/attention.ts) are among them. */
export interface Settings extends AttentionThresholds {
  /** The calibrator's level that a calibration is judged against (dB). */
  calibrationReferenceDb: CalibrationReferenceDb;
  /** Largest |measured − reference| that still passes (dB). */
  calibrationToleranceDb: number;
  /**
   * Largest |tone − its reference| that still passes a SIC (dB); the reference of a tone is its
   * median in the instrument's last passing checks.
   */
  sicToleranceDb: number;
  /**
   * Online, data whose still-open recent part was fetched longer ago than this (whole minutes) is
   * fetched again: an open data view re-reads it by itself, and any read of it asks the service.
   * Younger, it answers from the cache (a zoom step, another look at the same range).
   */
  refreshCachedAfterMinutes: number;
}

/** The settings that judge calibrations: the only ones a calibration waits to have confirmed. */
export const CALIBRATION_SETTINGS = ['calibrationReferenceDb', 'calibrationToleranceDb'] as const;

/** The settings as the app shows them, with what the user must know about them. */
export interface SettingsState {
  settings: Settings;
  /**
   * Why the saved settings could not be used, while the calibration settings wait to be confirmed;
   * null otherwise (another setting replaced by its default is told on the app's notice board).
   */
  notice: string | null;
  /**
   * True from the moment saved calibration settings could not be read (the whole file, or one of
   * them) until the user confirms or changes them: a calibration must not be judged against
   * defaults nobody chose. Another setting replaced by its default alone does not set it.
   */
  needsConfirmation: boolean;
}

export const DEFAULT_SETTINGS: Readonly<Settings> = {
  calibrationReferenceDb: 94,
  calibrationToleranceDb: 0.5,
  // The demo service's own rule, and a usual one for outdoor monitors.
  sicToleranceDb: 2,
  refreshCachedAfterMinutes: 5,
  ...DEFAULT_ATTENTION_THRESHOLDS,
};

// ---- system-health records (history reads) ----------------------------------------------------

export interface CalibrationRecord {
  instrument: string;
  /** Epoch ms. */
  time: number;
  status: string;
  level: number | null;
  offset: number | null;
}

export interface CalibrationLogEntry {
  /** The serial the entry was read for (the service's record may not name it). */
  instrument: string;
  time: number;
  /** Who wrote the entry. */
  user: string;
  message: string;
}

export interface SicRecord {
  instrument: string;
  time: number;
  status: string;
  _500Hz: number | null;
  _1KHz: number | null;
  _8KHz: number | null;
}

/** Longest range one history read may ask for; FieldDesk splits it into 1-year requests. */
export const HISTORY_MAX_SPAN_MS = 10 * 366 * 24 * 60 * 60 * 1000;
