/**
 * The PDF report's pages before its numbered sections: the cover (the report's kind and site, the
 * facts a client files it by, and the contents with their pages, drawn once every heading's page is
 * known), the summary of the findings and the conclusion.
 */
import { reportConclusion } from '../../../../shared/assessment-conclusion';
import { summaryRows, summarySentence } from '../../../../shared/assessment-summary';
import { excludedShareText } from './instruments-table';
import {
  ACCENT,
  ALERT,
  HAIRLINE,
  INK,
  LEFT,
  MUTED,
  rule,
  TOP,
  WIDTH,
  type DisplayTable,
  type Pages,
} from '../../pdf/pdf-layout';
import { reportKind, type ReportDocument } from './report-document';
import type { SiteClock } from './report-format';
import { coverFacts, STATUS_FACT } from './report-tables';
import { calibrationVerdict, instrumentText } from './report-verdicts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A heading of the contents: where it is and on which page (0-based, known once laid out). */
export interface ContentsEntry {
  title: string;
  page: number;
}

/** The space the cover keeps for the contents: a line a section or appendix. */
export const CONTENTS_LINE = 15;

/** The cover: the report's kind and site, the facts a client files it by, and room for the contents. */
export function coverPage(pages: Pages, report: ReportDocument, clock: SiteClock): number {
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
export function drawContents(pages: Pages, y: number, entries: readonly ContentsEntry[]): void {
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
export function summarySection(
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

/** The conclusion after the summary: a paragraph a line, as the site form keeps it. */
export function conclusionSection(pages: Pages, report: ReportDocument): void {
  const { text } = reportConclusion(report.conclusion, report.result);
  for (const paragraph of text.split(/\n+/).filter((line) => line.trim() !== ''))
    pages.text(paragraph.trim(), { size: 9, after: 5 });
}
