/** What the assessment screens show, as pure functions: values in their units, grouping, default period. */
import type { AssessmentResult, ExcludedPeriod, Figure, LimitKey, Site } from '../../../../shared/assessment';
import { coveragePercent, figureValueText, quantityText } from '../../../../shared/assessment';
import type { TimeInterval } from '../../../../shared/data';
import { parse } from 'date-fns';
import { DAY_MS, isSiteZone, startOfDayIn, zoneOptions, type DisplayZone } from '../../ui/time';

/** Decimals a figure is stated with: the precision its quantity is measured to. */
export function decimalsOf(unit: string, value: number): number {
  switch (unit) {
    case 'dB':
    case 'µg/m³':
      return 1;
    case 'mm/s':
      return Math.abs(value) < 1 ? 3 : 2;
    case 'm/s¹·⁷⁵':
      return 4;
    default:
      return 0;
  }
}

/** "54.2 dB", "0.412 mm/s", "3 events"; an em dash when there is no value. */
export function valueText(value: number | null, unit: string): string {
  if (value === null) return '—';
  const number = value.toFixed(decimalsOf(unit, value));
  if (unit === 'events' || unit === 'days') return `${number} ${value === 1 ? unit.slice(0, -1) : unit}`;
  return `${number} ${unit}`;
}

/** The number alone, for a table whose column head carries the unit. */
export const numberText = (value: number | null, unit: string): string =>
  value === null ? '—' : value.toFixed(decimalsOf(unit, value));

/** Whole percent, rounded down as the coverage rule judges it (74.6 % is not 75 %). */
export const coverageText = (coverage: number): string => `${coveragePercent(coverage)} %`;

/** A figure's kept value as stated everywhere: "54.2 dB", "insufficient data (41 %)", "no data". */
export const figureText = (figure: Figure): string => figureValueText(figure);

/** The same without the unit, for a table whose column head carries it. */
export const figureNumber = (figure: Figure): string => figureValueText(figure, { unit: false });

/** The figure from all data, at the figure's own precision (its unit left out when `unit` is false). */
export function figureAllText(figure: Figure, unit = true): string {
  if (figure.all === null) return 'no data';
  return quantityText(figure.all, figure.decimals, unit ? figure.unit : '');
}

/** Whether excluding changed the figure (so the screen can point at the difference). */
export const exclusionsChanged = (figure: Figure): boolean => figure.all !== figure.valid;

export interface FigureGroup {
  serial: string;
  /** Figures of the whole period (LAeq,T, Lden overall, PPV per axis, exceedance days). */
  summary: Figure[];
  /** Figures of each standard period, by figure label ("LAeq,day" → its days). */
  byLabel: Array<{ label: string; figures: Figure[] }>;
}

/** An assessment's figures per instrument: the whole period's first, then each kind by its periods. */
export function groupFigures(result: AssessmentResult): FigureGroup[] {
  return result.instruments.map(({ serial }) => {
    const own = result.figures.filter((f) => f.serial === serial);
    const summary = own.filter((f) => f.start === result.start && f.end === result.end);
    const rest = own.filter((f) => !summary.includes(f));
    const labels = [...new Set(rest.map((f) => f.label))];
    return {
      serial,
      summary,
      byLabel: labels.map((label) => ({ label, figures: rest.filter((f) => f.label === label) })),
    };
  });
}

/** The last seven whole days of the site (midnight to midnight in its zone), up to today's midnight. */
export function lastWholeDays(now: number, zone: DisplayZone, days = 7): TimeInterval {
  const end = startOfDayIn(now, zone);
  // Step back by days in the zone: a daylight-saving change makes one day 23 or 25 hours.
  let start = end;
  for (let i = 0; i < days; i++) start = startOfDayIn(start - DAY_MS / 2, zone);
  return { start, end };
}

/** The excluded periods that apply to one instrument (its own and the site-wide ones). */
export const exclusionsOf = (serial: string, periods: readonly ExcludedPeriod[]): ExcludedPeriod[] =>
  periods.filter((p) => p.serial === null || p.serial === serial);

export const CAUSE_LABELS: Readonly<Record<ExcludedPeriod['cause'], string>> = {
  manual: 'Manual',
  wind: 'Wind',
  precipitation: 'Rain',
  failedCheck: 'Failed check',
  offline: 'No readings',
  overload: 'Overload',
};

