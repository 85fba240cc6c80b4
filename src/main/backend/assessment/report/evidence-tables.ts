/**
 * The report's tables of evidence, the part a reviewer checks before trusting any figure: the
 * summary, the instruments' calibrations and SICs with a verdict per instrument
 * (calibration-tables.ts), the excluded periods with their reasons (exclusion-tables.ts) and the
 * excluded time per instrument.
 */
import type { AssessmentResult } from '../../../../shared/assessment';
import { countColumn, tableView, type ReportCell, type ReportTableView } from './report-columns';
import { calibrationTables } from './calibration-tables';
import { exclusionTables } from './exclusion-tables';
import { isoUtc, MINUTE, rounded, type SiteClock } from './report-format';
import {
  calibrationVerdict,
  dataSourceText,
  excludedTime,
  percentOfPeriod,
  settingsText,
} from './report-verdicts';

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
