/**
 * Generated calibration and system integrity check (SIC) history of the demo fleet: the weekly
 * on-site calibration sessions, the maintenance log, the nightly SICs and the reads of a window
 * of history. Everything is a pure function of (seed, serial, time): history is generated on
 * demand for the requested window, so the same query always gets the same answer and nothing is
 * stored up front. Profiles come from health-profiles.ts, single measurements from
 * health-measurements.ts.
 *
 * The story the numbers tell:
 * - Every noise instrument is calibrated on site about once a week (working hours, no weekends)
 *   with a 94 dB calibrator, or a 114 dB one for about a quarter of them. The offset drifts
 *   slowly, with a seasonal wobble, and resets when the microphone is replaced. Now and then a
 *   first attempt fails (no calibrator signal, unstable level) and is retried minutes later.
 * - SIC-capable instruments run an automatic SIC every night (02:00–04:00 UTC); the three test
 *   tones stay within ±2 dB of the instrument's commissioning levels, with the odd transient
 *   failure or an `Error` when background noise drowns the tones.
 * - Two online noise instruments per fleet have a standing fault, so a demo can show failures
 *   that are the same every time: `noCalibrator` (the site's calibrator went away for its annual
 *   calibration a few days ago: every calibration finds no signal) and `degradedMicrophone`
 *   (water in the microphone since about ten days ago: offset beyond ±0.5 dB, and the 8 kHz SIC
 *   tone several dB low when the instrument has SIC).
 */
import {
  calibrationLogMessage,
  measureCalibration,
  measureSic,
  type CalibrationEntry,
  type CalibrationKind,
  type SicEntry,
  type SicKind,
} from './health-measurements';
import {
  DAY_MS,
  faultActiveAt,
  HOUR_MS,
  MICROPHONE_BUCKET_MS,
  microphoneReplacement,
  MINUTE_MS,
  randomFor,
  workingTime,
  type HealthProfile,
} from './health-profiles';

const WEEK_MS = 7 * DAY_MS;

/** Calibration log entries written by the instrument or the service rather than a person. */
export const SYSTEM_USER = 'system';
/** Calibration log entries of actions started through the service interface. */
export const API_USER = 'api';

/** Calibration buckets: at most one on-site calibration session per week. */
const CALIBRATION_BUCKET_MS = WEEK_MS;
/** Maintenance buckets: a chance of one windshield replacement per 60 days. */
const WINDSHIELD_BUCKET_MS = 60 * DAY_MS;

/** A line of the calibration log. */
export interface LogEntry {
  timeMs: number;
  instrument: string;
  user: string;
  message: string;
}

export interface CalibrationHistory {
  calibrations: CalibrationEntry[];
  log: LogEntry[];
}

const byTime = <T extends { timeMs: number }>(a: T, b: T): number => a.timeMs - b.timeMs;
const inWindow = (profile: HealthProfile, fromMs: number, toMs: number) => (item: { timeMs: number }) =>
  item.timeMs >= fromMs &&
  item.timeMs <= toMs &&
  item.timeMs >= profile.historyStartMs &&
  item.timeMs < profile.historyEndMs;

/** The on-site calibration session of one week bucket: results and log lines. */
function calibrationSession(profile: HealthProfile, bucket: number): CalibrationHistory {
  const random = randomFor(profile.seed, profile.serial, 'calibration', bucket);
  const empty: CalibrationHistory = { calibrations: [], log: [] };
  if (random.chance(0.08)) return empty; // a week without a visit
  const timeMs = workingTime(random, bucket * CALIBRATION_BUCKET_MS + random.int(0, 6) * DAY_MS);
  // The calibrator of the noCalibrator instrument left the site when its fault began.
  if (faultActiveAt(profile, 'noCalibrator', timeMs)) return empty;

  const engineer = random.pick(profile.engineers);
  const log: LogEntry[] = [
    {
      timeMs: timeMs - random.int(2, 6) * MINUTE_MS,
      instrument: profile.serial,
      user: engineer,
      message: `Calibrator fitted by ${engineer} (${profile.calibrator}, ${profile.referenceDb.toFixed(1)} dB).`,
    },
  ];
  const calibrations: CalibrationEntry[] = [];
  const record = (entry: CalibrationEntry) => {
    calibrations.push(entry);
    log.push({
      timeMs: entry.timeMs,
      instrument: profile.serial,
      user: SYSTEM_USER,
      message: calibrationLogMessage(entry),
    });
  };

  const roll = random.next();
  const firstKind: CalibrationKind = roll < 0.02 ? 'noSignal' : roll < 0.05 ? 'unstable' : 'normal';
  const first = measureCalibration(profile, timeMs, random, firstKind);
  record(first);
  if (first.status === 'Failed' && firstKind !== 'normal') {
    // The engineer fixes the fit and tries again.
    record(measureCalibration(profile, timeMs + random.int(6, 20) * MINUTE_MS, random, 'normal'));
  } else if (first.status === 'Failed') {
    log.push({
      timeMs: timeMs + random.int(15, 40) * MINUTE_MS,
      instrument: profile.serial,
      user: engineer,
      message:
        'Offset outside tolerance after drying the windshield; microphone to be replaced at the next visit.',
    });
  }
  return { calibrations, log };
}

