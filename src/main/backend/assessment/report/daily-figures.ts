/**
 * The figures of each instrument as consultants tabulate a survey, for the PDF: the figures of the
 * whole period, then a row per site date with a column per figure. The date of a figure is the part
 * of its period's label before the first comma, " (part)" left out ("Tue 24 Nov 2026, night
 * 23:00–07:00" is on the row of Tue 24 Nov 2026: a night is on the row of the evening it starts);
 * the whole period's figures are those whose start and end are the assessment's. The app's screen
 * tabulates them the same way. The workbook and the CSV files keep the long form, a figure a row.
 */
import type { AssessmentResult, Figure } from '../../../../shared/assessment';

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

/** One instrument's figures as the PDF prints them. */
export interface InstrumentFigures {
  serial: string;
  /** The figures of the whole period (LAeq,T, Lden overall, PPV per axis), in the result's order. */
  whole: Figure[];
  daily: DailyTable;
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

/** Per figure label a column, per date a row (oldest first), for figures of standard periods. */
export function dailyTable(figures: readonly Figure[]): DailyTable {
  const labels = [...new Set(figures.map((f) => f.label))];
  const dates = [...new Set([...figures].sort((a, b) => a.start - b.start).map(dateOf))];
  const columns = labels.map((label): DailyColumn => {
    const own = figures.filter((f) => f.label === label);
    const limits = new Set(own.map((f) => f.limit));
    return {
      label,
      unit: own[0]!.unit,
      limit: limits.size === 1 ? own[0]!.limit : null,
      methods: [...new Set(own.map((f) => f.method))],
    };
  });
  const rows = dates.map((date) => ({
    date,
    cells: labels.map((label) => figures.find((f) => f.label === label && dateOf(f) === date) ?? null),
  }));
  return { columns, rows };
}

/** Per instrument (the result's order, then any other serial with figures), its two tables. */
export function instrumentFigures(result: AssessmentResult): InstrumentFigures[] {
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

/**
 * The columns split into tables of at most `max` columns, as even as can be, preferring to split
 * where the period changes ("LAeq,evening" | "LAeq,night"): indices into `labels` per table.
 */
export function splitColumns(labels: readonly string[], max: number): number[][] {
  const indices = labels.map((_, i) => i);
  const kind = (label: string) => label.slice(label.lastIndexOf(',') + 1).trim();
  const parts: number[][] = [];
  let rest = indices;
  while (rest.length > max) {
    const tables = Math.ceil(rest.length / max);
    const target = rest.length / tables;
    let best = max;
    let bestScore = Infinity;
    for (let cut = Math.max(1, rest.length - (tables - 1) * max); cut <= max; cut++) {
      const boundary = kind(labels[rest[cut - 1]!]!) !== kind(labels[rest[cut]!]!);
      const score = Math.abs(cut - target) + (boundary ? 0 : 1.5);
      if (score < bestScore) [best, bestScore] = [cut, score];
    }
    parts.push(rest.slice(0, best));
    rest = rest.slice(best);
  }
  parts.push(rest);
  return parts;
}
