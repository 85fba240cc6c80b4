/**
 * The assessment report as PDF: written through its `.part` name, every font embedded so µ, ³, ¹·⁷⁵,
 * ≥ and – copy out right, and what a planning officer reads checked in the text pdftotext extracts
 * from it (poppler-utils; those checks are skipped, saying so, where it is not installed). The pages
 * are also rendered to test-results/report-pages/ to be looked at.
 */
import { reportDocument } from '../../../src/main/backend/assessment/report/report-document';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { timeTicks } from '../../../src/main/backend/assessment/report/pdf-charts';
import { renderReportPdf, writeReportPdf } from '../../../src/main/backend/assessment/report/report-pdf';
import { pdfFontPath } from '../../../src/main/backend/pdf/pdf-document';
import { SiteClock } from '../../../src/main/backend/assessment/report/report-format';
import type { SitePositions, SiteCover } from '../../../src/shared/assessment';
import { draftConclusion } from '../../../src/shared/assessment-conclusion';
import { summaryRows, summarySentence, verdictText } from '../../../src/shared/assessment-summary';
import { NOISE, reportFixture, reportTarget, SITE_NAME } from './report-fixture';
import { WEEK_SERIALS, weekFixture } from './report-week';

const has = (tool: string) => spawnSync(tool, ['-v'], { stdio: 'ignore' }).error === undefined;
const HAS_POPPLER = has('pdftotext') && has('pdftoppm') && has('pdffonts');
const NEEDS_POPPLER = HAS_POPPLER
  ? ''
  : ' [SKIPPED: pdftotext, pdftoppm and pdffonts (Debian poppler-utils) are not installed; apt-get install -y poppler-utils]';
if (!HAS_POPPLER) console.warn(`report-pdf.test:${NEEDS_POPPLER}`);

const PAGES_DIR = resolve(__dirname, '../../../test-results/report-pages');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fielddesk-report-pdf-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The text of each page, as pdftotext lays it out. */
const pagesText = (path: string) =>
  spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', path, '-'], { encoding: 'utf8' }).stdout.split('\f');

const COVER: SiteCover = {
  client: 'Thames Water Utilities Ltd',
  project: 'Mogden sludge dryer',
  reference: 'AC-2026-114/R01',
  author: 'J. Smith MIOA',
  company: 'Acme Acoustics Ltd',
  approver: 'A. Patel MIOA',
  revision: 'R01',
  status: 'draft',
};
/** The noise monitor at a façade, the vibration monitor's place left undescribed. */
const POSITIONS: SitePositions = {
  instruments: { [NOISE]: { description: 'First-floor window of No. 14', height: 4, kind: 'facade' } },
  weather: 'On the site office roof, 3 m above ground',
};
const ALL_APPENDICES = { exclusions: true, events: true, hourly: true };

/** The fixture with a dust note, so µg/m³ is printed too. */
const result = () =>
  reportFixture({
    notes: [
      ...reportFixture().notes,
      'Dust was not assessed: the PM10 24-h mean of 38.2 µg/m³ is for reference.',
    ],
  });

