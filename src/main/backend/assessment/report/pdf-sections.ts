/**
 * What the PDF report's numbered sections and appendices say: the method, the instruments and
 * their calibration evidence (counted per month for a period longer than a month), the results,
 * the charts, the exceedances grouped by figure, the notes; and each appendix the user ticked with
 * the sentence that says how to read it. report-pdf.ts gives each its heading and page.
 */
import { HOURLY_NOTE } from '../../../../shared/assessment-hourly';
import { limitText } from '../../../../shared/assessment-summary';
import { condensesChecks } from './calibration-tables';
import { CHART_HEIGHT, drawChart } from './pdf-charts';
import { figuresSection } from './pdf-figures';
import { MUTED, type Pages } from '../../pdf/pdf-layout';
import type { ReportTableView } from './report-columns';
import type { ReportDocument } from './report-document';
import type { SiteClock } from './report-format';
import { methodItems } from './report-method';
import { exceedanceGroups } from './report-summary';
import type { appendicesOf } from './report-tables';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const INSTRUMENTS_SECTION = 'Instruments and calibration evidence';
/** What the instruments section's heading is kept with: the table's head and its first two rows. */
const INSTRUMENTS_KEEP = 140;

/** What the sections write with: the pages, the report and its tables by name. */
export interface SectionWriter {
  pages: Pages;
  report: ReportDocument;
  clock: SiteClock;
  views: ReadonlyMap<string, ReportTableView>;
  /** A table; without its own title when the section's heading says it. */
  table(name: string, empty: string, title?: string): void;
}

export function sectionWriter(
  pages: Pages,
  report: ReportDocument,
  clock: SiteClock,
  views: ReadonlyMap<string, ReportTableView>,
): SectionWriter {
  return {
    pages,
    report,
    clock,
    views,
    table(name, empty, title) {
      const view = views.get(name);
      if (!view?.display) return;
      if (view.display.rows.length === 0) pages.text(empty, { color: MUTED });
      else pages.table(title ?? view.title, view.display, title !== undefined);
    },
  };
}

/** A numbered section: its title, and what writes it (given its number). */
type ReportSection = [title: string, write: (number: number) => void];

/**
 * How much of a section is kept with its heading: a chart is kept whole with its heading, and so is
 * the start of the instruments table (rows of three lines: the position).
 */
export function headingKeep(title: string, { report }: SectionWriter): number {
  if (title === 'Charts' && report.result.charts.length > 0) return CHART_HEIGHT;
  return title === INSTRUMENTS_SECTION ? INSTRUMENTS_KEEP : 60;
}

function instrumentsSection({ pages, report, table }: SectionWriter): void {
  table('instruments', 'No instruments.', 'Instruments');
  if (!condensesChecks(report.result)) {
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
}

function exceedancesSection({ pages, report, views }: SectionWriter): void {
  const groups = exceedanceGroups(report.result);
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
}

/** The numbered sections in their order; the notes only when there are any. */
export function reportSections(writer: SectionWriter): ReportSection[] {
  const { pages, report, clock } = writer;
  const { result } = report;
  return [
    [
      'Method',
      () => {
        for (const item of methodItems(report, clock)) {
          pages.text(item.topic, { font: 'bold', size: 9, after: 1 });
          pages.text(item.text, { size: 8.8, after: 6 });
        }
      },
    ],
    [INSTRUMENTS_SECTION, () => instrumentsSection(writer)],
    ['Results', (number) => figuresSection(pages, result, clock, number)],
    [
      'Charts',
      () => {
        if (result.charts.length === 0) pages.text('No charts.', { color: MUTED });
        for (const chart of result.charts) drawChart(pages, chart, result, clock);
      },
    ],
    ['Exceedances', () => exceedancesSection(writer)],
    ...(result.notes.length > 0
      ? [
          [
            'Notes',
            () => {
              for (const note of result.notes) pages.bullet(note);
            },
          ] as ReportSection,
        ]
      : []),
  ];
}

/** One appendix the user ticked, after its heading: how to read it, then its tables. */
export function writeAppendix(
  { pages, report, table }: SectionWriter,
  appendix: ReturnType<typeof appendicesOf>[number],
): void {
  const name = `appendix-${appendix.letter.toLowerCase()}-${appendix.name}`;
  if (appendix.key === 'exclusions') {
    if (!condensesChecks(report.result)) table(name, 'No time was excluded.', 'Periods');
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
}
