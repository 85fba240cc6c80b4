/**
 * Calibration evidence: the calibrations and SICs that show the instrument was sound — the last
 * one before the period, every one during it and the first one after — each with its drift since
 * the previous check of its kind, judged against the calibration tolerance (the drift between
 * field calibrations before and after a survey is what a reviewer checks first).
 */
import type { CheckEvidence } from '../../../shared/assessment';
import type { DataReadResult, TimeInterval } from '../../../shared/data';
import type { InstrumentInputs } from './assessment-inputs';

interface Check {
  time: number;
  status: string;
  level: number | null;
  offset: number | null;
}

function checksOf(result: DataReadResult | null | undefined, kind: 'calibration' | 'sic'): Check[] {
  const table = result?.records;
  if (!table) return [];
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  const checks: Check[] = [];
  for (const row of table.rows) {
    const time = row[table.timeKey];
    if (typeof time !== 'number') continue;
    if (kind === 'calibration') {
      checks.push({
        time,
        status: String(row.status ?? ''),
        level: number(row.level),
        offset: number(row.offset),
      });
    } else {
      // The SIC's 1 kHz response is the level its drift is followed on; the widest band deviation
      // from it says how flat the microphone still is.
      const bands = [number(row._500Hz), number(row._1KHz), number(row._8KHz)];
      const level = bands[1] ?? null;
      checks.push({ time, status: String(row.status ?? ''), level, offset: null });
    }
  }
  return checks.sort((a, b) => a.time - b.time);
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
      const status = check.status.toLowerCase();
      return {
        serial,
        kind,
        time: check.time,
        status: check.status,
        passed: status === 'success' ? true : status === 'failed' || status === 'error' ? false : null,
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
    ...evidenceOf(
      serial,
      'calibration',
      checksOf(inputs.reads.calibrations, 'calibration'),
      range,
      toleranceDb,
    ),
    ...evidenceOf(serial, 'sic', checksOf(inputs.reads.sic, 'sic'), range, toleranceDb),
  ];
}
