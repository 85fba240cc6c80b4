/**
 * The tables of an assessment report in the report's order, made once from a `ReportDocument` and
 * written three ways: as plain rows for the CSV files and the Excel sheets (a sheet or file per
 * table, named for its section), and as the text the PDF prints. The order is the PDF's: cover,
 * summary, method, instruments and calibration evidence, results, exceedances, then the appendices
 * the user ticked.
 */
import {
  reportStatusText,
  type AssessmentResult,
  type ReportAppendices,
} from '../../../../shared/assessment';
import { reportConclusion } from '../../../../shared/assessment-conclusion';
import { evidenceTables } from './evidence-tables';
import { instrumentsTable } from './instruments-table';
import { chartsTable, eventsTable, exceedancesTable, figuresTable, hourlyTable } from './level-tables';
import { tableView, type ReportCell, type ReportTable, type ReportTableView } from './report-columns';
import { reportKind, type ReportDocument } from './report-document';
import { isoMoment, isoUtc, rounded, SiteClock } from './report-format';
import { methodItems } from './report-method';
import {
  coverageSummary,
  limitText,
  summaryRows,
  verdictText,
  worstText,
  type SummaryRow,
} from '../../../../shared/assessment-summary';
import { dataSourceText } from './report-verdicts';

/** Hears how far a report is written: a stage in words and the fraction done (0…1). */
export interface ReportProgressSink {
  (stage: string, fraction: number): void;
}

/** An appendix the user can tick, with its table's name. */
export const APPENDICES = [
  { key: 'exclusions', name: 'exclusions', title: 'Excluded periods' },
  { key: 'events', name: 'noise-events', title: 'Noise events' },
  { key: 'hourly', name: 'hourly-levels', title: 'Hourly noise levels' },
] as const;

/**
 * What a report's file name adds for its appendices: " with exclusions, events", or nothing
 * without any, so reports of one period with different contents have different names.
 */
export function appendixSuffix(appendices: ReportAppendices): string {
  const names = APPENDICES.filter((a) => appendices[a.key]).map((a) => FILE_WORDS[a.key]);
  return names.length === 0 ? '' : ` with ${names.join(', ')}`;
}

const FILE_WORDS: Readonly<Record<(typeof APPENDICES)[number]['key'], string>> = {
  exclusions: 'exclusions',
  events: 'events',
  hourly: 'hourly levels',
};

/** The appendices a report has, lettered A, B, C in order. */
export function appendicesOf(
  report: ReportDocument,
): Array<(typeof APPENDICES)[number] & { letter: string }> {
  return APPENDICES.filter((a) => report.appendices[a.key]).map((a, i) => ({
    ...a,
    letter: String.fromCharCode(65 + i),
  }));
}

/** The cover's label of the issue status, so the PDF's cover can mark a status that is not final. */
export const STATUS_FACT = 'Status';

/**
 * "Draft — not final", "For comment — not final", "Final": a status as the cover says it, an issue
 * that is not final saying so in words; '' when the site states none.
 */
export function statusText(report: Pick<ReportDocument, 'cover'>): string {
  const { status } = report.cover;
  if (status === '') return '';
  return status === 'final' ? reportStatusText(status) : `${reportStatusText(status)} — not final`;
}

/** The cover's facts, as the PDF's cover and the "Cover" sheet give them; a fact not given is left out. */
export function coverFacts(report: ReportDocument, clock: SiteClock): Array<[string, string]> {
  const { result, cover } = report;
  return [
    ['Site', result.siteName],
    ['Client', cover.client],
    ['Project', cover.project],
    ['Reference', cover.reference],
    ['Revision', cover.revision],
    [STATUS_FACT, statusText(report)],
    [
      'Period',
      `${clock.long(result.start, true)} – ${clock.long(result.end, true)} ${clock.zoneText(result.start, result.end)}`,
    ],
    ['Prepared by', cover.author],
    ['Approved by', cover.approver],
    ['Issued by', cover.company],
    ['Date', clock.long(result.computedAt)],
  ].filter((fact): fact is [string, string] => fact[1] !== '');
}

/** What the "Cover" sheet says of where the conclusion's words come from. */
export const CONCLUSION_SOURCE = {
  drafted: 'Drafted by FieldDesk from the summary (the site has no conclusion of its own)',
  written: 'Written for the site',
} as const;

