/**
 * One truth in every output: the demo's last week of a three-monitor noise site, a vibration site
 * and an air-quality site, each written as PDF, Excel and CSV through the backend, read back and
 * held against the engine's own summary. Every limit, verdict, count and worst case of the summary
 * is equal at the precision each format shows, the summary counts exactly the exceedances each
 * format lists, and every exceeded verdict is backed by its rows in the exceedances section. Each
 * heading of the PDF has its sheets and CSV tables, and each sheet and CSV table its PDF heading.
 */
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Site, SiteLimits } from '../../../src/shared/assessment';
import { summaryRows, type SummaryRow } from '../../../src/shared/assessment-summary';
import type { BackendHandlers } from '../../../src/shared/ipc/contract';
import { parseCsv } from '../csv-read';
import { startDemoBackend } from './backend-helpers';

const DAY = 86_400_000;
/** The last seven whole UTC days up to yesterday's start: settled data (London is on UTC in winter). */
const END = Math.floor(Date.now() / DAY) * DAY - DAY;
const START = END - 7 * DAY;

const HAS_PDFTOTEXT = spawnSync('pdftotext', ['-v']).error === undefined;
const NEEDS_PDFTOTEXT = HAS_PDFTOTEXT
  ? ''
  : ' [PDF part SKIPPED: pdftotext (Debian poppler-utils) is not installed]';

const SITES: Array<{ name: string; serials: string[]; limits: SiteLimits }> = [
  {
    name: 'Noise of three',
    serials: ['QT930998', 'QT570913', 'QT882792'],
    // 45.45 dB: a limit with two decimals, to be written as entered everywhere.
    limits: { 'LAeq,day': 55, 'LAeq,night': 45.45, Lden: 60, 'LAFMax,night': 75 },
  },
  { name: 'Vibration', serials: ['VB287764'], limits: { PPV: 3, 'VDV,day': 0.2 } },
  { name: 'Air quality', serials: ['AQ132935'], limits: { 'PM10,24h': 20, 'PM2.5,24h': 10 } },
];

/** A table of the report as records by column head. */
type Records = Array<Record<string, string>>;
const recordsOf = ([head, ...rows]: string[][]): Records =>
  rows.map((row) => Object.fromEntries(head!.map((h, i) => [h, row[i] ?? ''])));

async function writeAll(handlers: BackendHandlers, site: Site) {
  const query = { siteId: site.id, start: START, end: END };
  const paths = async (format: 'pdf' | 'xlsx' | 'csv') => {
    const written = await handlers['assessment.report']({ ...query, format });
    if (!written.saved) throw new Error(`the ${format} report was not saved`);
    return written.paths;
  };
  return { pdf: (await paths('pdf'))[0]!, xlsx: (await paths('xlsx'))[0]!, csv: await paths('csv') };
}

async function csvTable(paths: string[], name: string): Promise<Records> {
  const path = paths.find((p) => basename(p).endsWith(` ${name}.csv`));
  if (path === undefined)
    throw new Error(`no ${name} table among ${paths.map((p) => basename(p)).join(', ')}`);
  return recordsOf(parseCsv((await readFile(path, 'utf8')).replace(/^\uFEFF/, '')));
}

async function sheetTable(path: string, title: string): Promise<{ records: Records; formats: Records }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  const sheet = workbook.getWorksheet(title);
  if (sheet === undefined) throw new Error(`no sheet ${title}`);
  const head = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const records: Records = [];
  const formats: Records = [];
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    records.push(Object.fromEntries(head.map((h, i) => [h, String(row.getCell(i + 1).value ?? '')])));
    formats.push(Object.fromEntries(head.map((h, i) => [h, row.getCell(i + 1).numFmt ?? ''])));
  }
  return { records, formats };
}

/** The number as the row's decimals write it: "45.45", "55.0", "0.200". */
const fixed = (value: number, decimals: number) => value.toFixed(decimals);

/** A row's identity in every format: the limit, the instrument and the figure. */
const keyOf = (row: Pick<SummaryRow, 'limitName' | 'serial' | 'figure'>) =>
  `${row.limitName}|${row.serial}|${row.figure}`;

