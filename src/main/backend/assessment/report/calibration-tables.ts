/**
 * The report's calibration and SIC evidence: every check in full for a period up to a month; for a
 * longer one the checks counted per instrument, month and kind, then in full every check a reviewer
 * must not miss. Each row names both verdicts (FieldDesk's and the instrument's), the calibrator
 * fitted and the engineer of the visit.
 */
import type { AssessmentResult, CheckEvidence } from '../../../../shared/assessment';
import { calibratorName, CALIBRATOR_CLASS_LABELS } from '../../../../shared/calibrators';
import { checkDbCell, checkDbText } from '../../../../shared/check-record';
import { checkVerdictText } from '../../../../shared/check-verdicts';
import { type Column, countColumn, tableView, type ReportTableView } from './report-columns';
import { DAY, HOUR, isoUtc, type SiteClock } from './report-format';
import { driftVerdict } from './report-verdicts';

const checkKind = (check: CheckEvidence) => (check.kind === 'sic' ? 'SIC' : 'Calibration');

/** What a row that stands for a missing calibration says where a check's time and status would be. */
const NONE_ON_RECORD = 'none on record';

/** FieldDesk's verdict in the one vocabulary ("Pass", "Fail"), or that FieldDesk did not run the check. */
const fieldDeskText = (check: CheckEvidence): string | null =>
  check.missing
    ? null
    : check.fieldDesk
      ? check.fieldDesk.passed
        ? 'Pass'
        : 'Fail'
      : 'not run from FieldDesk';

/**
 * The PDF's result cell, both verdicts named: "Fail (FieldDesk); instrument “Success”", or for a
 * check FieldDesk did not run, what is known: "instrument “Success”".
 */
function resultText(check: CheckEvidence): string {
  if (check.missing) return NONE_ON_RECORD;
  const instrument = check.status ? `instrument “${check.status}”` : 'no instrument status';
  if (!check.fieldDesk) return instrument.charAt(0).toUpperCase() + instrument.slice(1);
  return `${check.fieldDesk.passed ? 'Pass' : 'Fail'} (FieldDesk); ${instrument}`;
}

/** A check's dB figure as the PDF prints it: the app's own text without the unit (said in the header). */
const printedDb = (value: number | null | undefined, signed = false): string =>
  checkDbText(value, { unit: false, signed });

/** A check's dB figure as a spreadsheet column: the number to the same decimals as the PDF and the app. */
const checkDbColumn = (
  header: string,
  get: (check: CheckEvidence) => number | null | undefined,
): Column<CheckEvidence> => ({
  header,
  value: (check) => checkDbCell(get(check)).value,
  decimals: (check) => checkDbCell(get(check)).decimals,
});

/** What a calibration row says when FieldDesk has no record of the calibrator fitted. */
export const CALIBRATOR_NOT_RECORDED = 'not recorded';

/**
 * "CR:515 #054433, IEC 60942 class 1, certificate due 2027-03-01" for a calibration FieldDesk ran
 * with a calibrator named; "not recorded" for another calibration; null for a SIC or a missing row.
 */
function calibratorText(check: CheckEvidence, form: 'long' | 'short'): string | null {
  if (check.kind !== 'calibration' || check.missing) return null;
  const calibrator = check.calibrator ?? null;
  if (calibrator === null) return CALIBRATOR_NOT_RECORDED;
  return form === 'long'
    ? `${calibratorName(calibrator)}, ${CALIBRATOR_CLASS_LABELS[calibrator.class]}, certificate due ${calibrator.dueDate}`
    : `${calibratorName(calibrator)}, due ${calibrator.dueDate}`;
}

/** The engineer of the site visit a calibration was made during; "not recorded" without one; null for a SIC. */
function engineerText(check: CheckEvidence): string | null {
  if (check.kind !== 'calibration' || check.missing) return null;
  return check.engineer ?? CALIBRATOR_NOT_RECORDED;
}

/** The PDF's cell: "CR:515 #054433, due 2027-03-01; A. Patel", each part said when not recorded. */
function calibratorAndEngineer(check: CheckEvidence): string {
  const calibrator = calibratorText(check, 'short');
  if (calibrator === null) return '—';
  const engineer = check.engineer ?? null;
  if (calibrator === CALIBRATOR_NOT_RECORDED && engineer === null) return CALIBRATOR_NOT_RECORDED;
  return `${calibrator}; ${engineer ?? 'engineer not recorded'}`;
}

