/**
 * The page and table primitives of FieldDesk's PDFs (the assessment report, the visit sheet): A4
 * portrait with its margins, colours and fonts by name, and `Pages`, a top-down writer over pdfkit
 * that keeps the cursor and starts a new page when the next block does not fit: paragraphs,
 * bullets, headings (added to the outline) and tables with ruled headers whose rows never split and
 * whose header repeats on the next page.
 */

/** A table as a PDF prints it: columns with their share of the width, rows of text. */
export interface DisplayTable {
  columns: Array<{ header: string; weight: number; align: 'left' | 'right' }>;
  rows: string[][];
  /** Rows to stand out (a visit's Issue rows): shaded and in bold, per row. */
  marked?: readonly boolean[];
}

/** The fonts by name; `pdf-document.ts` registers a file for each. */
export type FontName = 'regular' | 'bold' | 'condensed' | 'condensedBold';

// ---- page ---------------------------------------------------------------------------------------

const PAGE_WIDTH = 595.28; // A4 in points
const PAGE_HEIGHT = 841.89;
const MARGIN_X = 51; // 18 mm
/** Where content starts on every page. */
export const TOP = 50;
/** Where content stops; the footer sits below it. */
export const CONTENT_BOTTOM = PAGE_HEIGHT - 62;
const FOOTER_Y = PAGE_HEIGHT - 44;
/** The document's margins for pdfkit: text that runs past the bottom one starts a page. */
export const PAGE_MARGINS = {
  top: TOP,
  bottom: PAGE_HEIGHT - CONTENT_BOTTOM - 10,
  left: MARGIN_X,
  right: MARGIN_X,
};
export const LEFT = MARGIN_X;
export const RIGHT = PAGE_WIDTH - MARGIN_X;
export const WIDTH = RIGHT - LEFT;

export const INK = '#1b1b1b';
export const MUTED = '#5a5a5a';
export const ACCENT = '#1f4e79';
export const ALERT = '#b00020';
export const RULE = '#2b2b2b';
export const HAIRLINE = '#c9ced4';
export const HEADER_FILL = '#e9eef3';
export const ZEBRA_FILL = '#f6f7f9';
/** A marked row's shade: light enough for its text to keep full contrast in print. */
export const MARKED_FILL = '#fbe3e6';

export interface TextStyle {
  font?: FontName;
  size?: number;
  color?: string;
  indent?: number;
  align?: 'left' | 'right' | 'center';
  /** Space after (points). */
  after?: number;
}

/** A top-down writer over pdfkit: keeps the cursor, starts a page when the next block does not fit. */
export class Pages {
  y = TOP;

  constructor(readonly doc: PDFKit.PDFDocument) {}

  private style(font: FontName, size: number): void {
    this.doc.font(font).fontSize(size);
  }

  newPage(): void {
    this.doc.addPage();
    this.y = TOP;
  }

  /** Starts a new page unless `height` fits below the cursor. */
  need(height: number): void {
    if (this.y + height > CONTENT_BOTTOM && this.y > TOP) this.newPage();
  }

  gap(height: number): void {
    this.y += height;
  }

  measure(text: string, style: TextStyle = {}): number {
    this.style(style.font ?? 'regular', style.size ?? 9);
    return this.doc.heightOfString(text, { width: WIDTH - (style.indent ?? 0), lineGap: 1 });
  }

  /** A paragraph; moved whole to the next page when it does not fit. */
  text(text: string, style: TextStyle = {}): void {
    const height = this.measure(text, style);
    this.need(height);
    this.style(style.font ?? 'regular', style.size ?? 9);
    this.doc.fillColor(style.color ?? INK).text(text, LEFT + (style.indent ?? 0), this.y, {
      width: WIDTH - (style.indent ?? 0),
      lineGap: 1,
      align: style.align ?? 'left',
    });
    this.y += height + (style.after ?? 4);
  }

