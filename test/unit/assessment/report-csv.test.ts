/**
 * The report's tables as CSV files beside the chosen name, parsed back: RFC 4180 quoting, UTF-8 with
 * a byte order mark, times in ISO 8601 UTC with a site-time column; a failure leaves neither part
 * files nor some of the tables behind.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  reportCsvPath,
  reportCsvText,
  writeReportCsv,
} from '../../../src/main/backend/assessment/report/report-csv';
import { reportTables } from '../../../src/main/backend/assessment/report/report-tables';
import { formulaFixture, reportFixture } from './report-fixture';

/** RFC 4180, as a spreadsheet reads it: quoted fields may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') [field, i] = [field + '"', i + 1];
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') [row, field] = [[...row, field], ''];
    else if (c === '\r' && text[i + 1] === '\n') {
      rows.push([...row, field]);
      [row, field, i] = [[], '', i + 1];
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

const BOM = [0xef, 0xbb, 0xbf];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fielddesk-report-csv-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('assessment report CSV', () => {
  it('writes one file per table beside the chosen name, with a BOM, headers and rows', async () => {
    const chosen = join(dir, 'Site A 2026-11-23.csv');
    const { paths, bytes } = await writeReportCsv(chosen, reportFixture());
    const tables = reportTables(reportFixture());
    expect(paths).toEqual(tables.map((t) => join(dir, `Site A 2026-11-23 – ${t.name}.csv`)));
    expect((await readdir(dir)).sort()).toEqual(paths.map((p) => p.slice(dir.length + 1)).sort());
    expect(reportCsvPath(join(dir, 'x'), { name: 'figures' })).toBe(join(dir, 'x – figures.csv'));

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

    const figures = parseCsv((await readFile(join(dir, 'Site A 2026-11-23 – figures.csv'), 'utf8')).slice(1));
    const [header, first] = [figures[0]!, figures[1]!];
    // A figure a row, every figure (the PDF alone tabulates them by day).
    expect(figures).toHaveLength(1 + reportFixture().figures.length);
    expect(header.slice(0, 8)).toEqual([
      'Serial',
      'Figure',
      'Period',
      'Start (UTC)',
      'End (UTC)',
      'Start (Europe/London)',
      'End (Europe/London)',
      'With exclusions',
    ]);

    const cell = (row: string[], name: string) => row[header.indexOf(name)];
    expect(cell(figures[2]!, 'Period')).toBe('Mon 23 Nov 2026, night 23:00–07:00');
    expect(cell(first, 'Figure')).toBe('LAeq,day'); // quoted for its comma
    expect(cell(first, 'With exclusions')).toBe('54.2');
    expect(cell(first, 'All data')).toBe('56.8');
    expect(cell(first, 'Start (UTC)')).toBe('2026-11-23T07:00:00.000Z');
    expect(cell(first, 'Start (Europe/London)')).toBe('2026-11-23T07:00:00+00:00');
    expect(cell(first, 'Limit')).toBe('55');
    expect(cell(first, 'Result')).toBe('ok');
    expect(figures.some((row) => cell(row, 'Unit') === 'm/s¹·⁷⁵')).toBe(true);

    const exclusions = await readFile(join(dir, 'Site A 2026-11-23 – exclusions.csv'), 'utf8');
    expect(exclusions).toContain('"Road works on Riverside Close (resurfacing, plate compactor)"');
    expect(exclusions.split('\r\n')[0]).toBe(
      '\uFEFFStart (UTC),End (UTC),Start (Europe/London),End (Europe/London),Duration (min),Instrument,Cause,Reason',
    );
  });

  it('writes text that starts like a formula with a leading quote, and numbers as numbers', async () => {
    const paths = (await writeReportCsv(join(dir, 'r.csv'), formulaFixture())).paths;
    const read = async (name: string) => {
      const raw = await readFile(
        paths.find((p) => p.endsWith(`– ${name}.csv`))!,
        'utf8',
      );
      const rows = parseCsv(raw.slice(1));
      return { raw, rows, cell: (row: number, header: string) => rows[row]![rows[0]!.indexOf(header)] };
    };

    const exclusions = await read('exclusions');
    expect(exclusions.cell(1, 'Reason')).toBe(`'=HYPERLINK("http://x")`);
    expect(exclusions.cell(2, 'Reason')).toBe(`'-road works`);
    expect(exclusions.raw).toContain(`,"'=HYPERLINK(""http://x"")"\r\n`);
    expect(exclusions.raw).toContain(`,'-road works\r\n`);
    expect((await read('summary')).cell(1, 'Value')).toBe(`'+Riverside`);
    expect((await read('events')).cell(1, 'Trigger')).toBe(`'@SUM(A1)`);
    // A negative number is a number: no quote.
    const calibration = await read('calibration');
    expect(calibration.cell(1, 'Drift (dB)')).toBe('-0.1');

    // Tab and carriage return too; characters after the first are left alone.
    const table = {
      name: 'x',
      title: 'x',
      columns: ['a', 'b', 'c', 'd'],
      rows: [['\tx', '\rx', -1.5, 'a=b-c']],
    };
    expect(reportCsvText(table)).toBe(`\uFEFFa,b,c,d\r\n'\tx,"'\rx",-1.5,a=b-c\r\n`);
  });

  it('rejects when the folder does not exist and leaves no .part file behind', async () => {
    const missing = join(dir, 'no-such-folder');
    await expect(writeReportCsv(join(missing, 'report.csv'), reportFixture())).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(existsSync(missing)).toBe(false);
    expect(await readdir(dir)).toEqual([]);
  });

  it('removes the tables it already wrote when a later one fails', async () => {
    // A folder under the hourly table's name: that rename fails after several files were written.
    await mkdir(join(dir, 'report – hourly.csv'));
    await expect(writeReportCsv(join(dir, 'report.csv'), reportFixture())).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['report – hourly.csv']);
  });
});
