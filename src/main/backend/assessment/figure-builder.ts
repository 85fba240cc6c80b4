/**
 * One way to state a figure: its value from all readings and with the excluded time removed, how
 * much of its period counted, how it was formed, the limit that applies and whether it is exceeded,
 * and where its samples are (so the screen can show them). Shared by the noise, vibration and air
 * quality parts of an assessment.
 */
import type {
  AssessmentChart,
  AssessmentSettings,
  Figure,
  FigureSource,
  FigureState,
  LimitKey,
  SiteLimits,
} from '../../../shared/assessment';
import type { SeriesChannel, TimeInterval } from '../../../shared/data';
import { minMaxReduce } from '../../../shared/series-reduce';
import { unitDecimals } from '../../../shared/assessment-units';
import { nominalStepMs } from './exclusions';

export interface FigurePeriod extends TimeInterval {
  label: string;
}

/** A figure as its part of the assessment forms it; `figureOf` adds its id, limit and verdict. */
export type FigureSpec = Pick<
  Figure,
  | 'serial'
  | 'label'
  | 'limitKey'
  | 'unit'
  | 'all'
  | 'valid'
  | 'coverage'
  | 'method'
  | 'detail'
  | 'at'
  | 'atStepMs'
  | 'guideline'
> & {
  period: FigurePeriod;
  source: Omit<FigureSource, 'start' | 'end'>;
  /** A limit that is not one of the site's (the DIN 4150-3 value at a frequency). */
  limit?: number | null;
};

/** What of the site decides a figure's limit and whether it may be stated. */
export interface FigureRules {
  limits: SiteLimits;
  settings: Pick<AssessmentSettings, 'minimumCoverage'>;
}

/** `value` rounded half away from zero to `decimals`, through its decimal text (so 1.005 → 1.01). */
export function roundTo(value: number | null, decimals: number): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  const rounded = Number(`${Math.round(Number(`${Math.abs(value)}e${decimals}`))}e-${decimals}`);
  return value < 0 ? -rounded : rounded;
}

/**
 * Whether a figure may be stated: no readings in its period (`all` null) is `noData`; kept time
 * below the minimum share of the period (all of it excluded included) is `insufficient`.
 */
export function stateOf(
  all: number | null,
  valid: number | null,
  coverage: number,
  minimum: number,
): FigureState {
  // A figure with counted time but no value (an Lden with its day read and its night not) is
  // short of data, not without readings.
  if (all === null && valid === null && coverage <= 0) return 'noData';
  if (valid === null || coverage + 1e-9 < minimum) return 'insufficient';
  return 'ok';
}

export function figureOf(spec: FigureSpec, rules: FigureRules): Figure {
  const { limits } = rules;
  const limit =
    spec.limit !== undefined ? spec.limit : spec.limitKey === null ? null : (limits[spec.limitKey] ?? null);
  // `all` and `valid` come unrounded; they are stated at their unit's one precision.
  const decimals = unitDecimals(spec.unit, spec.valid ?? spec.all);
  const all = roundTo(spec.all, decimals);
  const valid = roundTo(spec.valid, decimals);
  const coverage = Math.max(0, Math.min(1, spec.coverage));
  const state = stateOf(all, valid, coverage, rules.settings.minimumCoverage);
  return {
    id: `${spec.serial}|${spec.label}|${spec.period.start}`,
    serial: spec.serial,
    label: spec.label,
    limitKey: spec.limitKey,
    period: spec.period.label,
    start: spec.period.start,
    end: spec.period.end,
    unit: spec.unit,
    all,
    valid,
    coverage,
    state,
    decimals,
    method: spec.method,
    ...(spec.guideline === undefined ? {} : { guideline: spec.guideline }),
    ...(spec.detail === undefined ? {} : { detail: spec.detail }),
    ...(spec.at === undefined ? {} : { at: spec.at }),
    ...(spec.atStepMs === undefined ? {} : { atStepMs: spec.atStepMs }),
    limit,
    // One comparison rule: the value as stated is over the limit (both are plain decimals here).
    exceeds: state === 'ok' && limit !== null && valid !== null && valid > limit,
    source: { ...spec.source, start: spec.period.start, end: spec.period.end },
  };
}

/**
 * The fraction of a period that `seconds` of counted readings cover: of the whole reference period
 * (`whole`) when the assessment's range clips it, so 11 hours of a 16-hour day is 69 %, not all of
 * a "part" day.
 */
export function coverageOf(seconds: number, period: TimeInterval & { whole?: TimeInterval }): number {
  const reference = period.whole ?? period;
  return reference.end > reference.start ? (seconds * 1000) / (reference.end - reference.start) : 0;
}

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
    step: nominalStepMs(channel.times),
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
