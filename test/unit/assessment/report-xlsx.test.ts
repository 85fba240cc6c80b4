/**
 * The report's tables as an Excel workbook, read back with exceljs: a sheet per table, the header
 * bold and frozen, numbers stored as numbers in the report's decimals, text such as units intact;
 * written through a `.part` name that a failure removes.
 */
import { reportDocument } from '../../../src/main/backend/assessment/report/report-document';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReportXlsx } from '../../../src/main/backend/assessment/report/report-xlsx';
import { reportTables } from '../../../src/main/backend/assessment/report/report-tables';
import { formulaFixture, reportFixture, reportTarget } from './report-fixture';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fielddesk-report-xlsx-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('assessment report workbook', () => {
  it('has a sheet per table with a bold, frozen header and numbers as numbers', async () => {
    const path = join(dir, 'report.xlsx');
    const stages: number[] = [];
    const { bytes } = await writeReportXlsx(
      reportTarget(path),
      reportDocument(reportFixture(), { appendices: { exclusions: true, events: true, hourly: true } }),
      (_, fraction) => stages.push(fraction),
    );
    expect(bytes).toBe((await stat(path)).size);
    expect(await readdir(dir)).toEqual(['report.xlsx']);
    expect(stages.at(-1)).toBe(1);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path);
    // Dated when the assessment was computed, not when it was written.
    expect(workbook.created.getTime()).toBe(reportFixture().computedAt);
    expect(workbook.modified.getTime()).toBe(reportFixture().computedAt);
    // A sheet per table, named for it, in the report's order, the contents after the cover.
    expect(workbook.worksheets.map((s) => s.name)).toEqual([
      'Cover',
      'Contents',
      'Summary',
      'Method',
      'Instruments',
      'Calibration evidence',
      'Calibration verdicts',
      'Excluded time',
      'Results',
      'Charts',
      'Exceedances',
      'Notes',
      'Appendix A – Excluded periods',
      'Appendix B – Noise events',
      'Appendix C – Hourly levels',
    ]);

    const figures = workbook.getWorksheet('Results')!;
    const headers = (figures.getRow(1).values as unknown[]).slice(1);
    // A figure a row, as the CSV file has it (the PDF alone tabulates them by day).
    expect(headers).toEqual(
      reportTables(reportDocument(reportFixture())).find((t) => t.name === 'results')!.columns,
    );
    expect(headers.slice(0, 3)).toEqual(['Serial', 'Figure', 'Period']);
    expect(headers).toContain('With exclusions');
    expect(figures.getRow(1).font?.bold).toBe(true);
    expect(figures.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(figures.rowCount).toBe(1 + reportFixture().figures.length);

    const col = (header: string) => headers.indexOf(header) + 1;
    const first = figures.getRow(2);
    expect(first.getCell(col('Figure')).value).toBe('LAeq,day');
    const valid = first.getCell(col('With exclusions'));
    expect(typeof valid.value).toBe('number');
    expect(valid.value).toBe(54.2);
    expect(valid.numFmt).toBe('0.0');
    expect(first.getCell(col('All data')).value).toBe(56.8);
    expect(first.getCell(col('Start (UTC)')).value).toBe('2026-11-23T07:00:00.000Z');
    // A PPV below 1 mm/s to three decimals; the VDV's unit as it is written.
    const ppv = figures.getRow(10);
    expect(ppv.getCell(col('Figure')).value).toBe('PPV Z');
    expect(ppv.getCell(col('With exclusions')).value).toBe(0.618);
    expect(ppv.getCell(col('With exclusions')).numFmt).toBe('0.000');
    expect(figures.getRow(12).getCell(col('Unit')).value).toBe('m/s¹·⁷⁵');
    // An empty cell stays empty, not 0 or "null".
    expect(figures.getRow(8).getCell(col('Limit')).value).toBeNull();

    const hourly = workbook.getWorksheet('Appendix C – Hourly levels')!;
    expect(hourly.rowCount).toBe(73);
    expect(typeof hourly.getRow(2).getCell(4).value).toBe('number');
  });

  it('writes text that starts like a formula as text, never as a formula', async () => {
    const path = join(dir, 'formulas.xlsx');
    await writeReportXlsx(
      reportTarget(path),
      reportDocument(formulaFixture(), { appendices: { exclusions: true, events: true, hourly: false } }),
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path);
    const cell = (sheet: string, row: number, header: string) => {
      const rows = workbook.getWorksheet(sheet)!;
      const headers = (rows.getRow(1).values as unknown[]).slice(1);
      return rows.getRow(row).getCell(headers.indexOf(header) + 1);
    };
    const text = [
      cell('Appendix A – Excluded periods', 2, 'Reason'),
      cell('Appendix A – Excluded periods', 3, 'Reason'),
      cell('Cover', 3, 'Value'),
      cell('Appendix B – Noise events', 2, 'Trigger'),
    ];
    // As typed, no quote added; a string cell (a shared string), with no formula behind it.
    expect(text.map((c) => c.value)).toEqual([
      '=HYPERLINK("http://x")',
      '-road works',
      '+Riverside',
      '@SUM(A1)',
    ]);
    for (const c of text) {
      expect(c.type).toBe(ExcelJS.ValueType.String);
      expect(c.formula).toBeUndefined();
    }
    // A negative number stays a number.
    const drift = cell('Calibration evidence', 2, 'Drift (dB)');
    expect(drift.type).toBe(ExcelJS.ValueType.Number);
    expect(drift.value).toBe(-0.06);
    expect(drift.numFmt).toBe('0.00');
  });

  it('rejects when the folder does not exist and leaves no .part file behind', async () => {
    const missing = join(dir, 'no-such-folder');
    await expect(
      writeReportXlsx(reportTarget(join(missing, 'report.xlsx')), reportDocument(reportFixture())),
    ).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(existsSync(missing)).toBe(false);
    expect((await readdir(dir)).filter((name) => name.endsWith('.part'))).toEqual([]);
  });
});
