/**
 * The assessment report as a PDF a consultant hands to a planning officer: a title block with the
 * findings first, then numbered sections (instruments, calibration, exclusions, figures,
 * exceedances, charts, hourly levels, events, notes), and "Page N of M" with the site's name in
 * every footer. Times are in the site's zone, its UTC offset stated once in the header. This module
 * says what goes where; `pdf-layout.ts` sets pages and tables, `pdf-figures.ts` tabulates the
 * figures per instrument and day and `pdf-charts.ts` draws the charts.
 * The output depends on the `AssessmentResult` alone: "Generated" and the document's creation date
 * are the time the assessment was computed, so the same assessment gives the same file.
 *
 * Text is set in DejaVu Sans, embedded from the `dejavu-fonts-ttf` package, since the PDF standard
 * fonts only cover WinAnsi and the report needs µ, ³, ¹·⁷⁵, ≥ and ± to print and to copy right. The
 * font files are found at run time through Node's resolver, from this module's own place: from the
 * sources under vitest and from the bundle (out/main, out/harness) alike; pdfkit itself stays an
 * external CommonJS dependency, as it reads its data files next to its own module.
 */
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import type { AssessmentResult } from '../../../../shared/assessment';
import { writeThroughPart, type SaveTarget } from '../../core/unfinished-files';
import { CHART_HEIGHT, drawChart } from './pdf-charts';
import { figuresSection } from './pdf-figures';
import {
  ACCENT,
  ALERT,
  INK,
  LEFT,
  MUTED,
  PAGE_MARGINS,
  Pages,
  stampFooters,
  WIDTH,
  type FontName,
} from './pdf-layout';
import { durationText, SiteClock, valueText } from './report-format';
import { reportTableViews, type ReportProgressSink } from './report-tables';
import {
  calibrationVerdict,
  dataSourceText,
  excludedTime,
  instrumentText,
  percentOfPeriod,
  REPORT_TITLE,
  reportTitle,
  settingsText,
} from './report-verdicts';

// ---- fonts --------------------------------------------------------------------------------------

const FONT_FILES: Readonly<Record<FontName, string>> = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  condensed: 'dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf',
  condensedBold: 'dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf',
};

// `__filename`, not `import.meta.url`: the bundles and Playwright's loader run this as CommonJS,
// which cannot parse `import.meta`; vitest's runner gives `__filename` too.
const resolveFromHere = createRequire(__filename);

/** The file of one of the report's fonts, resolved as Node resolves a package's file. */
export function reportFontPath(font: FontName): string {
  return resolveFromHere.resolve(FONT_FILES[font]);
}

// ---- the report ---------------------------------------------------------------------------------

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "6 h 45 min" and "9.4": an instrument's excluded time and its share of the period in per cent. */
function excludedShare(result: AssessmentResult, serial: string): [string, string] {
  const ms = excludedTime(result, serial);
  return [durationText(ms), percentOfPeriod(result, ms).toFixed(1)];
}

function titleBlock(pages: Pages, result: AssessmentResult, clock: SiteClock, notesSection: number): void {
  const doc = pages.doc;
  doc.font('bold').fontSize(17).fillColor(ACCENT);
  const title = reportTitle(result);
  const height = doc.heightOfString(title, { width: WIDTH });
  doc.text(title, LEFT, pages.y, { width: WIDTH });
  pages.y += height + 6;
  const facts: Array<[string, string]> = [
    [
      'Period',
      `${clock.long(result.start, true)} – ${clock.long(result.end, true)} ${clock.zoneText(result.start, result.end)}`,
    ],
    ['Computed', clock.long(result.computedAt)],
    ['Generated', clock.long(result.computedAt)],
    ['Data', `${dataSourceText(result, clock)}.`],
    ['Basis', settingsText(result)],
  ];
  for (const [label, value] of facts) {
    const h = pages.measure(value, { size: 8.5, indent: 62 });
    doc
      .font('bold')
      .fontSize(8.5)
      .fillColor(MUTED)
      .text(label, LEFT, pages.y, { width: 60, lineBreak: false });
    doc
      .font('regular')
      .fontSize(8.5)
      .fillColor(INK)
      .text(value, LEFT + 62, pages.y, { width: WIDTH - 62, lineGap: 1 });
    pages.y += h + 2.5;
  }
  pages.gap(6);

  // Findings in a box: what a reader needs first.
  const findings: string[] = [];
  if (result.exceedances.length === 0) findings.push('No figure exceeds its limit.');
  else {
    findings.push(
      `${plural(result.exceedances.length, 'figure exceeds its limit', 'figures exceed their limits')}:`,
    );
    for (const e of result.exceedances) {
      findings.push(
        `• ${e.serial} ${e.label}, ${e.period}: ${valueText(e.value, e.unit)} ${e.unit} against ${valueText(e.limit, e.unit)} ${e.unit}`,
      );
    }
  }
  const excluded = result.instruments.map((i) => {
    const [time, percent] = excludedShare(result, i.serial);
    return `${i.serial} ${time} (${percent} %)`;
  });
  if (excluded.length > 0) findings.push(`Excluded time: ${excluded.join('; ')}.`);
  for (const i of result.instruments)
    findings.push(`${i.serial}: ${calibrationVerdict(result, i.serial, clock)}.`);
  if (result.notes.length > 0)
    findings.push(
      `${plural(result.notes.length, 'note')} on what could not be read or computed: see section ${notesSection}.`,
    );

  const pad = 7;
  const heights = findings.map((f) => pages.measure(f, { size: 8.5, indent: 2 * pad }) + 2);
  const boxHeight = heights.reduce((a, b) => a + b, 0) + 2 * pad + 12;
  pages.need(boxHeight);
  doc.rect(LEFT, pages.y, WIDTH, boxHeight).fill('#f3f6f9');
  doc.rect(LEFT, pages.y, 2.5, boxHeight).fill(ACCENT);
  let y = pages.y + pad;
  doc
    .font('bold')
    .fontSize(9)
    .fillColor(ACCENT)
    .text('Summary', LEFT + pad + 4, y, { lineBreak: false });
  y += 13;
  findings.forEach((line, i) => {
    const alert = line.startsWith('•');
    doc
      .font(alert ? 'bold' : 'regular')
      .fontSize(8.5)
      .fillColor(alert ? ALERT : INK)
      .text(line, LEFT + pad + 4, y, { width: WIDTH - 2 * pad, lineGap: 1 });
    y += heights[i]!;
  });
  pages.y += boxHeight + 4;
}