/** A period longer than this (a month of 31 days, a clock change's hour allowed) has its checks condensed. */
const CONDENSE_CHECKS_AFTER_MS = 31 * DAY + HOUR;

/** Whether the report condenses its checks per instrument and month (see `calibrationTables`). */
export const condensesChecks = (result: Pick<AssessmentResult, 'start' | 'end'>): boolean =>
  result.end - result.start > CONDENSE_CHECKS_AFTER_MS;

/** The checks as a table, a check a row in full. */
function checksTable(
  name: string,
  title: string,
  checks: readonly CheckEvidence[],
  clock: SiteClock,
): ReportTableView {
  return tableView(
    name,
    title,
    checks,
    [
      { header: 'Serial', value: (c) => c.serial },
      { header: 'Check', value: checkKind },
      { header: 'When', value: (c) => `${c.when} the period` },
      { header: 'Time (UTC)', value: (c) => (c.missing ? null : isoUtc(c.time)) },
      { header: `Time (${clock.zone})`, value: (c) => (c.missing ? null : clock.iso(c.time)) },
      { header: 'FieldDesk verdict', value: fieldDeskText },
      { header: 'Instrument status', value: (c) => (c.missing ? NONE_ON_RECORD : c.status || null) },
      checkDbColumn('Level (dB)', (c) => c.level),
      checkDbColumn('Offset (dB)', (c) => c.offset),
      checkDbColumn('Reference (dB)', (c) => c.referenceDb),
      checkDbColumn('Deviation (dB)', (c) => c.deviation),
      checkDbColumn('Drift (dB)', (c) => c.drift),
      { header: 'Tolerance (± dB)', value: (c) => c.tolerance },
      { header: 'Drift vs tolerance', value: (c) => driftVerdict(c) || null },
      { header: 'Verdict', value: (c) => checkVerdictText(c) || null },
      { header: 'Calibrator', value: (c) => calibratorText(c, 'long') },
      { header: 'Engineer', value: (c) => engineerText(c) },
      { header: 'Flag', value: (c) => c.flag ?? null },
    ],
    [
      { header: 'Instrument', text: (c) => c.serial, weight: 9 },
      { header: 'Check', text: checkKind, weight: 8.5 },
      { header: 'When', text: (c) => c.when, weight: 6 },
      { header: 'Time', text: (c) => (c.missing ? '—' : clock.long(c.time)), weight: 15.5 },
      { header: 'Result', text: resultText, weight: 12 },
      { header: 'Level (dB)', text: (c) => printedDb(c.level), weight: 7, align: 'right' },
      { header: 'Offset (dB)', text: (c) => printedDb(c.offset, true), weight: 6.5, align: 'right' },
      { header: 'Deviation (dB)', text: (c) => printedDb(c.deviation, true), weight: 7, align: 'right' },
      { header: 'Drift (dB)', text: (c) => printedDb(c.drift, true), weight: 6, align: 'right' },
      { header: 'Verdict', text: (c) => checkVerdictText(c) || '—', weight: 13 },
      { header: 'Calibrator, engineer', text: calibratorAndEngineer, weight: 9.5 },
    ],
  );
}

/** One instrument's checks of one kind in one month of the site's calendar. */
interface CheckMonth {
  serial: string;
  kind: CheckEvidence['kind'];
  /** The month's first instant in site time, for its name. */
  monthStart: number;
  checks: CheckEvidence[];
}

/** The checks grouped per instrument, month (site time) and kind; a missing calibration is no check. */
function checkMonths(checks: readonly CheckEvidence[], clock: SiteClock): CheckMonth[] {
  const months = new Map<string, CheckMonth>();
  for (const check of checks) {
    if (check.missing === true) continue;
    const key = `${check.serial}|${clock.monthIso(check.time)}|${check.kind}`;
    const month = months.get(key) ?? {
      serial: check.serial,
      kind: check.kind,
      monthStart: clock.monthStart(check.time),
      checks: [],
    };
    month.checks.push(check);
    months.set(key, month);
  }
  const kindOrder = (kind: CheckEvidence['kind']) => (kind === 'calibration' ? 0 : 1);
  return [...months.values()].sort(
    (a, b) =>
      a.serial.localeCompare(b.serial) ||
      a.monthStart - b.monthStart ||
      kindOrder(a.kind) - kindOrder(b.kind),
  );
}

