/**
 * The assessment report as a PDF a consultant signs and hands to a client, structured as theirs
 * are: a cover (site, client, project, reference, revision, status, author, approver, company,
 * date, and the contents with their pages); a summary table of the findings (each limit: the
 * governing figure, met or exceeded, how often, the worst case, coverage) and the conclusion; then
 * numbered sections — method, instruments and
 * calibration evidence, results (the figures per instrument and day), charts, exceedances grouped
 * by figure, notes — and the appendices the user ticked (excluded periods, noise events, hourly
 * levels), each on a page of its own. "Page N of M" with the site's name in every footer. Times are
 * in the site's zone, its UTC offset stated once. This module says what goes where;
 * `pdf-layout.ts` sets pages and tables, `pdf-figures.ts` tabulates the figures per instrument and
 * day and `pdf-charts.ts` draws the charts.
 * The output depends on the `ReportDocument` alone: the report's date and the document's creation
 * date are the time the assessment was computed, so the same assessment gives the same file.
 *
 * Text is set in DejaVu Sans, embedded from the `dejavu-fonts-ttf` package, since the PDF standard
 * fonts only cover WinAnsi and the report needs µ, ³, ¹·⁷⁵, ≥ and ± to print and to copy right. The
 * font files are found at run time through Node's resolver, from this module's own place: from the
 * sources under vitest and from the bundle (out/main, out/harness) alike; pdfkit itself stays an
 * external CommonJS dependency, as it reads its data files next to its own module.
 */
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { writeThroughPart, type SaveTarget } from '../../core/unfinished-files';
import { CHART_HEIGHT, drawChart } from './pdf-charts';
import { figuresSection } from './pdf-figures';
import { condensesChecks } from './evidence-tables';
import { HOURLY_NOTE } from '../../../../shared/assessment-hourly';
import {
  ACCENT,
  ALERT,
  CONTENT_BOTTOM,
  HAIRLINE,
  INK,
  LEFT,
  MUTED,
  PAGE_MARGINS,
  Pages,
  rule,
  stampFooters,
  TOP,
  WIDTH,
  type FontName,
} from './pdf-layout';
import {
  measuredBy,
  reportKind,
  reportTitle,
  throwIfCancelled,
  type ReportDocument,
} from './report-document';
import { SiteClock } from './report-format';
import { methodItems } from './report-method';
import { exceedanceGroups } from './report-summary';
import { reportStatusText } from '../../../../shared/assessment';
import { reportConclusion } from '../../../../shared/assessment-conclusion';
import { limitText, summaryRows, summarySentence } from '../../../../shared/assessment-summary';
import { excludedShareText } from './instruments-table';
import type { DisplayTable } from './report-columns';
import {
  appendicesOf,
  coverFacts,
  reportTableViews,
  STATUS_FACT,
  statusText,
  type ReportProgressSink,
} from './report-tables';
import { calibrationVerdict, instrumentText } from './report-verdicts';

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

/**
 * An A4 portrait document as FieldDesk writes them (the report, the visit sheet): its margins, the
 * fonts embedded by name, and `finish`, which ends it and answers its bytes.
 */
export function openPdf(info: PDFKit.DocumentInfo): { doc: PDFKit.PDFDocument; finish(): Promise<Buffer> } {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'portrait',
    margins: PAGE_MARGINS,
    bufferPages: true,
    font: reportFontPath('regular'),
    lang: 'en-GB',
    displayTitle: true,
    info,
  });
  for (const font of Object.keys(FONT_FILES) as FontName[]) doc.registerFont(font, reportFontPath(font));
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  return {
    doc,
    async finish() {
      doc.end();
      await finished;
      return Buffer.concat(chunks);
    },
  };
}

// ---- the report ---------------------------------------------------------------------------------

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A heading of the contents: where it is and on which page (0-based, known once laid out). */
interface ContentsEntry {
  title: string;
  page: number;
}

/** The space the cover keeps for the contents: a line a section or appendix. */
const CONTENTS_LINE = 15;

