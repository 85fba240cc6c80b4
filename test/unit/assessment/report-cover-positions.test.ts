/**
 * What the site adds to its report, said alike in PDF, Excel and CSV: the cover's company,
 * approver, revision and status (a draft marked as not final on the cover and every page), the
 * conclusion (the site's own, or drafted from the summary in its very words) and each instrument's
 * measurement position with the weather sensor's place in the method and the instruments table.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  reportDocument,
  type ReportDocument,
} from '../../../src/main/backend/assessment/report/report-document';
import { writeReportCsv } from '../../../src/main/backend/assessment/report/report-csv';
import { writeReportPdf } from '../../../src/main/backend/assessment/report/report-pdf';
import { CONCLUSION_SOURCE } from '../../../src/main/backend/assessment/report/report-tables';
import { writeReportXlsx } from '../../../src/main/backend/assessment/report/report-xlsx';
import type { SiteCover, SitePositions } from '../../../src/shared/assessment';
import { draftConclusion } from '../../../src/shared/assessment-conclusion';
import { summaryRows, summarySentence, verdictText } from '../../../src/shared/assessment-summary';
import { parseCsv } from '../csv-read';
import { NOISE, reportFixture, reportTarget, VIBRATION } from './report-fixture';

const HAS_PDFTOTEXT = spawnSync('pdftotext', ['-v']).error === undefined;
const NEEDS_PDFTOTEXT = HAS_PDFTOTEXT ? '' : ' [SKIPPED: pdftotext (Debian poppler-utils) is not installed]';

const COVER: SiteCover = {
  client: 'Thames Water Utilities Ltd',
  project: 'Mogden sludge dryer',
  reference: 'AC-2026-114',
  author: 'J. Smith MIOA',
  company: 'Acme Acoustics Ltd',
  approver: 'A. Patel MIOA',
  revision: 'R02',
  status: 'final',
};
const POSITIONS: SitePositions = {
  instruments: {
    [NOISE]: { description: 'Rear garden of No. 14, 3 m from the fence', height: 1.25, kind: 'freeField' },
    [VIBRATION]: { description: 'Foundation, north wall', height: null, kind: 'unstated' },
  },
  weather: 'On the site office roof, 4 m above ground',
};
const WRITTEN = 'The daytime limit was exceeded once, during the road works.\nNo further action is advised.';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fielddesk-report-cover-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const pdfText = async (name: string, doc: ReportDocument): Promise<string[]> => {
  const path = join(dir, `${name}.pdf`);
  await writeReportPdf(reportTarget(path), doc);
  return spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', path, '-'], { encoding: 'utf8' }).stdout.split(
    '\f',
  );
};

/** A sheet as records by its header row. */
async function sheetRecords(path: string, title: string): Promise<Array<Record<string, unknown>>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  const sheet = workbook.getWorksheet(title);
  if (sheet === undefined) throw new Error(`no sheet ${title}`);
  const head = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const records: Array<Record<string, unknown>> = [];
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    records.push(Object.fromEntries(head.map((h, i) => [h, row.getCell(i + 1).value])));
  }
  return records;
}

/** A CSV table of the report's folder as records by its header row. */
async function csvRecords(paths: string[], name: string): Promise<Array<Record<string, string>>> {
  const path = paths.find((p) => p.endsWith(` ${name}.csv`));
  if (path === undefined) throw new Error(`no ${name} table`);
  const [head, ...rows] = parseCsv((await readFile(path, 'utf8')).replace(/^\uFEFF/, ''));
  return rows.map((row) => Object.fromEntries(head!.map((h, i) => [h, row[i] ?? ''])));
}

const coverValue = (records: Array<Record<string, unknown>>, item: string) =>
  records.find((r) => r['Item'] === item)?.['Value'];