  /** A bulleted item with a hanging indent. */
  bullet(text: string, style: TextStyle = {}): void {
    const indent = (style.indent ?? 0) + 11;
    const height = this.measure(text, { ...style, indent });
    this.need(height);
    this.style(style.font ?? 'regular', style.size ?? 9);
    this.doc
      .fillColor(style.color ?? INK)
      .text('•', LEFT + indent - 9, this.y, { lineBreak: false })
      .text(text, LEFT + indent, this.y, { width: WIDTH - indent, lineGap: 1 });
    this.y += height + (style.after ?? 3);
  }

  /** A numbered section heading, kept with at least `keep` points of what follows. */
  heading(text: string, keep = 60): void {
    this.need(24 + keep);
    if (this.y > TOP) this.gap(10);
    this.style('bold', 12.5);
    this.doc.fillColor(ACCENT).text(text, LEFT, this.y, { width: WIDTH, lineBreak: false });
    this.doc.outline.addItem(text);
    this.y += 17;
    rule(this.doc, this.y, 0.6, ACCENT);
    this.y += 7;
  }

  subheading(text: string, keep = 40): void {
    this.need(14 + keep);
    this.style('bold', 9.5);
    this.doc.fillColor(INK).text(text, LEFT, this.y, { width: WIDTH, lineBreak: false });
    this.y += 14;
  }

  // ---- tables -----------------------------------------------------------------------------------

  /**
   * Column widths by weight, widened where the longest word of a column would not fit (pdfkit
   * would break it inside the word), taken from the others in proportion.
   */
  private columnWidths(table: DisplayTable, size: number, padX: number): number[] {
    const widest = table.columns.map((column, i) => {
      let most = 0;
      this.style('condensedBold', size);
      for (const word of column.header.split(/\s+/)) most = Math.max(most, this.doc.widthOfString(word));
      this.style('condensed', size);
      for (const row of table.rows) {
        for (const word of (row[i] ?? '').split(/\s+/)) most = Math.max(most, this.doc.widthOfString(word));
      }
      return most + 2 * padX + 1;
    });
    const total = table.columns.reduce((sum, c) => sum + c.weight, 0);
    let widths = table.columns.map((c) => (c.weight / total) * WIDTH);
    if (widest.reduce((a, b) => a + b, 0) > WIDTH) return widths;
    for (let round = 0; round < table.columns.length; round++) {
      const fixed = widths.map((w, i) => w <= widest[i]!);
      if (widths.every((w, i) => w >= widest[i]! - 0.01)) break;
      const taken = widths.reduce((sum, _, i) => sum + (fixed[i] ? widest[i]! : 0), 0);
      const freeWeight = table.columns.reduce((sum, c, i) => sum + (fixed[i] ? 0 : c.weight), 0);
      widths = table.columns.map((c, i) =>
        fixed[i] ? widest[i]! : ((WIDTH - taken) * c.weight) / freeWeight,
      );
    }
    return widths;
  }

