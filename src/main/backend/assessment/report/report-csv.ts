/**
 * The report's tables as CSV, one file per table in a folder named as chosen: "Site A 2026-11-23.csv"
 * gives the folder "Site A 2026-11-23" holding "Site A 2026-11-23 – figures.csv", "… – hourly.csv"
 * and so on. RFC 4180 fields, CRLF line ends, UTF-8 with a byte order mark so Excel reads µ, ³ and
 * ¹·⁷⁵ right; times as ISO 8601 in UTC with a site-time column beside them.
 *
 * The set is whole or absent: the tables are written into a temporary folder that is renamed into
 * place in one step (core/unfinished-files.ts), so a failure, or FieldDesk stopped part-way, never
 * leaves some of the tables looking like a finished report; a temporary folder left by a crash is
 * removed at the next start.
 *
 * Text typed by people (exclusion reasons, site names, event triggers) that starts like a formula is
 * written with a leading `'`, so a spreadsheet opening the file shows it rather than running it
 * (CSV injection). Numbers, negative ones too, are written as numbers.
 */
import { basename, join } from 'node:path';
import { writeFolderWhole, writeSyncedFile, type SaveTarget } from '../../core/unfinished-files';
import { csvField } from '../../data/csv-export';
import type { ReportCell, ReportTable, ReportTableView } from './report-columns';
import { throwIfCancelled, type ReportDocument } from './report-document';
import { reportTableViews, type ReportProgressSink } from './report-tables';

const BOM = '\uFEFF';

/** How a cell Excel, LibreOffice or Google Sheets would read as a formula starts. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell as a CSV field; text that would run as a formula is kept text with a leading `'`. A number
 * is written to the decimals it is stated to (trailing zeros kept: 66.0, as the PDF and Excel show it).
 */
function cellText(cell: ReportCell, decimals: number | null | undefined): string {
  if (cell === null) return '';
  if (typeof cell === 'number')
    return decimals === null || decimals === undefined ? String(cell) : cell.toFixed(decimals);
  return csvField(FORMULA_START.test(cell) ? `'${cell}` : cell);
}

/** A table as CSV text, BOM first; `decimals` (per cell, as Excel's number formats) when known. */
export function reportCsvText(table: ReportTable & Partial<Pick<ReportTableView, 'decimals'>>): string {
  const header = table.columns.map((column) => cellText(column, null)).join(',');
  const rows = table.rows.map((row, r) =>
    row.map((cell, c) => cellText(cell, table.decimals?.[r]?.[c])).join(','),
  );
  return `${BOM}${[header, ...rows].join('\r\n')}\r\n`;
}

/** The folder a CSV report chosen as `path` is saved as: the name without `.csv`. */
export function reportCsvFolder(path: string): string {
  return path.replace(/\.csv$/i, '');
}

/**
 * A table's file name inside the report's folder, numbered in the report's order so the files list
 * as the report reads: "<folder name> – 02 summary.csv".
 */
export function reportCsvName(folder: string, table: Pick<ReportTable, 'name'>, index: number): string {
  return `${basename(folder)} – ${String(index + 1).padStart(2, '0')} ${table.name}.csv`;
}

/**
 * Writes one CSV per table, as one folder (see the top of this file); the folder (the chosen name,
 * or "… (2)" when taken), every file's path in it and their total size.
 */
export async function writeReportCsv(
  target: SaveTarget,
  report: ReportDocument,
  onProgress: ReportProgressSink = () => {},
): Promise<{ folder: string; paths: string[]; bytes: number }> {
  const tables = reportTableViews(report);
  const folder = reportCsvFolder(target.path);
  const { folder: saved, written } = await writeFolderWhole(
    { ...target, path: folder },
    async (temporary) => {
      const names: string[] = [];
      let bytes = 0;
      for (const [i, table] of tables.entries()) {
        throwIfCancelled(report);
        onProgress(`Writing ${table.title.toLowerCase()}`, i / tables.length);
        const name = reportCsvName(folder, table, i);
        const data = Buffer.from(reportCsvText(table), 'utf8');
        await writeSyncedFile(join(temporary, name), data);
        names.push(name);
        bytes += data.byteLength;
      }
      return { names, bytes };
    },
  );
  onProgress('Done', 1);
  return { folder: saved, paths: written.names.map((name) => join(saved, name)), bytes: written.bytes };
}
