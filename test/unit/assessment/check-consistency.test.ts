/**
 * One check, one set of figures: the 17 Nov calibration (93.95 dB read, the instrument's offset
 * +0.01 dB, judged by FieldDesk against 94.0 dB: −0.05 dB) reads the same in the app's formatter,
 * the PDF's text, the Excel cells and the CSV fields — level, offset and deviation each under its
 * own name, to the same decimals (trailing zeros kept: 94.0, not 94).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportDocument } from '../../../src/main/backend/assessment/report/report-document';
import { writeReportCsv } from '../../../src/main/backend/assessment/report/report-csv';
import { renderReportPdf } from '../../../src/main/backend/assessment/report/report-pdf';
import { writeReportXlsx } from '../../../src/main/backend/assessment/report/report-xlsx';
import type { CheckEvidence } from '../../../src/shared/assessment';
import { calibrationCheck, checkDbText } from '../../../src/shared/check-record';
import type { CalibrationOutcome } from '../../../src/shared/operations';
import { NOISE, reportFixture, reportTarget } from './report-fixture';

const HAS_PDFTOTEXT = spawnSync('pdftotext', ['-v']).error === undefined;

const ranByFieldDesk = (time: number, level: number, offset: number): CalibrationOutcome => ({
  kind: 'calibration',
  time,
  status: 'Success',
  level,
  offset,
  referenceDb: 94,
  toleranceDb: 0.5,
  passed: true,
  deviationDb: Math.round((level - 94) * 1000) / 1000,
  instrumentPassed: true,
  probableCalibratorDb: null,
});

const evidence = (
  time: number,
  level: number,
  offset: number,
  when: CheckEvidence['when'],
): CheckEvidence => ({
  serial: NOISE,
  ...calibrationCheck({ time, status: 'Success', level, offset }, ranByFieldDesk(time, level, offset)),
  drift: null,
  when,
  tolerance: 0.5,
  driftWithinTolerance: null,
  flag: null,
  calibrator: null,
  engineer: null,
});

const NOV17 = Date.UTC(2026, 10, 17, 9, 30);
const NOV26 = Date.UTC(2026, 10, 26, 9, 15);
const checks = [evidence(NOV17, 93.95, 0.01, 'before'), evidence(NOV26, 94, 0, 'after')];
const report = reportDocument(reportFixture({ checks }));

/** The app's text of a check's figures, without the unit (the tables say it in the header). */
const app = (check: CheckEvidence) => ({
  level: checkDbText(check.level, { unit: false }),
  offset: checkDbText(check.offset, { signed: true, unit: false }),
  deviation: checkDbText(check.deviation, { signed: true, unit: false }),
});
/** A spreadsheet's plain number as the app writes it signed: "-0.05" → "−0.05", "0.0" → "±0.0". */
const signed = (plain: string): string =>
  Number(plain) > 0
    ? `+${plain}`
    : Number(plain) < 0
      ? plain.replace('-', '\u2212')
      : `±${plain.replace('-', '')}`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fielddesk-check-consistency-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('one calibration check in every output', () => {
  it('the app’s formatter: level, offset and deviation as two named values', () => {
    expect(app(checks[0]!)).toEqual({ level: '93.95', offset: '+0.01', deviation: '−0.05' });
    expect(app(checks[1]!)).toEqual({ level: '94.0', offset: '±0.0', deviation: '±0.0' });
  });

  it('Excel: numbers with a number format of the same decimals', async () => {
    const path = join(dir, 'report.xlsx');
    await writeReportXlsx(reportTarget(path), report);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path);
    const sheet = workbook.getWorksheet('Calibration evidence')!;
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    const cell = (row: number, header: string) => sheet.getRow(row).getCell(headers.indexOf(header) + 1);
    for (const [i, check] of checks.entries()) {
      const row = i + 2;
      const shown = (header: string) => {
        const c = cell(row, header);
        expect(c.type).toBe(ExcelJS.ValueType.Number);
        const decimals = (c.numFmt ?? '').split('.')[1]?.length ?? 0;
        return (c.value as number).toFixed(decimals);
      };
      expect({
        level: shown('Level (dB)'),
        offset: signed(shown('Offset (dB)')),
        deviation: signed(shown('Deviation (dB)')),
      }).toEqual(app(check));
      expect(cell(row, 'FieldDesk verdict').value).toBe('Pass');
      expect(cell(row, 'Instrument status').value).toBe('Success');
    }
  });

  it('CSV: the same figures, trailing zeros kept', async () => {
    const { paths } = await writeReportCsv(reportTarget(join(dir, 'report.csv')), report);
    const text = await readFile(
      paths.find((p) => p.endsWith(' calibration.csv'))!,
      'utf8',
    );
    // Numbers only here (no quoted text holds a comma in these rows' figures), BOM first.
    const rows = text
      .slice(1)
      .trimEnd()
      .split('\r\n')
      .map((line) =>
        line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((f) => f.replace(/,$/, '').replace(/^"|"$/g, '')),
      );
    const headers = rows[0]!;
    for (const [i, check] of checks.entries()) {
      const field = (header: string) => rows[i + 1]![headers.indexOf(header)]!;
      expect({
        level: field('Level (dB)'),
        offset: signed(field('Offset (dB)')),
        deviation: signed(field('Deviation (dB)')),
      }).toEqual(app(check));
      expect(field('Reference (dB)')).toBe('94.0');
    }
  });

  it.skipIf(!HAS_PDFTOTEXT)('PDF: the evidence row prints the app’s very strings', async () => {
    const path = join(dir, 'report.pdf');
    await writeFile(path, (await renderReportPdf(report)).data);
    const text = spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', path, '-'], { encoding: 'utf8' }).stdout;
    const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const check of checks) {
      const { level, offset, deviation } = app(check);
      // Level, offset and deviation side by side in that order, each as the app writes it.
      const row = new RegExp(`\\s${escape(level)}\\s+${escape(offset)}\\s+${escape(deviation)}\\s`);
      const lines = text.split('\n').filter((l) => row.test(l));
      expect(lines, `the row of the ${level} dB check`).toHaveLength(1);
      // FieldDesk's verdict named as its own, the instrument's word beside it (the cell wraps).
      const at = text.indexOf(lines[0]!);
      expect(text.slice(at, at + 600).replace(/\s+/g, ' ')).toMatch(/Pass (\S+ )*\(FieldDesk\);/);
    }
  });
});
