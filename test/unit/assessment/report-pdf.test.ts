/**
 * The assessment report as PDF: written through its `.part` name, every font embedded so µ, ³, ¹·⁷⁵,
 * ≥ and – copy out right, and what a planning officer reads checked in the text pdftotext extracts
 * from it (poppler-utils; those checks are skipped, saying so, where it is not installed). The pages
 * are also rendered to test-results/report-pages/ to be looked at.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { timeTicks } from '../../../src/main/backend/assessment/report/pdf-charts';
import {
  renderReportPdf,
  reportFontPath,
  writeReportPdf,
} from '../../../src/main/backend/assessment/report/report-pdf';
import { SiteClock } from '../../../src/main/backend/assessment/report/report-format';
import { reportFixture, SITE_NAME } from './report-fixture';

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
    const written = await writeReportPdf(path, result(), (stage, fraction) => stages.push([stage, fraction]));
    const bytes = await readFile(path);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(written.bytes).toBe(bytes.byteLength);
    expect(written.pages).toBeGreaterThanOrEqual(4);
    expect(await readdir(dir)).not.toContain('report.pdf.part');
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
      path,
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
    );
    expect(pages).toBeGreaterThanOrEqual(1);
    if (HAS_POPPLER) {
      const text = spawnSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }).stdout;
      expect(text).toContain('No figure exceeds its limit.');
      expect(text).toContain('No readings to draw for this chart.');
      expect(text).toContain('Fetched from the service for this report.');
    }
  });

  it('gives the same bytes for the same assessment, whenever it is written', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.UTC(2027, 0, 1, 12));
      const first = await renderReportPdf(result());
      vi.setSystemTime(Date.UTC(2028, 5, 30, 8, 15, 42));
      const second = await renderReportPdf(result());
      expect(second.data.equals(first.data)).toBe(true);
      // The creation date is the time the assessment was computed (Thu 26 Nov 2026 09:30 UTC).
      expect(first.data.toString('latin1')).toContain('(D:20261126093000Z)');
    } finally {
      vi.useRealTimers();
    }
  });

  it('finds its fonts through Node’s resolver, as the bundled app does', () => {
    for (const font of ['regular', 'bold', 'condensed', 'condensedBold'] as const) {
      expect(existsSync(reportFontPath(font))).toBe(true);
    }
  });

  it('rejects when the folder does not exist and leaves no .part file behind', async () => {
    const missing = join(dir, 'no-such-folder');
    await expect(writeReportPdf(join(missing, 'report.pdf'), result())).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(existsSync(missing)).toBe(false);
    expect((await readdir(dir)).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it.skipIf(!HAS_POPPLER)(
    `prints what the planning officer reads, fonts embedded${NEEDS_POPPLER}`,
    async () => {
      const path = join(dir, 'content.pdf');
      const { pages } = await writeReportPdf(path, result());
      const text = spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', path, '-'], {
        encoding: 'utf8',
      }).stdout;

      expect(text).toContain(`Noise and vibration assessment — ${SITE_NAME}`);
      expect(text).toContain('Mon 23 Nov 2026 00:00 – Thu 26 Nov 2026 00:00 (Europe/London, UTC+00:00)');
      // Generated when the assessment was computed; the data as fetched, part of it kept locally.
      expect(text).toMatch(/Computed\s+Thu 26 Nov 2026 09:30\n\s*Generated\s+Thu 26 Nov 2026 09:30\n/);
      expect(text).toMatch(
        /Data\s+From the service, as fetched Wed 25 Nov 2026 18:05; some kept on this computer\./,
      );
      // Instruments: position to 5 decimals, or not reported.
      expect(text).toMatch(
        /NM-1043\s+Façade of No\. 14\s+Noise monitor \/ Sentinel NM3\s+51\.47823, -0\.21419/,
      );
      expect(text).toMatch(
        /VM-2210\s+Foundation of No\. 14\s+Vibration monitor \/ Sentinel VM2\s+not reported/,
      );
      // Calibration evidence: the drift, judged against the tolerance, and a verdict per instrument.
      expect(text).toMatch(
        /Calibration\s+after\s+Thu 26 Nov 2026 09:15\s+Passed\s+94\.1\s+\+0\.1\s+\+0\.1\s+within ±0\.5 dB/,
      );
      expect(text).toContain('outside ±0.5 dB');
      expect(text).toContain('Calibrated before and after the period; drift 0.1 dB within ±0.5 dB');
      expect(text).toContain('No calibration or SIC on record');
      // Exclusions with their reasons and the total per instrument.
      expect(text).toMatch(
        /Mon 23 Nov 2026 09:00\s+Mon 23 Nov 2026 12:30\s+3 h 30 min\s+all\s+Manual\s+Road works/,
      );
      expect(text).toContain('6 h 45 min (9.4 % of the period)');
      // Figures with and without the excluded time, as formatted, and the limit verdict.
      expect(text).toMatch(/LAeq,day\s+Mon 23 Nov 2026, day.*\s54\.2\s+56\.8\s+dB\s+78\.1 %\s+55\.0\s+ok/);
      expect(text).toMatch(
        /LAeq,day\s+Tue 24 Nov 2026, day.*\s57\.1\s+58\.3\s+dB\s+90\.6 %\s+55\.0\s+EXCEEDS/,
      );
      expect(text).toMatch(/PPV Z\s+whole period\s+0\.618\s+1\.27\s+mm\/s/);
      expect(text).toMatch(/VDV,day\s+Tue 24 Nov 2026, day.*\s0\.128\s+0\.142\s+m\/s¹·⁷⁵/);
      expect(text).toContain('[1] Energetic mean of the 15-min LAeq values of the period.');
      // The exceedance with its times.
      expect(text).toMatch(
        /LAeq,day\s+Tue 24 Nov 2026, day\s.*Tue 24 Nov 07:00\s+Tue 24 Nov 23:00\s+57\.1 dB\s+55\.0 dB\s+2\.1/,
      );
      // Charts: limits labelled, time axis in site time.
      expect(text).toContain('LAeq,day limit 55.0 dB');
      expect(text).toContain('BS 5228-2 complaint level 1.00 mm/s');
      expect(text).toContain('Mon 23 Nov');
      // Hourly rows continue onto a new page with their header.
      expect(text).toMatch(
        /Hourly noise levels \(site time\) \(continued\)\n\s*Instrument\s+Hour\s+LAeq \(dB\)/,
      );
      expect(text).toMatch(/NM-1043\s+Mon 23 Nov 09:00–10:00\s+53\.6\s+—\s+68\.2\s+55\.7\s+47\.3\s+60/);
      // Events with their audio, or none.
      expect(text).toMatch(
        /Tue 24 Nov 16:20:41\s+45 s\s+86\.1\s+LAFMax above 85 dB\s+no\s+no\s+no recording/,
      );
      expect(text).toContain('aud-80a1d4');
      // Characters beyond WinAnsi come out as themselves.
      for (const s of ['µg/m³', 'm/s¹·⁷⁵', '≥ 65.0 dB', '–', '±0.5']) expect(text).toContain(s);
      // Notes, and the footer of every page.
      expect(text).toContain('could not be read (the service did not answer)');
      for (let page = 1; page <= pages; page++) expect(text).toContain(`Page ${page} of ${pages}`);
      expect(text.match(new RegExp(`${SITE_NAME} — noise and vibration assessment`, 'g'))).toHaveLength(
        pages,
      );

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
