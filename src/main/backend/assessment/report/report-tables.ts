/**
 * The tables of an assessment report in the report's order, made once from an `AssessmentResult`
 * and written three ways: as plain rows for the CSV files and the Excel sheets, and as the text the
 * PDF prints. The evidence (instruments, calibration, exclusions) comes first, then the levels
 * (figures, exceedances, hourly levels, events).
 */
import type { AssessmentResult } from '../../../../shared/assessment';
import { evidenceTables } from './evidence-tables';
import { levelTables } from './level-tables';
import type { ReportTable, ReportTableView } from './report-columns';
import { SiteClock } from './report-format';

/** Hears how far a report is written: a stage in words and the fraction done (0…1). */
export interface ReportProgressSink {
  (stage: string, fraction: number): void;
}

/** Every table of the report with its printed form, in the report's order. */
export function reportTableViews(result: AssessmentResult): ReportTableView[] {
  const clock = new SiteClock(result.timeZone, result.start);
  return [...evidenceTables(result, clock), ...levelTables(result, clock)];
}

/** The report's tables as plain rows, for CSV and Excel. */
export function reportTables(result: AssessmentResult): ReportTable[] {
  return reportTableViews(result).map(({ name, title, columns, rows }) => ({ name, title, columns, rows }));
}
