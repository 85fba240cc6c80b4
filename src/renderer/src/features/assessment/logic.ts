/** What the assessment screens show, as pure functions: values in their units, grouping, default period. */
import type {
  AssessmentChart,
  AssessmentResult,
  ExcludedPeriod,
  Figure,
  LimitKey,
  Site,
} from '../../../../shared/assessment';
import { figureValueText, quantityText } from '../../../../shared/figure-text';
import { unitDecimals } from '../../../../shared/assessment-units';
import type { TimeInterval } from '../../../../shared/data';
import { RANGE_PRESETS, type RangeChoice } from '../data/ranges';
import { parse } from 'date-fns';
import { DAY_MS, formatIn, isSiteZone, startOfDayIn, zoneOptions, type DisplayZone } from '../../ui/time';

/** "54.2 dB", "0.412 mm/s", "3 events"; an em dash when there is no value. */
export function valueText(value: number | null, unit: string): string {
  if (value === null) return '—';
  const number = value.toFixed(unitDecimals(unit, value));
  if (unit === 'events' || unit === 'days') return `${number} ${value === 1 ? unit.slice(0, -1) : unit}`;
  return `${number} ${unit}`;
}

/** A figure's kept value as stated everywhere: "54.2 dB", "insufficient data (41 %)", "no readings". */
export const figureText = (figure: Figure): string => figureValueText(figure);

/** The same without the unit, for a table whose column head carries it. */
export const figureNumber = (figure: Figure): string => figureValueText(figure, { unit: false });

/** The figure from all data, at the figure's own precision (its unit left out when `unit` is false). */
export function figureAllText(figure: Figure, unit = true): string {
  if (figure.all === null) return 'no readings';
  return quantityText(figure.all, figure.decimals, unit ? figure.unit : '');
}

/** Whether excluding changed the figure (so the screen can point at the difference). */
export const exclusionsChanged = (figure: Figure): boolean => figure.all !== figure.valid;

/** The last seven whole days of the site (midnight to midnight in its zone), up to today's midnight. */
export function lastWholeDays(now: number, zone: DisplayZone, days = 7): TimeInterval {
  const end = startOfDayIn(now, zone);
  // Step back by days in the zone: a daylight-saving change makes one day 23 or 25 hours.
  let start = end;
  for (let i = 0; i < days; i++) start = startOfDayIn(start - DAY_MS / 2, zone);
  return { start, end };
}

/**
 * The period an assessment covers for a range choice: a typed range as typed; a preset as whole
 * days on the site's clock ("Last 7 days": the seven days up to today's midnight), so every kind of
 * site is assessed midnight to midnight, never 19:04 to 19:04 with part days at both ends.
 */
export function assessmentRange(choice: RangeChoice, now: number, zone: DisplayZone): TimeInterval {
  if (choice.kind === 'custom') return { start: choice.start, end: choice.end };
  const preset = RANGE_PRESETS.find((p) => p.id === choice.preset) ?? RANGE_PRESETS[0]!;
  return lastWholeDays(now, zone, Math.max(1, Math.round(preset.spanMs / DAY_MS)));
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

/** The same with seconds, for readings shorter than a minute. */
export const SITE_TIME_SECONDS_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/** A time on the site's clock as it is typed: to the minute, or to the second when it has them. */
export const siteTimeText = (epochMs: number, zone: DisplayZone): string =>
  formatIn(epochMs, epochMs % 60_000 === 0 ? SITE_TIME_FORMAT : SITE_TIME_SECONDS_FORMAT, zone);

/**
 * A time typed as "2026-11-23 09:00" (or "2026-11-23 09:00:30") on the site's clock, in epoch ms;
 * null when it is not one.
 */
export function parseSiteTime(text: string, zone: DisplayZone): number | null {
  const trimmed = text.trim();
  const match = /^\d{4}-\d{2}-\d{2} \d{1,2}:\d{2}(:\d{2})?$/.exec(trimmed);
  if (match === null) return null;
  const format = match[1] === undefined ? SITE_TIME_FORMAT : SITE_TIME_SECONDS_FORMAT;
  const parsed = parse(trimmed, format, new Date(0), zoneOptions(zone));
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
  result: Pick<AssessmentResult, 'siteId' | 'exclusions'> | null,
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

/**
 * The boundaries of a series' readings nearest `t`, below and above (`below <= t <= above`): the
 * reading starting before `t` and the steps after it, up to the next reading shown (a reduced or
 * irregular series keeps its own starts). Before the first reading both are its start; after the
 * last both are its end.
 */
function boundariesAround(
  t: number,
  times: ArrayLike<number>,
  step: number,
): { below: number; above: number } {
  const first = times[0]!;
  const lastEnd = times[times.length - 1]! + step;
  if (t <= first) return { below: first, above: first };
  if (t >= lastEnd) return { below: lastEnd, above: lastEnd };
  // The last reading starting at or before t.
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (times[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  const start = times[lo]!;
  const next = lo + 1 < times.length ? times[lo + 1]! : lastEnd;
  const below = Math.min(next, start + Math.floor((t - start) / step) * step);
  const above = Math.min(next, start + Math.ceil((t - start) / step) * step);
  return { below, above };
}

/**
 * A span drawn across a chart, snapped to the readings of the series drawn (their `times`, each
 * `step` ms long): each end moves to the nearest reading boundary, within the series' readings.
 * A span narrower than a reading becomes the reading under its middle. Null without readings.
 */
export function snapToReadings(
  drawn: TimeInterval,
  times: ArrayLike<number>,
  step: number,
): TimeInterval | null {
  if (times.length === 0 || !(step > 0)) return null;
  const nearest = (t: number) => {
    const { below, above } = boundariesAround(t, times, step);
    return t - below <= above - t ? below : above;
  };
  const start = nearest(Math.min(drawn.start, drawn.end));
  const end = nearest(Math.max(drawn.start, drawn.end));
  if (end > start) return { start, end };
  // Narrower than a reading: the one under the middle of what was drawn (the last when past it).
  const middle = (drawn.start + drawn.end) / 2;
  const lastStart = times[times.length - 1]!;
  const { below } = boundariesAround(Math.min(middle, lastStart), times, step);
  return { start: below, end: boundariesAround(below + step / 2, times, step).above };
}

/**
 * The length of one reading of a chart's series: the chart's own `step`, or else the smallest
 * spacing of its readings (the starts a chart keeps are readings' own, so it is a whole number of
 * steps: boundaries snapped to it are readings' boundaries still).
 */
export function chartStepOf(chart: Pick<AssessmentChart, 'times' | 'step'>): number | null {
  if (chart.step !== undefined && chart.step > 0) return chart.step;
  let smallest = Number.POSITIVE_INFINITY;
  for (let i = 1; i < chart.times.length; i++) {
    const spacing = chart.times[i]! - chart.times[i - 1]!;
    if (spacing > 0 && spacing < smallest) smallest = spacing;
  }
  return Number.isFinite(smallest) ? smallest : null;
}

/** A reading's length as engineers say it: "1 s", "15 min", "1 h". */
export function readingLengthText(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}
