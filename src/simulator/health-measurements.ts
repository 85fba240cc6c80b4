/**
 * Measuring one calibration or SIC of an instrument from its health profile: the result entries,
 * their calibration log line and wire form, and the results of the Calibration and SIC actions.
 * The generated history and the actions run while the service runs measure the same way.
 */
import { formatServiceTime } from '../shared/service/time';
import type { WireCalibrationStatus, WireSicStatus } from '../shared/service/wire';
import {
  DAY_MS,
  faultActiveAt,
  randomFor,
  round,
  trueOffsetAt,
  YEAR_MS,
  type HealthProfile,
  type SicBands,
} from './health-profiles';
import type { Random } from './random';

/** A calibration whose offset is larger than this (dB) fails. */
export const CALIBRATION_TOLERANCE_DB = 0.5;
/** A SIC whose tone level differs from the commissioning level by more than this (dB) fails. */
export const SIC_TOLERANCE_DB = 2;

export type CalibrationOutcome = 'Success' | 'Failed';
export type SicOutcome = 'Success' | 'Failed' | 'Error';

const SIC_BANDS = ['_500Hz', '_1KHz', '_8KHz'] as const;
const BAND_LABEL: Record<keyof SicBands, string> = { _500Hz: '500 Hz', _1KHz: '1 kHz', _8KHz: '8 kHz' };

/** A calibration result (generated or from an action), before it becomes a wire record. */
export interface CalibrationEntry {
  timeMs: number;
  instrument: string;
  status: CalibrationOutcome;
  level: number;
  /** Measured deviation from the calibrator level: always `level - reference`, rounded to 0.01 dB. */
  offset: number;
  /** Why it failed, as written to the calibration log; null on success. */
  reason: string | null;
}

export interface SicEntry extends SicBands {
  timeMs: number;
  instrument: string;
  status: SicOutcome;
  /** Why it failed or could not run; null on success. */
  reason: string | null;
}

/** `+0.02`, `-0.31`, `+0.00`: offsets always carry a sign. */
export const signedDb = (value: number): string => `${value < 0 ? '-' : '+'}${Math.abs(value).toFixed(2)}`;

/** How a calibration attempt goes: as it should, without the calibrator's tone, or with an unsteady fit. */
export type CalibrationKind = 'normal' | 'noSignal' | 'unstable';

export function measureCalibration(
  profile: HealthProfile,
  timeMs: number,
  random: Random,
  kind: CalibrationKind,
): CalibrationEntry {
  const reference = profile.referenceDb;
  const expected = `expected ${reference.toFixed(1)} dB`;
  let level: number;
  let reason: string | null = null;
  if (kind === 'noSignal') {
    // Only the ambient noise reaches the microphone.
    level = round(random.between(38, 58), 2);
    reason =
      `Calibration failed: no calibrator signal detected (level ${level.toFixed(1)} dB, ${expected}). ` +
      'Fit the calibrator to the microphone and switch it on.';
  } else {
    level = round(reference + trueOffsetAt(profile, timeMs) + random.between(-0.02, 0.02), 2);
    if (kind === 'unstable') {
      const spread = random.between(0.6, 1.4);
      level = round(level + random.between(-0.3, 0.3), 2);
      reason =
        `Calibration failed: level unstable (it varied by ${spread.toFixed(1)} dB during the measurement). ` +
        'Check that the calibrator sits fully on the microphone and is shielded from wind.';
    }
  }
  const offset = round(level - reference, 2);
  if (reason === null && Math.abs(offset) > CALIBRATION_TOLERANCE_DB) {
    reason =
      `Calibration failed: level out of tolerance (${level.toFixed(2)} dB, offset ${signedDb(offset)} dB; ` +
      `the limit is ±${CALIBRATION_TOLERANCE_DB.toFixed(2)} dB). The microphone may be wet or damaged.`;
  }
  return {
    timeMs,
    instrument: profile.serial,
    status: reason === null ? 'Success' : 'Failed',
    level,
    offset,
    reason,
  };
}

