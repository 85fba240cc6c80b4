/**
 * Calibration evidence: the calibrations and SICs that show the instrument was sound — the last
 * one before the period (and the last passing one, when that one failed), every one during it and
 * the first one after — each judged the way a reviewer checks it:
 * - a calibration's drift is measured from the last *passing* calibration before it (a failed
 *   attempt is no reference) and judged against the calibration tolerance;
 * - a SIC's tones are judged each against its own reference, the median of that tone in the
 *   instrument's last passing SICs before it, ± the SIC tolerance, naming the tone that failed;
 * - no calibration before, or after, the period is a row of its own, flagged;
 * - a calibration FieldDesk ran names the calibrator the engineer fitted (its own action record,
 *   matched by instrument and the calibration's time), flagged when its certificate had expired on
 *   that day at the site.
 */
import type { CheckEvidence } from '../../../shared/assessment';
import type { SiteVisit } from '../../../shared/visits';
import {
  failingTones,
  instrumentPassed,
  judgeSicTones,
  sicReferences,
  sicToneText,
} from '../../../shared/check-verdicts';
import {
  calendarDateIn,
  calibratorName,
  certificateStatus,
  type CalibratorSnapshot,
} from '../../../shared/calibrators';
import type { TimeInterval } from '../../../shared/data';
import { dbText } from '../../../shared/format';
import {
  CALIBRATION_REFERENCE_LEVELS_DB,
  DEFAULT_SETTINGS,
  type ActionRecord,
  type SicRecord,
} from '../../../shared/operations';
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

/** A check's status as passed (Success), failed (Failed, Error) or neither known. */
export const checkPassed = instrumentPassed;

/**
 * The level's deviation from the calibrator level it was made with (the nearer of 94 and 114 dB),
 * so a drift between a 94 dB and a 114 dB calibration compares the microphone, not the calibrators.
 */
function deviationFromCalibrator(level: number): number {
  const nearest = CALIBRATION_REFERENCE_LEVELS_DB.reduce((a, b) =>
    Math.abs(level - b) < Math.abs(level - a) ? b : a,
  );
  return level - nearest;
}

const whenOf = (time: number, range: TimeInterval): CheckEvidence['when'] =>
  time < range.start ? 'before' : time >= range.end ? 'after' : 'during';

/** The indexes of the checks shown: the last before (and the last passing before), all during, the first after. */
function chosenIndexes(checks: readonly Check[], range: TimeInterval): number[] {
  const chosen = new Set<number>();
  const lastBefore = checks.findLastIndex((c) => c.time < range.start);
  if (lastBefore >= 0) chosen.add(lastBefore);
  // The reference the first drift is measured from, when the last one before failed.
  const lastPassBefore = checks.findLastIndex((c) => c.time < range.start && checkPassed(c.status) === true);
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

/**
 * FieldDesk keeps the service's own time of a calibration, so its record and the service's agree;
 * a record within this of the service's (a time rounded on the way) is the same calibration, the
 * nearest one when two are that close.
 */
const SAME_CALIBRATION_MS = 1_000;

/** The calibrator FieldDesk recorded for the calibration at `time`; null when not recorded. */
function calibratorAt(records: FieldDeskRecords, time: number): CalibratorSnapshot | null {
  let nearest: { distance: number; calibrator: CalibratorSnapshot | null } | null = null;
  for (const record of records.actions) {
    if (record.action !== 'Calibration' || record.result?.kind !== 'calibration') continue;
    const distance = Math.abs(record.result.time - time);
    if (distance <= SAME_CALIBRATION_MS && (nearest === null || distance < nearest.distance))
      nearest = { distance, calibrator: record.calibrator };
  }
  return nearest?.calibrator ?? null;
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

const signedDb = (value: number) => dbText(value, { signed: true });
const toleranceText = (value: number) => `±${dbText(value, { decimals: 'setting' })}`;

function calibrationEvidence(
  serial: string,
  checks: Check[],
  range: TimeInterval,
  tolerance: number,
  records: FieldDeskRecords,
): CheckEvidence[] {
  const rows = chosenIndexes(checks, range).map((i): CheckEvidence => {
    const check = checks[i]!;
    const passed = checkPassed(check.status);
    const reference = checks.slice(0, i).findLast((c) => checkPassed(c.status) === true && c.level !== null);
    const drift =
      reference === undefined || reference.level === null || check.level === null
        ? null
        : Math.round(
            (deviationFromCalibrator(check.level) - deviationFromCalibrator(reference.level)) * 100,
          ) / 100;
    const within = drift === null ? null : Math.abs(drift) <= tolerance + 1e-9;
    const calibrator = calibratorAt(records, check.time);
    const flags = [
      passed === false
        ? `Failed: the instrument reported “${check.status}”`
        : within === false && drift !== null
          ? `Drift ${signedDb(drift)} since the last passing calibration, outside ${toleranceText(tolerance)}`
          : null,
      calibrator === null ? null : expiredCertificateText(calibrator, check.time, records.timeZone),
    ].filter((text) => text !== null);
    const flag = flags.length === 0 ? null : flags.join('; ');
    return {
      serial,
      kind: 'calibration',
      time: check.time,
      status: check.status,
      passed,
      level: check.level,
      offset: check.offset,
      drift,
      driftFrom: reference?.time ?? null,
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
    ...(checks.some((c) => c.time < range.start) ? [] : [missing('before')]),
    ...rows,
    ...(checks.some((c) => c.time >= range.end) ? [] : [missing('after')]),
  ];
}

function sicEvidence(
  serial: string,
  sics: SicRecord[],
  range: TimeInterval,
  tolerance: number,
): CheckEvidence[] {
  const asChecks: Check[] = sics.map((s) => ({
    time: s.time,
    status: s.status,
    level: s._1KHz,
    offset: null,
  }));
  return chosenIndexes(asChecks, range).map((i): CheckEvidence => {
    const sic = sics[i]!;
    const passed = checkPassed(sic.status);
    const tones = judgeSicTones(sic, sicReferences(sics, sic.time), tolerance);
    const judged = tones.filter((t) => t.within !== null);
    const failing = failingTones(tones);
    const furthest = judged.reduce<(typeof judged)[number] | null>(
      (a, b) =>
        a === null || Math.abs(b.levelDb! - b.referenceDb!) > Math.abs(a.levelDb! - a.referenceDb!) ? b : a,
      null,
    );
    const flags = [
      ...(passed === false ? [`Failed: the instrument reported “${sic.status}”`] : []),
      ...failing.map(sicToneText),
    ];
    return {
      serial,
      kind: 'sic',
      time: sic.time,
      status: sic.status,
      passed,
      level: sic._1KHz,
      offset: furthest === null ? null : Math.round((furthest.levelDb! - furthest.referenceDb!) * 100) / 100,
      drift: null,
      driftFrom: null,
      when: whenOf(sic.time, range),
      tolerance,
      driftWithinTolerance: judged.length === 0 ? null : failing.length === 0,
      tones,
      flag: flags.length === 0 ? null : flags.join('; '),
    };
  });
}

export function checkEvidence(
  inputs: InstrumentInputs,
  range: TimeInterval,
  toleranceDb: number,
  sicToleranceDb: number = DEFAULT_SETTINGS.sicToleranceDb,
  records: FieldDeskRecords = { actions: [], timeZone: 'UTC' },
): CheckEvidence[] {
  const { serial } = inputs.instrument;
  return [
    ...calibrationEvidence(serial, checksOf(inputs, 'calibration'), range, toleranceDb, records),
    ...sicEvidence(serial, sicsOf(inputs), range, sicToleranceDb),
  ];
}
