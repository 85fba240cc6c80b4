/**
 * An assessment as the screen is sent it: the engine's result without what a long period makes
 * large and nobody looks at until they open it. The hourly rows are read when the hourly table is
 * opened (`assessment.hourly`); of the noise events only the night's count is sent. An instrument of more than two months of days is sent a row per
 * month (its highest stated figure per column, the days stated and over) and the figures of a
 * month's days are read when that month is opened (`assessment.days`): a year's 10,000 figures
 * were 6 MB that took the page half a second to take in. The figures, exceedances, evidence and
 * charts shown are the engine's own, unchanged.
 */
import type { AssessmentResult, Figure } from './assessment';
import {
  DAYS_SHOWN_WITHOUT_MONTHS,
  dateOf,
  instrumentFigures,
  monthKeyOf,
  monthlyRows,
  type DailyColumn,
  type MonthRow,
} from './daily-figures';

/** An instrument's days as the screen is sent them when there are too many to send each. */
export interface ShownMonths {
  serial: string;
  /** The daily table's columns (every label of the whole period, in the engine's order). */
  columns: DailyColumn[];
  months: MonthRow[];
}

export type ShownAssessment = Omit<AssessmentResult, 'hourly' | 'events'> & {
  /** How many hourly rows the result holds (the hourly table's size before it is read). */
  hourlyCount: number;
  /**
   * How many of the noise events were at night: all the screen says of them (the report lists
   * them; a year's are 20,000, two thirds of the answer).
   */
  nightEventCount: number;
  /**
   * The instruments whose days come by month. For these, `figures` holds only the whole period's
   * figures; a month's days are read when it is opened. Every other instrument's figures are all
   * in `figures`.
   */
  byMonth: ShownMonths[];
};

export function shownAssessment(result: AssessmentResult): ShownAssessment {
  const { hourly, events, figures, ...shown } = result;
  const byMonth: ShownMonths[] = [];
  const withMonths = new Set<string>();
  for (const { serial, daily } of instrumentFigures(result)) {
    if (daily.rows.length <= DAYS_SHOWN_WITHOUT_MONTHS) continue;
    withMonths.add(serial);
    byMonth.push({ serial, columns: daily.columns, months: monthlyRows(daily) });
  }
  const isWhole = (f: Figure) => f.start === result.start && f.end === result.end;
  return {
    ...shown,
    figures: figures.filter((f) => !withMonths.has(f.serial) || isWhole(f)),
    hourlyCount: hourly.length,
    nightEventCount: events.filter((e) => e.atNight).length,
    byMonth,
  };
}

/**
 * The figures of an instrument's days in one month ("2026-01", on the site's clock) of a result:
 * what `assessment.days` answers when the screen opens that month.
 */
export function monthFigures(
  result: Pick<AssessmentResult, 'figures' | 'start' | 'end'>,
  serial: string,
  month: string,
): Figure[] {
  return result.figures.filter(
    (f) =>
      f.serial === serial &&
      !(f.start === result.start && f.end === result.end) &&
      monthKeyOf(dateOf(f)) === month,
  );
}
