/**
 * A report table defined once for every format. Each column says what its cell holds in the
 * spreadsheets (numbers as numbers, rounded and with the decimals they are stated to; times as ISO
 * 8601 in UTC and in site time) and, beside it, how the PDF prints the table (fewer columns, site
 * time only, every cell as text), so the PDF and the spreadsheets never disagree on a figure. The
 * table modules build their tables from these pieces.
 */
import type { DisplayTable } from '../../pdf/pdf-layout';
import { unitDecimals } from '../../../../shared/assessment-units';
import { isoUtc, rounded, type SiteClock } from './report-format';

export type ReportCell = string | number | null;

/** One table of the report as plain rows: what the CSV files and the Excel sheets hold. */
export interface ReportTable {
  /** Short, file-name safe: the CSV file's suffix ("figures"). */
  name: string;
  /** In words, at most 31 characters: the Excel sheet's name and the PDF's heading. */
  title: string;
  columns: string[];
  rows: ReportCell[][];
}

/** A table as the PDF prints it: fewer columns, every cell as text. */
/** A table with what the writers need beyond its plain rows. */
export interface ReportTableView extends ReportTable {
  /** Per cell, the decimals a number is stated to (Excel's number format); null for text. */
  decimals: Array<Array<number | null>>;
  /** How the PDF prints it; null for a table only the spreadsheets carry. */
  display: DisplayTable | null;
}

/** A column of the spreadsheets' form. */
export interface Column<R> {
  header: string;
  value: (row: R) => ReportCell;
  /** The decimals a numeric value is stated to. */
  decimals?: (row: R) => number;
}

/** A column of the PDF's form; `weight` is its share of the page's width. */
export interface PrintedColumn<R> {
  header: string;
  text: (row: R) => string;
  weight: number;
  align?: 'left' | 'right';
}

/** A table of `items` in both forms; `printed` null for a table the PDF leaves out. */
export function tableView<R>(
  name: string,
  title: string,
  items: readonly R[],
  columns: Array<Column<R>>,
  printed: Array<PrintedColumn<R>> | null,
): ReportTableView {
  return {
    name,
    title,
    columns: columns.map((c) => c.header),
    rows: items.map((item) => columns.map((c) => c.value(item))),
    decimals: items.map((item) =>
      columns.map((c) => (c.decimals && typeof c.value(item) === 'number' ? c.decimals(item) : null)),
    ),
    display: printed && {
      columns: printed.map((c) => ({ header: c.header, weight: c.weight, align: c.align ?? 'left' })),
      rows: items.map((item) => printed.map((c) => c.text(item))),
    },
  };
}

/** A number column of a unit (the row's own, or a fixed one). */
function numberColumn<R>(
  header: string,
  get: (row: R) => number | null,
  unit: (row: R) => string,
): Column<R> {
  return {
    header,
    value: (row) => {
      const v = get(row);
      return v === null ? null : rounded(v, unitDecimals(unit(row), v));
    },
    decimals: (row) => unitDecimals(unit(row), get(row) ?? 0),
  };
}

export const dbColumn = <R>(header: string, get: (row: R) => number | null): Column<R> =>
  numberColumn(header, get, () => 'dB');

/** A whole number column (minutes, seconds). */
export const countColumn = <R>(header: string, get: (row: R) => number | null): Column<R> => ({
  header,
  value: get,
  decimals: () => 0,
});

/** Start and end of a row's period, in UTC and then in site time. */
export const periodColumns = <R extends { start: number; end: number }>(
  clock: SiteClock,
): Array<Column<R>> => [
  { header: 'Start (UTC)', value: (r) => isoUtc(r.start) },
  { header: 'End (UTC)', value: (r) => isoUtc(r.end) },
  { header: `Start (${clock.zone})`, value: (r) => clock.iso(r.start) },
  { header: `End (${clock.zone})`, value: (r) => clock.iso(r.end) },
];
