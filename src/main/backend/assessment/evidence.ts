/**
 * Calibration evidence: the calibrations and SICs that show the instrument was sound — the last
 * one before the period, every one during it and the first one after — each with its drift since
 * the previous check of its kind, judged against the calibration tolerance (the drift between
 * field calibrations before and after a survey is what a reviewer checks first).
 */
import type { CheckEvidence } from '../../../shared/assessment';
import type { TimeInterval } from '../../../shared/data';
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
 * readers. A SIC's drift is followed on its 1 kHz response.
 */
export function checksOf(inputs: InstrumentInputs, kind: 'calibration' | 'sic'): Check[] {
  const { serial } = inputs.instrument;
  if (kind === 'calibration') return calibrationRecordsOf(serial, inputs.reads.calibrations?.records ?? null);
  return sicRecordsOf(serial, inputs.reads.sic?.records ?? null).map((record) => ({
    time: record.time,
    status: record.status,
    level: record._1KHz,
    offset: null,
  }));
}

/** A check's status as passed (Success), failed (Failed, Error) or neither known. */
export function checkPassed(status: string): boolean | null {
  const normal = status.toLowerCase();
  return normal === 'success' ? true : normal === 'failed' || normal === 'error' ? false : null;
}

function evidenceOf(
  serial: string,
  kind: 'calibration' | 'sic',
  checks: Check[],
  range: TimeInterval,
  tolerance: number,
): CheckEvidence[] {
  const chosen = new Set<number>();
  const lastBefore = checks.findLastIndex((c) => c.time < range.start);
  if (lastBefore >= 0) chosen.add(lastBefore);
  checks.forEach((c, i) => {
    if (c.time >= range.start && c.time < range.end) chosen.add(i);
  });
  const firstAfter = checks.findIndex((c) => c.time >= range.end);
  if (firstAfter >= 0) chosen.add(firstAfter);
  return [...chosen]
    .sort((a, b) => a - b)
    .map((i) => {
      const check = checks[i]!;
      const previous = i > 0 ? checks[i - 1]! : null;
      const drift =
        previous === null || previous.level === null || check.level === null
          ? null
          : Math.round((check.level - previous.level) * 100) / 100;
      return {
        serial,
        kind,
        time: check.time,
        status: check.status,
        passed: checkPassed(check.status),
        level: check.level,
        offset: check.offset,
        drift,
        when: check.time < range.start ? 'before' : check.time >= range.end ? 'after' : 'during',
        tolerance,
        driftWithinTolerance: drift === null ? null : Math.abs(drift) <= tolerance + 1e-9,
      };
    });
}

export function checkEvidence(
  inputs: InstrumentInputs,
  range: TimeInterval,
  toleranceDb: number,
): CheckEvidence[] {
  const { serial } = inputs.instrument;
  return [
    ...evidenceOf(serial, 'calibration', checksOf(inputs, 'calibration'), range, toleranceDb),
    ...evidenceOf(serial, 'sic', checksOf(inputs, 'sic'), range, toleranceDb),
  ];
}
