/**
 * The report's tables of evidence, the part a reviewer checks before trusting any figure: the
 * summary, the instruments' calibrations and SICs with a verdict per instrument, the excluded
 * periods with their reasons and the excluded time per instrument.
 */
import type {
  AssessmentResult,
  CheckEvidence,
  ExcludedPeriod,
  ExclusionRuleId,
} from '../../../../shared/assessment';
import { calibratorName, CALIBRATOR_CLASS_LABELS } from '../../../../shared/calibrators';
import { checkDbCell, checkDbText } from '../../../../shared/check-record';
import { checkVerdictText } from '../../../../shared/check-verdicts';
import {
  type Column,
  countColumn,
  periodColumns,
  tableView,
  type ReportCell,
  type ReportTableView,
} from './report-columns';
import { DAY, durationText, HOUR, isoUtc, MINUTE, rounded, type SiteClock } from './report-format';
import {
  calibrationVerdict,
  dataSourceText,
  driftVerdict,
  excludedTime,
  percentOfPeriod,
  settingsText,
} from './report-verdicts';

const CAUSE_LABELS: Readonly<Record<ExclusionRuleId | 'manual', string>> = {
  wind: 'Wind',
  precipitation: 'Precipitation',
  failedCheck: 'Failed check',
  offline: 'Offline',
  overload: 'Overload',
  manual: 'Manual',
};

/** The order causes are listed in: the periods excluded by hand first, then by rule. */
const CAUSE_ORDER: ReadonlyArray<ExclusionRuleId | 'manual'> = [
  'manual',
  'failedCheck',
  'wind',
  'precipitation',
  'overload',
  'offline',
];

/** An excluded period as the appendix lists it: once, with every instrument it applies to. */
export interface ExclusionRow {
  start: number;
  end: number;
  cause: ExcludedPeriod['cause'];
  reason: string;
  /** "all", or the serials it applies to ("NM-1043, NM-1057"). */
  instruments: string;
}

/**
 * The excluded periods grouped as a reviewer reads them: a period the same rule excluded for
 * several instruments (the site's wind) is one row naming them all, the periods excluded by hand
 * come first, then each rule's, each in time order.
 */
export function groupedExclusions(exclusions: readonly ExcludedPeriod[]): ExclusionRow[] {
  const groups = new Map<string, ExclusionRow & { serials: Set<string> | null }>();
  for (const e of exclusions) {
    const key = `${e.cause}|${e.start}|${e.end}|${e.reason}`;
    const group = groups.get(key) ?? { ...e, instruments: '', serials: new Set<string>() };
    if (e.serial === null) group.serials = null;
    else group.serials?.add(e.serial);
    groups.set(key, group);
  }
  return [...groups.values()]
    .map(({ start, end, cause, reason, serials }) => ({
      start,
      end,
      cause,
      reason,
      instruments: serials === null ? 'all' : [...serials].join(', '),
    }))
    .sort((a, b) => CAUSE_ORDER.indexOf(a.cause) - CAUSE_ORDER.indexOf(b.cause) || a.start - b.start);
}

/**
 * The causes a long report counts per month rather than lists: the weather's and the instruments'
 * own, which a year holds thousands of. The periods excluded by hand and for a failed check are
 * always listed in full — each is a decision a reviewer reads.
 */
const COUNTED_CAUSES: ReadonlySet<ExcludedPeriod['cause']> = new Set([
  'wind',
  'precipitation',
  'offline',
  'overload',
]);

/** The periods of one cause excluded for the same instruments, starting in one month of the site's calendar. */
interface ExclusionMonth {
  monthStart: number;
  cause: ExcludedPeriod['cause'];
  instruments: string;
  periods: number;
  totalMs: number;
  longestMs: number;
}

/** Counted periods grouped per month they start in (site time), cause and instruments, in that order. */
export function exclusionMonths(rows: readonly ExclusionRow[], clock: SiteClock): ExclusionMonth[] {
  const months = new Map<string, ExclusionMonth>();
  for (const row of rows) {
    if (!COUNTED_CAUSES.has(row.cause)) continue;
    const key = `${clock.monthIso(row.start)}|${row.cause}|${row.instruments}`;
    const month = months.get(key) ?? {
      monthStart: clock.monthStart(row.start),
      cause: row.cause,
      instruments: row.instruments,
      periods: 0,
      totalMs: 0,
      longestMs: 0,
    };
    month.periods += 1;
    month.totalMs += row.end - row.start;
    month.longestMs = Math.max(month.longestMs, row.end - row.start);
    months.set(key, month);
  }
  return [...months.values()].sort(
    (a, b) =>
      a.monthStart - b.monthStart ||
      CAUSE_ORDER.indexOf(a.cause) - CAUSE_ORDER.indexOf(b.cause) ||
      a.instruments.localeCompare(b.instruments),
  );
}

/**
 * The excluded periods. A period up to a month lists every one. A longer one lists in full those
 * excluded by hand or for a failed check, and counts the rest (wind, rain, the instruments' own
 * flags) per month, cause and instruments — a year's wind alone would fill hundreds of pages.
 */