  /**
   * A table with a ruled header; rows never split across pages, and a table that runs on repeats
   * its header under `continued` ("<title> (continued)").
   */
  table(title: string, table: DisplayTable, showTitle = true, continued = `${title} (continued)`): void {
    const doc = this.doc;
    const size = 7.6;
    const padX = 3;
    const padY = 2.6;
    const widths = this.columnWidths(table, size, padX);
    const xs = widths.map((_, i) => LEFT + widths.slice(0, i).reduce((a, b) => a + b, 0));
    const cellHeight = (text: string, i: number, font: FontName) => {
      this.style(font, size);
      return doc.heightOfString(text || ' ', { width: widths[i]! - 2 * padX, lineGap: 0.5 });
    };
    const headerHeight =
      Math.max(...table.columns.map((c, i) => cellHeight(c.header, i, 'condensedBold'))) + 2 * padY;
    const rowHeight = (row: string[]) =>
      Math.max(...row.map((cell, i) => cellHeight(cell, i, 'condensed'))) + 2 * padY;

    const drawCells = (cells: string[], font: FontName, y: number, header: boolean, marked = false) => {
      cells.forEach((cell, i) => {
        const strong = !header && isAlert(cell);
        this.style(strong || marked ? 'condensedBold' : font, size);
        doc.fillColor(strong ? ALERT : INK).text(cell, xs[i]! + padX, y + padY, {
          width: widths[i]! - 2 * padX,
          align: table.columns[i]!.align,
          lineGap: 0.5,
        });
      });
    };
    const drawHeader = () => {
      doc.rect(LEFT, this.y, WIDTH, headerHeight).fill(HEADER_FILL);
      rule(doc, this.y, 0.9, RULE);
      drawCells(
        table.columns.map((c) => c.header),
        'condensedBold',
        this.y,
        true,
      );
      this.y += headerHeight;
      rule(doc, this.y, 0.6, RULE);
    };

    const heights = table.rows.map(rowHeight);
    // A short table is kept whole; a longer one starts with at least its first three rows.
    const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
    const kept = table.rows.length <= 6 ? sum(heights) : sum(heights.slice(0, 3));
    this.need(16 + headerHeight + kept);
    if (showTitle) this.subheading(title, 0);
    drawHeader();
    /** Whether the rows from `index` to the end fit below the cursor. */
    const restFits = (index: number) => this.y + sum(heights.slice(index)) <= CONTENT_BOTTOM;
    table.rows.forEach((row, index) => {
      const height = heights[index]!;
      // A table that runs on takes at least its last three rows over, never one or two alone.
      const tail = table.rows.length - index;
      const widow = tail <= 3 && index >= 3 && tail < table.rows.length && !restFits(index);
      if (this.y + height > CONTENT_BOTTOM || (widow && tail === 3)) {
        rule(doc, this.y, 0.9, RULE);
        this.newPage();
        this.subheading(continued, 0);
        drawHeader();
      }
      const marked = table.marked?.[index] === true;
      if (marked) doc.rect(LEFT, this.y, WIDTH, height).fill(MARKED_FILL);
      else if (index % 2 === 1) doc.rect(LEFT, this.y, WIDTH, height).fill(ZEBRA_FILL);
      drawCells(row, 'condensed', this.y, false, marked);
      this.y += height;
      if (index < table.rows.length - 1) rule(doc, this.y, 0.25, HAIRLINE);
    });
    rule(doc, this.y, 0.9, RULE);
    this.y += 8;
  }
}

/** A line across the text width, or from `from` to `to`. */
export const rule = (
  doc: PDFKit.PDFDocument,
  y: number,
  width: number,
  color: string,
  from = LEFT,
  to = RIGHT,
) => doc.moveTo(from, y).lineTo(to, y).lineWidth(width).strokeColor(color).stroke();

/** Cells that the reader must not miss: printed bold in red. */
const isAlert = (cell: string) =>
  cell === 'EXCEEDS' ||
  cell === 'exceeded' ||
  cell.startsWith('outside ±') ||
  /^failed$|\(failed\)$/i.test(cell);

/**
 * "`text`  …  Page N of M" below the bottom margin of every page, once all pages are laid out (the
 * document must buffer its pages); the number of pages.
 */
export function stampFooters(doc: PDFKit.PDFDocument, text: string): number {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    // Below the bottom margin: keep pdfkit from starting a page for the footer.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    rule(doc, FOOTER_Y - 6, 0.4, HAIRLINE);
    doc.font('regular').fontSize(7.5).fillColor(MUTED);
    doc.text(text, LEFT, FOOTER_Y, { width: WIDTH * 0.7, lineBreak: false, ellipsis: true });
    doc.text(`Page ${i - start + 1} of ${count}`, LEFT + WIDTH * 0.7, FOOTER_Y, {
      width: WIDTH * 0.3,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
  return count;
}
