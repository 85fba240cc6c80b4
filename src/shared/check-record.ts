/**
 * One calibration or SIC check as one record, formed here and rendered by every output (the
 * instrument list, the card, Needs attention, the history chart, the action record, the visit sheet
 * and the report's PDF, Excel and CSV), so a check never reads differently in two places:
 * - FieldDesk's verdict (when FieldDesk ran the check: its action record holds the outcome with the
 *   reference and tolerance) beside the instrument's own status word;
 * - the verdict that counts: FieldDesk's where it judged the check, else the instrument's;
 * - the measured level, the instrument's offset and the deviation from the reference as two named
 *   values, each written to the same decimals everywhere (`checkDbText`, `checkDbCell`).
 */
import { instrumentPassed } from './check-verdicts';
import { dbText, settingDecimals } from './format';
import {
  CALIBRATION_REFERENCE_LEVELS_DB,
  type ActionOutcome,
  type CalibrationOutcome,
  type SicOutcome,
  type SicToneJudgement,
} from './operations';

/** FieldDesk's own verdict on a check it ran, with what it was judged against. */
export interface FieldDeskJudgement {
  passed: boolean;
  /** Calibration: the reference level it was judged at (dB); null for a SIC (each tone has its own). */
  referenceDb: number | null;
  /** The tolerance in force (dB); null when the record did not keep it. */
  toleranceDb: number | null;
}

export interface CheckRecord {
  kind: 'calibration' | 'sic';
  /** When the instrument recorded the check (epoch ms). */
  time: number;
  /** The instrument's own status word, as it said it ("Success", "Failed"); '' when none. */
  status: string;
  /** The instrument's verdict from its word: Success (true), Failed/Error (false), another word (null). */
  instrumentPassed: boolean | null;
  /** FieldDesk's verdict, when FieldDesk ran the check; null when it did not (it never judged it). */
  fieldDesk: FieldDeskJudgement | null;
  /** The verdict that counts: FieldDesk's where it judged the check, else the instrument's. */
  passed: boolean | null;
  /** Calibration: the level read with the calibrator fitted (dB); SIC: its 1 kHz tone. */
  level: number | null;
  /** Calibration: the offset the instrument applied (dB, its own figure); SIC: null. */
  offset: number | null;
  /**
   * Calibration: level − reference (dB, signed). SIC: the tone furthest from its reference, its
   * level − reference (signed); null when nothing could be compared.
   */
  deviation: number | null;
  /**
   * Calibration: the reference the deviation is from: FieldDesk's when it ran the check, else the
   * usual calibrator level (94 or 114 dB) nearest the level. SIC: null.
   */
  referenceDb: number | null;
}

/** A check as a renderer may meet it: results computed before these fields existed lack them. */
export type CheckFacts = Pick<CheckRecord, 'kind' | 'time' | 'status' | 'passed' | 'level' | 'offset'> &
  Partial<Pick<CheckRecord, 'instrumentPassed' | 'fieldDesk' | 'deviation' | 'referenceDb'>>;

/** A calibration as the service records it (an instrument's `lastCalibration`, its history). */
export interface ServiceCalibration {
  time: number;
  status: string;
  level: number | null;
  offset: number | null;
}

/** A SIC as the service records it. */
export interface ServiceSic {
  time: number;
  status: string;
  _500Hz: number | null;
  _1KHz: number | null;
  _8KHz: number | null;
}

/**
 * FieldDesk keeps the service's own time of a check it ran, so its record and the service's agree;
 * a record within this of the service's (a time rounded on the way) is the same check.
 */
export const SAME_CHECK_MS = 1_000;

/** The usual calibrator level (94 or 114 dB) nearest `level`. */
export function nearestCalibratorLevel(level: number): number {
  return CALIBRATION_REFERENCE_LEVELS_DB.reduce<number>(
    (a, b) => (Math.abs(level - b) < Math.abs(level - a) ? b : a),
    CALIBRATION_REFERENCE_LEVELS_DB[0],
  );
}

/** FieldDesk's outcome of the `kind` check recorded at `time` (the nearest within SAME_CHECK_MS); null when none. */
export function outcomeAt<K extends 'calibration' | 'sic'>(
  outcomes: ReadonlyArray<ActionOutcome | null | undefined>,
  kind: K,
  time: number,
): Extract<ActionOutcome, { kind: K }> | null {
  let nearest: { distance: number; outcome: Extract<ActionOutcome, { kind: K }> } | null = null;
  for (const outcome of outcomes) {
    if (outcome?.kind !== kind) continue;
    const distance = Math.abs(outcome.time - time);
    if (distance <= SAME_CHECK_MS && (nearest === null || distance < nearest.distance))
      nearest = { distance, outcome: outcome as Extract<ActionOutcome, { kind: K }> };
  }
  return nearest?.outcome ?? null;
}

