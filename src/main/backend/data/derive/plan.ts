/**
 * Which cached queries determine which parts of a query the cache does not hold as asked: a value
 * fetched with other values, a longer period from a shorter one (measurements or time history),
 * another weighting of the same bands, a broadband Leq from bands. Per requested channel the
 * cached query that covers most of the range wins; how much each covers is whole periods only.
 */
import type { Dataset, DatasetQuery, TimeInterval } from '../../../../shared/data';
import { DEFAULT_NOISE_VALUES, endpointLimitOf } from '../../../../shared/service/limits';
import { parseIsoDuration } from '../../../../shared/service/duration';
import { canonicalParameters } from '../../cache/cache-key';
import type { CacheKey, CacheStore } from '../../cache/cache-store';
import { intersect, normalize, totalLength } from '../../core/intervals';
import type { Weighting } from '../../../../shared/acoustics';
import { combinationOf, exposureOf, overallOf } from './acoustics';

/** A query held in the cache, read back from its canonical parameter string (cache-key.ts). */
export interface CachedQuery {
  dataset: Dataset;
  params: string;
  values: string[];
  bands: 'Octave' | 'Third' | null;
  weighting: Weighting;
  /** Null for measurements as recorded (the instrument's period, not known here). */
  periodMs: number | null;
}

/** What is asked, in the same terms. */
export interface Target {
  query: DatasetQuery;
  kind: 'noise' | 'frequency';
  timeHistory: boolean;
  /** Noise values asked for; for bands the single channel `BANDS` (all bands of the set). */
  channels: string[];
  bands: 'Octave' | 'Third';
  weighting: Weighting;
  periodMs: number | null;
}

export const BANDS = '*bands';

/** Coverage differences up to this are a tie between sources (see planDerivation). */
const COVERAGE_TIE_MS = 5 * 60_000;

export type PlanKind = 'same' | 'period' | 'weighting' | 'overall' | 'octaves';

export interface Plan {
  source: CachedQuery;
  key: CacheKey;
  kind: PlanKind;
  /** The target's channels this source gives. */
  channels: string[];
  /** Where it gives them: whole periods inside the source's coverage, within the range. */
  derivable: TimeInterval[];
  /** What to read of the source: the whole periods that start in the range. */
  readRange: TimeInterval;
  /** Smaller is preferred when coverage is equal (fewer steps from what was fetched). */
  rank: number;
}

const TIME_HISTORY: ReadonlySet<Dataset> = new Set(['noiseTimeHistory', 'frequencyTimeHistory']);

function defaultPeriodMs(dataset: Dataset): number | null {
  const rule = endpointLimitOf(dataset).period?.default;
  return rule?.kind === 'fixed' ? rule.ms : null;
}

/** A cached query from its parameter string; null when it cannot be read back (an unparsed period). */
export function parseCachedParams(dataset: Dataset, params: string): CachedQuery | null {
  const fields = new Map(
    params
      .split(';')
      .filter((part) => part !== '')
      .map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]),
  );
  const period = fields.get('period');
  const periodMs =
    period === undefined ? defaultPeriodMs(dataset) : /^\d+$/.test(period) ? Number(period) : null;
  if (period !== undefined && periodMs === null) return null;
  const bands = fields.get('bands');
  const weighting = fields.get('weighting');
  return {
    dataset,
    params,
    values: fields.get('values')?.split(',') ?? [],
    bands: bands === 'Octave' || bands === 'Third' ? bands : null,
    weighting: weighting === 'A' || weighting === 'C' ? weighting : 'Z',
    periodMs,
  };
}

export function targetOf(query: DatasetQuery): Target | null {
  const { dataset, options = {} } = query;
  const noise = dataset === 'noiseMeasurements' || dataset === 'noiseTimeHistory';
  const frequency = dataset === 'frequencyMeasurements' || dataset === 'frequencyTimeHistory';
  if (!noise && !frequency) return null;
  const periodMs = options.period === undefined ? defaultPeriodMs(dataset) : parseIsoDuration(options.period);
  if (options.period !== undefined && periodMs === null) return null;
  const values =
    options.values !== undefined && options.values.length > 0 ? options.values : DEFAULT_NOISE_VALUES;
  return {
    query,
    kind: noise ? 'noise' : 'frequency',
    timeHistory: TIME_HISTORY.has(dataset),
    channels: noise ? [...new Set(values)] : [BANDS],
    bands: options.bands ?? 'Octave',
    weighting: options.weighting ?? 'Z',
    periodMs,
  };
}

/**
 * Whether a source of `sourceMs` periods gives the target's `targetMs` ones: 'same' length, a
 * 'period' that whole source periods make up, or not at all. Measurements as recorded (null) make
 * up any longer period as long as each fits inside one (checked on the readings).
 */
export function periodFit(
  sourceMs: number | null,
  targetMs: number | null,
  timeHistorySource: boolean,
): 'same' | 'period' | null {
  if (targetMs === null) return sourceMs === null ? 'same' : null;
  if (sourceMs === targetMs) return 'same';
  if (sourceMs === null) return timeHistorySource ? null : 'period';
  return sourceMs < targetMs && targetMs % sourceMs === 0 ? 'period' : null;
}

