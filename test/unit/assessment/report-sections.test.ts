/**
 * The report's sections in all three formats and the appendix tables a reviewer reads: every
 * heading of the PDF has its sheet in the workbook and its table in the CSV folder and the other way
 * round (through the contents both carry); an hour with excluded time says how much was kept and
 * marks its all-data LAeq; a period longer than a month condenses its calibrations and SICs per
 * instrument and month and lists every failed check in full, while a week keeps every row.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckEvidence, HourlyRow } from '../../../src/shared/assessment';
import {
  reportDocument,
  type ReportDocument,
} from '../../../src/main/backend/assessment/report/report-document';
import { writeReportCsv } from '../../../src/main/backend/assessment/report/report-csv';
import { renderReportPdf } from '../../../src/main/backend/assessment/report/report-pdf';
import { reportTableViews } from '../../../src/main/backend/assessment/report/report-tables';
import { renderReportXlsx } from '../../../src/main/backend/assessment/report/report-xlsx';
import { parseCsv } from '../csv-read';
import { NOISE, reportFixture, reportTarget, START, VIBRATION } from './report-fixture';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;
const ALL_APPENDICES = { exclusions: true, events: true, hourly: true };
const HAS_PDFTOTEXT = spawnSync('pdftotext', ['-v']).error === undefined;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fielddesk-report-sections-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The text of each page of a PDF, as pdftotext lays it out. */
async function pdfPages(report: ReportDocument, name: string): Promise<string[]> {
  const path = join(dir, `${name}.pdf`);
  await writeFile(path, (await renderReportPdf(report)).data);
  return spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', path, '-'], { encoding: 'utf8' }).stdout.split(
    '\f',
  );
}

/** The headings the PDF's contents (on its cover) lists, page numbers left off. */
function contentsHeadings(cover: string): string[] {
  const lines = cover.slice(cover.indexOf('\nContents\n') + '\nContents\n'.length).split('\n');
  return lines
    .map((line) => line.trim())
    .filter((line) => /\s\d+$/.test(line) && !/Page \d+ of \d+$/.test(line))
    .map((line) => line.replace(/\s+\d+$/, '').replace(/\s+/g, ' '));
}

async function workbookOf(report: ReportDocument): Promise<ExcelJS.Workbook> {
  const path = join(dir, `workbook-${Math.random().toString(36).slice(2)}.xlsx`);
  await writeFile(path, await renderReportXlsx(report));
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  return workbook;
}

/** A sheet as rows of text, its header first. */
function sheetRows(sheet: ExcelJS.Worksheet): string[][] {
  const rows: string[][] = [];
  const width = sheet.getRow(1).cellCount;
  sheet.eachRow({ includeEmpty: true }, (row) => {
    rows.push(Array.from({ length: width }, (_, i) => String(row.getCell(i + 1).value ?? '')));
  });
  return rows;
}

/** The CSV folder's tables by name, each as rows of text, in the folder's order. */
async function csvTables(report: ReportDocument, name: string): Promise<Array<[string, string[][]]>> {
  const { paths } = await writeReportCsv(reportTarget(join(dir, `${name}.csv`)), report);
  return Promise.all(
    paths.map(async (path): Promise<[string, string[][]]> => [
      basename(path)
        .replace(/^.* – \d\d /, '')
        .replace(/\.csv$/, ''),
      parseCsv((await readFile(path, 'utf8')).replace(/^\uFEFF/, '')),
    ]),
  );
}