const hundredths = (value: number): number => Math.round(value * 100) / 100;

/** A calibration as one record: the service's facts, with FieldDesk's verdict when it ran it. */
export function calibrationCheck(
  service: ServiceCalibration,
  fieldDesk: CalibrationOutcome | null,
): CheckRecord {
  const referenceDb =
    fieldDesk?.referenceDb ?? (service.level === null ? null : nearestCalibratorLevel(service.level));
  const deviation =
    service.level === null || referenceDb === null
      ? null
      : Math.round((service.level - referenceDb) * 1000) / 1000;
  const instrument = instrumentPassed(service.status);
  return {
    kind: 'calibration',
    time: service.time,
    status: service.status,
    instrumentPassed: instrument,
    fieldDesk:
      fieldDesk === null
        ? null
        : {
            passed: fieldDesk.passed,
            referenceDb: fieldDesk.referenceDb,
            toleranceDb: fieldDesk.toleranceDb,
          },
    passed: fieldDesk === null ? instrument : fieldDesk.passed,
    level: service.level,
    offset: service.offset,
    deviation,
    referenceDb,
  };
}

/** The judged tone furthest from its reference, signed; null when no tone could be judged. */
export function largestToneDeviation(tones: readonly SicToneJudgement[]): number | null {
  let largest: number | null = null;
  for (const tone of tones) {
    if (tone.levelDb === null || tone.referenceDb === null) continue;
    const deviation = tone.levelDb - tone.referenceDb;
    if (largest === null || Math.abs(deviation) > Math.abs(largest)) largest = deviation;
  }
  return largest === null ? null : hundredths(largest);
}

/**
 * A SIC as one record, with FieldDesk's verdict when it ran it. `tones`: each tone judged against
 * its reference (FieldDesk's own judgement when it ran the check, else the caller's).
 */
export function sicCheck(
  service: ServiceSic,
  fieldDesk: SicOutcome | null,
  tones: readonly SicToneJudgement[] = [],
): CheckRecord {
  const judged = fieldDesk !== null && fieldDesk.tones.length > 0 ? fieldDesk.tones : tones;
  const instrument = instrumentPassed(service.status);
  return {
    kind: 'sic',
    time: service.time,
    status: service.status,
    instrumentPassed: instrument,
    fieldDesk:
      fieldDesk === null
        ? null
        : { passed: fieldDesk.passed, referenceDb: null, toleranceDb: fieldDesk.toleranceDb },
    passed: fieldDesk === null ? instrument : fieldDesk.passed,
    level: service._1KHz,
    offset: null,
    deviation: largestToneDeviation(judged),
    referenceDb: null,
  };
}

/** The check FieldDesk ran, from its own outcome alone (the action record, the visit sheet). */
export function checkOfOutcome(outcome: CalibrationOutcome | SicOutcome): CheckRecord {
  return outcome.kind === 'calibration' ? calibrationCheck(outcome, outcome) : sicCheck(outcome, outcome);
}

/** FieldDesk's newest calibration and SIC outcome on one instrument (`actions.lastResults`). */
export interface FieldDeskLastResults {
  serial: string;
  calibration: CalibrationOutcome | null;
  sic: SicOutcome | null;
}

/** An instrument's last calibration and SIC as records; null when none is known. */
export interface LastChecks {
  calibration: CheckRecord | null;
  sic: CheckRecord | null;
}

/**
 * An instrument's last calibration and SIC as records: the service's, each with FieldDesk's verdict
 * when FieldDesk's newest outcome of that kind is that very check.
 */
export function lastChecks(
  status: { lastCalibration?: ServiceCalibration | null; lastSic?: ServiceSic | null } | null,
  fieldDesk: Pick<FieldDeskLastResults, 'calibration' | 'sic'> | null,
): LastChecks {
  const calibration = status?.lastCalibration ?? null;
  const sic = status?.lastSic ?? null;
  const ownCalibration = fieldDesk?.calibration ?? null;
  const ownSic = fieldDesk?.sic ?? null;
  // A check FieldDesk saw finish after the status was read is the last one (the status catches up).
  const newer = (own: { time: number } | null, service: { time: number } | null) =>
    own !== null && (service === null || own.time > service.time + SAME_CHECK_MS);
  return {
    calibration: newer(ownCalibration, calibration)
      ? checkOfOutcome(ownCalibration!)
      : calibration === null
        ? null
        : calibrationCheck(calibration, outcomeAt([ownCalibration], 'calibration', calibration.time)),
    sic: newer(ownSic, sic)
      ? checkOfOutcome(ownSic!)
      : sic === null
        ? null
        : sicCheck(sic, outcomeAt([ownSic], 'sic', sic.time)),
  };
}

