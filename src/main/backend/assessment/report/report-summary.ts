/**
 * The report's findings as consultants give them, a row per limit and instrument: the governing
 * figure, whether the limit was met or exceeded, how often (n of the m periods that could be
 * stated), the worst case with its period, and how many periods had enough data. Only a stated
 * (`ok`) figure is counted or can be the worst case: a figure with insufficient data or none is
 * said in the coverage column and nowhere else. The PDF, the workbook and the CSV files all print
 * these rows.
 */
import {
  figureValueText,
  LIMIT_KEYS,
  type AssessmentResult,
  type Exceedance,
  type Figure,
  type LimitKey,
} from '../../../../shared/assessment';

export type SummaryVerdict = 'met' | 'exceeded' | 'not assessed';

export interface SummaryRow {
  limitKey: LimitKey;
  serial: string;
  /** The figure the limit is judged on: the worst case's label ("PPV Z"), or the key's. */
  figure: string;
  unit: string;
  /** The limit; the largest when the periods have different ones. */
  limit: number;
  verdict: SummaryVerdict;
  /** Periods over the limit, of `stated`. */
  exceeded: number;
  /** Periods whose figure could be stated (enough data). */
  stated: number;
  /** Periods with the figure at all (stated, insufficient data or no data). */
  periods: number;
  /** The highest stated figure: the worst case. */
  worst: Figure | null;
  /** The lowest coverage of the stated periods (0…1), null when none was stated. */
  lowestCoverage: number | null;
}

/** Per limit (in the order of `LIMIT_KEYS`) and instrument (the result's order), a row. */
export function summaryRows(result: AssessmentResult): SummaryRow[] {
  const serials = [
    ...new Set([...result.instruments.map((i) => i.serial), ...result.figures.map((f) => f.serial)]),
  ];
  const rows: SummaryRow[] = [];
  for (const key of LIMIT_KEYS) {
    for (const serial of serials) {
      const figures = result.figures.filter(
        (f) => f.limitKey === key && f.serial === serial && f.limit !== null,
      );
      if (figures.length === 0) continue;
      const stated = figures.filter((f) => f.state === 'ok' && f.valid !== null);
      const worst = stated.reduce<Figure | null>(
        (most, f) => (most === null || f.valid! > most.valid! ? f : most),
        null,
      );
      const exceeded = stated.filter((f) => f.exceeds).length;
      rows.push({
        limitKey: key,
        serial,
        figure: worst?.label ?? figures[0]!.label,
        unit: figures[0]!.unit,
        limit: Math.max(...figures.map((f) => f.limit!)),
        verdict: stated.length === 0 ? 'not assessed' : exceeded > 0 ? 'exceeded' : 'met',
        exceeded,
        stated: stated.length,
        periods: figures.length,
        worst,
        lowestCoverage: stated.length === 0 ? null : Math.min(...stated.map((f) => f.coverage)),
      });
    }
  }
  return rows;
}

/** "2 of 7": periods over the limit of those stated; "—" when none could be stated. */
export const exceededText = (row: SummaryRow): string =>
  row.stated === 0 ? '—' : `${row.exceeded} of ${row.stated}`;

/** "63.7 dB" (the worst case as every output states it), or "—". */
export const worstText = (row: SummaryRow): string => (row.worst === null ? '—' : figureValueText(row.worst));

/** "all 7 stated", "6 of 7 stated (1 insufficient data)", "0 of 7 stated (7 no data)". */
export function coverageSummary(row: SummaryRow, result: AssessmentResult): string {
  if (row.stated === row.periods) return `all ${row.periods} stated`;
  const figures = result.figures.filter((f) => f.limitKey === row.limitKey && f.serial === row.serial);
  const insufficient = figures.filter((f) => f.state === 'insufficient').length;
  const none = figures.filter((f) => f.state === 'noData' || (f.state === 'ok' && f.valid === null)).length;
  const why = [
    ...(insufficient > 0 ? [`${insufficient} insufficient data`] : []),
    ...(none > 0 ? [`${none} no data`] : []),
  ];
  return `${row.stated} of ${row.periods} stated${why.length > 0 ? ` (${why.join(', ')})` : ''}`;
}

/**
 * The exceedances the report lists: those of a stated figure over its limit (an insufficient or
 * no-data figure is never one), each with its figure, grouped by the figure's label in the order
 * the labels first appear, and by instrument and time within a group.
 */
export function exceedanceGroups(
  result: AssessmentResult,
): Array<{ label: string; items: Array<{ exceedance: Exceedance; figure: Figure }> }> {
  const figures = new Map(result.figures.map((f) => [f.id, f]));
  const groups = new Map<string, Array<{ exceedance: Exceedance; figure: Figure }>>();
  for (const exceedance of result.exceedances) {
    const figure = figures.get(exceedance.figureId);
    if (figure === undefined || figure.state !== 'ok' || !figure.exceeds) continue;
    const list = groups.get(figure.label) ?? [];
    list.push({ exceedance, figure });
    groups.set(figure.label, list);
  }
  const order = [...new Set(result.figures.map((f) => f.label))];
  const serials = result.instruments.map((i) => i.serial);
  return [...groups]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([label, items]) => ({
      label,
      items: items.sort(
        (a, b) =>
          serials.indexOf(a.figure.serial) - serials.indexOf(b.figure.serial) ||
          a.figure.start - b.figure.start,
      ),
    }));
}

/** The number of exceedances the report lists (see `exceedanceGroups`). */
export const exceedanceCount = (result: AssessmentResult): number =>
  exceedanceGroups(result).reduce((sum, g) => sum + g.items.length, 0);
