/**
 * The verdict on a finished Calibration or SIC: FieldDesk's (whether it passed, and the message
 * that says why, from the reference and tolerance in force) beside the instrument's own status,
 * both kept in the outcome so every view can name whose verdict is whose. Pure functions apart from
 * the state machine, so each verdict can be tested on its own.
 */
import {
  calibratorName,
  levelMatches,
  levelsText,
  type CalibratorSnapshot,
} from '../../../shared/calibrators';
import {
  failingTones,
  instrumentPassed,
  judgeSicTones,
  probableCalibratorLevel,
  referenceBasisText,
  sicToneText,
  type SicToneReference,
} from '../../../shared/check-verdicts';
import { dbText } from '../../../shared/format';
import {
  SIC_TONE_LABELS,
  type CALIBRATION_SETTINGS,
  type CalibrationOutcome,
  type Settings,
  type SicOutcome,
  type SicToneJudgement,
} from '../../../shared/operations';
import type { CalibrationStatus, SicStatus } from '../../../shared/service/schemas';

/** A dB figure with one decimal, or two when the second one matters ("94.0 dB", "0.25 dB"). */
const db = (value: number): string => dbText(value, { decimals: 'setting' });
const signedDb = (value: number): string => dbText(value, { decimals: 'setting', signed: true });

/** "The instrument itself reported Success." — the other verdict, named, when the two disagree. */
const instrumentSaid = (status: string): string => `The instrument itself reported “${status}”.`;

/**
 * What to do about the calibrator when a calibration missed its reference, fitted to the calibrator
 * the engineer named: one that cannot give the reference is never told to be set to it.
 */
function calibratorAdvice(
  calibrator: CalibratorSnapshot | null,
  reference: number,
  probable: number | null,
): string {
  if (calibrator !== null && !levelMatches(calibrator.nominalLevelsDb, reference)) {
    const name = calibratorName(calibrator);
    const levels = calibrator.nominalLevelsDb;
    const only = levels.length === 1 ? 'only ' : '';
    const choose =
      levels.length === 1
        ? `choose ${db(levels[0] as number)} as the reference`
        : probable !== null && levelMatches(levels, probable)
          ? `choose ${db(probable)} as the reference`
          : 'choose one of its levels as the reference';
    return `${name} gives ${only}${levelsText(levels)}, not the ${db(reference)} reference: ${choose} and calibrate again.`;
  }
  const which = calibrator === null ? 'it' : calibratorName(calibrator);
  if (probable !== null) {
    const alternative =
      calibrator === null || levelMatches(calibrator.nominalLevelsDb, probable)
        ? `, or choose ${db(probable)} as the reference,`
        : '';
    return `Set ${which} to ${db(reference)}${alternative} and calibrate again.`;
  }
  return (
    `Check that ${calibrator === null ? 'the calibrator' : which} is fitted firmly, switched on ` +
    `and set to ${db(reference)}, then calibrate again.`
  );
}

/**
 * Judges a calibration against the reference and tolerance in force when it started; the advice
 * fits `calibrator`, the one the engineer said was fitted (null: none named).
 */
export function judgeCalibration(
  record: CalibrationStatus,
  settings: Pick<Settings, (typeof CALIBRATION_SETTINGS)[number]>,
  calibrator: CalibratorSnapshot | null = null,
): { outcome: CalibrationOutcome; message: string } {
  const reference = settings.calibrationReferenceDb;
  const tolerance = settings.calibrationToleranceDb;
  const deviation = record.level === null ? null : Math.round((record.level - reference) * 1000) / 1000;
  const instrument = instrumentPassed(record.status);
  const statusOk = instrument === true;
  const withinTolerance = deviation !== null && Math.abs(deviation) <= tolerance + 1e-9;
  const passed = statusOk && withinTolerance;
  const probable = withinTolerance ? null : probableCalibratorLevel(record.level, reference, tolerance);
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
    instrumentPassed: instrument,
    probableCalibratorDb: probable,
  };
  if (passed && record.level !== null && deviation !== null) {
    return {
      outcome,
      message:
        `Calibration passed: ${db(record.level)} against the ${db(reference)} reference ` +
        `(${signedDb(deviation)}, within ±${db(tolerance)}).`,
    };
  }
  if (probable !== null && record.level !== null) {
    // The instrument measured the other calibrator level well: the calibrator's switch, not the microphone.
    const distance = Math.abs(record.level - probable);
    const near =
      distance <= tolerance + 1e-9
        ? `which is ${db(probable)} within tolerance`
        : `which is ${db(distance)} from ${db(probable)}`;
    return {
      outcome,
      message:
        `Calibration failed: the instrument read ${db(record.level)}, ${near}: the calibrator is probably ` +
        `set to ${db(probable)}, not ${db(reference)}. ${calibratorAdvice(calibrator, reference, probable)}` +
        (statusOk ? ` ${instrumentSaid(record.status)}` : ''),
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
      `Calibration failed: ${reasons.join(', and ')}. ${calibratorAdvice(calibrator, reference, null)}` +
      (statusOk ? ` ${instrumentSaid(record.status)}` : ''),
  };
}

/**
 * Judges a SIC: the instrument's status, and each tone against its reference (the median of the
 * tone in the instrument's last passing checks) ± the SIC tolerance. Without references the tones
 * cannot be judged and the instrument's status decides.
 */
export function judgeSic(
  record: SicStatus,
  references: readonly SicToneReference[],
  toleranceDb: number,
): { outcome: SicOutcome; message: string } {
  const instrument = instrumentPassed(record.status);
  const tones = judgeSicTones(record, references, toleranceDb);
  const failing = failingTones(tones);
  const passed = instrument === true && failing.length === 0;
  const outcome: SicOutcome = {
    kind: 'sic',
    time: record.time,
    status: record.status,
    _500Hz: record._500Hz,
    _1KHz: record._1KHz,
    _8KHz: record._8KHz,
    passed,
    instrumentPassed: instrument,
    tones,
    toleranceDb,
  };
  const judged = tones.filter((tone) => tone.within !== null);
  const levels = tones
    .map((tone) => `${sicToneLabel(tone.tone)} ${tone.levelDb === null ? 'no reading' : db(tone.levelDb)}`)
    .join(', ');
  const basis =
    judged.length === 0
      ? ' No earlier passing check to judge the tones against, so the instrument’s status decides.'
      : '';
  if (passed) {
    const band =
      judged.length === 0
        ? ''
        : `, each within ±${db(toleranceDb)} of its usual level (${referenceBasisText(Math.max(...judged.map((t) => t.referenceChecks)))})`;
    return { outcome, message: `System integrity check passed (${levels})${band}.${basis}` };
  }
  const reasons: string[] = [];
  if (instrument !== true) reasons.push(`the instrument reported “${record.status}”`);
  for (const tone of failing) reasons.push(sicToneText(tone));
  const advice = failing.some((tone) => tone.tone === '_8KHz')
    ? 'A low 8 kHz tone usually means water or damage on the microphone or windshield: check them, then run the check again.'
    : 'Check the microphone and its cable, then run the check again.';
  return {
    outcome,
    message:
      `System integrity check failed: ${reasons.join('; ')}` +
      (failing.length === 0 ? ` (${levels}).` : '.') +
      `${basis} ${advice}` +
      (instrument === true ? ` ${instrumentSaid(record.status)}` : ''),
  };
}

const sicToneLabel = (tone: SicToneJudgement['tone']): string => SIC_TONE_LABELS[tone];