// ---- how every output writes a check ---------------------------------------------------------------

/**
 * A check's dB figure (level, offset, deviation, drift) as every output writes it: one decimal, or
 * two when the second matters ("94.0", "93.95", "+0.01"), the same as the settings' figures.
 */
export function checkDbText(
  value: number | null | undefined,
  options: { signed?: boolean; unit?: boolean; missing?: string } = {},
): string {
  return dbText(value ?? null, { decimals: 'setting', ...options });
}

/** A check's dB figure as a spreadsheet cell: the number rounded as `checkDbText` writes it, and its decimals. */
export function checkDbCell(value: number | null | undefined): { value: number | null; decimals: number } {
  if (value === null || value === undefined || !Number.isFinite(value)) return { value: null, decimals: 1 };
  const decimals = settingDecimals(value);
  const rounded = Number(value.toFixed(decimals));
  return { value: Object.is(rounded, -0) ? 0 : rounded, decimals };
}

/**
 * The verdict that counts in one word, for a pill or a cell, in one vocabulary: "Pass"/"Fail" —
 * FieldDesk's where it judged the check, else the instrument's word read as a verdict ("Success" is
 * a pass); a word that is no verdict is quoted as the instrument's own (“Pending”).
 * `whoseVerdictText` says whose the verdict is and quotes the instrument's word beside it.
 */
export function checkVerdictWord(check: CheckFacts): string {
  if (check.fieldDesk) return check.fieldDesk.passed ? 'Pass' : 'Fail';
  if (check.passed === true) return 'Pass';
  if (check.passed === false) return 'Fail';
  return check.status ? `“${check.status}”` : 'No status';
}

/** The tone of the verdict that counts. */
export function checkTone(check: Pick<CheckFacts, 'passed'>): 'ok' | 'danger' | 'warning' {
  return check.passed === true ? 'ok' : check.passed === false ? 'danger' : 'warning';
}

/** "the instrument reported “Success”" */
export const instrumentWordText = (check: Pick<CheckFacts, 'status'>): string =>
  check.status ? `the instrument reported “${check.status}”` : 'the instrument reported no status';

/**
 * Whose the verdict word is, with the other beside it: "FieldDesk’s verdict; the instrument reported
 * “Success”", or "Not run from FieldDesk: the instrument reported “Success”".
 */
export function whoseVerdictText(check: CheckFacts): string {
  return check.fieldDesk
    ? `FieldDesk’s verdict; ${instrumentWordText(check)}`
    : `Not run from FieldDesk: ${instrumentWordText(check)}`;
}

/**
 * A check in one line, whose verdict is whose and the figures behind it: "Fail (FieldDesk): level
 * 94.02 dB, offset +0.01 dB, deviation −19.98 dB from the 114.0 dB reference, allowed ±0.5 dB; the
 * instrument reported “Success”", or for a check FieldDesk did not run "Not run from FieldDesk:
 * level 93.95 dB, offset +0.01 dB; the instrument reported “Success”". `tones`: a SIC's three
 * readings, named when given.
 */
export function checkVerdictsText(check: CheckFacts, tones?: Omit<ServiceSic, 'time' | 'status'>): string {
  const fieldDesk = check.fieldDesk ?? null;
  const deviation = check.deviation ?? null;
  const facts: string[] = [];
  if (check.kind === 'calibration') {
    facts.push(`level ${checkDbText(check.level, { missing: 'not reported' })}`);
    if (check.offset !== null) facts.push(`offset ${checkDbText(check.offset, { signed: true })}`);
    // The deviation is FieldDesk's only where it judged the check against its reference.
    if (fieldDesk?.referenceDb !== null && fieldDesk?.referenceDb !== undefined && deviation !== null)
      facts.push(
        `deviation ${checkDbText(deviation, { signed: true })} from the ${checkDbText(fieldDesk.referenceDb)} reference`,
      );
  } else {
    if (tones !== undefined)
      facts.push(
        `500 Hz ${checkDbText(tones._500Hz)}, 1 kHz ${checkDbText(tones._1KHz)}, 8 kHz ${checkDbText(tones._8KHz)}`,
      );
    if (deviation !== null)
      facts.push(`furthest tone ${checkDbText(deviation, { signed: true })} from its usual level`);
  }
  if (fieldDesk?.toleranceDb !== null && fieldDesk?.toleranceDb !== undefined)
    facts.push(`allowed ±${checkDbText(fieldDesk.toleranceDb)}`);
  const head =
    fieldDesk === null ? 'Not run from FieldDesk' : `${fieldDesk.passed ? 'Pass' : 'Fail'} (FieldDesk)`;
  return `${head}: ${facts.length === 0 ? '' : `${facts.join(', ')}; `}${instrumentWordText(check)}`;
}
