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
 * `pdf-front-matter.ts` writes the cover, contents, summary and conclusion, `pdf-sections.ts` the
 * numbered sections and appendices, `pdf/pdf-layout.ts` sets pages and tables, `pdf-figures.ts`
 * tabulates the figures per instrument and day and `pdf-charts.ts` draws the charts.
 * The output depends on the `ReportDocument` alone: the report's date and the document's creation
 * date are the time the assessment was computed, so the same assessment gives the same file.
 * Its document and fonts are FieldDesk's PDF writer's (pdf/pdf-document.ts), as the visit sheet's.
 */
import { reportStatusText } from '../../../../shared/assessment';
import { writeThroughPart, type SaveTarget } from '../../core/unfinished-files';
import {
  conclusionSection,
  CONTENTS_LINE,
  coverPage,
  drawContents,
  summarySection,
  type ContentsEntry,
} from './pdf-front-matter';
import { openPdf } from '../../pdf/pdf-document';
import { CONTENT_BOTTOM, Pages, stampFooters, TOP } from '../../pdf/pdf-layout';
import { headingKeep, reportSections, sectionWriter, writeAppendix } from './pdf-sections';
import {
  measuredBy,
  reportKind,
  reportTitle,
  throwIfCancelled,
  type ReportDocument,
} from './report-document';
import { SiteClock } from './report-format';
import { appendicesOf, reportTableViews, statusText, type ReportProgressSink } from './report-tables';

// ---- the report ---------------------------------------------------------------------------------

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

/** The PDF's document information: its title, author, subject and keywords, dated by the assessment. */
function documentInfo(report: ReportDocument, clock: SiteClock): PDFKit.DocumentInfo {
  const { result } = report;
  const measured = measuredBy(result).map((m) => (m === 'airquality' ? 'air quality' : m));
  return {
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
  };
}

/** Let the event loop breathe between sections: a long report should not freeze the app. */
const breathe = () => new Promise((resolve) => setImmediate(resolve));

/** Lays the report out into a finished PDF in memory; its bytes and page count. */
export async function renderReportPdf(
  report: ReportDocument,
  onProgress: ReportProgressSink = () => {},
): Promise<{ data: Buffer; pages: number }> {
  const { result } = report;
  const clock = new SiteClock(result.timeZone, result.start);
  const views = new Map(reportTableViews(report).map((v) => [v.name, v]));
  const { doc, finish } = openPdf(documentInfo(report, clock));

  const pages = new Pages(doc);
  const writer = sectionWriter(pages, report, clock, views);
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
  const sections = reportSections(writer);
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
    // The method starts on a page of its own, after the summary.
    heading(`${index + 1}  ${title}`, headingKeep(title, writer), index === 0);
    write(index + 1);
    await breathe();
  }
  for (const [index, appendix] of appendices.entries()) {
    throwIfCancelled(report);
    onProgress(`Writing appendix ${appendix.letter}`, ((sections.length + index) / steps) * 0.9);
    heading(`Appendix ${appendix.letter}  ${appendix.title}`, 60, true);
    writeAppendix(writer, appendix);
    await breathe();
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
