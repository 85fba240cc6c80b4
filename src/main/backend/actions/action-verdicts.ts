/**
 * The verdict on a finished Calibration or SIC: whether it passed, and the message that says why,
 * from the instrument's result and (for a calibration) the reference and tolerance in force. Pure
 * functions apart from the state machine, so each verdict can be tested on its own.
 */
import { dbText } from '../../../shared/format';
import type {
  CALIBRATION_SETTINGS,
  CalibrationOutcome,
  Settings,
  SicOutcome,
} from '../../../shared/operations';
import type { CalibrationStatus, SicStatus } from '../../../shared/service/schemas';

/** A dB figure with one decimal, or two when the second one matters ("94.0 dB", "0.25 dB"). */
const db = (value: number): string => dbText(value, { decimals: 'setting' });
const signedDb = (value: number): string => dbText(value, { decimals: 'setting', signed: true });
const isSuccess = (status: string) => status.trim().toLowerCase() === 'success';

/** Judges a calibration against the reference and tolerance in force when it started. */
export function judgeCalibration(
  record: CalibrationStatus,
  settings: Pick<Settings, (typeof CALIBRATION_SETTINGS)[number]>,
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
        `Calibration passed: ${db(record.level)} against the ${db(reference)} reference ` +
        `(${signedDb(deviation)}, within ±${db(tolerance)}).`,
    };
  }
  const reasons: string[] = [];
  if (!statusOk) reasons.push(`the instrument reported the calibration as “${record.status}”`);
  if (record.level === null) reasons.push('the instrument reported no level');
  else if (!withinTolerance && deviation !== null) {
    reasons.push(
      `the level ${db(record.level)} is ${db(Math.abs(deviation))} from the ` +
        `${db(reference)} reference, outside the ±${db(tolerance)} tolerance`,
    );
  }
  return {
    outcome,
    message:
      `Calibration failed: ${reasons.join(', and ')}. Check that the calibrator is fitted firmly, switched on ` +
      `and set to ${db(reference)}, then calibrate again.`,
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
    `${label} ${value === null ? 'no reading' : db(value)}`;
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
