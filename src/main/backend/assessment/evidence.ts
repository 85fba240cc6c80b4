/**
 * Calibration evidence: the calibrations and SICs that show the instrument was sound — the last
 * one before the period (and the last passing one, when that one failed), every one during it and
 * the first one after — each judged the way a reviewer checks it:
 * - each check is one record (shared/check-record.ts): FieldDesk's verdict where FieldDesk ran it
 *   (its action record, matched by instrument and the check's time) beside the instrument's word,
 *   level, the instrument's offset and the deviation from the reference as two values;
 * - a calibration's drift is measured from the last *passing* calibration before it (a failed
 *   check, by FieldDesk's verdict where it ran it, is never the base) and judged against the
 *   calibration tolerance; a failed check has no drift: it is reported as failed;
 * - a SIC's tones are judged each against its own reference, the median of that tone in the
 *   instrument's last passing SICs before it, ± the SIC tolerance, naming the tone that failed;
 * - no calibration before, or after, the period is a row of its own, flagged;
 * - a calibration FieldDesk ran names the calibrator the engineer fitted (its own action record,
 *   matched by instrument and the calibration's time), flagged when its certificate had expired on
 *   that day at the site.
 */
import type { CheckEvidence } from '../../../shared/assessment';
import type { SiteVisit } from '../../../shared/visits';
import { failingTones, judgeSicTones, sicReferences, sicToneText } from '../../../shared/check-verdicts';
import {
  calendarDateIn,
  calibratorName,
  certificateStatus,
  type CalibratorSnapshot,
} from '../../../shared/calibrators';
import type { TimeInterval } from '../../../shared/data';
import { dbText } from '../../../shared/format';
import {
  calibrationCheck,
  checkDbText,
  instrumentWordText,
  outcomeAt,
  SAME_CHECK_MS,
  sicCheck,
  type CheckRecord,
} from '../../../shared/check-record';
import { DEFAULT_SETTINGS, type ActionRecord, type SicRecord } from '../../../shared/operations';
import { calibrationRecordsOf, sicRecordsOf } from '../history/history-records';
import type { InstrumentInputs } from './assessment-inputs';

interface Check {
  time: number;
  status: string;
  level: number | null;
  offset: number | null;
}

/**
 * An instrument's calibrations or SICs as read, oldest first, through the history's own record
 * readers. A SIC is reduced to its 1 kHz tone here (the failed-check rule needs only its status).
 */
export function checksOf(inputs: InstrumentInputs, kind: 'calibration' | 'sic'): Check[] {
  const { serial } = inputs.instrument;
  if (kind === 'calibration') return calibrationRecordsOf(serial, inputs.reads.calibrations?.records ?? null);
  return sicsOf(inputs).map((record) => ({
    time: record.time,
    status: record.status,
    level: record._1KHz,
    offset: null,
  }));
}

const sicsOf = (inputs: InstrumentInputs): SicRecord[] =>
  sicRecordsOf(inputs.instrument.serial, inputs.reads.sic?.records ?? null).sort((a, b) => a.time - b.time);

const whenOf = (time: number, range: TimeInterval): CheckEvidence['when'] =>
  time < range.start ? 'before' : time >= range.end ? 'after' : 'during';

/** The indexes of the checks shown: the last before (and the last passing before), all during, the first after. */
function chosenIndexes(
  checks: ReadonlyArray<Pick<CheckRecord, 'time' | 'passed'>>,
  range: TimeInterval,
): number[] {
  const chosen = new Set<number>();
  const lastBefore = checks.findLastIndex((c) => c.time < range.start);
  if (lastBefore >= 0) chosen.add(lastBefore);
  // The reference the first drift is measured from, when the last one before failed.
  const lastPassBefore = checks.findLastIndex((c) => c.time < range.start && c.passed === true);
  if (lastPassBefore >= 0) chosen.add(lastPassBefore);
  checks.forEach((c, i) => {
    if (c.time >= range.start && c.time < range.end) chosen.add(i);
  });
  const firstAfter = checks.findIndex((c) => c.time >= range.end);
  if (firstAfter >= 0) chosen.add(firstAfter);
  return [...chosen].sort((a, b) => a - b);
}

/** What FieldDesk itself recorded of the checks it ran, for the evidence. */
export interface FieldDeskRecords {
  /** The instrument's local action records (any order). */
  actions: readonly ActionRecord[];
  /** The site's zone: the calendar day a certificate is judged on. */
  timeZone: string;
  /** The site visits to the instrument (any order): who was there when a calibration was made. */
  visits?: readonly VisitOnRecord[];
}