describe('the site’s cover, conclusion and positions in the report', () => {
  it.skipIf(!HAS_PDFTOTEXT)(
    `prints a final issue unmarked, the site's own conclusion after the summary and each position${NEEDS_PDFTOTEXT}`,
    async () => {
      const texts = await pdfText(
        'final',
        reportDocument(reportFixture(), { cover: COVER, conclusion: WRITTEN, positions: POSITIONS }),
      );
      const text = texts.join('\n');
      const flowing = text.replace(/\s+/g, ' ');
      expect(texts[0]).toMatch(/Revision\s+R02\n/);
      expect(texts[0]).toMatch(/Status\s+Final\n/);
      expect(texts[0]).toMatch(/Approved by\s+A\. Patel MIOA\n/);
      expect(texts[0]).toMatch(/Issued by\s+Acme Acoustics Ltd\n/);
      expect(text).not.toContain('not final');
      expect(text).not.toContain('Draft');
      // The document's properties name the issue and who issued it.
      const info = spawnSync('pdfinfo', [join(dir, 'final.pdf')], { encoding: 'utf8' }).stdout;
      expect(info).toMatch(/Subject:\s+.*, R02, Final, issued by Acme Acoustics Ltd\n/);
      expect(info).toMatch(/Keywords:\s+.*AC-2026-114, R02, Acme Acoustics Ltd/);
      expect(info).toMatch(/Author:\s+J\. Smith MIOA\n/);
      // The site's own conclusion, after the summary, line by line; never the drafted one beside it.
      const summaryPage = texts[1]!;
      expect(summaryPage.indexOf('\nConclusion\n')).toBeGreaterThan(summaryPage.indexOf('Summary'));
      expect(summaryPage).toContain('The daytime limit was exceeded once, during the road works.\n');
      expect(summaryPage).toContain('No further action is advised.');
      expect(summaryPage).not.toContain('Met on every period');
      // The method: each position, the free-field one without a façade's words, the weather sensor.
      expect(flowing).toContain(
        'NM-1043 (Façade of No. 14): Rear garden of No. 14, 3 m from the fence; 1.25 m above ground, free-field.',
      );
      expect(flowing).toContain('VM-2210 (Foundation of No. 14): Foundation, north wall.');
      expect(flowing).toContain('Weather sensor: On the site office roof, 4 m above ground.');
      expect(flowing).not.toContain('reflection');
      // The instruments table: the description, its height and kind, then latitude and longitude.
      expect(text).toMatch(/Rear garden of No\. 14, 3 m[^\n]*\n[^\n]*from the fence/);
      expect(text).toMatch(/1\.25 m above ground, free-[^\n]*\n/);
    },
  );

  it.skipIf(!HAS_PDFTOTEXT)(
    `marks a draft on the cover and on every page, and says where nothing was described${NEEDS_PDFTOTEXT}`,
    async () => {
      const texts = await pdfText(
        'draft',
        reportDocument(reportFixture(), { cover: { ...COVER, status: 'draft', revision: 'P01' } }),
      );
      expect(texts[0]).toMatch(/Status\s+Draft — not final\n/);
      const pages = texts.filter((t) => t.trim() !== '');
      for (const page of pages) expect(page).toContain('· P01 · Draft, not final');
      const flowing = texts.join('\n').replace(/\s+/g, ' ');
      expect(flowing).toContain('The measurement positions were not described for this report.');
      // No conclusion of the site's own: the one drafted from the summary, in its words.
      const rows = summaryRows(reportFixture());
      const exceeded = rows.find((r) => r.verdict === 'exceeded')!;
      const conclusion = texts[1]!.slice(texts[1]!.indexOf('\nConclusion\n')).replace(/\s+/g, ' ');
      expect(conclusion).toContain(summarySentence(rows));
      expect(conclusion).toContain(`${verdictText(exceeded)}; worst case 57.1 dB`);
    },
  );

  it('writes the same facts in the Excel and CSV cover and instruments tables', async () => {
    const edited = reportDocument(reportFixture(), {
      cover: { ...COVER, status: 'for comment' },
      conclusion: WRITTEN,
      positions: POSITIONS,
    });
    const xlsx = join(dir, 'report.xlsx');
    await writeReportXlsx(reportTarget(xlsx), edited);
    const { paths } = await writeReportCsv(reportTarget(join(dir, 'report.csv')), edited);

    for (const cover of [await sheetRecords(xlsx, 'Cover'), await csvRecords(paths, 'cover')]) {
      expect(coverValue(cover, 'Issued by')).toBe('Acme Acoustics Ltd');
      expect(coverValue(cover, 'Approved by')).toBe('A. Patel MIOA');
      expect(coverValue(cover, 'Revision')).toBe('R02');
      expect(coverValue(cover, 'Status')).toBe('For comment — not final');
      // The conclusion as written, its two lines in one cell, and where it came from.
      expect(coverValue(cover, 'Conclusion')).toBe(WRITTEN);
      expect(coverValue(cover, 'Conclusion source')).toBe(CONCLUSION_SOURCE.written);
    }
    const sheet = await sheetRecords(xlsx, 'Instruments');
    const csv = await csvRecords(paths, 'instruments');
    expect(
      sheet.map((r) => [
        r['Serial'],
        r['Measurement position'],
        r['Height above ground (m)'],
        r['Free-field or façade'],
      ]),
    ).toEqual([
      [NOISE, 'Rear garden of No. 14, 3 m from the fence', 1.25, 'free-field'],
      [VIBRATION, 'Foundation, north wall', null, 'not stated'],
    ]);
    expect(
      csv.map((r) => [
        r['Serial'],
        r['Measurement position'],
        r['Height above ground (m)'],
        r['Free-field or façade'],
      ]),
    ).toEqual([
      [NOISE, 'Rear garden of No. 14, 3 m from the fence', '1.25', 'free-field'],
      [VIBRATION, 'Foundation, north wall', '', 'not stated'],
    ]);
    // The method sheet says the positions as the PDF does.
    const method = await sheetRecords(xlsx, 'Method');
    expect(method.find((m) => m['Topic'] === 'Measurement positions')?.['Text']).toContain(
      'Weather sensor: On the site office roof, 4 m above ground.',
    );

    // Without a conclusion of its own, both formats carry the drafted one and say so.
    const drafted = reportDocument(reportFixture(), { cover: COVER });
    const draftXlsx = join(dir, 'drafted.xlsx');
    await writeReportXlsx(reportTarget(draftXlsx), drafted);
    const draftCsv = await writeReportCsv(reportTarget(join(dir, 'drafted.csv')), drafted);
    for (const cover of [await sheetRecords(draftXlsx, 'Cover'), await csvRecords(draftCsv.paths, 'cover')]) {
      expect(coverValue(cover, 'Conclusion')).toBe(draftConclusion(reportFixture()));
      expect(coverValue(cover, 'Conclusion source')).toBe(CONCLUSION_SOURCE.drafted);
    }
  });

  it('says a façade position as such, its levels as measured', async () => {
    const texts = HAS_PDFTOTEXT
      ? await pdfText(
          'facade',
          reportDocument(reportFixture(), {
            positions: {
              instruments: { [NOISE]: { description: 'First-floor window', height: 4, kind: 'facade' } },
              weather: '',
            },
          }),
        )
      : [];
    const xlsx = join(dir, 'facade.xlsx');
    await writeReportXlsx(
      reportTarget(xlsx),
      reportDocument(reportFixture(), {
        positions: {
          instruments: { [NOISE]: { description: 'First-floor window', height: 4, kind: 'facade' } },
          weather: '',
        },
      }),
    );
    const method = String(
      (await sheetRecords(xlsx, 'Method')).find((m) => m['Topic'] === 'Measurement positions')?.['Text'],
    );
    expect(method).toContain('NM-1043 (Façade of No. 14): First-floor window; 4 m above ground, façade.');
    expect(method).toContain('VM-2210 (Foundation of No. 14): position not described.');
    expect(method).toContain('levels include the reflection, about +3 dB above a free-field level');
    expect(method).toContain('The figures are reported as measured, not corrected for the reflection.');
    expect(method).toContain("The weather sensor's place was not described.");
    if (HAS_PDFTOTEXT) expect(texts.join('\n').replace(/\s+/g, ' ')).toContain(method);
  });
});