/** The cover: the report's kind and site, the facts a client files it by, and room for the contents. */
function coverPage(pages: Pages, report: ReportDocument, clock: SiteClock): number {
  const doc = pages.doc;
  const { result } = report;
  rule(doc, TOP + 40, 2.5, ACCENT);
  doc
    .font('bold')
    .fontSize(24)
    .fillColor(ACCENT)
    .text(reportKind(result), LEFT, TOP + 70, { width: WIDTH });
  let y = TOP + 70 + doc.heightOfString(reportKind(result), { width: WIDTH }) + 6;
  doc.font('regular').fontSize(16).fillColor(INK).text(result.siteName, LEFT, y, { width: WIDTH });
  y += doc.heightOfString(result.siteName, { width: WIDTH }) + 40;
  for (const [label, value] of coverFacts(report, clock)) {
    // A status that is not final is marked, so a draft is never taken for the issued report.
    const marked = label === STATUS_FACT && report.cover.status !== 'final';
    doc.font('bold').fontSize(10).fillColor(MUTED).text(label, LEFT, y, { width: 110, lineBreak: false });
    doc
      .font(marked ? 'bold' : 'regular')
      .fontSize(10)
      .fillColor(marked ? ALERT : INK)
      .text(value, LEFT + 115, y, { width: WIDTH - 115 });
    y += doc.heightOfString(value, { width: WIDTH - 115 }) + 7;
  }
  y += 30;
  doc.font('bold').fontSize(11).fillColor(ACCENT).text('Contents', LEFT, y, { lineBreak: false });
  return y + 20;
}

/** The contents on the cover, once every heading's page is known. */
function drawContents(pages: Pages, y: number, entries: readonly ContentsEntry[]): void {
  const doc = pages.doc;
  const { start } = doc.bufferedPageRange();
  doc.switchToPage(start);
  entries.forEach((entry, i) => {
    const at = y + i * CONTENTS_LINE;
    const page = String(entry.page - start + 1);
    doc.font('regular').fontSize(10).fillColor(INK);
    const pageWidth = doc.widthOfString(page);
    doc.text(entry.title, LEFT, at, { lineBreak: false });
    const from = LEFT + doc.widthOfString(entry.title) + 6;
    const to = LEFT + WIDTH - pageWidth - 6;
    if (to > from) {
      doc
        .moveTo(from, at + 8)
        .lineTo(to, at + 8)
        .dash(1, { space: 2.5 })
        .lineWidth(0.5)
        .strokeColor(HAIRLINE)
        .stroke();
      doc.undash();
    }
    doc.text(page, LEFT + WIDTH - pageWidth, at, { lineBreak: false });
  });
}

/** The summary page: the findings table, then a line on calibration, excluded time and notes. */
function summarySection(
  pages: Pages,
  report: ReportDocument,
  clock: SiteClock,
  table: DisplayTable | null,
): void {
  const { result } = report;
  const rows = summaryRows(result);
  if (rows.length === 0) pages.text(summarySentence(rows), { color: MUTED });
  else {
    pages.text(
      `${summarySentence(rows)} A result says on how many periods it rests: a period with too little data kept is never an exceedance and is counted as not assessable.`,
      { size: 8.5 },
    );
    if (table !== null) pages.table('Summary', table, false);
  }
  for (const rule of result.unjudgedRules ?? []) pages.text(rule, { size: 8.5 });
  pages.subheading('Instruments', 30);
  for (const i of result.instruments) {
    pages.bullet(
      `${instrumentText(result, i.serial)}: ${calibrationVerdict(result, i.serial, clock)}; excluded ${excludedShareText(result, i.serial)} of the period.`,
      { size: 8.5 },
    );
  }
  if (result.notes.length > 0)
    pages.text(
      `${plural(result.notes.length, 'note')} on data that could not be read or computed: see Notes.`,
      {
        size: 8.5,
        color: MUTED,
      },
    );
}

const INSTRUMENTS_SECTION = 'Instruments and calibration evidence';
/** What the instruments section's heading is kept with: the table's head and its first two rows. */
const INSTRUMENTS_KEEP = 140;

/** The conclusion after the summary: a paragraph a line, as the site form keeps it. */
function conclusionSection(pages: Pages, report: ReportDocument): void {
  const { text } = reportConclusion(report.conclusion, report.result);
  for (const paragraph of text.split(/\n+/).filter((line) => line.trim() !== ''))
    pages.text(paragraph.trim(), { size: 9, after: 5 });
}

