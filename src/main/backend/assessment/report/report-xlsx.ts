/**
 * The report's tables as an Excel workbook: one sheet per table, named for its section (Cover,
 * Summary, Method, Instruments, …, Results, Exceedances, then the appendices ticked), a bold header row frozen above the
 * data with a filter on it, column widths from the content, numbers as numbers in the decimals the
 * report states them to.
 *
 * Times are text, ISO 8601 in UTC and in site time with its offset ("2026-11-24T07:00:00+00:00"),
 * not Excel dates: an Excel date has no time zone, so a site-time date would read as another time
 * to anyone who forgets which zone it was written in, and one in UTC would show clock times nobody
 * on site recognises. ISO text sorts in time order and says what it is.
 *
 * Text needs no guard against formula injection here, unlike in the CSV files: exceljs writes a
 * string cell as a shared string (`t="s"`), which Excel shows as it is, even "=HYPERLINK(…)"; only
 * a cell given as `{ formula }` gets an `<f>` element, and the report's cells are never one. The
 * workbook's dates are the time the assessment was computed, so the same assessment gives the
 * same workbook.
 */
import ExcelJS from 'exceljs';
import { writeThroughPart, type SaveTarget } from '../../core/unfinished-files';
import type { ReportTableView } from './report-columns';
import { reportTitle, throwIfCancelled, type ReportDocument } from './report-document';
import { reportTableViews, type ReportProgressSink } from './report-tables';

const MIN_WIDTH = 8;
const MAX_WIDTH = 60;

const numberFormat = (decimals: number) => (decimals > 0 ? `0.${'0'.repeat(decimals)}` : '0');

function addSheet(workbook: ExcelJS.Workbook, table: ReportTableView): void {
  const sheet = workbook.addWorksheet(table.title, {
    views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }],
  });
  sheet.columns = table.columns.map((header, i) => {
    const longest = Math.max(
      header.length,
      ...table.rows.map((row) => (row[i] === null || row[i] === undefined ? 0 : String(row[i]).length)),
    );
    return { header, key: `c${i}`, width: Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, longest + 2)) };
  });
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.alignment = { vertical: 'bottom', wrapText: true };
  header.eachCell((cell) => {
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE9EEF3' } };
    cell.border = { bottom: { style: 'thin', color: { argb: 'FF2B2B2B' } } };
  });
  table.rows.forEach((row, r) => {
    const added = sheet.addRow(row.map((cell) => cell ?? null));
    row.forEach((cell, c) => {
      const decimals = table.decimals[r]?.[c];
      if (typeof cell === 'number' && decimals !== null && decimals !== undefined) {
        added.getCell(c + 1).numFmt = numberFormat(decimals);
      } else if (typeof cell === 'string' && cell.length > MAX_WIDTH) {
        added.getCell(c + 1).alignment = { wrapText: true, vertical: 'top' };
      }
    });
  });
  if (table.rows.length > 0) {
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: table.columns.length } };
  }
}

/** The workbook in memory. */
export async function renderReportXlsx(
  report: ReportDocument,
  onProgress: ReportProgressSink = () => {},
): Promise<Buffer> {
  const { result } = report;
  const workbook = new ExcelJS.Workbook();
  workbook.creator = report.cover.author || 'FieldDesk';
  workbook.title = reportTitle(result);
  workbook.created = new Date(result.computedAt);
  workbook.modified = workbook.created;
  const tables = reportTableViews(report);
  tables.forEach((table, i) => {
    throwIfCancelled(report);
    onProgress(`Writing ${table.title.toLowerCase()}`, (i / tables.length) * 0.8);
    addSheet(workbook, table);
  });
  onProgress('Packing the workbook', 0.85);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * Writes the report's tables as an Excel workbook to the target's path (through a temporary file,
 * made only once the workbook is); its size.
 */
export async function writeReportXlsx(
  target: SaveTarget,
  report: ReportDocument,
  onProgress: ReportProgressSink = () => {},
): Promise<{ bytes: number }> {
  const data = await renderReportXlsx(report, onProgress);
  throwIfCancelled(report);
  onProgress('Saving the workbook', 0.95);
  await writeThroughPart(target, (handle) => handle.writeFile(data));
  onProgress('Done', 1);
  return { bytes: data.byteLength };
}