function candidates(
  target: Target,
  sources: readonly CachedQuery[],
): Array<Omit<Plan, 'derivable' | 'readRange' | 'key'>> {
  const out: Array<Omit<Plan, 'derivable' | 'readRange' | 'key'>> = [];
  for (const source of sources) {
    const sourceTH = TIME_HISTORY.has(source.dataset);
    // Time history is not made of measurements; measurements may be made of time history.
    if (target.timeHistory && !sourceTH) continue;
    const fit = periodFit(source.periodMs, target.periodMs, sourceTH);
    if (fit === null) continue;
    const sameFamily = source.dataset.startsWith(target.kind);
    if (target.kind === 'noise' && sameFamily) {
      const identical = fit === 'same' && sourceTH === target.timeHistory;
      const has = (v: string) => {
        const exposure = exposureOf(v);
        return source.values.includes(v) || (exposure !== null && source.values.includes(exposure.leq));
      };
      const channels = target.channels.filter((v) => has(v) && (identical || combinationOf(v) !== 'none'));
      out.push({
        source,
        kind: identical ? 'same' : 'period',
        channels,
        rank: identical ? 0 : sourceTH ? 2 : 1,
      });
    } else if (target.kind === 'noise') {
      const channels = target.channels.filter((v) => overallOf(v) !== null);
      out.push({ source, kind: 'overall', channels, rank: source.bands === 'Third' ? 3 : 4 });
    } else if (sameFamily && source.bands === target.bands) {
      const reweighted = source.weighting !== target.weighting;
      const kind = reweighted ? 'weighting' : fit === 'same' ? 'same' : 'period';
      // Reweighting from Z applies one correction per band; from A or C, two (and two roundings).
      const rank =
        (reweighted ? (source.weighting === 'Z' ? 1 : 1.5) : 0) +
        (fit === 'same' ? 0 : 2) +
        (sourceTH === target.timeHistory ? 0 : 3);
      out.push({ source, kind, channels: [BANDS], rank });
    } else if (sameFamily && target.bands === 'Octave' && source.bands === 'Third') {
      out.push({ source, kind: 'octaves', channels: [BANDS], rank: sourceTH === target.timeHistory ? 6 : 7 });
    }
  }
  return out.filter((c) => c.channels.length > 0);
}

/** Whole target periods inside `covered` (normalised), up to `now`; everything when periods are as recorded. */
function wholePeriods(
  covered: readonly TimeInterval[],
  periodMs: number | null,
  now: number,
): TimeInterval[] {
  if (periodMs === null) return [...covered];
  return normalize(
    covered.flatMap((c) => {
      const start = Math.ceil(c.start / periodMs) * periodMs;
      // The period still running now is whole once covered up to now.
      const end = c.end >= now ? c.end : Math.floor(c.end / periodMs) * periodMs;
      return end > start ? [{ start, end }] : [];
    }),
  );
}

/** The range read of a source: the whole periods starting inside `range`, up to `now`. */
export function readRangeOf(range: TimeInterval, periodMs: number | null, now: number): TimeInterval {
  if (periodMs === null) return range;
  const start = Math.ceil(range.start / periodMs) * periodMs;
  return { start, end: Math.max(start, Math.min(Math.ceil(range.end / periodMs) * periodMs, now)) };
}

/**
 * The part of the range that holds no period start: nothing can be missing there (the service
 * answers a period by its start time).
 */
export function headOf(range: TimeInterval, periodMs: number | null): TimeInterval[] {
  if (periodMs === null) return [];
  const first = Math.ceil(range.start / periodMs) * periodMs;
  return first > range.start ? [{ start: range.start, end: Math.min(first, range.end) }] : [];
}

/**
 * For each channel of the target, the cached query that gives most of it; channels nothing cached
 * gives are absent from every plan. The query as asked is no source: its coverage is what fell short.
 */
export function planDerivation(
  store: CacheStore,
  accountId: string,
  target: Target,
  range: TimeInterval,
  now: number,
): Plan[] {
  const { serial } = target.query;
  const datasets: Dataset[] =
    target.kind === 'noise'
      ? target.timeHistory
        ? ['noiseTimeHistory', 'frequencyTimeHistory']
        : ['noiseMeasurements', 'noiseTimeHistory', 'frequencyMeasurements']
      : target.timeHistory
        ? ['frequencyTimeHistory']
        : ['frequencyMeasurements', 'frequencyTimeHistory'];
  const asked = canonicalParameters(target.query.dataset, target.query.options);
  const sources = datasets.flatMap((dataset) =>
    store
      .paramsOf(accountId, serial, dataset)
      .filter((params) => dataset !== target.query.dataset || params !== asked)
      .flatMap((params) => parseCachedParams(dataset, params) ?? []),
  );
  const readRange = readRangeOf(range, target.periodMs, now);
  const evaluated = candidates(target, sources).map((candidate) => {
    const key: CacheKey = {
      accountId,
      serial,
      dataset: candidate.source.dataset,
      params: candidate.source.params,
    };
    const covered = store.covered(key, readRange);
    const derivable = intersect(wholePeriods(covered, target.periodMs, now), [range]);
    return { ...candidate, key, derivable, readRange };
  });
  const best = new Map<string, Plan>();
  for (const channel of target.channels) {
    const options = evaluated
      .filter((plan) => plan.channels.includes(channel) && totalLength(plan.derivable) > 0)
      .sort((a, b) => {
        // Sources fetched moments apart differ by seconds at their open end: that is no reason to
        // prefer the one with more steps.
        const more = totalLength(b.derivable) - totalLength(a.derivable);
        return Math.abs(more) > COVERAGE_TIE_MS ? more : a.rank - b.rank;
      });
    const chosen = options[0];
    if (chosen !== undefined) {
      const plan = best.get(chosen.key.params + chosen.key.dataset) ?? { ...chosen, channels: [] };
      plan.channels.push(channel);
      best.set(chosen.key.params + chosen.key.dataset, plan);
    }
  }
  return [...best.values()];
}