describe('the report in three formats, section for section', () => {
  it.skipIf(!HAS_PDFTOTEXT)(
    'lists every PDF heading as a sheet and a CSV table, and every sheet and table under a PDF heading',
    async () => {
      for (const appendices of [ALL_APPENDICES, { exclusions: false, events: false, hourly: false }]) {
        const report = reportDocument(reportFixture(), { appendices });
        const headings = contentsHeadings((await pdfPages(report, 'sections'))[0]!);
        // The fixture's report: summary, method … notes, and the appendices ticked.
        expect(headings).toContain('2 Instruments and calibration evidence');
        expect(headings).toContain('6 Notes');
        expect(headings.filter((h) => h.startsWith('Appendix'))).toHaveLength(
          Object.values(appendices).filter(Boolean).length,
        );

        const workbook = await workbookOf(report);
        const sheets = workbook.worksheets.map((s) => s.name);
        const [head, ...contents] = sheetRows(workbook.getWorksheet('Contents')!);
        expect(head).toEqual(['Section of the PDF', 'Sheet', 'CSV table']);
        // Each PDF heading is in the contents and each section of the contents is a PDF heading
        // (the cover page aside, which the PDF's contents does not list), in the same order.
        const sections = [...new Set(contents.map((row) => row[0]!))];
        expect(sections).toEqual(['Cover', ...headings]);
        // Every sheet is listed under a section and every sheet listed is in the workbook.
        expect([...new Set(contents.map((row) => row[1]!))]).toEqual(sheets);
        // A heading with a table of its own has it under its name: the appendices' sheets.
        for (const heading of headings.filter((h) => h.startsWith('Appendix'))) {
          const letter = heading.split(' ')[1]!;
          const listed = contents.filter((row) => row[0] === heading).map((row) => row[1]);
          expect(listed).toHaveLength(1);
          expect(listed[0]).toMatch(new RegExp(`^Appendix ${letter} – `));
        }

        // The CSV folder: a table per sheet in the same order, each holding what its sheet holds.
        const csv = await csvTables(report, `sections-${headings.length}`);
        expect(csv.map(([name]) => name)).toEqual([...new Set(contents.map((row) => row[2]!))]);
        for (const [i, [name, rows]] of csv.entries()) {
          const sheet = sheetRows(workbook.getWorksheet(sheets[i]!)!);
          expect(rows[0], name).toEqual(sheet[0]);
          expect(rows.length, name).toBe(sheet.length);
        }
      }
    },
    60_000,
  );

  it('names the PDF table of each sheet with the PDF’s own columns', () => {
    // The hourly appendix: each column the PDF prints is a column of the sheet, time aside.
    const views = reportTableViews(reportDocument(reportFixture(), { appendices: ALL_APPENDICES }));
    const hourly = views.find((v) => v.name.endsWith('hourly-levels'))!;
    const printed = hourly
      .display!.columns.map((c) => c.header)
      .filter((h) => h !== 'Instrument' && h !== 'Hour');
    for (const header of printed) expect(hourly.columns).toContain(header);
  });
});

/** A fully read hour of the noise monitor. */
const hour = (start: number, over: Partial<HourlyRow> = {}): HourlyRow => ({
  serial: NOISE,
  start,
  end: start + HOUR,
  label: '',
  laeq: 60,
  laeqValid: 60,
  lafmax: 75.2,
  la10: 62.1,
  la90: 51.4,
  excludedMinutes: 0,
  coverage: 1,
  sufficient: true,
  ...over,
});

