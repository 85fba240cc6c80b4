/**
 * The report's tables as CSV files in a folder named as chosen, parsed back: RFC 4180 quoting, UTF-8
 * with a byte order mark, times in ISO 8601 UTC with a site-time column; the set appears whole or
 * not at all, a failure leaves neither a temporary folder nor some of the tables behind, and a name
 * already taken is never written over.
 */
import { reportDocument } from '../../../src/main/backend/assessment/report/report-document';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  reportCsvFolder,
  reportCsvName,
  reportCsvText,
  writeReportCsv,
} from '../../../src/main/backend/assessment/report/report-csv';
import { reportTables } from '../../../src/main/backend/assessment/report/report-tables';
import { openUnfinishedFiles } from '../../../src/main/backend/core/unfinished-files';
import { parseCsv } from '../csv-read';
import { formulaFixture, reportFixture, reportTarget } from './report-fixture';

const BOM = [0xef, 0xbb, 0xbf];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fielddesk-report-csv-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('assessment report CSV', () => {
  it('writes one file per table in a folder named as chosen, with a BOM, headers and rows', async () => {
    const chosen = join(dir, 'Site A 2026-11-23.csv');
    const { folder, paths, bytes } = await writeReportCsv(
      reportTarget(chosen),
      reportDocument(reportFixture()),
    );
    const tables = reportTables(reportDocument(reportFixture()));
    expect(folder).toBe(join(dir, 'Site A 2026-11-23'));
    // A file per table, named for its section and numbered in the report's order.
    expect(paths).toEqual(
      tables.map((t, i) =>
        join(folder, `Site A 2026-11-23 – ${String(i + 1).padStart(2, '0')} ${t.name}.csv`),
      ),
    );
    // The folder and nothing else: no temporary folder left beside it.
    expect(await readdir(dir)).toEqual(['Site A 2026-11-23']);
    expect((await readdir(folder)).sort()).toEqual(paths.map((p) => p.slice(folder.length + 1)).sort());
    expect(reportCsvFolder(join(dir, 'x.CSV'))).toBe(join(dir, 'x'));
    expect(reportCsvName(join(dir, 'x'), { name: 'results' }, 8)).toBe('x – 09 results.csv');

    let total = 0;
    for (const [i, path] of paths.entries()) {
      const raw = await readFile(path);
      total += raw.byteLength;
      expect([...raw.subarray(0, 3)]).toEqual(BOM);
      const rows = parseCsv(raw.subarray(3).toString('utf8'));
      expect(rows[0]).toEqual(tables[i]!.columns);
      expect(rows).toHaveLength(1 + tables[i]!.rows.length);
    }
    expect(bytes).toBe(total);

    const figures = parseCsv(
      (
        await readFile(
          paths.find((p) => p.endsWith(' results.csv'))!,
          'utf8',
        )
      ).slice(1),
    );
    const [header, first] = [figures[0]!, figures[1]!];
    // A figure a row, every figure (the PDF alone tabulates them by day).
    expect(figures).toHaveLength(1 + reportFixture().figures.length);
    expect(header.slice(0, 9)).toEqual([
      'Serial',
      'Figure',
      'Period',
      'Start (UTC)',
      'End (UTC)',
      'Start (Europe/London)',
      'End (Europe/London)',
      'Stated',
      'With exclusions',
    ]);

    const cell = (row: string[], name: string) => row[header.indexOf(name)];
    expect(cell(figures[2]!, 'Period')).toBe('Mon 23 Nov 2026, night 23:00–07:00');
    expect(cell(first, 'Figure')).toBe('LAeq,day'); // quoted for its comma
    expect(cell(first, 'With exclusions')).toBe('54.2');
    expect(cell(first, 'All data')).toBe('56.8');
    expect(cell(first, 'Start (UTC)')).toBe('2026-11-23T07:00:00.000Z');
    expect(cell(first, 'Start (Europe/London)')).toBe('2026-11-23T07:00:00+00:00');
    // Stated to its decimals, trailing zero kept, as the PDF and Excel state it.
    expect(cell(first, 'Limit')).toBe('55.0');
    expect(cell(first, 'Stated')).toBe('54.2 dB');
    expect(cell(first, 'Result')).toBe('met');
    expect(figures.some((row) => cell(row, 'Unit') === 'm/s¹·⁷⁵')).toBe(true);

    const exclusions = await readFile(
      paths.find((p) => p.endsWith(' appendix-a-exclusions.csv'))!,
      'utf8',
    );
    expect(exclusions).toContain('"Road works on Riverside Close (resurfacing, plate compactor)"');
    expect(exclusions.split('\r\n')[0]).toBe(
      '\uFEFFStart (UTC),End (UTC),Start (Europe/London),End (Europe/London),Duration (min),Instruments,Cause,Reason',
    );
  });

  it('writes text that starts like a formula with a leading quote, and numbers as numbers', async () => {
    const paths = (
      await writeReportCsv(
        reportTarget(join(dir, 'r.csv')),
        reportDocument(formulaFixture(), { appendices: { exclusions: true, events: true, hourly: false } }),
      )
    ).paths;
    const read = async (name: string) => {
      const raw = await readFile(
        paths.find((p) => p.endsWith(` ${name}.csv`))!,
        'utf8',
      );
      const rows = parseCsv(raw.slice(1));
      return { raw, rows, cell: (row: number, header: string) => rows[row]![rows[0]!.indexOf(header)] };
    };

    const exclusions = await read('appendix-a-exclusions');
    expect(exclusions.cell(1, 'Reason')).toBe(`'=HYPERLINK("http://x")`);
    expect(exclusions.cell(2, 'Reason')).toBe(`'-road works`);
    expect(exclusions.raw).toContain(`,"'=HYPERLINK(""http://x"")"\r\n`);
    expect(exclusions.raw).toContain(`,'-road works\r\n`);
    expect((await read('cover')).cell(2, 'Value')).toBe(`'+Riverside`);
    expect((await read('appendix-b-noise-events')).cell(1, 'Trigger')).toBe(`'@SUM(A1)`);
    // A negative number is a number: no quote.
    const calibration = await read('calibration');
    // A check's figure to the app's decimals: two when the second matters (−0.06 dB on screen).
    expect(calibration.cell(1, 'Drift (dB)')).toBe('-0.06');

    // Tab and carriage return too; characters after the first are left alone.
    const table = {
      name: 'x',
      title: 'x',
      columns: ['a', 'b', 'c', 'd'],
      rows: [['\tx', '\rx', -1.5, 'a=b-c']],
    };
    expect(reportCsvText(table)).toBe(`\uFEFFa,b,c,d\r\n'\tx,"'\rx",-1.5,a=b-c\r\n`);
  });

  it('rejects when the folder does not exist and leaves no temporary folder behind', async () => {
    const missing = join(dir, 'no-such-folder');
    await expect(
      writeReportCsv(reportTarget(join(missing, 'report.csv')), reportDocument(reportFixture())),
    ).rejects.toMatchObject({ code: 'ENOENT' });
    expect(existsSync(missing)).toBe(false);
    expect(await readdir(dir)).toEqual([]);
  });

  it('leaves nothing when it fails part-way: neither the tables written so far nor a temporary folder', async () => {
    const tables = reportTables(reportDocument(reportFixture()));
    const started: string[] = [];
    const failing = writeReportCsv(
      reportTarget(join(dir, 'report.csv')),
      reportDocument(reportFixture()),
      (stage) => {
        started.push(stage);
        // Three tables are on disk when the fourth one fails.
        if (started.length === 4) throw new Error('stopped at the fourth table');
      },
    );
    await expect(failing).rejects.toThrow('stopped at the fourth table');
    expect(tables.length).toBeGreaterThan(4);
    expect(await readdir(dir)).toEqual([]);
  });

  it('never writes over a folder of the same name: the set goes to "… (2)", the old one untouched', async () => {
    await mkdir(join(dir, 'report'));
    await writeFile(join(dir, 'report', 'notes.txt'), 'mine');
    const { folder } = await writeReportCsv(
      reportTarget(join(dir, 'report.csv')),
      reportDocument(reportFixture()),
    );
    expect(folder).toBe(join(dir, 'report (2)'));
    expect(await readdir(join(dir, 'report'))).toEqual(['notes.txt']);
    expect(await readFile(join(dir, 'report', 'notes.txt'), 'utf8')).toBe('mine');
    expect((await readdir(dir)).sort()).toEqual(['report', 'report (2)']);
  });

  it('lists its temporary folder while it writes and takes it off the list once in place', async () => {
    const unfinished = await openUnfinishedFiles(join(dir, 'data'), Date.now);
    const listedDuring: string[][] = [];
    const { folder } = await writeReportCsv(
      { path: join(dir, 'report.csv'), what: 'the CSV report “report”', unfinished },
      reportDocument(reportFixture()),
      () => listedDuring.push(unfinished.entries().map((entry) => entry.path)),
    );
    const temporary = listedDuring[0]![0]!;
    expect(temporary).toMatch(/report\.fielddesk-[0-9a-f]{8}\.part$/);
    expect(listedDuring[0]).toEqual([temporary]);
    expect(unfinished.entries()).toEqual([]);
    expect(existsSync(temporary)).toBe(false);
    expect(existsSync(folder)).toBe(true);
  });
});