/** The log line of a calibration result: its failure reason or the passed levels. */
export const calibrationLogMessage = (entry: CalibrationEntry): string =>
  entry.reason ?? `Calibration passed: ${entry.level.toFixed(2)} dB, offset ${signedDb(entry.offset)} dB.`;

/** How a SIC goes: as it should, drowned by background noise, or with one tone off for a moment. */
export type SicKind = 'normal' | 'background' | 'transient';

export function measureSic(profile: HealthProfile, timeMs: number, random: Random, kind: SicKind): SicEntry {
  const seasonal = 0.1 * Math.sin((2 * Math.PI * timeMs) / YEAR_MS + profile.seasonPhase);
  const bands: SicBands = { _500Hz: 0, _1KHz: 0, _8KHz: 0 };
  for (const band of SIC_BANDS)
    bands[band] = profile.sicBaseline[band] + seasonal + random.between(-0.25, 0.25);
  if (faultActiveAt(profile, 'degradedMicrophone', timeMs)) {
    // Water on the diaphragm damps the high frequencies first.
    const days = (timeMs - (profile.faultSinceMs ?? timeMs)) / DAY_MS;
    bands._8KHz -= 3.5 + Math.min(3, 0.2 * days) + random.between(0, 0.5);
  }
  if (kind === 'transient') {
    const band = random.pick(SIC_BANDS);
    bands[band] += (random.chance(0.5) ? 1 : -1) * random.between(2.3, 3.2);
  }
  let ambient = 0;
  if (kind === 'background') {
    ambient = random.between(72, 84);
    for (const band of SIC_BANDS) bands[band] += random.between(3, 9);
  }
  for (const band of SIC_BANDS) bands[band] = round(bands[band], 1);

  let status: SicOutcome = 'Success';
  let reason: string | null = null;
  if (kind === 'background') {
    status = 'Error';
    reason =
      `SIC could not complete: background noise too high to measure the test tones ` +
      `(about ${ambient.toFixed(0)} dB).`;
  } else {
    const worst = [...SIC_BANDS].sort(
      (a, b) => Math.abs(bands[b] - profile.sicBaseline[b]) - Math.abs(bands[a] - profile.sicBaseline[a]),
    )[0] as keyof SicBands;
    if (Math.abs(bands[worst] - profile.sicBaseline[worst]) > SIC_TOLERANCE_DB) {
      status = 'Failed';
      reason =
        `SIC failed: ${BAND_LABEL[worst]} tone ${bands[worst].toFixed(1)} dB, expected ` +
        `${profile.sicBaseline[worst].toFixed(1)} ± ${SIC_TOLERANCE_DB.toFixed(1)} dB. ` +
        'Check the microphone and windshield for water or damage.';
    }
  }
  return { timeMs, instrument: profile.serial, status, ...bands, reason };
}

/**
 * The result of the `run`-th Calibration action on an instrument, finishing at `timeMs`.
 * Healthy instruments pass; the fault instruments fail the same way every time.
 */
export function calibrationActionResult(
  profile: HealthProfile,
  timeMs: number,
  run: number,
): CalibrationEntry {
  const random = randomFor(profile.seed, profile.serial, 'calibration-action', run);
  return measureCalibration(
    profile,
    timeMs,
    random,
    profile.fault === 'noCalibrator' ? 'noSignal' : 'normal',
  );
}

/** The result of the `run`-th SIC action on an instrument, finishing at `timeMs`. */
export function sicActionResult(profile: HealthProfile, timeMs: number, run: number): SicEntry {
  return measureSic(profile, timeMs, randomFor(profile.seed, profile.serial, 'sic-action', run), 'normal');
}

// ---------------------------------------------------------------------------------------------
// Wire forms.

export const calibrationStatusOf = (entry: CalibrationEntry): WireCalibrationStatus => ({
  time: formatServiceTime(entry.timeMs),
  status: entry.status,
  level: entry.level,
  offset: entry.offset,
});

export const sicStatusOf = (entry: SicEntry): WireSicStatus => ({
  time: formatServiceTime(entry.timeMs),
  status: entry.status,
  _500Hz: entry._500Hz,
  _1KHz: entry._1KHz,
  _8KHz: entry._8KHz,
});