describe('hourly levels with excluded time', () => {
  // 10:00–11:00 with 10:15–10:30 excluded: 60.0 dB over all of it, 58.2 dB over the 45 minutes kept.
  const cut = hour(START + 10 * HOUR, { laeq: 60, laeqValid: 58.2, excludedMinutes: 15, coverage: 0.75 });
  const whole = hour(START + 11 * HOUR);
  const report = reportDocument(reportFixture({ hourly: [cut, whole] }), {
    appendices: { exclusions: false, events: false, hourly: true },
  });
  const table = reportTableViews(report).find((v) => v.name === 'appendix-a-hourly-levels')!;
  const cell = (row: number, header: string) => table.rows[row]![table.columns.indexOf(header)];

  it('states every level with exclusions applied, the kept share, and marks the all-data LAeq', () => {
    expect(cell(0, 'LAeq (dB)')).toBe(58.2);
    expect(cell(0, 'Excluded (min)')).toBe(15);
    expect(cell(0, 'Kept (%)')).toBe(75);
    expect(cell(0, 'LAeq all data (dB)')).toBe(60);
    expect(cell(0, 'All data includes excluded time')).toBe('yes');
    expect([cell(1, 'Kept (%)'), cell(1, 'All data includes excluded time')]).toEqual([100, 'no']);
    // The PDF: the same values, the all-data LAeq marked where it includes excluded time.
    const printed = table.display!;
    const at = (row: number, header: string) =>
      printed.rows[row]![printed.columns.findIndex((c) => c.header === header)];
    expect([at(0, 'LAeq (dB)'), at(0, 'Kept (%)'), at(0, 'LAeq all data (dB)')]).toEqual([
      '58.2',
      '75',
      '60.0*',
    ]);
    expect([at(1, 'LAeq (dB)'), at(1, 'Kept (%)'), at(1, 'LAeq all data (dB)')]).toEqual([
      '60.0',
      '100',
      '60.0',
    ]);
  });

  it('writes the same in the workbook and the CSV file', async () => {
    const workbook = await workbookOf(report);
    const [head, first] = sheetRows(workbook.getWorksheet('Appendix A – Hourly levels')!);
    const sheetCell = (header: string) => first![head!.indexOf(header)];
    expect([sheetCell('LAeq (dB)'), sheetCell('Kept (%)'), sheetCell('LAeq all data (dB)')]).toEqual([
      '58.2',
      '75',
      '60',
    ]);
    const csv = (await csvTables(report, 'hourly')).find(([name]) => name === 'appendix-a-hourly-levels')![1];
    const csvCell = (header: string) => csv[1]![csv[0]!.indexOf(header)];
    expect([
      csvCell('LAeq (dB)'),
      csvCell('Kept (%)'),
      csvCell('LAeq all data (dB)'),
      csvCell('All data includes excluded time'),
    ]).toEqual(['58.2', '75', '60.0', 'yes']);
  });

  it.skipIf(!HAS_PDFTOTEXT)('prints the mark and says what it means in the PDF', async () => {
    const text = (await pdfPages(report, 'hourly')).join('\n');
    expect(text).toMatch(/Kept\s/);
    expect(text).toMatch(/58\.2\s+75\.2\s+62\.1\s+51\.4\s+15\s+75\s+60\.0\*/);
    expect(text.replace(/\s+/g, ' ')).toContain('* marks an hour where it includes excluded time');
  });
});

/** A check of the noise monitor as the assessment records it. */
const check = (over: Partial<CheckEvidence> & Pick<CheckEvidence, 'kind' | 'time'>): CheckEvidence => ({
  serial: NOISE,
  status: 'Success',
  passed: true,
  level: null,
  offset: null,
  drift: null,
  tolerance: 0.5,
  driftWithinTolerance: null,
  when: 'during',
  ...over,
});

