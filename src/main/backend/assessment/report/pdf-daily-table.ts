/**
 * A daily figures table in the PDF: the date, then a column per figure whose head gives its label,
 * unit, method reference and the limit when it is one for every period. Each cell holds the value
 * with exclusions and beneath it, smaller and grey, "part" for a period cut short by the
 * assessment's range, "all N" when the value from all data differs and the coverage when below
 * 99.5 %; a value over its limit is red on a red tint and marked "over". A table that fits on a
 * page is kept whole; rows never split, and a table that runs on repeats its head under "(continued)".
 */
import type { Figure } from '../../../../shared/assessment';
import { coverageText, figureValueText } from '../../../../shared/figure-text';
import type { DailyColumn, DailyRow } from '../../../../shared/daily-figures';
import { isPart } from '../../../../shared/daily-figures';
import {
  ALERT,
  CONTENT_BOTTOM,
  HAIRLINE,
  HEADER_FILL,
  INK,
  LEFT,
  MUTED,
  RULE,
  rule,
  TOP,
  WIDTH,
  ZEBRA_FILL,
  type FontName,
  type Pages,
} from '../../pdf/pdf-layout';
import { limitNumberText, type SiteClock } from './report-format';

/** At most this many figure columns in one table: more are split over several (date repeated). */
export const MAX_FIGURE_COLUMNS = 7;

const VALUE_SIZE = 8;
const HEAD_SIZE = 7.4;
/** The grey lines: the unit and limit in a head, "all", coverage and "part" in a cell. */
const SMALL_SIZE = 6.8;
const PAD_X = 3.5;
const PAD_Y = 2.8;
const LINE_GAP = 0.5;
/** No wider than this: a table of one or two figures stays compact rather than spread over the page. */
const MAX_COLUMN_WIDTH = 105;
const OVER_FILL = '#fbe7ea';

/** A column of the printed table: its figure column, with the method references to print. */
export interface PrintedDailyColumn extends DailyColumn {
  /** "[1]", "[2, 3]" */
  refs: string;
}

interface Line {
  text: string;
  font: FontName;
  size: number;
  color: string;
}

/** A figure's value as a cell prints it: as `figureValueText` states it, without the unit the head gives. */
export const figureText = (figure: Figure): string => figureValueText(figure, { unit: false });

/**
 * The grey notes under a cell's value, each a word or two; a figure that is not stated (its text
 * says why, with the coverage) has only "part".
 */
export function cellNotes(figure: Figure, clock: SiteClock): string[] {
  const notes: string[] = [];
  if (isPart(figure)) notes.push('part');
  if (figure.state !== 'ok') return notes;
  const all = figure.all === null ? '—' : figure.all.toFixed(figure.decimals);
  if (figure.valid !== null && all !== figure.valid.toFixed(figure.decimals)) notes.push(`all ${all}`);
  if (figure.coverage < 0.995) notes.push(coverageText(figure.coverage));
  // A highest value's time of day in the cell, where the reader looks for it: to the second when
  // the 1 s history gave it, else the interval that held it ("01:45–02:00").
  if (figure.at !== undefined) {
    const time = clock.timeOfDay(figure.at, figure.atStepMs);
    notes.push((figure.atStepMs ?? 1000) <= 1000 ? `at ${time}` : time);
  }
  return notes;
}

/** A daily table's titles: under its instrument's heading, at the top of a page, and running on. */
export interface DailyTitles {
  /** "Daily figures (1 of 2)" */
  title: string;
  /** "NM-1043: daily figures (1 of 2)", when the table starts a page, away from the heading. */
  alone: string;
  /** "NM-1043: daily figures (1 of 2) (continued)" */
  continued: string;
}

/** A daily table measured for the page, to draw once it is known where it goes. */
export interface DailyTableLayout {
  /** The whole table with its title (points). */
  height: number;
  /** Its title, head and first three rows: what must fit for it to start on a page. */
  start: number;
  /** Draws it at the cursor of the pages, its title as a subheading. */
  draw(titles: DailyTitles): void;
}