describe(`the demo's week in PDF, Excel and CSV${NEEDS_PDFTOTEXT}`, () => {
  it('says every limit, verdict, count and worst case as the engine does, and lists every exceedance the summary counts', async () => {
    const { handlers } = await startDemoBackend();
    let rowsChecked = 0;
    let exceededChecked = 0;
    for (const spec of SITES) {
      const site = await handlers['assessment.saveSite']({
        name: spec.name,
        timeZone: 'Europe/London',
        serials: spec.serials,
        limits: spec.limits,
      });
      const result = await handlers['assessment.compute']({
        siteId: site.id,
        start: START,
        end: END,
      });
      const engine = summaryRows(result);
      expect(engine.length).toBeGreaterThan(0);
      const files = await writeAll(handlers, site);

      const csv = await csvTable(files.csv, 'summary');
      const sheet = await sheetTable(files.xlsx, 'Summary');
      expect(csv.map((r) => `${r['Limit']}|${r['Serial']}|${r['Figure']}`)).toEqual(engine.map(keyOf));
      expect(sheet.records.map((r) => `${r['Limit']}|${r['Serial']}|${r['Figure']}`)).toEqual(
        engine.map(keyOf),
      );
      for (const [i, row] of engine.entries()) {
        const limit = fixed(row.limit, row.limitDecimals);
        const worst = row.worst === null ? '' : fixed(row.worst.valid!, row.worst.decimals);
        const over = row.stated === 0 ? '' : String(row.over.length);
        // CSV: the numbers written at their decimals.
        expect([csv[i]!['Limit value'], csv[i]!['Result'], csv[i]!['Periods over the limit']]).toEqual([
          limit,
          row.verdict,
          over,
        ]);
        expect([csv[i]!['Periods stated'], csv[i]!['Periods'], csv[i]!['Worst case']]).toEqual([
          String(row.stated),
          String(row.periods),
          worst,
        ]);
        // Excel: numbers as numbers, shown at the same decimals by their format.
        expect(Number(sheet.records[i]!['Limit value'])).toBe(row.limit);
        expect(sheet.formats[i]!['Limit value']).toBe(
          row.limitDecimals === 0 ? '0' : `0.${'0'.repeat(row.limitDecimals)}`,
        );
        expect(sheet.records[i]!['Result']).toBe(row.verdict);
        expect(sheet.records[i]!['Periods over the limit']).toBe(over);
        if (row.worst !== null) expect(Number(sheet.records[i]!['Worst case'])).toBe(row.worst.valid);
        rowsChecked += 1;
      }

      // The exceedances each format lists are the summary's, one for one.
      const listed = engine.flatMap((row) => row.over.map((figure) => ({ row, figure })));
      const csvOver = (await csvTable(files.csv, 'exceedances')).map(
        (r) => `${r['Figure']}|${r['Serial']}|${r['Period']}|${r['Value']}|${r['Limit']}`,
      );
      const sheetOver = (await sheetTable(files.xlsx, 'Exceedances')).records.map(
        (r) => `${r['Figure']}|${r['Serial']}|${r['Period']}|${Number(r['Value'])}|${Number(r['Limit'])}`,
      );
      expect(csvOver.sort()).toEqual(
        listed
          .map(
            ({ row, figure }) =>
              `${figure.label}|${figure.serial}|${figure.period}|${fixed(figure.valid!, figure.decimals)}|${fixed(figure.limit!, row.limitDecimals)}`,
          )
          .sort(),
      );
      expect(sheetOver.sort()).toEqual(
        listed
          .map(
            ({ figure }) =>
              `${figure.label}|${figure.serial}|${figure.period}|${figure.valid}|${figure.limit}`,
          )
          .sort(),
      );
      exceededChecked += engine.filter((r) => r.verdict === 'exceeded').length;
      // An exceeded verdict is backed by its rows; no other verdict has any.
      for (const row of engine) expect(row.over.length > 0).toBe(row.verdict === 'exceeded');

      // Section for section: each heading the PDF's contents lists is a section of the workbook's
      // contents, each sheet is listed there, and the CSV folder has a table per sheet in its order.
      const contents = await sheetTable(files.xlsx, 'Contents');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(files.xlsx);
      expect([...new Set(contents.records.map((r) => r['Sheet']))]).toEqual(
        workbook.worksheets.map((sheet) => sheet.name),
      );
      expect(
        files.csv.map((path) =>
          basename(path)
            .replace(/^.* – \d\d /, '')
            .replace(/\.csv$/, ''),
        ),
      ).toEqual([...new Set(contents.records.map((r) => r['CSV table']))]);
      if (HAS_PDFTOTEXT) {
        const cover = spawnSync('pdftotext', ['-layout', '-l', '1', files.pdf, '-'], {
          encoding: 'utf8',
        }).stdout;
        const headings = cover
          .slice(cover.indexOf('\nContents\n'))
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => /\s\d+$/.test(line) && !/Page \d+ of \d+$/.test(line))
          .map((line) => line.replace(/\s+\d+$/, '').replace(/\s+/g, ' '));
        expect(['Cover', ...headings]).toEqual([
          ...new Set(contents.records.map((r) => r['Section of the PDF'])),
        ]);
      }

      if (HAS_PDFTOTEXT) {
        const text = spawnSync('pdftotext', ['-layout', files.pdf, '-'], { encoding: 'utf8' }).stdout;
        const summaryPage = text.slice(text.indexOf('Summary\nOf '));
        for (const row of engine) {
          // "LAeq,night  QT930998  45.45 dB  exceeded  4 of 4  …": the figure and instrument
          // (the label may wrap in its column), then the limit, the result and the periods over.
          const result =
            row.verdict === 'met in part' ? `met on ${row.stated} of ${row.periods}` : row.verdict;
          const overText = row.stated === 0 ? '—' : `${row.over.length} of ${row.stated}`;
          // The unit may wrap beneath its number in the narrow column: not matched here.
          const limit = fixed(row.limit, row.limitDecimals).replace('.', '\\.');
          expect(summaryPage).toMatch(
            new RegExp(`${row.serial}\\s+${limit}\\b[^\\n]*\\s${result}\\s+${overText}`),
          );
        }
        const periodsOver = listed.length;
        // The sentence as read, its line breaks aside.
        expect(summaryPage.replace(/\s+/g, ' ')).toContain(
          periodsOver === 0
            ? 'No figure exceeds its limit.'
            : `${periodsOver} ${periodsOver === 1 ? 'period' : 'periods'} over a limit ${periodsOver === 1 ? 'is' : 'are'} listed in the exceedances section.`,
        );
      }
    }
    // The week has verdicts of every kind worth checking: rows in each site, exceedances among them.
    expect(rowsChecked).toBeGreaterThanOrEqual(15);
    expect(exceededChecked).toBeGreaterThan(0);
  }, 240_000);
});