describe('assessment report PDF', () => {
  it('writes through a .part file and says how many pages it has', async () => {
    const path = join(dir, 'report.pdf');
    const stages: Array<[string, number]> = [];
    const written = await writeReportPdf(reportTarget(path), reportDocument(result()), (stage, fraction) =>
      stages.push([stage, fraction]),
    );
    const bytes = await readFile(path);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(written.bytes).toBe(bytes.byteLength);
    expect(written.pages).toBeGreaterThanOrEqual(4);
    expect((await readdir(dir)).filter((name) => name.endsWith('.part'))).toEqual([]);
    // Progress only goes forward and ends done.
    const fractions = stages.map(([, f]) => f);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(stages.at(-1)).toEqual(['Done', 1]);
  });

  it('writes an assessment with nothing in it, and charts with one, no or flat readings', async () => {
    const path = join(dir, 'empty.pdf');
    const base = result();
    const chart = base.charts[0]!;
    const { pages } = await writeReportPdf(
      reportTarget(path),
      reportDocument(
        reportFixture({
          instruments: [],
          exclusions: [],
          figures: [],
          hourly: [],
          exceedances: [],
          checks: [],
          events: [],
          notes: [],
          fromCache: false,
          charts: [
            { ...chart, times: [chart.times[0]!], values: [50] },
            { ...chart, values: chart.values.map(() => null) },
            { ...chart, values: chart.values.map(() => 0), limits: [] },
          ],
        }),
      ),
    );
    expect(pages).toBeGreaterThanOrEqual(1);
    if (HAS_POPPLER) {
      const text = spawnSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }).stdout;
      expect(text).toContain('No limit is set for the figures of this site.');
      expect(text).toContain('No figure exceeds its limit.');
      expect(text).toContain('No figures could be formed.');
      expect(text).toContain('No readings to draw for this chart.');
      expect(text).toContain('Fetched from the service for this report.');
    }
  });

  it('gives the same bytes for the same assessment, whenever it is written', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.UTC(2027, 0, 1, 12));
      const first = await renderReportPdf(reportDocument(result()));
      vi.setSystemTime(Date.UTC(2028, 5, 30, 8, 15, 42));
      const second = await renderReportPdf(reportDocument(result()));
      expect(second.data.equals(first.data)).toBe(true);
      // The creation date is the time the assessment was computed (Thu 26 Nov 2026 09:30 UTC).
      expect(first.data.toString('latin1')).toContain('(D:20261126093000Z)');
    } finally {
      vi.useRealTimers();
    }
  });

  it('finds its fonts through Node’s resolver, as the bundled app does', () => {
    for (const font of ['regular', 'bold', 'condensed', 'condensedBold'] as const) {
      expect(existsSync(pdfFontPath(font))).toBe(true);
    }
  });

  it('rejects when the folder does not exist and leaves no .part file behind', async () => {
    const missing = join(dir, 'no-such-folder');
    await expect(
      writeReportPdf(reportTarget(join(missing, 'report.pdf')), reportDocument(result())),
    ).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(existsSync(missing)).toBe(false);
    expect((await readdir(dir)).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it.skipIf(!HAS_POPPLER)(
    `prints what the client reads: cover, summary table, method, evidence, results, appendices, fonts embedded${NEEDS_POPPLER}`,
    async () => {
      const path = join(dir, 'content.pdf');
      const { pages } = await writeReportPdf(
        reportTarget(path),
        reportDocument(result(), { cover: COVER, positions: POSITIONS, appendices: ALL_APPENDICES }),
      );
      const texts = pagesText(path);
      const text = texts.join('\n');
      /** The text with its lines run together, for paragraphs the layout wraps. */
      const flowing = text.replace(/\s+/g, ' ');

      // The cover: the title from what the site measures (noise and vibration here), the site and
      // the cover's facts, and the contents with their pages.
      expect(texts[0]).toMatch(/^Noise and vibration assessment\nRiverside Close\n/);
      expect(texts[0]).toMatch(/Client\s+Thames Water Utilities Ltd\n/);
      expect(texts[0]).toMatch(/Project\s+Mogden sludge dryer\n/);
      expect(texts[0]).toMatch(/Reference\s+AC-2026-114\/R01\n/);
      expect(texts[0]).toMatch(/Prepared by\s+J\. Smith MIOA\n/);
      expect(texts[0]).toMatch(/Revision\s+R01\n/);
      expect(texts[0]).toMatch(/Status\s+Draft — not final\n/);
      expect(texts[0]).toMatch(/Approved by\s+A\. Patel MIOA\n/);
      expect(texts[0]).toMatch(/Issued by\s+Acme Acoustics Ltd\n/);
      expect(texts[0]).toMatch(/Period\s+Mon 23 Nov 2026 00:00 – Thu 26 Nov 2026 00:00 \(Europe\/London,/);
      expect(texts[0]).toMatch(/Date\s+Thu 26 Nov 2026 09:30\n/);
      expect(texts[0]).toMatch(/Summary\s+2\n\s*Conclusion\s+2\n\s*1 Method\s+3\n/);
      expect(texts[0]).toMatch(/Appendix C Hourly noise levels\s+\d+\n/);

      // The summary: a row per limit and instrument, met or exceeded, n of m, worst case, coverage.
      expect(texts[1]).toMatch(/^Summary\n/);
      expect(texts[1]).toMatch(
        /LAeq,day\s+NM-1043\s+55\.0 dB\s+exceeded\s+1 of 3\s+57\.1 dB\s+Tue 24 Nov 2026, day 07:00–23:00\s+all 3 stated\n/,
      );
      expect(texts[1]).toMatch(/LAeq,night\s+NM-1043\s+45\.0 dB\s+met\s+0 of 2\s+44\.8 dB/);
      // A PPV to a thousandth, as its figure states it on screen (the PDF once wrote 1.24 beside 1.236).
      expect(texts[1]).toMatch(/PPV X\s+VM-2210\s+1\.500 mm\/s\s+met\s+0 of 1\s+1\.236 mm\/s\s+whole period/);
      expect(texts[1]).toMatch(/PPV Z\s+VM-2210\s+1\.000 mm\/s\s+met\s+0 of 1\s+0\.618 mm\/s\s+whole period/);
      // Never a bullet per exceedance.
      expect(text).not.toMatch(/• NM-1043 LAeq,day/);

      // The conclusion after the summary: drafted (the site has none) in the summary's own words.
      const rows = summaryRows(result());
      const exceeded = rows.find((r) => r.verdict === 'exceeded')!;
      expect(texts[1]).toMatch(/\nConclusion\n/);
      const conclusion = texts[1]!.slice(texts[1]!.indexOf('\nConclusion\n')).replace(/\s+/g, ' ');
      expect(conclusion).toContain(summarySentence(rows));
      expect(conclusion).toContain(
        `LAeq,day at NM-1043 (limit 55.0 dB): ${verdictText(exceeded)}; worst case 57.1 dB`,
      );
      for (const line of draftConclusion(result()).split('\n')) expect(conclusion).toContain(line);

      // The method: the coverage and comparison rules, the standards, this site's settings.
      expect(text).toContain('A figure needs at least 75 % of its period kept (read and not excluded).');
      expect(text).toMatch(
        /A value is over its limit when the value as stated \(rounded to its shown\s+precision\) is above it/,
      );
      expect(text).toContain('DIN 4150-3 line 2 (dwellings)');
      expect(text).toContain('ISO 1996-1:2016');
      expect(text).not.toContain('Directive 2008/50/EC'); // no particulates measured
      // The method's measurement positions: the façade said as such, its levels as measured.
      expect(flowing).toContain(
        'NM-1043 (Façade of No. 14): First-floor window of No. 14; 4 m above ground, façade. VM-2210 (Foundation of No. 14): position not described.',
      );
      expect(flowing).toContain('levels include the reflection, about +3 dB above a free-field level');
      expect(flowing).toContain('The figures are reported as measured, not corrected for the reflection.');
      expect(flowing).toContain('Weather sensor: On the site office roof, 3 m above ground.');

      // Instruments with their verdict; the checks with drift against the tolerance.
      // Each instrument with its measurement position (described, height, façade; then its latitude
      // and longitude), excluded time and calibration verdict.
      expect(text).toMatch(
        /NM-1043 \(Façade of\s+Noise\s+First-floor window of No\. 14\s+6 h 45 min\s+Calibrated before and after/,
      );
      expect(text).toMatch(/\s4 m above ground, façade\s[^\n]*\n[^\n]*51\.47823,/);
      expect(text).toMatch(/VM-2210\s+Vibration\s+not described\s+4 h 15 min\s+No calibration/);
      expect(text).toMatch(
        /Calibration\s+after\s+Thu 26 Nov 2026\s+Instrument\s+94\.06\s+\+0\.06\s+—\s+\+0\.1\s+within ±0\.5 dB\s+not/,
      );
      // The failed SIC is flagged as failed, never judged against the calibration's ±0.5 dB.
      // (The verdict wraps in its column: "FLAGGED:" on the row's first line, "failed" beneath.)
      expect(text).toMatch(/\+0\.89 FLAGGED:[^\n]*\n[^\n]*“Failed”\s+failed/);
      expect(text).not.toMatch(/SIC.*outside ±0\.5 dB/);
      expect(text).toContain('No calibration or SIC on record');

      // Results: per instrument, the whole period, then a row per date and a column per figure.
      expect(text).toMatch(/3\.1 NM-1043 \(Façade of No\. 14\)\n\s*Whole period\n/);
      expect(text).toMatch(/Lden \[4\]\s+56\.9\s+58\.1\s+dB\s+93 %\s+—\s+—\n/);
      expect(text).toMatch(
        /\nMon 23 Nov 2026\s+54\.2\s+43\.6\s+71\.4\s+38\.0\n\s+all 56\.8 78 %\s+all 44\.1 87 %\s+87 %\s+all 38\.2 87 %\n/,
      );
      expect(text).toMatch(/\nTue 24 Nov 2026\s+over\s+57\.1\s+44\.8\n/);
      expect(text).toMatch(/PPV Z \[5\]\s+0\.618\s+1\.274\s+mm\/s\s+94 %\s+1\.000\s+met\n/);
      expect(text).toContain('[1] Energetic mean of the 15-min LAeq values of the period.');

      // Exceedances grouped by figure, with the figure's own precision.
      expect(text).toMatch(/LAeq,day: 1 period over the limit of 55\.0 dB\n/);
      // An LAeq exceedance names its loudest hour with enough kept (the hourly table's).
      expect(text).toMatch(
        /NM-1043\s+Tue 24 Nov 2026, day 07:00–23:00\s+loudest hour Tue 24 Nov\s+57\.1 dB\s+55\.0 dB\s+2\.1\n\s+2026 19:00–20:00, 58\.5 dB\n/,
      );
      // Charts.
      expect(text).toContain('LAeq,day limit 55.0 dB');
      expect(text).toContain('BS 5228-2 complaint level 1.000 mm/s');

      // Appendices, each on a page of its own: exclusions, events without raw ids or thresholds as
      // levels, the hourly table running on with its head.
      const appendixPage = (title: string) => texts.findIndex((t) => t.startsWith(title));
      expect(appendixPage('Appendix A Excluded periods')).toBeGreaterThan(1);
      expect(appendixPage('Appendix B Noise events')).toBeGreaterThan(
        appendixPage('Appendix A Excluded periods'),
      );
      expect(text).toMatch(
        /Manual\s+Mon 23 Nov 2026 09:00\s+Mon 23 Nov 2026 12:30\s+3 h 30 min\s+all\s+Road works/,
      );
      expect(text).toMatch(/Instrument\s+Time\s+Duration\s+Trigger\s+Overall\s+Night\s+Excluded\s+Recording/);
      expect(text).not.toMatch(/Level \(dB\)\s+Trigger/);
      expect(text).toContain('NM-1043 2026-11-24 014705');
      for (const event of result().events)
        if (event.audioId !== null) expect(text).not.toContain(event.audioId);
      expect(text).toMatch(
        /Hourly noise levels \(site time\) \(continued\)\n\s*Instrument\s+Hour\s+LAeq \(dB\)/,
      );

      // Characters beyond WinAnsi come out as themselves.
      for (const c of ['µg/m³', 'm/s¹·⁷⁵', '–', '±0.5']) expect(text).toContain(c);
      // Notes, and the footer of every page.
      expect(text).toContain('could not be read (the service did not answer)');
      for (let page = 1; page <= pages; page++) expect(text).toContain(`Page ${page} of ${pages}`);
      expect(text.match(new RegExp(`${SITE_NAME} — noise and vibration assessment`, 'g'))).toHaveLength(
        pages,
      );
      // This fixture's page count with every appendix: a change of layout shows here.
      expect(pages).toBe(10);

      // Every font is embedded (subset), none of the standard 14.
      const fonts = spawnSync('pdffonts', [path], { encoding: 'utf8' }).stdout.trim().split('\n').slice(2);
      expect(fonts.length).toBeGreaterThan(0);
      for (const line of fonts) {
        expect(line).toMatch(/DejaVuSans/);
        expect(line).toMatch(/\s+yes\s+yes\s+yes\s+/); // emb, sub, uni
      }

      // The pages as pictures, to look at.
      // Only this test's own page-N.png: other tests write their pictures into the folder too.
      const ours = async () => (await readdir(PAGES_DIR)).filter((name) => /^page-\d+\.png$/.test(name));
      await mkdir(PAGES_DIR, { recursive: true });
      await Promise.all((await ours()).map((name) => rm(join(PAGES_DIR, name), { force: true })));
      const render = spawnSync('pdftoppm', ['-png', '-r', '60', path, join(PAGES_DIR, 'page')]);
      expect(render.status).toBe(0);
      const pngs = await ours();
      expect(pngs).toHaveLength(pages);
      for (const png of pngs) expect((await stat(join(PAGES_DIR, png))).size).toBeGreaterThan(1000);
    },
  );

  it.skipIf(!HAS_POPPLER)(`titles the report from what the site measures${NEEDS_POPPLER}`, async () => {
    const base = result();
    const noiseOnly = reportFixture({
      instruments: base.instruments.filter((i) => i.serial === NOISE),
      figures: base.figures.filter((f) => f.serial === NOISE),
    });
    const path = join(dir, 'noise-only.pdf');
    await writeReportPdf(reportTarget(path), reportDocument(noiseOnly));
    const text = pagesText(path).join('\n');
    expect(text).toMatch(/^Noise assessment\nRiverside Close\n/);
    expect(text).not.toContain('vibration');
    expect(text).not.toContain('DIN 4150-3');
    // Without appendices ticked, none is printed and the contents lists none.
    const none = join(dir, 'no-appendices.pdf');
    await writeReportPdf(
      reportTarget(none),
      reportDocument(base, { appendices: { exclusions: false, events: false, hourly: false } }),
    );
    expect(pagesText(none).join('\n')).not.toContain('Appendix');
  });

  it.skipIf(!HAS_POPPLER)(`never lists an insufficient figure as an exceedance${NEEDS_POPPLER}`, async () => {
    const base = result();
    const figures = base.figures.map((f) =>
      f.id === base.exceedances[0]!.figureId ? { ...f, state: 'insufficient' as const, coverage: 0.41 } : f,
    );
    const path = join(dir, 'insufficient.pdf');
    await writeReportPdf(reportTarget(path), reportDocument(reportFixture({ figures })));
    const text = pagesText(path).join('\n');
    expect(text).toMatch(/LAeq,day\s+NM-1043\s+55\.0 dB\s+met on 2 of 3\s+0 of 2\s+55\.0 dB.*2 of 3 stated/);
    expect(text).toContain('No figure exceeds its limit.');
    expect(text).not.toMatch(/\bover\s+57\.1/);
    expect(text).toMatch(/insufficient\s+data \(41 %\)/);
  });
});

describe('assessment report PDF of a realistic week', () => {
  it.skipIf(!HAS_POPPLER)(
    `tabulates three noise monitors' week by day, ten figures over two tables, in eight pages${NEEDS_POPPLER}`,
    async () => {
      const path = join(dir, 'week.pdf');
      const none = { exclusions: false, events: false, hourly: false };
      const { pages } = await writeReportPdf(
        reportTarget(path),
        reportDocument(weekFixture(7, 3), { appendices: none }),
      );
      const texts = pagesText(path);
      const text = texts.join('\n');
      // Cover, summary, method and evidence, a page of results per monitor, charts, exceedances.
      const pageOf = (heading: string) => texts.findIndex((t) => new RegExp(`^${heading}$`, 'm').test(t));
      expect(texts[0]).toMatch(/^Noise assessment\n/);
      // The conclusion, drafted from nine exceeded rows, still on the summary's page.
      expect(pageOf('Summary') + 1).toBe(2);
      expect(pageOf('Conclusion') + 1).toBe(2);
      expect(pageOf('1 Method') + 1).toBe(3);
      expect(pageOf('3 Results') + 1).toBe(4);
      expect(pages).toBe(8);
      // The summary: one row per limit and monitor, never a bullet per exceedance.
      expect(texts[1]).toMatch(
        // The two part days (11 and 5 of 16 hours) are insufficient data: 6 days judged.
        /LAeq,day\s+NM-1071\s+55\.0 dB\s+exceeded\s+2 of 6\s+57\.9 dB\s+Wed 25 Nov 2026, day/,
      );
      expect(texts[1]).toMatch(
        /LAFMax,night\s+NM-1043\s+60\.0 dB\s+exceeded\s+1 of 7\s+64\.9 dB\s+Sat 28 Nov 2026 01:45–02:00/,
      );
      expect(texts[1]!.match(/^\S+\s+NM-\d+\s+\d+\.\d dB\s+(met|exceeded)\s/gm)).toHaveLength(9);
      expect(text).not.toContain('Appendix');
      expect(text).not.toContain('au_');

      for (const serial of WEEK_SERIALS) expect(text).toMatch(new RegExp(`3\\.\\d ${serial} \\(`));
      // Ten figures: the day and evening in one table, the night and Lden in the next, each with the date.
      expect(text.match(/daily figures \(1 of 2\)/gi)).toHaveLength(3);
      expect(text).toMatch(/Date\s+LAeq,day\s+LA10,day\s+LA90,day\s+LAeq,evening\n\s+dB \[1\]\s+dB \[2\]/);
      expect(text).toMatch(
        /Date\s+LAeq,night\s+LA10,night\s+LA90,night\s+LAFMax,night\s+Events ≥ 65 dB,\s+Lden\n.*\n\s+limit 45\.0\s+limit 60\.0\s+events \[5\]\n/,
      );
      // The works on Wednesday put its day over the limit; Friday's loud night (on Friday's line) too.
      expect(text).toMatch(/\nWed 25 Nov 2026\s+over\s+56\.6\s+58\.0\s+49\.3\s+51\.2\n/);
      expect(text).toMatch(/\nFri 27 Nov 2026\s+over\s+47\.3\s+47\.9\s+39\.2\s+over\s+64\.9\s+1\s+55\.9\n/);
      // The period's first and last day were cut short: 11 and 5 of the day's 16 hours (68.75 %, 31.25 %)
      // are below the 75 % rule, so insufficient data, never a value; events are counted whole.
      expect(text).toMatch(
        /\nMon 23 Nov 2026\s+insufficient data \(68 %\)\s+insufficient data \(68 %\)\s+insufficient data \(68 %\)\s+51\.3\n\s+part\s+part\s+part\n/,
      );
      expect(text).toMatch(
        /\nMon 30 Nov 2026\s+insufficient data \(31 %\)\s+insufficient data \(31 %\)\s+insufficient data \(31 %\)\n\s+part\s+part\s+part\n/,
      );
      expect(text).not.toMatch(/\s1\.0\s+55\.9\n/);

      // The pages as pictures, to look at.
      await mkdir(PAGES_DIR, { recursive: true });
      const ours = async () => (await readdir(PAGES_DIR)).filter((name) => /^week-page-\d+\.png$/.test(name));
      await Promise.all((await ours()).map((name) => rm(join(PAGES_DIR, name), { force: true })));
      const render = spawnSync('pdftoppm', ['-png', '-r', '60', path, join(PAGES_DIR, 'week-page')]);
      expect(render.status).toBe(0);
      expect(await ours()).toHaveLength(pages);
    },
  );

  it.skipIf(!HAS_POPPLER)(
    `runs two months' daily table on to the next page under its head again${NEEDS_POPPLER}`,
    async () => {
      const path = join(dir, 'months.pdf');
      await writeReportPdf(reportTarget(path), reportDocument(weekFixture(62)));
      const text = pagesText(path).join('\n');
      expect(text).toMatch(
        /NM-1043: daily figures \(1 of 2\) \(continued\)\n\s*Date\s+LAeq,day\s+LA10,day\s+LA90,day\s+LAeq,evening\n/,
      );
      expect(text).toMatch(/\nWed 23 Dec 2026\s+53\.9\s+56\.0\s+47\.3\s+51\.5\n/);
    },
  );
});

describe('chart time ticks', () => {
  const clock = new SiteClock('Europe/London', Date.UTC(2026, 10, 23));

  it('ticks every 6 h for three days, dated at midnight', () => {
    const ticks = timeTicks(clock, Date.UTC(2026, 10, 23), Date.UTC(2026, 10, 26));
    expect(ticks).toHaveLength(13);
    expect(ticks.slice(0, 5).map((t) => t.label)).toEqual(['00:00', '06:00', '12:00', '18:00', '00:00']);
    expect(ticks.filter((t) => t.day).map((t) => t.day)).toEqual([
      'Mon 23 Nov',
      'Tue 24 Nov',
      'Wed 25 Nov',
      'Thu 26 Nov',
    ]);
  });

  it('ticks on whole local hours across a change of offset', () => {
    // Clocks go back at 02:00 BST on Sun 25 Oct 2026, to 01:00 GMT.
    const ticks = timeTicks(clock, Date.UTC(2026, 9, 24, 18), Date.UTC(2026, 9, 25, 12));
    expect(ticks[0]).toMatchObject({ time: Date.UTC(2026, 9, 24, 19), label: '20:00', day: 'Sat 24 Oct' });
    expect(ticks.find((t) => t.label === '00:00')).toMatchObject({
      time: Date.UTC(2026, 9, 24, 23),
      day: 'Sun 25 Oct',
    });
    expect(ticks.find((t) => t.label === '02:00')?.time).toBe(Date.UTC(2026, 9, 25, 2));
  });
});