describe('calibration evidence over a long period', () => {
  // 40 days from Mon 23 Nov 2026 (site time London = UTC in winter): November and December, then 1 Jan.
  const start = START;
  const end = START + 40 * DAY;
  const calibration = (time: number, level: number, drift: number | null, passed = true) =>
    check({
      kind: 'calibration',
      time,
      level,
      offset: 0,
      deviation: Math.round((level - 94) * 100) / 100,
      referenceDb: 94,
      drift,
      driftWithinTolerance: drift === null ? null : Math.abs(drift) <= 0.5,
      passed,
      status: passed ? 'Success' : 'Failed',
      ...(passed ? {} : { flag: 'FLAGGED: calibration failed' }),
    });
  const sic = (time: number, deviation: number, passed = true) =>
    check({
      kind: 'sic',
      time,
      level: 94 + deviation,
      deviation,
      passed,
      status: passed ? 'Success' : 'Failed',
    });
  const failedSic = sic(start + 3 * DAY + 2 * HOUR, 1.42, false);
  const failedCalibration = calibration(start + 14 * DAY + 9 * HOUR + 5 * MINUTE, 96.3, null, false);
  const checks: CheckEvidence[] = [
    calibration(start - 2 * DAY, 94.02, null),
    { ...sic(start - 2 * DAY, 0.02), serial: VIBRATION },
    sic(start + 1 * DAY + 2 * HOUR, 0.12),
    failedSic,
    sic(start + 5 * DAY + 2 * HOUR, -0.21),
    failedCalibration,
    calibration(start + 15 * DAY, 93.9, -0.12),
    sic(start + 16 * DAY + 2 * HOUR, 0.31),
    calibration(end + 1 * HOUR, 94.1, 0.2),
  ].map((c) => ({ ...c, when: c.time < start ? 'before' : c.time >= end ? 'after' : 'during' }));
  const long = reportDocument(reportFixture({ start, end, checks }));

  it('counts the checks per instrument, month and kind, and lists each failed check in full', () => {
    const views = reportTableViews(long);
    expect(views.map((v) => v.name)).not.toContain('calibration');
    const months = views.find((v) => v.name === 'calibration-months')!;
    const columns = ['Serial', 'Month (Europe/London)', 'Check', 'Checks', 'Passed', 'Failed', 'No verdict'];
    const pick = (row: (string | number | null)[]) => columns.map((c) => row[months.columns.indexOf(c)]);
    expect(months.rows.map(pick)).toEqual([
      [NOISE, '2026-11', 'Calibration', 1, 1, 0, 0],
      [NOISE, '2026-11', 'SIC', 3, 2, 1, 0],
      [NOISE, '2026-12', 'Calibration', 2, 1, 1, 0],
      [NOISE, '2026-12', 'SIC', 1, 1, 0, 0],
      [NOISE, '2027-01', 'Calibration', 1, 1, 0, 0],
      [VIBRATION, '2026-11', 'SIC', 1, 1, 0, 0],
    ]);
    const value = (row: number, header: string) => months.rows[row]![months.columns.indexOf(header)];
    // The largest drift is the passing calibration's (a failed check is never a drift), the largest
    // deviation the failed one's, both as the check records them.
    expect([value(2, 'Largest drift (dB)'), value(2, 'Largest deviation (dB)')]).toEqual([-0.12, 2.3]);
    expect(value(1, 'Largest deviation (dB)')).toBe(1.42);
    expect(value(0, 'Calibrators')).toBe('not recorded');
    expect(value(1, 'Calibrators')).toBeNull();

    const failed = views.find((v) => v.name === 'failed-checks')!;
    const time = failed.columns.indexOf('Time (UTC)');
    expect(failed.rows.map((r) => r[time])).toEqual([
      new Date(failedSic.time).toISOString(),
      new Date(failedCalibration.time).toISOString(),
    ]);
    expect(failed.rows.map((r) => r[failed.columns.indexOf('FieldDesk verdict')])).toEqual([
      'not run from FieldDesk',
      'not run from FieldDesk',
    ]);
    // Printed with the PDF's own columns, the failure said.
    expect(failed.display!.rows.map((r) => r[1])).toEqual(['SIC', 'Calibration']);
  });

  it('keeps every check in full for a week', () => {
    const week = reportDocument(reportFixture({ start, end: start + 7 * DAY, checks }));
    const names = reportTableViews(week).map((v) => v.name);
    expect(names).toContain('calibration');
    expect(names).not.toContain('calibration-months');
    expect(reportTableViews(week).find((v) => v.name === 'calibration')!.rows).toHaveLength(checks.length);
  });

  it('has the month sheet and the failed checks in the workbook and the CSV folder', async () => {
    const workbook = await workbookOf(long);
    const months = sheetRows(workbook.getWorksheet('Calibrations and SICs by month')!);
    expect(months).toHaveLength(7);
    expect(sheetRows(workbook.getWorksheet('Failed and flagged checks')!)).toHaveLength(3);
    const csv = new Map(await csvTables(long, 'long'));
    expect(csv.get('calibration-months')).toHaveLength(7);
    expect(csv.get('failed-checks')).toHaveLength(3);
    expect(csv.has('calibration')).toBe(false);
  });

  it.skipIf(!HAS_PDFTOTEXT)('prints the months and both failed checks in the PDF', async () => {
    const text = (await pdfPages(long, 'long')).join('\n');
    expect(text).toContain('Calibrations and SICs by month');
    expect(text).toMatch(/NM-1043\s+Dec 2026\s+Calibration\s+2\s+1\s+1\s+0\s+−0\.12\s+\+2\.3/);
    expect(text).toContain('Failed and flagged checks');
    // Each failed check a row in full (its time wraps beneath its date in the narrow column).
    expect(text).toMatch(
      /NM-1043\s+SIC\s+during\s+Thu 26 Nov 2026\s+Instrument\s+95\.42\s+—\s+\+1\.42\s+—\s+FLAGGED/,
    );
    expect(text).toMatch(
      /NM-1043\s+Calibration\s+during\s+Mon 7 Dec 2026\s+Instrument\s+96\.3\s+±0\.0\s+\+2\.3/,
    );
  });
});