/** The short result of a summary row: "exceeded", "met", "met on 3 of 7", "not assessable". */
const resultWords = (r: SummaryRow): string =>
  r.verdict === 'met in part' ? `met on ${r.stated} of ${r.periods}` : r.verdict;

/** "2 of 7": periods over the limit of those stated; "—" when none could be stated. */
const overText = (r: SummaryRow): string => (r.stated === 0 ? '—' : `${r.over.length} of ${r.stated}`);

/** The summary table: a row per instrument, figure and limit (see `summaryRows`). */
export function summaryTable(result: AssessmentResult): ReportTableView {
  const clock = new SiteClock(result.timeZone, result.start);
  return tableView(
    'summary',
    'Summary',
    summaryRows(result),
    [
      { header: 'Limit', value: (r) => r.limitName },
      { header: 'Serial', value: (r) => r.serial },
      { header: 'Figure', value: (r) => r.figure },
      { header: 'Limit value', value: (r) => r.limit, decimals: (r) => r.limitDecimals },
      { header: 'Unit', value: (r) => r.unit },
      { header: 'Result', value: (r) => r.verdict },
      { header: 'Verdict', value: (r) => verdictText(r) },
      { header: 'Periods over the limit', value: (r) => (r.stated === 0 ? null : r.over.length) },
      { header: 'Periods stated', value: (r) => r.stated },
      { header: 'Periods not assessable', value: (r) => r.notAssessable.length },
      { header: 'Periods', value: (r) => r.periods },
      {
        header: 'Worst case',
        value: (r) => (r.worst === null ? null : rounded(r.worst.valid, r.worst.decimals)),
        decimals: (r) => r.worst?.decimals ?? 1,
      },
      { header: 'Worst case period', value: (r) => r.worst?.period ?? null },
      {
        header: 'Worst case at (UTC)',
        value: (r) => (r.worst?.at === undefined ? null : isoMoment(r.worst.at, r.worst.atStepMs)),
      },
      { header: 'Coverage', value: (r) => coverageSummary(r) },
    ],
    [
      { header: 'Figure', text: (r) => r.figure, weight: 13 },
      { header: 'Instrument', text: (r) => r.serial, weight: 9 },
      {
        header: 'Limit',
        text: (r) => limitText(r.limit, r.limitDecimals, r.unit),
        weight: 10,
        align: 'right',
      },
      { header: 'Result', text: resultWords, weight: 11 },
      { header: 'Periods over', text: overText, weight: 7, align: 'right' },
      { header: 'Worst case', text: worstText, weight: 10, align: 'right' },
      {
        header: 'Worst case period',
        text: (r) =>
          r.worst === null
            ? '—'
            : r.worst.at === undefined
              ? r.worst.period
              : clock.moment(r.worst.at, r.worst.atStepMs),
        weight: 26,
      },
      { header: 'Coverage', text: (r) => coverageSummary(r), weight: 14 },
    ],
  );
}

