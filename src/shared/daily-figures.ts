/**
 * The figures of an instrument as consultants tabulate a survey: a row per site date with a column
 * per figure, and — for a long period — a row per month summing up its days. The date of a figure
 * is the part of its period's label before the first comma, " (part)" left out ("Tue 24 Nov 2026,
 * night 23:00–07:00" is on the row of Tue 24 Nov 2026: a night is on the row of the evening it
 * starts), so rows and months are on the site's clock with no time-zone arithmetic per figure. The
 * report's PDF and the app's screen both tabulate with these; the workbook and the CSV files keep
 * the long form, a figure a row.
 */
import type { AssessmentResult, Figure } from './assessment';

/** A column of a daily table: one figure label. */
export interface DailyColumn {
  label: string;
  unit: string;
  /** Said in the column's head only when it is the same for every period of the label. */
  limit: number | null;
  /** The distinct method sentences of the column's figures, in order. */
  methods: string[];
}

export interface DailyRow {
  /** "Tue 24 Nov 2026" */
  date: string;
  /** Per column, the figure of that date, or null when there is none. */
  cells: Array<Figure | null>;
}

export interface DailyTable {
  columns: DailyColumn[];
  rows: DailyRow[];
}

const PART = ' (part)';

/** "Tue 24 Nov 2026" of "Tue 24 Nov 2026, night 23:00–07:00 (part)". */
export const dateOf = (figure: Figure): string => figure.period.split(',')[0]!.replace(PART, '').trim();

/** "night 23:00–07:00" of "Tue 24 Nov 2026, night 23:00–07:00 (part)"; "" without a comma. */
export function periodNameOf(figure: Figure): string {
  const comma = figure.period.indexOf(',');
  return comma < 0
    ? ''
    : figure.period
        .slice(comma + 1)
        .replace(PART, '')
        .trim();
}

/** Whether a figure's period was clipped by the assessment's range. */
export const isPart = (figure: Figure): boolean => figure.period.includes(PART);

/**
 * Per figure label a column (the order of `labels` when given, else the figures'), per date a row
 * (oldest first), for figures of standard periods. Indexed once: a year of a monitor is thousands
 * of figures, looked up per row and column.
 */
export function dailyTable(figures: readonly Figure[], labels?: readonly string[]): DailyTable {
  const columnLabels = labels ?? [...new Set(figures.map((f) => f.label))];
  const byDateAndLabel = new Map<string, Figure>();
  const byLabel = new Map<string, Figure[]>();
  const dates: string[] = [];
  const seen = new Set<string>();
  for (const figure of [...figures].sort((a, b) => a.start - b.start)) {
    const date = dateOf(figure);
    if (!seen.has(date)) {
      seen.add(date);
      dates.push(date);
    }
    const key = `${date}\u0000${figure.label}`;
    if (!byDateAndLabel.has(key)) byDateAndLabel.set(key, figure);
    const own = byLabel.get(figure.label);
    if (own === undefined) byLabel.set(figure.label, [figure]);
    else own.push(figure);
  }
  const columns = columnLabels.map((label): DailyColumn => {
    const own = byLabel.get(label) ?? [];
    const limits = new Set(own.map((f) => f.limit));
    return {
      label,
      unit: own[0]?.unit ?? '',
      limit: limits.size === 1 ? (own[0]!.limit ?? null) : null,
      methods: [...new Set(own.map((f) => f.method))],
    };
  });
  const rows = dates.map((date) => ({
    date,
    cells: columnLabels.map((label) => byDateAndLabel.get(`${date}\u0000${label}`) ?? null),
  }));
  return { columns, rows };
}

/** One instrument's figures as tabulated. */
export interface InstrumentFigures {
  serial: string;
  /** The figures of the whole period (LAeq,T, Lden overall, PPV per axis), in the result's order. */
  whole: Figure[];
  daily: DailyTable;
}

/** Per instrument (the result's order, then any other serial with figures), its two tables. */
export function instrumentFigures(
  result: Pick<AssessmentResult, 'instruments' | 'figures' | 'start' | 'end'>,
): InstrumentFigures[] {
  const serials = [
    ...new Set([...result.instruments.map((i) => i.serial), ...result.figures.map((f) => f.serial)]),
  ];
  return serials.flatMap((serial) => {
    const own = result.figures.filter((f) => f.serial === serial);
    if (own.length === 0) return [];
    const isWhole = (f: Figure) => f.start === result.start && f.end === result.end;
    return [{ serial, whole: own.filter(isWhole), daily: dailyTable(own.filter((f) => !isWhole(f))) }];
  });
}

/** A day table of more rows than this is shown by month, each month opening into its days. */
export const DAYS_SHOWN_WITHOUT_MONTHS = 62;

/** One column of a month: its highest stated figure, how many days were stated and were over. */
export interface MonthCell {
  /** The highest figure stated (enough data) in the month; null when none was. */
  highest: Figure | null;
  /** Days of the month with this figure (stated or not). */
  days: number;
  /** Days with enough data for it to be stated. */
  stated: number;
  /** Days over the limit. */
  over: number;
}

/** A month of a day table: its days summed up per column. */
export interface MonthRow {
  /** "2026-01", on the site's clock. */
  key: string;
  /** "January 2026". */
  label: string;
  /** The days (rows) of the month in the table. */
  dayCount: number;
  cells: MonthCell[];
}

const MONTH_NAMES: Readonly<Record<string, string>> = {
  Jan: 'January',
  Feb: 'February',
  Mar: 'March',
  Apr: 'April',
  May: 'May',
  Jun: 'June',
  Jul: 'July',
  Aug: 'August',
  Sep: 'September',
  Oct: 'October',
  Nov: 'November',
  Dec: 'December',
};
const MONTH_ORDER = Object.keys(MONTH_NAMES);

/** "2026-01" of a row's date "Thu 22 Jan 2026". */
export function monthKeyOf(date: string): string {
  const [, , short = '', year = ''] = date.split(' ');
  return `${year}-${String(MONTH_ORDER.indexOf(short) + 1).padStart(2, '0')}`;
}

/**
 * A day table by month on the site's clock: per column the month's highest stated figure, its
 * stated days and the days over the limit.
 */
export function monthlyRows(table: DailyTable): MonthRow[] {
  const months = new Map<string, MonthRow>();
  for (const row of table.rows) {
    const key = monthKeyOf(row.date);
    let month = months.get(key);
    if (month === undefined) {
      const [, , short = '', year = ''] = row.date.split(' ');
      month = {
        key,
        label: `${MONTH_NAMES[short] ?? short} ${year}`,
        dayCount: 0,
        cells: table.columns.map(() => ({ highest: null, days: 0, stated: 0, over: 0 })),
      };
      months.set(key, month);
    }
    month.dayCount += 1;
    row.cells.forEach((figure, index) => {
      const cell = month.cells[index]!;
      if (figure === null) return;
      cell.days += 1;
      if (figure.exceeds) cell.over += 1;
      if (figure.state !== 'ok' || figure.valid === null) return;
      cell.stated += 1;
      if (cell.highest === null || (cell.highest.valid ?? -Infinity) < figure.valid) cell.highest = figure;
    });
  }
  return [...months.values()];
}