/** What the evidence needs of a site visit. */
export type VisitOnRecord = Pick<SiteVisit, 'engineer' | 'arrivedAt' | 'leftAt'>;

/** The engineer of the visit open at `time` (the latest to arrive, when visits overlap); null when none. */
function engineerAt(records: FieldDeskRecords, time: number): string | null {
  const covering = (records.visits ?? []).filter(
    (visit) => visit.arrivedAt <= time && time <= (visit.leftAt ?? Number.POSITIVE_INFINITY),
  );
  return covering.sort((a, b) => b.arrivedAt - a.arrivedAt)[0]?.engineer ?? null;
}

/** FieldDesk's own record of the calibration at `time` (same check: within SAME_CHECK_MS); null when it did not run it. */
function fieldDeskCalibrationAt(records: FieldDeskRecords, time: number): ActionRecord | null {
  let nearest: { distance: number; record: ActionRecord } | null = null;
  for (const record of records.actions) {
    if (record.action !== 'Calibration' || record.result?.kind !== 'calibration') continue;
    const distance = Math.abs(record.result.time - time);
    if (distance <= SAME_CHECK_MS && (nearest === null || distance < nearest.distance))
      nearest = { distance, record };
  }
  return nearest?.record ?? null;
}

/** "The certificate of CR:515 #054433 had expired (due 2026-11-01)", or null while it was valid. */
function expiredCertificateText(
  calibrator: CalibratorSnapshot,
  time: number,
  timeZone: string,
): string | null {
  const status = certificateStatus(calibrator.dueDate, calendarDateIn(time, timeZone));
  return status.state === 'expired'
    ? `The certificate of calibrator ${calibratorName(calibrator)} had expired (due ${calibrator.dueDate})`
    : null;
}

const toleranceText = (value: number) => `±${dbText(value, { decimals: 'setting' })}`;

/** "Failed: FieldDesk judged 94.02 dB against the 114.0 dB reference (±0.5 dB); the instrument reported “Success”". */
function failedText(check: CheckRecord): string {
  if (check.fieldDesk === null) return `Failed: ${instrumentWordText(check)}`;
  const against =
    check.fieldDesk.referenceDb === null
      ? ''
      : ` ${checkDbText(check.level, { missing: 'no level' })} against the ${checkDbText(check.fieldDesk.referenceDb)} reference` +
        (check.fieldDesk.toleranceDb === null ? '' : ` (${toleranceText(check.fieldDesk.toleranceDb)})`);
  return `Failed: FieldDesk judged${against}; ${instrumentWordText(check)}`;
}

/** Every calibration as one record, FieldDesk's verdict in it where FieldDesk ran it. */
function judgedCalibrations(checks: readonly Check[], records: FieldDeskRecords) {
  return checks.map((check) => {
    const ran = fieldDeskCalibrationAt(records, check.time);
    const outcome = ran?.result?.kind === 'calibration' ? ran.result : null;
    return { record: calibrationCheck(check, outcome), calibrator: ran === null ? null : ran.calibrator };
  });
}

/** Each SIC as one record: its tones judged against their references, FieldDesk's verdict where it ran it. */
function judgedSics(sics: readonly SicRecord[], tolerance: number, records: FieldDeskRecords) {
  const outcomes = records.actions.map((record) => record.result);
  return sics.map((sic) => {
    const tones = judgeSicTones(sic, sicReferences(sics, sic.time), tolerance);
    return { tones, record: sicCheck(sic, outcomeAt(outcomes, 'sic', sic.time), tones) };
  });
}

/** A check's time, kind and verdict as its evidence row states it (null: no verdict). */
export interface CheckVerdict {
  time: number;
  kind: 'calibration' | 'sic';
  passed: boolean | null;
}

/**
 * Every calibration and SIC of an instrument with the verdict its evidence row carries — FieldDesk's
 * where FieldDesk ran it, the instrument's status otherwise. The failed-check rule excludes from
 * these, so a check the report lists as failed is the very check the rule acted on.
 */
export function checkVerdicts(checks: JudgedChecks): CheckVerdict[] {
  const calibrations = checks.calibrations.map(({ record }): CheckVerdict => ({
    time: record.time,
    kind: 'calibration',
    passed: record.passed,
  }));
  const sics = checks.sics.map(({ record }): CheckVerdict => ({
    time: record.time,
    kind: 'sic',
    passed: record.passed,
  }));
  return [...calibrations, ...sics].sort((a, b) => a.time - b.time);
}