/** Lays out one daily table for `pages`. */
export function dailyTableLayout(
  pages: Pages,
  columns: readonly PrintedDailyColumn[],
  rows: readonly DailyRow[],
  clock: SiteClock,
): DailyTableLayout {
  const doc = pages.doc;
  const setFont = (font: FontName, size: number) => doc.font(font).fontSize(size);
  const widthOf = (text: string, font: FontName, size: number) => {
    setFont(font, size);
    return doc.widthOfString(text);
  };
  const heightOf = (lines: Line[], width: number) =>
    lines.reduce((sum, line) => {
      setFont(line.font, line.size);
      return sum + doc.heightOfString(line.text || ' ', { width, lineGap: LINE_GAP });
    }, 0);

  // Widths: the date column as wide as its longest date, the figures sharing the rest.
  const dateWidth =
    Math.max(
      widthOf('Date', 'condensedBold', HEAD_SIZE),
      ...rows.map((r) => widthOf(r.date, 'condensed', VALUE_SIZE)),
    ) +
    2 * PAD_X +
    2;
  const columnWidth = Math.min(MAX_COLUMN_WIDTH, (WIDTH - dateWidth) / Math.max(1, columns.length));
  const tableRight = LEFT + dateWidth + columnWidth * columns.length;
  const xOf = (i: number) => LEFT + dateWidth + columnWidth * i;
  const inner = columnWidth - 2 * PAD_X;

  const headLines = (c: PrintedDailyColumn): Line[] => [
    { text: c.label, font: 'condensedBold', size: HEAD_SIZE, color: INK },
    { text: [c.unit, c.refs].filter(Boolean).join('  '), font: 'condensed', size: SMALL_SIZE, color: MUTED },
    ...(c.limit === null
      ? []
      : [
          {
            text: `limit ${limitNumberText(c.limit, c.unit)}`,
            font: 'condensed' as const,
            size: SMALL_SIZE,
            color: MUTED,
          },
        ]),
  ];
  const heads = columns.map(headLines);
  const headerHeight = Math.max(...heads.map((lines) => heightOf(lines, inner))) + 2 * PAD_Y;

  /** The notes packed into lines that fit the cell, two spaces apart. */
  const noteLines = (figure: Figure): string[] => {
    const lines: string[] = [];
    for (const note of cellNotes(figure, clock)) {
      const joined = lines.length > 0 ? `${lines.at(-1)}  ${note}` : note;
      if (lines.length > 0 && widthOf(joined, 'condensed', SMALL_SIZE) <= inner)
        lines[lines.length - 1] = joined;
      else lines.push(note);
    }
    return lines;
  };
  const valueHeight = (setFont('condensed', VALUE_SIZE), doc.currentLineHeight(true));
  const noteHeight = (setFont('condensed', SMALL_SIZE), doc.currentLineHeight(true));
  /** The height of a cell's value: one line, or a figure not stated in smaller grey words, wrapped. */
  const valueBlockHeight = (figure: Figure) => {
    if (figure.state === 'ok') return valueHeight;
    setFont('condensed', SMALL_SIZE);
    return doc.heightOfString(figureText(figure), { width: inner, lineGap: LINE_GAP });
  };
  const rowHeight = (row: DailyRow) =>
    Math.max(
      valueHeight,
      ...row.cells.map((f) => (f === null ? 0 : valueBlockHeight(f) + noteLines(f).length * noteHeight)),
    ) +
    2 * PAD_Y;

  const drawHeader = () => {
    doc.rect(LEFT, pages.y, tableRight - LEFT, headerHeight).fill(HEADER_FILL);
    rule(doc, pages.y, 0.9, RULE, LEFT, tableRight);
    setFont('condensedBold', HEAD_SIZE);
    doc
      .fillColor(INK)
      .text('Date', LEFT + PAD_X, pages.y + PAD_Y, { width: dateWidth - 2 * PAD_X, lineBreak: false });
    heads.forEach((lines, i) => {
      let y = pages.y + PAD_Y;
      for (const line of lines) {
        setFont(line.font, line.size);
        doc
          .fillColor(line.color)
          .text(line.text, xOf(i) + PAD_X, y, { width: inner, align: 'right', lineGap: LINE_GAP });
        y += doc.heightOfString(line.text, { width: inner, lineGap: LINE_GAP });
      }
    });
    pages.y += headerHeight;
    rule(doc, pages.y, 0.6, RULE, LEFT, tableRight);
  };

  const drawCell = (figure: Figure, x: number, y: number, height: number) => {
    if (figure.exceeds) doc.rect(x, y, columnWidth, height).fill(OVER_FILL);
    const top = y + PAD_Y;
    if (figure.exceeds) {
      setFont('condensedBold', SMALL_SIZE);
      // On the value's baseline: lower by the difference in ascent (DejaVu's is 0.8 of its line).
      const drop = (valueHeight - noteHeight) * 0.8;
      doc.fillColor(ALERT).text('over', x + PAD_X, top + drop, { lineBreak: false });
    }
    if (figure.state === 'ok') {
      setFont(figure.exceeds ? 'condensedBold' : 'condensed', VALUE_SIZE);
      doc.fillColor(figure.exceeds ? ALERT : INK).text(figureText(figure), x + PAD_X, top, {
        width: inner,
        align: 'right',
        lineBreak: false,
      });
    } else {
      setFont('condensed', SMALL_SIZE);
      doc
        .fillColor(MUTED)
        .text(figureText(figure), x + PAD_X, top, { width: inner, align: 'right', lineGap: LINE_GAP });
    }
    const below = valueBlockHeight(figure);
    setFont('condensed', SMALL_SIZE);
    noteLines(figure).forEach((line, i) => {
      doc.fillColor(MUTED).text(line, x + PAD_X, top + below + i * noteHeight, {
        width: inner,
        align: 'right',
        lineBreak: false,
      });
    });
  };

  const heights = rows.map(rowHeight);
  const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
  const tableHeight = 16 + headerHeight + sum(heights);
  const start = 16 + headerHeight + sum(heights.slice(0, 3));

  const draw = (titles: DailyTitles) => {
    // Kept whole when it fits on a page; a longer table starts with its head and first three rows.
    pages.need(tableHeight <= CONTENT_BOTTOM - TOP ? tableHeight : start);
    pages.subheading(pages.y === TOP ? titles.alone : titles.title, 0);
    drawHeader();
    rows.forEach((row, index) => {
      const height = heights[index]!;
      if (pages.y + height > CONTENT_BOTTOM) {
        rule(doc, pages.y, 0.9, RULE, LEFT, tableRight);
        pages.newPage();
        pages.subheading(titles.continued, 0);
        drawHeader();
      }
      if (index % 2 === 1) doc.rect(LEFT, pages.y, tableRight - LEFT, height).fill(ZEBRA_FILL);
      setFont('condensed', VALUE_SIZE);
      doc
        .fillColor(INK)
        .text(row.date, LEFT + PAD_X, pages.y + PAD_Y, { width: dateWidth - 2 * PAD_X, lineBreak: false });
      row.cells.forEach((figure, i) => {
        if (figure !== null) drawCell(figure, xOf(i), pages.y, height);
      });
      pages.y += height;
      if (index < rows.length - 1) rule(doc, pages.y, 0.25, HAIRLINE, LEFT, tableRight);
    });
    rule(doc, pages.y, 0.9, RULE, LEFT, tableRight);
    pages.y += 8;
  };
  return { height: tableHeight + 8, start, draw };
}
