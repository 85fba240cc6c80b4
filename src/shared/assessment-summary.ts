/**
 * An assessment's findings, formed once from its figures and told the same on every screen and in
 * every format: a row per instrument, figure and limit (the site's limit, or a guideline such as
 * DIN 4150-3 that has no site key) with its verdict over the figure's periods, and the list of
 * periods over a limit that the exceedances sections show. The summary's counts are taken from that
 * very list, so a summary can never name fewer exceedances than its sections.
 *
 * A verdict a consultant signs never says "met" over periods it could not assess: a row is
 * `exceeded` (any stated period over), `met` (every period stated, none over), `met in part`
 * (none over, but some periods could not be assessed: "met on 3 of 7 periods; 4 could not be
 * assessed") or `not assessable` (no period stated).
 */
import { LIMIT_KEYS, type AssessmentResult, type Figure, type LimitKey } from './assessment';
import { figureStateWords, figureValueText } from './figure-text';

export type SummaryVerdict = 'exceeded' | 'met' | 'met in part' | 'not assessable';

export interface SummaryRow {
  /** What the figure is held to: the site's limit key ("LAeq,day") or a guideline ("DIN 4150-3 line 2"). */
  limitName: string;
  /** The site's limit key; null for a guideline. */
  limitKey: LimitKey | null;
  serial: string;
  /** The figure's label ("LAeq,day", "PPV Z vs DIN 4150-3"). */
  figure: string;
  unit: string;
  /** The limit of the governing (worst) period, or of the first period when none was stated. */
  limit: number;
  /** The decimals the limit is written to: as entered (85.45), never fewer than the figure's. */
  limitDecimals: number;
  verdict: SummaryVerdict;
  /** The periods over the limit, in time order: exactly those the exceedances sections list. */
  over: Figure[];
  /** Periods whose figure could be stated. */
  stated: number;
  /** All the figure's periods (stated or not). */
  periods: number;
  /** Periods that could not be assessed: insufficient data, all excluded or no readings. */
  notAssessable: Figure[];
  /** The stated period furthest over (or nearest to) its limit, relative to the limit. */
  worst: Figure | null;
  /** The lowest coverage of the stated periods (0…1), null when none was stated. */
  lowestCoverage: number | null;
}

/** The name of what a figure is held to; null for a figure without a limit. */
export function limitNameOf(figure: Pick<Figure, 'limitKey' | 'guideline' | 'limit'>): string | null {
  if (figure.limit === null) return null;
  return figure.limitKey ?? figure.guideline ?? null;
}

/** Decimals of a number as written ("85.45" → 2), at most 4 (a limit is never entered finer). */
export function writtenDecimals(value: number): number {
  for (let decimals = 0; decimals < 4; decimals++) {
    const scaled = value * 10 ** decimals;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6 * Math.max(1, Math.abs(scaled))) return decimals;
  }
  return 4;
}

/**
 * The decimals a limit is written to wherever it appears: as entered (a limit of 85.45 dB reads
 * 85.45, never 85.5, which would make "85.5 over 85.5" an exceedance) and at least the figure's.
 */
export const limitDecimals = (limit: number, figureDecimals: number): number =>
  Math.max(figureDecimals, writtenDecimals(limit));

/** "85.45 dB": a limit as every output writes it. */
export function limitText(limit: number, figureDecimals: number, unit: string): string {
  const number = limit.toFixed(limitDecimals(limit, figureDecimals));
  return unit === '' ? number : `${number} ${unit}`;
}

/** A value less its limit, rounded once to the limit's decimals (floating-point noise gone: 0.05, not 0.0499…). */
function overLimit(
  value: number,
  limit: number,
  figureDecimals: number,
): { amount: number; decimals: number } {
  const decimals = limitDecimals(limit, figureDecimals);
  return { amount: Number((value - limit).toFixed(decimals)), decimals };
}

/** How far a stated figure is over its limit, at the limit's decimals ("0.05"); null when not over. */
export function overBy(figure: Pick<Figure, 'valid' | 'limit' | 'decimals' | 'exceeds'>): number | null {
  if (!figure.exceeds || figure.valid === null || figure.limit === null) return null;
  return overLimit(figure.valid, figure.limit, figure.decimals).amount;
}

/** "0.05 dB": how far a value is over its limit, at the limit's decimals. */
export function overByText(value: number, limit: number, figureDecimals: number, unit: string): string {
  const { amount, decimals } = overLimit(value, limit, figureDecimals);
  const number = amount.toFixed(decimals);
  return unit === '' ? number : `${number} ${unit}`;
}

/** A stated figure against its limit as a ratio, for choosing the worst case (limits may differ per period). */
const severity = (figure: Figure): number =>
  figure.limit !== null && figure.limit > 0 ? figure.valid! / figure.limit : figure.valid!;

/**
 * The figures over a limit that the report and the screen list: stated figures only (a figure with
 * insufficient data is never an exceedance), in the order of the figures.
 */
export const exceedingFigures = (result: Pick<AssessmentResult, 'figures'>): Figure[] =>
  result.figures.filter((f) => f.state === 'ok' && f.exceeds && f.limit !== null);

/**
 * Per instrument, figure and limit, a row: in the order of `LIMIT_KEYS` then guidelines, of the
 * result's instruments, then of the figures (a stable sort); periods in time order.
 */