/** Every table of the report with its printed form, in the report's order. */
export function reportTableViews(doc: ReportDocument): ReportTableView[] {
  const { result } = doc;
  const clock = new SiteClock(result.timeZone, result.start);
  const evidence = new Map(evidenceTables(result, clock).map((t) => [t.name, t]));
  const placed = (name: string): ReportTableView[] => {
    const table = evidence.get(name);
    return table === undefined ? [] : [table];
  };
  const conclusion = reportConclusion(doc.conclusion, result);
  const coverRows: Array<[string, ReportCell]> = [
    ['Title', reportKind(result)],
    ...coverFacts(doc, clock).filter(([item]) => item !== 'Period' && item !== 'Date'),
    ['Time zone', result.timeZone],
    ['Period start (UTC)', isoUtc(result.start)],
    ['Period end (UTC)', isoUtc(result.end)],
    [`Period start (${clock.zone})`, clock.iso(result.start)],
    [`Period end (${clock.zone})`, clock.iso(result.end)],
    ['Assessment computed (UTC)', isoUtc(result.computedAt)],
    ['Data', dataSourceText(result, clock)],
    ['Data fetched (UTC)', result.dataFetchedAt === null ? null : isoUtc(result.dataFetchedAt)],
    ...result.notes.map((note, i): [string, ReportCell] => [`Note ${i + 1}`, note]),
    ...(result.unjudgedRules ?? []).map((rule, i): [string, ReportCell] => [
      `Rule not judged ${i + 1}`,
      rule,
    ]),
    ['Conclusion', conclusion.text],
    ['Conclusion source', conclusion.drafted ? CONCLUSION_SOURCE.drafted : CONCLUSION_SOURCE.written],
  ];
  const appendixTables: Record<(typeof APPENDICES)[number]['key'], () => ReportTableView[]> = {
    exclusions: () => [...placed('exclusions'), ...placed('exclusion-months')],
    events: () => [eventsTable(result, clock)],
    hourly: () => [hourlyTable(result, clock)],
  };
  const cover = tableView(
    'cover',
    'Cover',
    coverRows,
    [
      { header: 'Item', value: (r) => r[0] },
      { header: 'Value', value: (r) => r[1] },
    ],
    null,
  );
  const method = tableView(
    'method',
    'Method',
    methodItems(doc, clock),
    [
      { header: 'Topic', value: (m) => m.topic },
      { header: 'Text', value: (m) => m.text },
    ],
    null,
  );
  const notes = tableView('notes', 'Notes', result.notes, [{ header: 'Note', value: (note) => note }], null);
  // The PDF's sections in its order (see report-pdf.ts), numbered as it numbers them.
  const numbered: Array<[string, ReportTableView[]]> = [
    ['Method', [method]],
    [
      'Instruments and calibration evidence',
      [
        instrumentsTable(result, clock, doc.positions),
        ...placed('calibration'),
        ...placed('calibration-months'),
        ...placed('failed-checks'),
        ...placed('calibration-verdicts'),
        ...placed('excluded-time'),
      ],
    ],
    ['Results', [figuresTable(result, clock)]],
    ['Charts', [chartsTable(result, clock)]],
    ['Exceedances', [exceedancesTable(result, clock)]],
    ...(result.notes.length > 0 ? [['Notes', [notes]] as [string, ReportTableView[]]] : []),
  ];
  const sections: ReportSection[] = [
    { heading: COVER_SECTION, tables: [cover] },
    { heading: 'Summary', tables: [summaryTable(result)] },
    // The conclusion is a paragraph, kept on the cover sheet.
    { heading: 'Conclusion', tables: [cover] },
    ...numbered.map(([title, tables], i) => ({ heading: `${i + 1} ${title}`, tables })),
    ...appendicesOf(doc).map((a) => ({
      heading: `Appendix ${a.letter} ${a.title}`,
      // The appendix's first table is named for it; any further one (a long period's exclusions
      // counted by month) adds its own name.
      tables: appendixTables[a.key]().map((table, i) => ({
        ...table,
        name: `appendix-${a.letter.toLowerCase()}-${a.name}${i === 0 ? '' : `-${table.name}`}`,
        title: `Appendix ${a.letter} – ${table.title}`.slice(0, 31),
      })),
    })),
  ];
  const tables = [...new Set(sections.flatMap((s) => s.tables))];
  return [cover, contentsTable(sections), ...tables.slice(1)];
}

/** What the cover sheet is listed under in the contents: the PDF's cover page, which has no heading. */
const COVER_SECTION = 'Cover';

/** A heading of the PDF as its contents list it ("2 Instruments and calibration evidence") and its tables. */
interface ReportSection {
  heading: string;
  tables: ReportTableView[];
}

/**
 * The contents of the workbook and the CSV folder: per heading of the PDF, the sheet (and CSV
 * table) holding what it prints, so a reader finds every section of the PDF among the sheets.
 */
function contentsTable(sections: readonly ReportSection[]): ReportTableView {
  const rows = sections.flatMap((section, s) => [
    ...section.tables.map((table) => ({ section: section.heading, sheet: table.title, table: table.name })),
    ...(s === 0 ? [{ section: section.heading, sheet: CONTENTS_TITLE, table: 'contents' }] : []),
  ]);
  return tableView(
    'contents',
    CONTENTS_TITLE,
    rows,
    [
      { header: 'Section of the PDF', value: (r) => r.section },
      { header: 'Sheet', value: (r) => r.sheet },
      { header: 'CSV table', value: (r) => r.table },
    ],
    null,
  );
}

const CONTENTS_TITLE = 'Contents';

/** The report's tables as plain rows, for CSV and Excel. */
export function reportTables(report: ReportDocument): ReportTable[] {
  return reportTableViews(report).map(({ name, title, columns, rows }) => ({ name, title, columns, rows }));
}
