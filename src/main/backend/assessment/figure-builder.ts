/**
 * One way to state a figure: its value from all readings and with the excluded time removed, how
 * much of its period counted, how it was formed, the limit that applies and whether it is exceeded,
 * and where its samples are (so the screen can show them). Shared by the noise, vibration and air
 * quality parts of an assessment.
 */
import type { AssessmentChart, Figure, FigureSource, LimitKey, SiteLimits } from '../../../shared/assessment';
import type { SeriesChannel, TimeInterval } from '../../../shared/data';
import { minMaxReduce } from '../../../shared/series-reduce';

export interface FigurePeriod extends TimeInterval {
  label: string;
}

/** A figure as its part of the assessment forms it; `figureOf` adds its id, limit and verdict. */
export type FigureSpec = Pick<
  Figure,
  'serial' | 'label' | 'limitKey' | 'unit' | 'all' | 'valid' | 'coverage' | 'method' | 'detail' | 'at'
> & {
  period: FigurePeriod;
  source: Omit<FigureSource, 'start' | 'end'>;
  /** A limit that is not one of the site's (the DIN 4150-3 value at a frequency). */
  limit?: number | null;
};

export function figureOf(spec: FigureSpec, limits: SiteLimits): Figure {
  const limit =
    spec.limit !== undefined ? spec.limit : spec.limitKey === null ? null : (limits[spec.limitKey] ?? null);
  return {
    id: `${spec.serial}|${spec.label}|${spec.period.start}`,
    serial: spec.serial,
    label: spec.label,
    limitKey: spec.limitKey,
    period: spec.period.label,
    start: spec.period.start,
    end: spec.period.end,
    unit: spec.unit,
    all: spec.all,
    valid: spec.valid,
    coverage: Math.max(0, Math.min(1, spec.coverage)),
    method: spec.method,
    ...(spec.detail === undefined ? {} : { detail: spec.detail }),
    ...(spec.at === undefined ? {} : { at: spec.at }),
    limit,
    exceeds: limit !== null && spec.valid !== null && spec.valid > limit + 1e-9,
    source: { ...spec.source, start: spec.period.start, end: spec.period.end },
  };
}

/** The fraction of a period that `seconds` of counted readings cover. */
export const coverageOf = (seconds: number, period: TimeInterval): number =>
  period.end > period.start ? (seconds * 1000) / (period.end - period.start) : 0;

/** Pixel columns of a report chart: a printed chart is never wider. */
const CHART_COLUMNS = 600;

/**
 * A series as a report chart draws it: min-max reduced to the chart's columns as the data view's
 * charts are (every peak a limit is judged on survives, and a gap stays a gap: NaN becomes null).
 */
export function chartOf(
  serial: string,
  title: string,
  channel: SeriesChannel,
  limits: Array<{ label: string; value: number }>,
  range: TimeInterval,
): AssessmentChart {
  const reduced = minMaxReduce(channel.times, channel.values, range, CHART_COLUMNS);
  return {
    serial,
    title,
    unit: channel.unit ?? '',
    times: Array.from(reduced.times),
    values: Array.from(reduced.values, (v) => (Number.isNaN(v) ? null : Math.round(v * 1000) / 1000)),
    limits,
  };
}

/** The limits of the site among `keys`, as labelled lines for a chart. */
export function limitLines(
  limits: SiteLimits,
  keys: readonly LimitKey[],
): Array<{ label: string; value: number }> {
  return keys.flatMap((key) => {
    const value = limits[key];
    return value === undefined ? [] : [{ label: `${key} limit`, value }];
  });
}