export function summaryRows(result: Pick<AssessmentResult, 'instruments' | 'figures'>): SummaryRow[] {
  const serials = [
    ...new Set([...result.instruments.map((i) => i.serial), ...result.figures.map((f) => f.serial)]),
  ];
  const exceeding = new Set(exceedingFigures(result));
  const groups = new Map<string, Figure[]>();
  for (const figure of result.figures) {
    const name = limitNameOf(figure);
    if (name === null) continue;
    const key = `${name}\u0000${figure.serial}\u0000${figure.label}`;
    groups.set(key, [...(groups.get(key) ?? []), figure]);
  }
  const limitOrder = (name: string) => {
    const index = (LIMIT_KEYS as readonly string[]).indexOf(name);
    return index === -1 ? LIMIT_KEYS.length : index;
  };
  const rows = [...groups.values()].map((figures): SummaryRow => {
    figures.sort((a, b) => a.start - b.start);
    const first = figures[0]!;
    const stated = figures.filter((f) => f.state === 'ok' && f.valid !== null);
    const worst = stated.reduce<Figure | null>(
      (most, f) => (most === null || severity(f) > severity(most) ? f : most),
      null,
    );
    const over = figures.filter((f) => exceeding.has(f));
    const notAssessable = figures.filter((f) => !stated.includes(f));
    const governing = worst ?? first;
    const verdict: SummaryVerdict =
      stated.length === 0
        ? 'not assessable'
        : over.length > 0
          ? 'exceeded'
          : notAssessable.length > 0
            ? 'met in part'
            : 'met';
    return {
      limitName: limitNameOf(first)!,
      limitKey: first.limitKey,
      serial: first.serial,
      figure: first.label,
      unit: first.unit,
      limit: governing.limit!,
      limitDecimals: limitDecimals(governing.limit!, governing.decimals),
      verdict,
      over,
      stated: stated.length,
      periods: figures.length,
      notAssessable,
      worst,
      lowestCoverage: stated.length === 0 ? null : Math.min(...stated.map((f) => f.coverage)),
    };
  });
  return rows.sort(
    (a, b) =>
      limitOrder(a.limitName) - limitOrder(b.limitName) ||
      a.limitName.localeCompare(b.limitName) ||
      serials.indexOf(a.serial) - serials.indexOf(b.serial),
  );
}

const periodsWord = (n: number) => (n === 1 ? 'period' : 'periods');

/**
 * The verdict in words, the same in every output: "exceeded on 2 of 7 periods", "met on all 7
 * periods", "met on 3 of 7 periods; 4 could not be assessed", "not assessable: 7 periods with
 * insufficient data". Periods that could not be assessed are always said.
 */
export function verdictText(row: SummaryRow): string {
  const unassessed = row.notAssessable.length;
  const rest = unassessed > 0 ? `; ${unassessed} could not be assessed` : '';
  switch (row.verdict) {
    case 'exceeded':
      return `exceeded on ${row.over.length} of ${row.stated} stated ${periodsWord(row.stated)}${rest}`;
    case 'met':
      return row.periods === 1 ? 'met' : `met on all ${row.periods} periods`;
    case 'met in part':
      return `met on ${row.stated} of ${row.periods} periods${rest}`;
    case 'not assessable':
      return `not assessable: ${notAssessableText(row)}`;
  }
}

/** "4 insufficient data, 1 all excluded, 2 no readings": why periods could not be assessed. */
export function notAssessableText(row: SummaryRow): string {
  const counts = new Map<string, number>();
  for (const figure of row.notAssessable) {
    const words = figureStateWords(figure).replace(/ \(.*\)$/, '');
    counts.set(words, (counts.get(words) ?? 0) + 1);
  }
  return [...counts].map(([words, n]) => `${n} ${words}`).join(', ');
}

/** "all 7 stated", "3 of 7 stated (4 insufficient data)": how many periods the verdict rests on. */
export function coverageSummary(row: SummaryRow): string {
  if (row.stated === row.periods) return row.periods === 1 ? 'stated' : `all ${row.periods} stated`;
  return `${row.stated} of ${row.periods} stated (${notAssessableText(row)})`;
}

/** "63.7 dB" for the worst case as every output states it, or "—". */
export const worstText = (row: SummaryRow): string => (row.worst === null ? '—' : figureValueText(row.worst));

/**
 * The summary in a sentence: "Of 12 figures held to a limit, 4 met, 2 met on the periods that could
 * be assessed, 5 exceeded and 1 could not be assessed. 9 periods over a limit are listed…".
 */
export function summarySentence(rows: readonly SummaryRow[]): string {
  if (rows.length === 0) return 'No limit is set for the figures of this site.';
  const count = (verdict: SummaryVerdict) => rows.filter((r) => r.verdict === verdict).length;
  const parts = (
    [
      ['met', 'met on every period'],
      ['met in part', 'met on the periods that could be assessed, with others not assessable'],
      ['exceeded', 'exceeded'],
      ['not assessable', 'could not be assessed at all'],
    ] as const
  )
    .filter(([verdict]) => count(verdict) > 0)
    .map(([verdict, words]) => `${count(verdict)} ${words}`);
  const listed = rows.reduce((sum, r) => sum + r.over.length, 0);
  const last = parts.pop()!;
  const list = parts.length === 0 ? last : `${parts.join(', ')} and ${last}`;
  const overText =
    listed === 0
      ? 'No figure exceeds its limit.'
      : `${listed} ${periodsWord(listed)} over a limit ${listed === 1 ? 'is' : 'are'} listed in the exceedances section.`;
  return `Of ${rows.length} ${rows.length === 1 ? 'figure' : 'figures'} held to a limit (per instrument), ${list}. ${overText}`;
}