/** Maintenance and fault notes of the calibration log (no calibration result). */
function maintenanceLog(profile: HealthProfile, fromMs: number, toMs: number): LogEntry[] {
  const log: LogEntry[] = [];
  const lastMicrophone = Math.floor(toMs / MICROPHONE_BUCKET_MS);
  for (let bucket = Math.floor(fromMs / MICROPHONE_BUCKET_MS) - 1; bucket <= lastMicrophone; bucket++) {
    const replacement = microphoneReplacement(profile, bucket);
    if (replacement === null) continue;
    const engineer = replacement.random.pick(profile.engineers);
    log.push({
      timeMs: replacement.timeMs,
      instrument: profile.serial,
      user: engineer,
      message: `Microphone replaced (MK:224 serial ${replacement.random.int(10000, 99999)}); factory calibration data loaded.`,
    });
  }
  const lastWindshield = Math.floor(toMs / WINDSHIELD_BUCKET_MS);
  for (let bucket = Math.floor(fromMs / WINDSHIELD_BUCKET_MS) - 1; bucket <= lastWindshield; bucket++) {
    const random = randomFor(profile.seed, profile.serial, 'windshield', bucket);
    if (!random.chance(0.4)) continue;
    const timeMs = workingTime(random, bucket * WINDSHIELD_BUCKET_MS + random.int(0, 55) * DAY_MS);
    const why = random.pick(['weathered foam', 'bird damage', 'routine replacement', 'torn by wind']);
    log.push({
      timeMs,
      instrument: profile.serial,
      user: random.pick(profile.engineers),
      message: `Windshield replaced (${why}).`,
    });
  }
  if (profile.faultSinceMs !== null) {
    const random = randomFor(profile.seed, profile.serial, 'fault-note');
    const engineer = random.pick(profile.engineers);
    if (profile.fault === 'noCalibrator') {
      log.push({
        timeMs: profile.faultSinceMs,
        instrument: profile.serial,
        user: engineer,
        message: `Calibrator ${profile.calibrator} taken off site for its annual calibration; no calibrator on site until it returns.`,
      });
    } else if (profile.fault === 'degradedMicrophone') {
      log.push({
        timeMs: profile.faultSinceMs + random.int(20, 30) * HOUR_MS,
        instrument: profile.serial,
        user: engineer,
        message: 'Windshield found saturated after heavy rain; dried and refitted.',
      });
    }
  }
  return log;
}

/** Generated calibrations and calibration log lines with `fromMs <= time <= toMs`, in time order. */
export function calibrationHistory(profile: HealthProfile, fromMs: number, toMs: number): CalibrationHistory {
  if (!profile.calibrated) return { calibrations: [], log: [] };
  const keep = inWindow(profile, fromMs, toMs);
  const calibrations: CalibrationEntry[] = [];
  const log: LogEntry[] = [];
  // A session's lines can lie up to ~3 days after its bucket (weekend shift, retries).
  const last = Math.floor(toMs / CALIBRATION_BUCKET_MS);
  for (let bucket = Math.floor((fromMs - 3 * DAY_MS) / CALIBRATION_BUCKET_MS); bucket <= last; bucket++) {
    const session = calibrationSession(profile, bucket);
    calibrations.push(...session.calibrations.filter(keep));
    log.push(...session.log.filter(keep));
  }
  log.push(...maintenanceLog(profile, fromMs, toMs).filter(keep));
  return { calibrations: calibrations.sort(byTime), log: log.sort(byTime) };
}

export interface SicHistory {
  sics: SicEntry[];
  /** Failures and errors of the nightly SIC, for the calibration log. */
  log: LogEntry[];
}

/** Generated nightly SICs with `fromMs <= time <= toMs`, in time order. */
export function sicHistory(profile: HealthProfile, fromMs: number, toMs: number): SicHistory {
  if (!profile.hasSic) return { sics: [], log: [] };
  const keep = inWindow(profile, fromMs, toMs);
  const sics: SicEntry[] = [];
  const log: LogEntry[] = [];
  const lastDay = Math.floor(toMs / DAY_MS);
  for (let day = Math.floor(fromMs / DAY_MS) - 1; day <= lastDay; day++) {
    const random = randomFor(profile.seed, profile.serial, 'sic', day);
    const timeMs = day * DAY_MS + 2 * HOUR_MS + profile.sicMinute * MINUTE_MS + random.int(0, 59) * 1000;
    if (!keep({ timeMs })) continue;
    const roll = random.next();
    const kind: SicKind = roll < 0.01 ? 'background' : roll < 0.014 ? 'transient' : 'normal';
    const entry = measureSic(profile, timeMs, random, kind);
    sics.push(entry);
    if (entry.reason !== null) {
      log.push({
        timeMs,
        instrument: profile.serial,
        user: SYSTEM_USER,
        message: `Automatic ${entry.reason}`,
      });
    }
  }
  return { sics, log };
}

/** The latest generated calibration before the fleet's creation, or null. */
export function latestGeneratedCalibration(profile: HealthProfile): CalibrationEntry | null {
  for (let days = 60; ; days *= 4) {
    const fromMs = Math.max(profile.historyStartMs, profile.historyEndMs - days * DAY_MS);
    const { calibrations } = calibrationHistory(profile, fromMs, profile.historyEndMs);
    if (calibrations.length > 0) return calibrations[calibrations.length - 1] ?? null;
    if (fromMs === profile.historyStartMs) return null;
  }
}

/** The latest generated SIC before the fleet's creation, or null. */
export function latestGeneratedSic(profile: HealthProfile): SicEntry | null {
  const { sics } = sicHistory(profile, profile.historyEndMs - 3 * DAY_MS, profile.historyEndMs);
  return sics[sics.length - 1] ?? null;
}