/** The limits a site can set, in the order an engineer thinks of them, with what each applies to. */
export const LIMIT_FIELDS: ReadonlyArray<{ key: LimitKey; unit: string; hint: string }> = [
  { key: 'LAeq,day', unit: 'dB', hint: '07:00–23:00' },
  { key: 'LAeq,evening', unit: 'dB', hint: '19:00–23:00' },
  { key: 'LAeq,night', unit: 'dB', hint: '23:00–07:00' },
  { key: 'Lden', unit: 'dB', hint: 'per day' },
  { key: 'LAeq,1h', unit: 'dB', hint: 'each hour' },
  { key: 'LA10,day', unit: 'dB', hint: '' },
  { key: 'LA10,night', unit: 'dB', hint: '' },
  { key: 'LA90,day', unit: 'dB', hint: '' },
  { key: 'LA90,night', unit: 'dB', hint: '' },
  { key: 'LAFMax,night', unit: 'dB', hint: '' },
  { key: 'PPV', unit: 'mm/s', hint: 'BS 5228-2: 1.0 complaints likely' },
  { key: 'VDV,day', unit: 'm/s¹·⁷⁵', hint: 'BS 6472-1' },
  { key: 'VDV,night', unit: 'm/s¹·⁷⁵', hint: 'BS 6472-1' },
  { key: 'PM10,24h', unit: 'µg/m³', hint: 'EU: 50' },
  { key: 'PM2.5,24h', unit: 'µg/m³', hint: 'EU 2030: 25' },
];

/** Parses a limit typed by the user: a number, or empty for none; undefined when it is not a number. */
export function parseLimit(text: string): number | null | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** A site's zone as the screens show times in it ('UTC' is the UTC display zone). */
export const displayZoneOf = (timeZone: string): DisplayZone =>
  timeZone === 'UTC' ? 'utc' : isSiteZone(timeZone) ? timeZone : 'utc';

/** The one format a time is typed and read in on these screens. */
export const SITE_TIME_FORMAT = 'yyyy-MM-dd HH:mm';

/** A time typed as "2026-11-23 09:00" on the site's clock, in epoch ms; null when it is not one. */
export function parseSiteTime(text: string, zone: DisplayZone): number | null {
  const trimmed = text.trim();
  if (!/^\d{4}-\d{2}-\d{2} \d{1,2}:\d{2}$/.test(trimmed)) return null;
  const parsed = parse(trimmed, SITE_TIME_FORMAT, new Date(0), zoneOptions(zone));
  const time = parsed.getTime();
  return Number.isFinite(time) ? time : null;
}

/**
 * The periods to shade on an instrument's charts anywhere in the app: the manual exclusions of
 * every site it belongs to, and what the rules found in the last assessment of those sites.
 */
export function shadedExclusions(
  serial: string,
  sites: readonly Site[] | null,
  result: AssessmentResult | null,
): TimeInterval[] {
  const own = (sites ?? []).filter((site) => site.serials.includes(serial));
  const manual = own.flatMap((site) =>
    site.exclusions
      .filter((e) => e.serial === null || e.serial === serial)
      .map(({ start, end }) => ({ start, end })),
  );
  const found =
    result !== null && own.some((site) => site.id === result.siteId)
      ? exclusionsOf(serial, result.exclusions).map(({ start, end }) => ({ start, end }))
      : [];
  return [...manual, ...found];
}

/** The noise limits of the sites an instrument belongs to, as lines for its level charts. */
export function noiseLimitLines(
  serial: string,
  sites: readonly Site[] | null,
): Array<{ label: string; value: number; unit: string }> {
  const keys = ['LAeq,day', 'LAeq,night'] as const;
  return (sites ?? [])
    .filter((site) => site.serials.includes(serial))
    .flatMap((site) =>
      keys.flatMap((key) => {
        const value = site.limits[key];
        return value === undefined ? [] : [{ label: `${site.name}: ${key}`, value, unit: 'dB' }];
      }),
    );
}

export interface DailyTable {
  /** The figures' labels, as columns, in the order the assessment gives them. */
  columns: Array<{ label: string; unit: string; limit: number | null }>;
  /** One row per site date a period starts on ("Thu 19 Nov 2026"), oldest first. */
  rows: Array<{ date: string; cells: Array<Figure | null> }>;
}

/**
 * The per-period figures of one instrument as engineers tabulate a survey: a row per day, a column
 * per figure (a night is on the row of the evening it starts). The date is the part of the
 * period's label before its first comma.
 */
export function dailyTable(figures: readonly Figure[]): DailyTable {
  const labels = [...new Set(figures.map((f) => f.label))];
  const dateOf = (figure: Figure) => figure.period.split(',')[0]!.replace(' (part)', '');
  const dates = [...new Set([...figures].sort((a, b) => a.start - b.start).map(dateOf))];
  const columns = labels.map((label) => {
    const own = figures.filter((f) => f.label === label);
    const limits = new Set(own.map((f) => f.limit));
    // A column's limit is said in its head only when it is the same for every period.
    const limit = limits.size === 1 ? (own[0]!.limit ?? null) : null;
    return { label, unit: own[0]!.unit, limit };
  });
  const rows = dates.map((date) => ({
    date,
    cells: labels.map((label) => figures.find((f) => f.label === label && dateOf(f) === date) ?? null),
  }));
  return { columns, rows };
}