/** The value of largest size among the checks' (signed, as the check records it); null when none has one. */
function largestOf(
  checks: readonly CheckEvidence[],
  get: (check: CheckEvidence) => number | null | undefined,
): number | null {
  let largest: number | null = null;
  for (const check of checks) {
    const value = get(check);
    if (value === null || value === undefined || !Number.isFinite(value)) continue;
    if (largest === null || Math.abs(value) > Math.abs(largest)) largest = value;
  }
  return largest;
}

/** The calibrators of a month's calibrations, each once ("not recorded" for those without one); null for SICs. */
function calibratorsText(month: CheckMonth): string | null {
  if (month.kind !== 'calibration') return null;
  const names = month.checks.map((c) =>
    c.calibrator ? calibratorName(c.calibrator) : CALIBRATOR_NOT_RECORDED,
  );
  return [...new Set(names)].join('; ');
}

const countOf = (month: CheckMonth, passed: boolean | null) =>
  month.checks.filter((c) => c.passed === passed).length;

/** A month's largest figure as a spreadsheet column (see `checkDbColumn`). */
const monthDbColumn = (
  header: string,
  get: (check: CheckEvidence) => number | null | undefined,
): Column<CheckMonth> => ({
  header,
  value: (m) => checkDbCell(largestOf(m.checks, get)).value,
  decimals: (m) => checkDbCell(largestOf(m.checks, get)).decimals,
});

/**
 * The calibration and SIC evidence. A period up to a month lists every check in full. A longer one
 * (a year holds hundreds of SICs) counts them per instrument, month and kind, with the largest drift
 * and deviation and the calibrators used, then lists in full every check a reviewer must not miss:
 * each failed one, each with a flag (drift or a tone outside tolerance) and each missing calibration.
 * Verdicts, drift and deviation are the check records' own, never judged again here.
 */
export function calibrationTables(result: AssessmentResult, clock: SiteClock): ReportTableView[] {
  const checks = [...result.checks].sort((a, b) => a.serial.localeCompare(b.serial) || a.time - b.time);
  if (!condensesChecks(result)) return [checksTable('calibration', 'Calibration evidence', checks, clock)];
  const noted = checks.filter((c) => c.missing === true || c.passed === false || (c.flag ?? null) !== null);
  return [
    tableView(
      'calibration-months',
      'Calibrations and SICs by month',
      checkMonths(checks, clock),
      [
        { header: 'Serial', value: (m) => m.serial },
        { header: `Month (${clock.zone})`, value: (m) => clock.monthIso(m.monthStart) },
        { header: 'Check', value: (m) => (m.kind === 'sic' ? 'SIC' : 'Calibration') },
        countColumn('Checks', (m) => m.checks.length),
        countColumn('Passed', (m) => countOf(m, true)),
        countColumn('Failed', (m) => countOf(m, false)),
        countColumn('No verdict', (m) => countOf(m, null)),
        monthDbColumn('Largest drift (dB)', (c) => c.drift),
        monthDbColumn('Largest deviation (dB)', (c) => c.deviation),
        { header: 'Calibrators', value: calibratorsText },
      ],
      [
        { header: 'Instrument', text: (m) => m.serial, weight: 10 },
        { header: 'Month', text: (m) => clock.monthName(m.monthStart), weight: 9 },
        { header: 'Check', text: (m) => (m.kind === 'sic' ? 'SIC' : 'Calibration'), weight: 9 },
        { header: 'Checks', text: (m) => String(m.checks.length), weight: 6, align: 'right' },
        { header: 'Passed', text: (m) => String(countOf(m, true)), weight: 6, align: 'right' },
        { header: 'Failed', text: (m) => String(countOf(m, false)), weight: 6, align: 'right' },
        { header: 'No verdict', text: (m) => String(countOf(m, null)), weight: 7, align: 'right' },
        {
          header: 'Largest drift (dB)',
          text: (m) =>
            printedDb(
              largestOf(m.checks, (c) => c.drift),
              true,
            ),
          weight: 9,
          align: 'right',
        },
        {
          header: 'Largest deviation (dB)',
          text: (m) =>
            printedDb(
              largestOf(m.checks, (c) => c.deviation),
              true,
            ),
          weight: 10,
          align: 'right',
        },
        { header: 'Calibrators', text: (m) => calibratorsText(m) ?? '—', weight: 28 },
      ],
    ),
    checksTable('failed-checks', 'Failed and flagged checks', noted, clock),
  ];
}