/** Lays the report out into a finished PDF in memory; its bytes and page count. */
export async function renderReportPdf(
  result: AssessmentResult,
  onProgress: ReportProgressSink = () => {},
): Promise<{ data: Buffer; pages: number }> {
  const clock = new SiteClock(result.timeZone, result.start);
  const views = new Map(reportTableViews(result).map((v) => [v.name, v]));
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'portrait',
    margins: PAGE_MARGINS,
    bufferPages: true,
    font: reportFontPath('regular'),
    lang: 'en-GB',
    displayTitle: true,
    info: {
      Title: reportTitle(result),
      Author: 'FieldDesk',
      Subject: `${REPORT_TITLE}, ${clock.long(result.start)} – ${clock.long(result.end)}`,
      Keywords: `${result.siteName}, noise, vibration, assessment`,
      // pdfkit stamps the time of writing otherwise; the file ID is formed from these too.
      CreationDate: new Date(result.computedAt),
    },
  });
  for (const font of Object.keys(FONT_FILES) as FontName[]) doc.registerFont(font, reportFontPath(font));
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const pages = new Pages(doc);
  /** A table; without its own title when the section's heading says it. */
  const table = (name: string, empty: string, title?: string) => {
    const view = views.get(name);
    if (!view?.display) return;
    if (view.display.rows.length === 0) pages.text(empty, { color: MUTED });
    else pages.table(title ?? view.title, view.display, title !== undefined);
  };
  /** Each section's title and what writes its body, given the section's number. */
  const sections: Array<[string, (number: number) => void]> = [
    ['Instruments', () => table('instruments', 'No instruments.')],
    [
      'Calibration evidence',
      () => {
        pages.text(
          'Each calibration and sound-level check (SIC) of the instruments before, during and after the period, with the drift since the previous check of the same kind.',
          { color: MUTED, size: 8.5 },
        );
        table('calibration', 'No calibration or SIC on record for these instruments.', 'Checks');
        pages.subheading('Verdict per instrument', 20);
        for (const i of result.instruments) {
          pages.bullet(
            `${instrumentText(result, i.serial)}: ${calibrationVerdict(result, i.serial, clock)}.`,
          );
        }
      },
    ],
    [
      'Excluded periods',
      () => {
        table('exclusions', 'No time was excluded.', 'Periods');
        pages.subheading('Total excluded time per instrument', 20);
        for (const i of result.instruments) {
          const [time, percent] = excludedShare(result, i.serial);
          pages.bullet(
            `${instrumentText(result, i.serial)}: ${time} (${percent} % of the period), overlapping periods counted once.`,
          );
        }
      },
    ],
    ['Figures', (number) => figuresSection(pages, result, number)],
    ['Exceedances', () => table('exceedances', 'No figure exceeds its limit.')],
    [
      'Charts',
      () => {
        if (result.charts.length === 0) pages.text('No charts.', { color: MUTED });
        for (const chart of result.charts) drawChart(pages, chart, result, clock);
      },
    ],
    ['Hourly levels', () => table('hourly', 'No hourly levels.', 'Hourly noise levels (site time)')],
    ['Noise events', () => table('events', 'No noise events were recorded.')],
    [
      'Notes',
      () => {
        if (result.notes.length === 0)
          pages.text('None: every part of the data could be read.', { color: MUTED });
        for (const note of result.notes) pages.bullet(note);
      },
    ],
  ];

  titleBlock(pages, result, clock, sections.length);
  for (const [index, [title, write]] of sections.entries()) {
    onProgress(`Writing ${title.toLowerCase()}`, (index / sections.length) * 0.9);
    // A heading stays with what follows it: a chart is kept whole.
    pages.heading(
      `${index + 1}  ${title}`,
      title === 'Charts' && result.charts.length > 0 ? CHART_HEIGHT : 60,
    );
    write(index + 1);
    // Let the event loop breathe between sections: a long report should not freeze the app.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const count = stampFooters(doc, `${result.siteName} — ${REPORT_TITLE.toLowerCase()}`);
  doc.flushPages();
  doc.end();
  await finished;
  return { data: Buffer.concat(chunks), pages: count };
}

/**
 * Writes the report as a PDF to the target's path (through a temporary file, made only once the
 * PDF is, so a report stopped while it is made leaves nothing); its size and page count.
 */
export async function writeReportPdf(
  target: SaveTarget,
  result: AssessmentResult,
  onProgress: ReportProgressSink = () => {},
): Promise<{ bytes: number; pages: number }> {
  const { data, pages } = await renderReportPdf(result, onProgress);
  onProgress('Saving the PDF', 0.95);
  await writeThroughPart(target, (handle) => handle.writeFile(data));
  onProgress('Done', 1);
  return { bytes: data.byteLength, pages };
}
