/**
 * The "Figures" section of the PDF, as consultants present a survey: per instrument a short table of
 * the whole period's figures, then a daily table (a row per site date, a column per figure, split
 * over two tables when there are too many columns to read on A4), and under the section the
 * methods the column heads refer to and the details of single figures. The workbook and the CSV
 * files keep every figure as a row of their own.
 */
import type { AssessmentResult, Figure } from '../../../../shared/assessment';
import { coverageText, figureValueText } from '../../../../shared/figure-text';
import { splitColumns } from './split-columns';
import { instrumentFigures, periodNameOf, type DailyTable } from '../../../../shared/daily-figures';
import {
  dailyTableLayout,
  MAX_FIGURE_COLUMNS,
  type DailyTableLayout,
  type DailyTitles,
  type PrintedDailyColumn,
} from './pdf-daily-table';
import {
  ACCENT,
  CONTENT_BOTTOM,
  LEFT,
  MUTED,
  TOP,
  WIDTH,
  type DisplayTable,
  type Pages,
} from '../../pdf/pdf-layout';
import { limitText } from '../../../../shared/assessment-summary';
import type { SiteClock } from './report-format';
import { figureResult, instrumentText, methodGroups } from './report-verdicts';

/** "[1]", "[2, 4]": the numbers of `methods` in the section's list. */
const refsOf = (methods: readonly string[], numbers: ReadonlyMap<string, number>) =>
  methods.length === 0 ? '' : `[${methods.map((m) => numbers.get(m)).join(', ')}]`;

/**
 * The standard periods of the daily tables in words, from the figures' own labels: "day
 * 07:00–23:00, night 23:00–07:00 (on the row of the evening it starts), 07:00–07:00 (Lden)".
 */
export function periodsText(figures: readonly Figure[]): string {
  const labels = new Map<string, string[]>();
  for (const figure of figures) {
    const name = periodNameOf(figure);
    if (name === '') continue;
    const list = labels.get(name) ?? [];
    if (!list.includes(figure.label)) list.push(figure.label);
    labels.set(name, list);
  }
  return [...labels]
    .map(([name, used]) => {
      if (/^night\b/.test(name)) return `${name} (on the row of the evening it starts)`;
      return /^\p{L}/u.test(name) ? name : `${name} (${used.join(', ')})`;
    })
    .join(', ');
}

/** The whole period's figures of one instrument as a table: figure and method, values, verdict. */
function wholeTable(figures: readonly Figure[], numbers: ReadonlyMap<string, number>): DisplayTable {
  return {
    columns: [
      { header: 'Figure', weight: 24, align: 'left' },
      { header: 'With exclusions', weight: 14, align: 'right' },
      { header: 'All data', weight: 10, align: 'right' },
      { header: 'Unit', weight: 9, align: 'left' },
      { header: 'Coverage', weight: 10, align: 'right' },
      { header: 'Limit', weight: 9, align: 'right' },
      { header: 'Result', weight: 10, align: 'left' },
    ],
    rows: figures.map((f) => [
      `${f.label} ${refsOf([f.method], numbers)}`,
      figureValueText(f, { unit: false }),
      f.all === null ? '—' : f.all.toFixed(f.decimals),
      f.unit,
      coverageText(f.coverage),
      f.limit === null ? '—' : limitText(f.limit, f.decimals, ''),
      figureResult(f) || '—',
    ]),
  };
}

/**
 * One instrument's daily tables, laid out: as many as its columns need, each with its titles, a
 * date with none of a table's figures (the last day, its night after the period) left out of it.
 */
function dailyTables(
  pages: Pages,
  serial: string,
  daily: DailyTable,
  numbers: ReadonlyMap<string, number>,
  clock: SiteClock,
): Array<{ layout: DailyTableLayout; titles: DailyTitles }> {
  const columns: PrintedDailyColumn[] = daily.columns.map((c) => ({
    ...c,
    refs: refsOf(c.methods, numbers),
  }));
  const parts = splitColumns(
    columns.map((c) => c.label),
    MAX_FIGURE_COLUMNS,
  );
  return parts.map((indices, part) => {
    const title = parts.length === 1 ? 'Daily figures' : `Daily figures (${part + 1} of ${parts.length})`;
    const rows = daily.rows
      .map((row) => ({ date: row.date, cells: indices.map((i) => row.cells[i]!) }))
      .filter((row) => row.cells.some((cell) => cell !== null));
    const alone = `${serial}: ${title.charAt(0).toLowerCase()}${title.slice(1)}`;
    return {
      layout: dailyTableLayout(
        pages,
        indices.map((i) => columns[i]!),
        rows,
        clock,
      ),
      titles: { title, alone, continued: `${alone} (continued)` },
    };
  });
}

/** Writes the section's body under its heading (section `number`). */
export function figuresSection(
  pages: Pages,
  result: AssessmentResult,
  clock: SiteClock,
  number: number,
): void {
  if (result.figures.length === 0) {
    pages.text('No figures could be formed.', { color: MUTED });
    return;
  }
  pages.text(
    'Each value is formed with the excluded time removed and is the one judged against the limit. In the daily tables, beneath a value in grey: “all” and the value from all data where it differs, the part of the period with readings that count where it is not all of it, and “part” for a period cut short by the start or end of the assessment. A value over its limit is red and marked “over”; a figure with too little of its period kept reads “insufficient data” and is not judged.',
    { color: MUTED, size: 8.5 },
  );
  const periods = periodsText(
    result.figures.filter((f) => !(f.start === result.start && f.end === result.end)),
  );
  if (periods !== '') pages.text(`Periods in site time: ${periods}.`, { color: MUTED, size: 8.5 });

  const groups = methodGroups(result);
  const numbers = new Map(groups.map((g, i) => [g.method, i + 1]));
  instrumentFigures(result).forEach((group, index) => {
    const tables =
      group.daily.rows.length > 0 ? dailyTables(pages, group.serial, group.daily, numbers, clock) : [];
    // The instrument's heading stays with its whole-period table (at most 15 pt a row) and its first
    // daily table: all of it when they fit on a page together, else the start of it.
    const lead = 24 + (group.whole.length > 0 ? 50 + 15 * group.whole.length : 0);
    const first = tables[0]?.layout;
    const together = lead + (first?.height ?? 0);
    pages.need(together <= CONTENT_BOTTOM - TOP ? together : lead + (first?.start ?? 0));
    pages.gap(4);
    const title = `${number}.${index + 1}  ${instrumentText(result, group.serial)}`;
    pages.doc.font('bold').fontSize(10.5).fillColor(ACCENT).text(title, LEFT, pages.y, {
      width: WIDTH,
      lineBreak: false,
    });
    pages.y += 16;
    if (group.whole.length > 0) {
      pages.table(
        'Whole period',
        wholeTable(group.whole, numbers),
        true,
        `${group.serial}: whole period (continued)`,
      );
    }
    for (const { layout, titles } of tables) layout.draw(titles);
  });

  if (groups.length > 0) {
    pages.subheading('Methods', 20);
    groups.forEach((g, i) => pages.bullet(`[${i + 1}] ${g.method}`, { size: 8.5 }));
  }
  // A daily figure's time is in its cell; only the whole period's figures (a PPV's frequency and
  // time) need their details said here.
  const details = result.figures.filter((f) => f.detail && f.start === result.start && f.end === result.end);
  if (details.length > 0) {
    pages.subheading('Details', 20);
    for (const f of details) pages.bullet(`${f.serial} ${f.label}, ${f.period}: ${f.detail}`, { size: 8.5 });
  }
}