describe('excluded periods over a long period', () => {
  // 40 days from Mon 23 Nov 2026 (site time London = UTC in winter).
  const start = START;
  const end = START + 40 * DAY;
  const both = [NOISE, VIBRATION] as const;
  /** The site's wind: one period for both instruments (the rule finds it for each). */
  const wind = (at: number, minutes: number) =>
    both.map((serial) => ({
      start: at,
      end: at + minutes * MINUTE,
      serial,
      cause: 'wind' as const,
      reason: `Wind above 5 m/s (up to 7.5 m/s, measured at ${NOISE})`,
    }));
  const exclusions = [
    {
      start: start + 2 * DAY,
      end: start + 2 * DAY + 3 * HOUR,
      serial: null,
      cause: 'manual' as const,
      reason: 'Road works',
    },
    ...wind(start + 1 * DAY, 30),
    ...wind(start + 3 * DAY, 90),
    ...wind(start + 20 * DAY, 45),
    {
      start: start + 4 * DAY,
      end: start + 4 * DAY + 20 * MINUTE,
      serial: NOISE,
      cause: 'precipitation' as const,
      reason: `Precipitation (up to 0.4 mm/h, measured at ${NOISE})`,
    },
    {
      start: start + 10 * DAY,
      end: start + 12 * DAY,
      serial: NOISE,
      cause: 'failedCheck' as const,
      reason: 'After the failed calibration of 3 Dec 2026',
    },
  ];
  const long = reportDocument(reportFixture({ start, end, exclusions }), { appendices: ALL_APPENDICES });

  it('lists the periods excluded by hand or for a failed check in full, and counts the weather’s per month', () => {
    const views = reportTableViews(long);
    const listed = views.find((v) => v.name === 'appendix-a-exclusions')!;
    expect(listed.rows.map((r) => r[listed.columns.indexOf('Cause')])).toEqual(['Manual', 'Failed check']);
    const months = views.find((v) => v.name === 'appendix-a-exclusions-exclusion-months')!;
    const pick = (row: (string | number | null)[]) =>
      ['Month (Europe/London)', 'Cause', 'Instruments', 'Periods', 'Excluded (min)', 'Longest (min)'].map(
        (c) => row[months.columns.indexOf(c)],
      );
    // The wind shared by both instruments counted once, naming both; November then December.
    expect(months.rows.map(pick)).toEqual([
      ['2026-11', 'Wind', `${NOISE}, ${VIBRATION}`, 2, 120, 90],
      ['2026-11', 'Precipitation', NOISE, 1, 20, 20],
      ['2026-12', 'Wind', `${NOISE}, ${VIBRATION}`, 1, 45, 45],
    ]);
  });

  it('keeps every period in full for a week', () => {
    const week = reportDocument(reportFixture({ start, end: start + 7 * DAY, exclusions }), {
      appendices: ALL_APPENDICES,
    });
    const views = reportTableViews(week);
    expect(views.map((v) => v.name)).not.toContain('appendix-a-exclusions-exclusion-months');
    // A week lists every period: by hand, the wind shared by both instruments three times (one row
    // each), the rain and the failed check.
    expect(views.find((v) => v.name === 'appendix-a-exclusions')!.rows).toHaveLength(6);
  });

  it('has the month table in the workbook and the CSV folder, and prints it in the PDF', async () => {
    const workbook = await workbookOf(long);
    expect(sheetRows(workbook.getWorksheet('Appendix A – Excluded by month')!)).toHaveLength(4);
    const csv = new Map(await csvTables(long, 'long-exclusions'));
    expect([...csv.keys()].some((name) => name.includes('exclusion-months'))).toBe(true);
    if (!HAS_PDFTOTEXT) return;
    const text = (await pdfPages(long, 'long-exclusions')).join('\n');
    expect(text).toContain('Excluded by month');
    expect(text).toMatch(/Nov 2026\s+Wind\s+NM-1043, VM-\S+\s+2\s+2\s?h\s+1 h 30 min/);
    expect(text).toContain('Road works');
  });
});