/** "Riverside Road — noise assessment · R01 · Draft, not final": what every page's footer says. */
function footerText(report: ReportDocument): string {
  const { result, cover } = report;
  return [
    `${result.siteName} — ${reportKind(result).toLowerCase()}`,
    cover.revision,
    cover.status === '' || cover.status === 'final' ? '' : `${reportStatusText(cover.status)}, not final`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Lays the report out into a finished PDF in memory; its bytes and page count. */
export async function renderReportPdf(
  report: ReportDocument,
  onProgress: ReportProgressSink = () => {},
): Promise<{ data: Buffer; pages: number }> {
  const { result } = report;
  const clock = new SiteClock(result.timeZone, result.start);
  const views = new Map(reportTableViews(report).map((v) => [v.name, v]));
  const measured = measuredBy(result).map((m) => (m === 'airquality' ? 'air quality' : m));
  const { doc, finish } = openPdf({
    Title: reportTitle(result),
    Author: report.cover.author || 'FieldDesk',
    Subject: [
      `${reportKind(result)}, ${clock.long(result.start)} – ${clock.long(result.end)}`,
      report.cover.revision,
      statusText(report),
      report.cover.company && `issued by ${report.cover.company}`,
    ]
      .filter(Boolean)
      .join(', '),
    Keywords: [
      result.siteName,
      report.cover.client,
      report.cover.reference,
      report.cover.revision,
      report.cover.company,
      ...measured,
      'assessment',
    ]
      .filter(Boolean)
      .join(', '),
    Creator: 'FieldDesk',
    // pdfkit stamps the time of writing otherwise; the file ID is formed from these too.
    CreationDate: new Date(result.computedAt),
  });

  const pages = new Pages(doc);
  const contents: ContentsEntry[] = [];
  const currentPage = () => {
    const range = doc.bufferedPageRange();
    return range.start + range.count - 1;
  };
  /** A section's heading, in the outline and the contents; a new page first when `fresh`. */
  const heading = (title: string, keep: number, fresh = false) => {
    if (fresh && pages.y > TOP) pages.newPage();
    pages.heading(title, keep);
    contents.push({ title, page: currentPage() });
  };
  /** A table; without its own title when the section's heading says it. */
  const table = (name: string, empty: string, title?: string) => {
    const view = views.get(name);
    if (!view?.display) return;
    if (view.display.rows.length === 0) pages.text(empty, { color: MUTED });
    else pages.table(title ?? view.title, view.display, title !== undefined);
  };

  const sections: Array<[string, (number: number) => void]> = [
    [
      'Method',
      () => {
        for (const item of methodItems(report, clock)) {
          pages.text(item.topic, { font: 'bold', size: 9, after: 1 });
          pages.text(item.text, { size: 8.8, after: 6 });
        }
      },
    ],
    [
      INSTRUMENTS_SECTION,
      () => {
        table('instruments', 'No instruments.', 'Instruments');
        if (!condensesChecks(result)) {
          pages.text(
            'Each calibration and system integrity check (SIC) before, during and after the period; a calibration’s drift is from the last passing calibration before it.',
            { color: MUTED, size: 8.5 },
          );
          table('calibration', 'No calibration or SIC on record for these instruments.', 'Checks');
          return;
        }
        pages.text(
          'The period is longer than a month, so the calibrations and system integrity checks (SIC) are counted per instrument and month, with the largest drift (from the last passing calibration) and deviation (from the reference) of each; every failed or flagged check, and each calibration not on record, follows in full.',
          { color: MUTED, size: 8.5 },
        );
        table(
          'calibration-months',
          'No calibration or SIC on record for these instruments.',
          'Calibrations and SICs by month',
        );
        table('failed-checks', 'No check failed or was flagged.', 'Failed and flagged checks');
      },
    ],
    ['Results', (number) => figuresSection(pages, result, clock, number)],
    [
      'Charts',
      () => {
        if (result.charts.length === 0) pages.text('No charts.', { color: MUTED });
        for (const chart of result.charts) drawChart(pages, chart, result, clock);
      },
    ],
    [
      'Exceedances',
      () => {
        const groups = exceedanceGroups(result);
        const view = views.get('exceedances');
        if (groups.length === 0 || !view?.display) {
          pages.text('No figure exceeds its limit.', { color: MUTED });
          return;
        }
        pages.text(
          'Each period whose figure, as stated, is above its limit, grouped by figure. A figure with insufficient data is never listed here.',
          { color: MUTED, size: 8.5 },
        );
        // The printed table without its figure column: the group's heading says it.
        let row = 0;
        for (const group of groups) {
          const rows = view.display.rows.slice(row, row + group.items.length).map((cells) => cells.slice(1));
          row += group.items.length;
          const limits = new Set(group.items.map((f) => limitText(f.limit!, f.decimals, f.unit)));
          pages.table(
            `${group.label}: ${plural(group.items.length, 'period')} over ${limits.size === 1 ? `the limit of ${[...limits][0]!}` : 'their limits'}`,
            { columns: view.display.columns.slice(1), rows },
            true,
            `${group.label} (continued)`,
          );
        }
      },
    ],
    ...(result.notes.length > 0
      ? [
          [
            'Notes',
            () => {
              for (const note of result.notes) pages.bullet(note);
            },
          ] as [string, (number: number) => void],
        ]
      : []),
  ];
  const appendices = appendicesOf(report);

  const contentsTop = coverPage(pages, report, clock);
  pages.newPage();
  heading('Summary', 80);
  summarySection(pages, report, clock, views.get('summary')?.display ?? null);
  heading('Conclusion', 40);
  conclusionSection(pages, report);

  const steps = sections.length + appendices.length;
  for (const [index, [title, write]] of sections.entries()) {
    throwIfCancelled(report);
    onProgress(`Writing ${title.toLowerCase()}`, (index / steps) * 0.9);
    // The method starts on a page of its own, after the summary; a chart is kept whole with its
    // heading, and so is the start of the instruments table (rows of three lines: the position).
    heading(
      `${index + 1}  ${title}`,
      title === 'Charts' && result.charts.length > 0
        ? CHART_HEIGHT
        : title === INSTRUMENTS_SECTION
          ? INSTRUMENTS_KEEP
          : 60,
      index === 0,
    );
    write(index + 1);
    // Let the event loop breathe between sections: a long report should not freeze the app.
    await new Promise((resolve) => setImmediate(resolve));
  }
  for (const [index, appendix] of appendices.entries()) {
    throwIfCancelled(report);
    onProgress(`Writing appendix ${appendix.letter}`, ((sections.length + index) / steps) * 0.9);
    heading(`Appendix ${appendix.letter}  ${appendix.title}`, 60, true);
    const name = `appendix-${appendix.letter.toLowerCase()}-${appendix.name}`;
    if (appendix.key === 'exclusions') {
      if (!condensesChecks(result)) table(name, 'No time was excluded.', 'Periods');
      else {
        pages.text(
          'The period is longer than a month, so the periods excluded by hand or for a failed check are listed in full, and those the weather and instrument rules excluded are counted per month (by the month each starts in), cause and instruments, with their total and longest.',
          { color: MUTED, size: 8.5 },
        );
        table(name, 'No time was excluded by hand or for a failed check.', 'Periods');
        table(`${name}-exclusion-months`, 'No time was excluded by the rules.', 'Excluded by month');
      }
    } else if (appendix.key === 'events') {
      pages.text(
        'Each noise event with the trigger that started it, its overall values (the list the service reports for the event as “overall”, in its order; the service does not document what each value is) and its recording as FieldDesk saves it when downloaded.',
        { color: MUTED, size: 8.5 },
      );
      table(name, 'No noise events were recorded.', 'Events');
    } else {
      pages.text(HOURLY_NOTE, { color: MUTED, size: 8.5 });
      table(name, 'No hourly levels.', 'Hourly noise levels (site time)');
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  throwIfCancelled(report);
  // The contents must fit the cover: below the facts, above the footer.
  const room = Math.floor((CONTENT_BOTTOM - contentsTop) / CONTENTS_LINE);
  drawContents(pages, contentsTop, contents.slice(0, Math.max(0, room)));
  const count = stampFooters(doc, footerText(report));
  doc.flushPages();
  return { data: await finish(), pages: count };
}

/**
 * Writes the report as a PDF to the target's path (through a temporary file, made only once the
 * PDF is, so a report stopped while it is made leaves nothing); its size and page count.
 */
export async function writeReportPdf(
  target: SaveTarget,
  report: ReportDocument,
  onProgress: ReportProgressSink = () => {},
): Promise<{ bytes: number; pages: number }> {
  const { data, pages } = await renderReportPdf(report, onProgress);
  throwIfCancelled(report);
  onProgress('Saving the PDF', 0.95);
  await writeThroughPart(target, (handle) => handle.writeFile(data));
  onProgress('Done', 1);
  return { bytes: data.byteLength, pages };
}