/**
 * An instrument's calibrations and SICs, each judged once (FieldDesk's verdict where it ran the
 * check): what both its verdicts for the failed-check rule and its evidence rows read.
 */
export interface JudgedChecks {
  serial: string;
  calibrations: ReturnType<typeof judgedCalibrations>;
  sics: ReturnType<typeof judgedSics>;
  records: FieldDeskRecords;
  sicToleranceDb: number;
}

export function judgeChecks(
  inputs: InstrumentInputs,
  sicToleranceDb: number = DEFAULT_SETTINGS.sicToleranceDb,
  records: FieldDeskRecords = { actions: [], timeZone: 'UTC' },
): JudgedChecks {
  return {
    serial: inputs.instrument.serial,
    calibrations: judgedCalibrations(checksOf(inputs, 'calibration'), records),
    sics: judgedSics(sicsOf(inputs), sicToleranceDb, records),
    records,
    sicToleranceDb,
  };
}

function calibrationEvidence(checks: JudgedChecks, range: TimeInterval, tolerance: number): CheckEvidence[] {
  const { serial, records, calibrations: judged } = checks;
  const rows = chosenIndexes(
    judged.map((j) => j.record),
    range,
  ).map((i): CheckEvidence => {
    const { record: check, calibrator } = judged[i]!;
    // The base is the last *passing* check before it (a failed one never is), and a failed check
    // has no drift: its deviation is a failure, said as such.
    const base = judged
      .slice(0, i)
      .findLast((c) => c.record.passed === true && c.record.deviation !== null)?.record;
    const drift =
      check.passed === false || base === undefined || base.deviation === null || check.deviation === null
        ? null
        : Math.round((check.deviation - base.deviation) * 100) / 100;
    const within = drift === null ? null : Math.abs(drift) <= tolerance + 1e-9;
    const flags = [
      check.passed === false
        ? failedText(check)
        : within === false && drift !== null
          ? `Drift ${checkDbText(drift, { signed: true })} since the last passing calibration, outside ${toleranceText(tolerance)}`
          : null,
      calibrator === null ? null : expiredCertificateText(calibrator, check.time, records.timeZone),
    ].filter((text) => text !== null);
    const flag = flags.length === 0 ? null : flags.join('; ');
    return {
      serial,
      ...check,
      drift,
      driftFrom: drift === null ? null : (base?.time ?? null),
      when: whenOf(check.time, range),
      tolerance,
      driftWithinTolerance: within,
      flag,
      calibrator,
      engineer: engineerAt(records, check.time),
    };
  });
  const missing = (when: 'before' | 'after'): CheckEvidence => ({
    serial,
    kind: 'calibration',
    time: when === 'before' ? range.start : range.end,
    status: '',
    passed: null,
    level: null,
    offset: null,
    drift: null,
    driftFrom: null,
    when,
    tolerance,
    driftWithinTolerance: null,
    missing: true,
    flag:
      when === 'before'
        ? 'No calibration before the period: the instrument’s accuracy at its start is not shown'
        : 'No calibration after the period: the drift over the survey cannot be checked',
  });
  return [
    ...(judged.some((c) => c.record.time < range.start) ? [] : [missing('before')]),
    ...rows,
    ...(judged.some((c) => c.record.time >= range.end) ? [] : [missing('after')]),
  ];
}

function sicEvidence(checks: JudgedChecks, range: TimeInterval): CheckEvidence[] {
  const { serial, sics: judged, sicToleranceDb: tolerance } = checks;
  return chosenIndexes(
    judged.map((j) => j.record),
    range,
  ).map((i): CheckEvidence => {
    const { record: check, tones } = judged[i]!;
    const failing = failingTones(tones);
    const flags = [...(check.passed === false ? [failedText(check)] : []), ...failing.map(sicToneText)];
    return {
      serial,
      ...check,
      drift: null,
      driftFrom: null,
      when: whenOf(check.time, range),
      tolerance,
      driftWithinTolerance: tones.every((t) => t.within === null) ? null : failing.length === 0,
      tones,
      flag: flags.length === 0 ? null : flags.join('; '),
    };
  });
}

/**
 * The evidence rows of an instrument's checks: the last before the period (and the last passing
 * before it), all during, the first after, each with its drift from the last passing calibration
 * and what is amiss; a missing calibration before or after said as a row of its own.
 */
export function checkEvidence(
  checks: JudgedChecks,
  range: TimeInterval,
  toleranceDb: number,
): CheckEvidence[] {
  return [...calibrationEvidence(checks, range, toleranceDb), ...sicEvidence(checks, range)];
}
