/**
 * The report's tables as CSV, one file per table beside the name chosen: "Site A 2026-11-23.csv"
 * gives "Site A 2026-11-23 – figures.csv", "… – hourly.csv" and so on. RFC 4180 fields, CRLF line
 * ends, UTF-8 with a byte order mark so Excel reads µ, ³ and ¹·⁷⁵ right; times as ISO 8601 in UTC
 * with a site-time column beside them. Each file goes through its `.part` name; when one fails, the
 * ones this call already wrote are removed too, so a report is never left half written.
 *
 * Text typed by people (exclusion reasons, site names, event triggers) that starts like a formula is
 * written with a leading `'`, so a spreadsheet opening the file shows it rather than running it
 * (CSV injection). Numbers, negative ones too, are written as numbers.
 */
import { rm } from 'node:fs/promises';
import type { AssessmentResult } from '../../../../shared/assessment';
import { csvField, writeThroughPart } from '../../data/csv-export';
import type { ReportCell, ReportTable } from './report-columns';
import { reportTables, type ReportProgressSink } from './report-tables';

const BOM = '\uFEFF';

/** How a cell Excel, LibreOffice or Google Sheets would read as a formula starts. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell as a CSV field; text that would run as a formula is kept text with a leading `'`. */
function cellText(cell: ReportCell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  return csvField(FORMULA_START.test(cell) ? `'${cell}` : cell);
}

/** A table as CSV text, BOM first. */
export function reportCsvText(table: ReportTable): string {
  const lines = [table.columns, ...table.rows].map((row) => row.map(cellText).join(','));
  return `${BOM}${lines.join('\r\n')}\r\n`;
}

/** "<path without .csv> – <table>.csv" */
export function reportCsvPath(path: string, table: Pick<ReportTable, 'name'>): string {
  return `${path.replace(/\.csv$/i, '')} – ${table.name}.csv`;
}

/** Writes one CSV per table beside `path`; every path written and their total size. */
export async function writeReportCsv(
  path: string,
  result: AssessmentResult,
  onProgress: ReportProgressSink = () => {},
): Promise<{ paths: string[]; bytes: number }> {
  const tables = reportTables(result);
  const paths: string[] = [];
  let bytes = 0;
  try {
    for (const [i, table] of tables.entries()) {
      onProgress(`Writing ${table.title.toLowerCase()}`, i / tables.length);
      const file = reportCsvPath(path, table);
      const data = Buffer.from(reportCsvText(table), 'utf8');
      await writeThroughPart(file, (handle) => handle.writeFile(data));
      paths.push(file);
      bytes += data.byteLength;
    }
  } catch (error) {
    await Promise.all(paths.map((file) => rm(file, { force: true })));
    throw error;
  }
  onProgress('Done', 1);
  return { paths, bytes };
}
