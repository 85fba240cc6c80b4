/**
 * The report's tables of evidence, the part a reviewer checks before trusting any figure: the
 * summary, the instruments, their calibrations and SICs with a verdict per instrument, the excluded
 * periods with their reasons and the excluded time per instrument.
 */
import type {
  AssessedInstrument,
  AssessmentResult,
  CheckEvidence,
  ExclusionRuleId,
} from '../../../../shared/assessment';
import { calibratorName, CALIBRATOR_CLASS_LABELS } from '../../../../shared/calibrators';
import { checkVerdictText } from '../../../../shared/check-verdicts';
import { dbText } from '../../../../shared/format';
import {
  countColumn,
  dbColumn,
  periodColumns,
  tableView,
  type ReportCell,
  type ReportTableView,
} from './report-columns';
import { durationText, isoUtc, MINUTE, rounded, valueText, type SiteClock } from './report-format';
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

const checkKind = (check: CheckEvidence) => (check.kind === 'sic' ? 'SIC' : 'Calibration');

const passedText = (passed: boolean | null) => (passed === null ? '' : passed ? 'passed' : 'failed');

/** What a row that stands for a missing calibration says where a check's time and status would be. */
const NONE_ON_RECORD = 'none on record';

/** "Passed", or the instrument's own word with the verdict when it does not say it: "OK (passed)". */
function statusText(check: CheckEvidence): string {
  if (check.missing) return NONE_ON_RECORD;
  const verdict = passedText(check.passed);
  if (!check.status) return verdict || '—';
  return verdict && !check.status.toLowerCase().includes(verdict)
    ? `${check.status} (${verdict})`
    : check.status;
}

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

/** "51.50735, -0.12776" or "not reported". */
function positionText(instrument: AssessedInstrument): string {
  if (!instrument.position) return 'not reported';
  return `${instrument.position.lat.toFixed(5)}, ${instrument.position.long.toFixed(5)}`;
}

const signedDb = (value: number | null) => dbText(value, { decimals: 1, signed: true, unit: false });

/** Summary, instruments, calibration, calibration verdicts, excluded periods and excluded time. */
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
  const checks = [...result.checks].sort((a, b) => a.serial.localeCompare(b.serial) || a.time - b.time);
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

    tableView(
      'instruments',
      'Instruments',
      result.instruments,
      [
        { header: 'Serial', value: (i) => i.serial },
        { header: 'Name', value: (i) => i.name },
        { header: 'Type', value: (i) => i.type },
        { header: 'Model', value: (i) => i.model },
        { header: 'Latitude', value: (i) => rounded(i.position?.lat ?? null, 5), decimals: () => 5 },
        { header: 'Longitude', value: (i) => rounded(i.position?.long ?? null, 5), decimals: () => 5 },
        { header: 'Time zone', value: () => result.timeZone },
      ],
      [
        { header: 'Serial', text: (i) => i.serial, weight: 12 },
        { header: 'Name', text: (i) => i.name, weight: 22 },
        { header: 'Type / model', text: (i) => [i.type, i.model].filter(Boolean).join(' / '), weight: 24 },
        { header: 'Position (lat, long)', text: positionText, weight: 20 },
        { header: 'Site time zone', text: () => result.timeZone, weight: 16 },
      ],
    ),

    tableView(
      'calibration',
      'Calibration evidence',
      checks,
      [
        { header: 'Serial', value: (c) => c.serial },
        { header: 'Check', value: checkKind },
        { header: 'When', value: (c) => `${c.when} the period` },
        { header: 'Time (UTC)', value: (c) => (c.missing ? null : isoUtc(c.time)) },
        { header: `Time (${site})`, value: (c) => (c.missing ? null : clock.iso(c.time)) },
        { header: 'Status', value: (c) => (c.missing ? NONE_ON_RECORD : c.status) },
        { header: 'Passed', value: (c) => passedText(c.passed) || null },
        dbColumn('Level (dB)', (c) => c.level),
        dbColumn('Offset or deviation (dB)', (c) => c.offset),
        dbColumn('Drift (dB)', (c) => c.drift),
        { header: 'Tolerance (± dB)', value: (c) => c.tolerance },
        { header: 'Drift vs tolerance', value: (c) => driftVerdict(c) || null },
        { header: 'Verdict', value: (c) => checkVerdictText(c) || null },
        { header: 'Calibrator', value: (c) => calibratorText(c, 'long') },
        { header: 'Engineer', value: (c) => engineerText(c) },
        { header: 'Flag', value: (c) => c.flag ?? null },
      ],
      [
        { header: 'Instrument', text: (c) => c.serial, weight: 10 },
        { header: 'Check', text: checkKind, weight: 9.5 },
        { header: 'When', text: (c) => c.when, weight: 6 },
        { header: 'Time', text: (c) => (c.missing ? '—' : clock.long(c.time)), weight: 18 },
        { header: 'Status', text: statusText, weight: 11 },
        { header: 'Level (dB)', text: (c) => valueText(c.level, 'dB'), weight: 7, align: 'right' },
        { header: 'Offset / dev. (dB)', text: (c) => signedDb(c.offset), weight: 8, align: 'right' },
        { header: 'Drift (dB)', text: (c) => signedDb(c.drift), weight: 6, align: 'right' },
        { header: 'Verdict', text: (c) => checkVerdictText(c) || '—', weight: 14 },
        { header: 'Calibrator, engineer', text: calibratorAndEngineer, weight: 10.5 },
      ],
    ),

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

    tableView(
      'exclusions',
      'Excluded periods',
      [...result.exclusions].sort((a, b) => a.start - b.start),
      [
        ...periodColumns(clock),
        countColumn('Duration (min)', (e) => Math.round((e.end - e.start) / MINUTE)),
        { header: 'Instrument', value: (e) => e.serial ?? 'all' },
        { header: 'Cause', value: (e) => CAUSE_LABELS[e.cause] },
        { header: 'Reason', value: (e) => e.reason },
      ],
      [
        { header: 'From', text: (e) => clock.long(e.start), weight: 17 },
        { header: 'To', text: (e) => clock.long(e.end), weight: 17 },
        { header: 'Duration', text: (e) => durationText(e.end - e.start), weight: 10, align: 'right' },
        { header: 'Instrument', text: (e) => e.serial ?? 'all', weight: 10 },
        { header: 'Cause', text: (e) => CAUSE_LABELS[e.cause], weight: 10 },
        { header: 'Reason', text: (e) => e.reason, weight: 30 },
      ],
    ),

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