export function exclusionTables(result: AssessmentResult, clock: SiteClock): ReportTableView[] {
  const rows = groupedExclusions(result.exclusions);
  const condensed = condensesChecks(result);
  const listed = condensed ? rows.filter((row) => !COUNTED_CAUSES.has(row.cause)) : rows;
  const periods = tableView(
    'exclusions',
    'Excluded periods',
    listed,
    [
      ...periodColumns(clock),
      countColumn('Duration (min)', (e) => Math.round((e.end - e.start) / MINUTE)),
      { header: 'Instruments', value: (e) => e.instruments },
      { header: 'Cause', value: (e) => CAUSE_LABELS[e.cause] },
      { header: 'Reason', value: (e) => e.reason },
    ],
    [
      { header: 'Cause', text: (e) => CAUSE_LABELS[e.cause], weight: 10 },
      { header: 'From', text: (e) => clock.long(e.start), weight: 20 },
      { header: 'To', text: (e) => clock.long(e.end), weight: 20 },
      { header: 'Duration', text: (e) => durationText(e.end - e.start), weight: 9, align: 'right' },
      { header: 'Instruments', text: (e) => e.instruments, weight: 13 },
      { header: 'Reason', text: (e) => e.reason, weight: 28 },
    ],
  );
  if (!condensed) return [periods];
  return [
    periods,
    tableView(
      'exclusion-months',
      'Excluded by month',
      exclusionMonths(rows, clock),
      [
        { header: `Month (${clock.zone})`, value: (m) => clock.monthIso(m.monthStart) },
        { header: 'Cause', value: (m) => CAUSE_LABELS[m.cause] },
        { header: 'Instruments', value: (m) => m.instruments },
        countColumn('Periods', (m) => m.periods),
        countColumn('Excluded (min)', (m) => Math.round(m.totalMs / MINUTE)),
        countColumn('Longest (min)', (m) => Math.round(m.longestMs / MINUTE)),
      ],
      [
        { header: 'Month', text: (m) => clock.monthName(m.monthStart), weight: 10 },
        { header: 'Cause', text: (m) => CAUSE_LABELS[m.cause], weight: 12 },
        { header: 'Instruments', text: (m) => m.instruments, weight: 26 },
        { header: 'Periods', text: (m) => String(m.periods), weight: 8, align: 'right' },
        { header: 'Excluded', text: (m) => durationText(m.totalMs), weight: 12, align: 'right' },
        { header: 'Longest', text: (m) => durationText(m.longestMs), weight: 12, align: 'right' },
      ],
    ),
  ];
}

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
function calibrationTables(result: AssessmentResult, clock: SiteClock): ReportTableView[] {
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

/**
 * Summary, calibration, calibration verdicts, excluded periods and excluded time (the instruments
 * table, with the site's measurement positions, is `instrumentsTable`).
 */
export function evidenceTables(result: AssessmentResult, clock: SiteClock): ReportTableView[] {
  const site = clock.zone;
  const summaryRows: Array<[string, ReportCell]> = [
    ['Site', result.siteName],
    ['Time zone', result.timeZone],
    ['Period start (UTC)', isoUtc(result.start)],
    ['Period end (UTC)', isoUtc(result.end)],
    [`Period start (${site})`, clock.iso(result.start)],
    [`Period end (${site})`, clock.iso(result.end)],
    ['Assessment computed (UTC)', isoUtc(result.computedAt)],
    ['Data', dataSourceText(result, clock)],
    ['Data fetched (UTC)', result.dataFetchedAt === null ? null : isoUtc(result.dataFetchedAt)],
    ['Settings', settingsText(result)],
    ['Figures', result.figures.length],
    ['Exceedances', result.exceedances.length],
    ...result.notes.map((note, i): [string, ReportCell] => [`Note ${i + 1}`, note]),
  ];
  const verdicts = result.instruments.map((i) => ({
    instrument: i,
    verdict: calibrationVerdict(result, i.serial, clock),
  }));
  const totals = result.instruments.map((i) => ({ instrument: i, excluded: excludedTime(result, i.serial) }));

  return [
    tableView(
      'summary',
      'Summary',
      summaryRows,
      [
        { header: 'Item', value: (r) => r[0] },
        { header: 'Value', value: (r) => r[1] },
      ],
      null,
    ),

    ...calibrationTables(result, clock),

    tableView(
      'calibration-verdicts',
      'Calibration verdicts',
      verdicts,
      [
        { header: 'Serial', value: (v) => v.instrument.serial },
        { header: 'Instrument', value: (v) => v.instrument.name },
        { header: 'Verdict', value: (v) => v.verdict },
      ],
      null,
    ),

    ...exclusionTables(result, clock),

    tableView(
      'excluded-time',
      'Excluded time',
      totals,
      [
        { header: 'Serial', value: (t) => t.instrument.serial },
        { header: 'Instrument', value: (t) => t.instrument.name },
        countColumn('Excluded (min)', (t) => Math.round(t.excluded / MINUTE)),
        {
          header: 'Excluded (% of period)',
          value: (t) => rounded(percentOfPeriod(result, t.excluded), 1),
          decimals: () => 1,
        },
      ],
      null,
    ),
  ];
}
