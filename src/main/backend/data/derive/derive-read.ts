/**
 * Answers offline, from other cached data, what the cache does not hold as asked but determines
 * (plan.ts chooses the sources, readings.ts does the arithmetic), and says in plain words what was
 * derived from what — and, for what cannot be derived, why not and what to sync to have it.
 */
import {
  DATASET_LABELS,
  type Dataset,
  type DatasetOptions,
  type DatasetQuery,
  type DerivedFrom,
  type RecordTable,
  type SeriesChannel,
  type TimeInterval,
} from '../../../../shared/data';
import type { CacheStore } from '../../cache/cache-store';
import { intersect, normalize, subtract } from '../../core/intervals';
import { toLevel } from '../../../../shared/acoustics';
import { combinationOf, exposureOf, isStatistical, overallOf, type Combination } from './acoustics';
import {
  BANDS,
  headOf,
  parseCachedParams,
  periodFit,
  planDerivation,
  targetOf,
  type CachedQuery,
  type Plan,
  type Target,
} from './plan';
import {
  combine,
  fromRecords,
  fromSeries,
  overall,
  reweight,
  toRecords,
  toOctaves,
  toSeries,
  within,
  type Readings,
} from './readings';

export interface DerivedAnswer {
  series: SeriesChannel[];
  records: RecordTable | null;
  /** Where every derived channel could be derived, within the range (periods starting nowhere count as covered). */
  covered: TimeInterval[];
  missing: TimeInterval[];
  /** When the oldest source data used was fetched. */
  cachedAt: number | null;
  /** What was computed, from what; values read as fetched with other values are not listed. */
  from: DerivedFrom[];
}

export interface Derivation {
  /** Null when nothing cached determines any of the query. */
  answer: DerivedAnswer | null;
  /** What the answer was derived from, one sentence per source. */
  notes: string[];
  /** What of the query nothing cached determines, why, and what sync setting would have kept it. */
  underivable: string[];
}

const TIME_HISTORY = (dataset: Dataset) => dataset.endsWith('TimeHistory');

/** "1-second", "15-minute", "1-hour", "1-day", "0.1-second". */
export function periodWords(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000}-day`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}-hour`;
  if (ms % 60_000 === 0) return `${ms / 60_000}-minute`;
  return `${ms / 1000}-second`;
}

function isoPeriod(ms: number): string {
  if (ms % 86_400_000 === 0) return `P${ms / 86_400_000}D`;
  if (ms % 3_600_000 === 0) return `PT${ms / 3_600_000}H`;
  if (ms % 60_000 === 0) return `PT${ms / 60_000}M`;
  return `PT${ms / 1000}S`;
}

const bandWord = (bands: 'Octave' | 'Third' | null) => (bands === 'Third' ? 'third-octave' : 'octave');
const BAND_SPAN = { Octave: '31.5 Hz – 16 kHz', Third: '6.3 Hz – 20 kHz' } as const;

function sourcePhrase(source: CachedQuery): string {
  const p = source.periodMs;
  switch (source.dataset) {
    case 'noiseMeasurements':
      return p === null ? 'the cached noise levels as recorded' : `the cached ${periodWords(p)} noise levels`;
    case 'noiseTimeHistory':
      return `the cached ${periodWords(p ?? 1000)} noise time history`;
    case 'frequencyMeasurements':
      return `the cached ${source.weighting}-weighted ${bandWord(source.bands)} bands ${p === null ? 'as recorded' : `of ${periodWords(p)} periods`}`;
    default:
      return `the cached ${source.weighting}-weighted ${bandWord(source.bands)} band time history (${periodWords(p ?? 1000)})`;
  }
}

function optionsOf(source: CachedQuery): DatasetOptions {
  return {
    ...(source.dataset.startsWith('noise') ? { values: source.values } : {}),
    ...(source.bands === null ? {} : { bands: source.bands, weighting: source.weighting }),
    ...(source.periodMs === null ? {} : { period: isoPeriod(source.periodMs) }),
  };
}

const list = (names: readonly string[]) => names.join(', ');
const COMBINED_HOW: Record<Exclude<Combination, 'none'>, string> = {
  mean: 'averaged energetically',
  sum: 'summed energetically',
  max: 'as the largest',
  min: 'as the smallest',
};

/** " LAE from LAeq and each reading's duration." for exposures computed from a kept Leq; "" otherwise. */
function exposuresFromLeq(plan: Plan): string {
  if (!plan.source.dataset.startsWith('noise')) return '';
  const computed = plan.channels.filter((v) => !plan.source.values.includes(v) && exposureOf(v) !== null);
  if (computed.length === 0) return '';
  return ` ${list(computed.map((v) => `${v} from ${exposureOf(v)!.leq}`))} and each reading's duration.`;
}

function describe(target: Target, plan: Plan, combined: boolean): string {
  return describePlan(target, plan, combined) + exposuresFromLeq(plan);
}

function describePlan(target: Target, plan: Plan, combined: boolean): string {
  const { source } = plan;
  const P = target.periodMs;
  const over = combined && P !== null ? `, combined energetically into ${periodWords(P)} periods` : '';
  if (plan.kind === 'same') {
    return `${list(plan.channels)} from ${sourcePhrase(source)}, cached with other values (${list(source.values)}).`;
  }
  if (plan.kind === 'overall') {
    const reweighted = plan.channels.some((v) => overallOf(v)?.weighting !== source.weighting);
    const weighted = reweighted ? ', weighted per band by IEC 61672-1' : '';
    return `Derived offline, not fetched: ${list(plan.channels)} as the energetic sum of ${sourcePhrase(source)}${weighted}${over}; energy outside ${BAND_SPAN[source.bands ?? 'Octave']} is not included.`;
  }
  if (target.kind === 'frequency') {
    if (plan.kind === 'octaves') {
      const weighted =
        source.weighting !== target.weighting ? `, ${target.weighting}-weighted per band (IEC 61672-1)` : '';
      return `Derived offline, not fetched: octave bands as the energetic sum of their three bands from ${sourcePhrase(source)}${weighted}${over}.`;
    }
    if (plan.kind === 'weighting') {
      return `Derived offline, not fetched: ${target.weighting}-weighted from ${sourcePhrase(source)} (IEC 61672-1 corrections per band)${over}.`;
    }
    return `Derived offline, not fetched: ${periodWords(P ?? 1000)} band levels averaged energetically from ${sourcePhrase(source)}.`;
  }
  const how = plan.channels.map((v) => {
    const c = combinationOf(v);
    return c === 'none' ? v : `${v} ${COMBINED_HOW[c]}`;
  });
  return `Derived offline, not fetched: ${periodWords(P ?? 1000)} values computed from ${sourcePhrase(source)} (${list(how)}).`;
}

/** The readings a plan gives, with where they are whole. */
function runPlan(
  store: CacheStore,
  target: Target,
  plan: Plan,
): { readings: Readings; derivable: TimeInterval[]; fetchedAt: number | null; combined: boolean } {
  const { source } = plan;
  const data = store.read(plan.key, plan.readRange);
  const stepMs = source.periodMs ?? 1000;
  let readings: Readings = TIME_HISTORY(source.dataset)
    ? fromSeries(data.series, stepMs)
    : fromRecords(data.records ?? { timeKey: 'startTime', columns: [], rows: [] });
  const combinations = new Map<string, Combination>();
  if (plan.kind === 'overall') {
    const parts = plan.channels.map((v) => {
      const o = overallOf(v)!;
      combinations.set(v, o.exposure ? 'sum' : 'mean');
      return overall(readings, source.weighting, o.weighting, v, o.exposure);
    });
    readings = {
      ...readings,
      channels: new Map(parts.flatMap((p) => [...p.channels])),
      units: parts[0]!.units,
    };
  } else if (target.kind === 'frequency' && plan.kind === 'octaves') {
    readings = reweight(toOctaves(reweight(readings, source.weighting, 'Z')), 'Z', target.weighting);
    for (const name of readings.channels.keys()) combinations.set(name, 'mean');
  } else if (target.kind === 'frequency') {
    readings = reweight(readings, source.weighting, target.weighting);
    for (const name of readings.channels.keys()) combinations.set(name, 'mean');
  } else {
    const kept = new Map<string, Float64Array>();
    for (const v of plan.channels) {
      const own = readings.channels.get(v);
      const exposure = exposureOf(v);
      const leq = exposure === null ? undefined : readings.channels.get(exposure.leq);
      if (own !== undefined) kept.set(v, own);
      else if (leq !== undefined && exposure !== null) {
        const { durations } = readings;
        kept.set(
          v,
          leq.map((level, i) => level + toLevel(durations[i]!) + exposure.offsetDb),
        );
      }
    }
    readings = { ...readings, channels: kept };
    for (const v of plan.channels) combinations.set(v, combinationOf(v));
  }
  let derivable = plan.derivable;
  const P = target.periodMs;
  const combined = P !== null && source.periodMs !== P;
  if (combined) {
    const samples = target.timeHistory ? P / stepMs : undefined;
    const result = combine(readings, P, combinations, samples);
    readings = result.readings;
    derivable = subtract(
      derivable,
      [...result.spoiled].map((start) => ({ start, end: start + P })),
    );
  }
  const fetched = data.chunks.map((c) => c.fetchedAt);
  return {
    readings: within(readings, derivable),
    derivable,
    fetchedAt: fetched.length === 0 ? null : Math.min(...fetched),
    combined,
  };
}

/** Readings of several plans as one: rows by start time, each plan's channels. */
function merge(parts: readonly Readings[]): Readings {
  const starts = Float64Array.from(new Set(parts.flatMap((p) => [...p.starts]))).sort();
  const at = new Map<number, number>();
  starts.forEach((t, i) => at.set(t, i));
  const ends = new Float64Array(starts.length);
  const durations = new Float64Array(starts.length);
  const overload: Array<boolean | null> = new Array<boolean | null>(starts.length).fill(null);
  const channels = new Map<string, Float64Array>();
  const units = new Map<string, string | null>();
  const texts = new Map<string, string>();
  // Later parts fill only what earlier ones left: measurements (with overload flags) come first.
  for (const part of parts) {
    const index = Array.from(part.starts, (t) => at.get(t)!);
    index.forEach((row, i) => {
      if (ends[row] === 0) {
        ends[row] = part.ends[i]!;
        durations[row] = part.durations[i]!;
      }
      overload[row] ??= part.overload[i] ?? null;
    });
    for (const [name, values] of part.channels) {
      const out = new Float64Array(starts.length).fill(Number.NaN);
      index.forEach((row, i) => (out[row] = values[i]!));
      channels.set(name, out);
      units.set(name, part.units.get(name) ?? 'dB');
    }
    for (const [key, value] of part.texts) if (!texts.has(key)) texts.set(key, value);
  }
  return { starts, ends, durations, overload, channels, units, texts };
}

/** Where the setting that would have kept it is. */
const IN_SYNC = 'in “Prepare for site visit”,';

/**
 * A time history of which nothing at all is cached for the instrument: the dataset itself was left
 * out of the site sync (the band or value ticks are beside the point), so that is what is said,
 * with the box to tick (what another cached time history could give was derived already).
 */
function leftOutNote(target: Target): string {
  const dataset = target.query.dataset;
  const label = DATASET_LABELS[dataset];
  const keep =
    target.kind === 'frequency'
      ? `, with ${target.bands === 'Third' ? 'Third-octave' : 'Octave'} and ${target.weighting} ticked under Spectra`
      : ' (it keeps LAeq at 1 s)';
  return `${label} was left out of the site sync for this instrument, so none of it is kept offline: ${IN_SYNC} tick ${label} under Datasets for noise monitors${keep}, then sync again.`;
}

function underivableNote(
  store: CacheStore,
  accountId: string,
  target: Target,
  channel: string,
  rest: boolean,
): string {
  const { dataset } = target.query;
  const P = target.periodMs;
  const forRange = rest ? 'for the rest of this range' : 'for this range';
  const periods = P === null ? '' : ` for ${periodWords(P)} periods`;
  const cached = store
    .paramsOf(accountId, target.query.serial, dataset)
    .flatMap((params) => parseCachedParams(dataset, params) ?? []);
  if (target.timeHistory && cached.length === 0) return leftOutNote(target);
  // Cached as asked but only for periods that do not make up the one asked for.
  const onlyLonger = (alike: CachedQuery[]) =>
    alike.length > 0 && alike.every((c) => periodFit(c.periodMs, P, target.timeHistory) === null)
      ? ' (it is cached for other periods only, and a shorter period cannot be computed from a longer one)'
      : '';
  if (target.kind === 'frequency') {
    const why =
      onlyLonger(cached.filter((c) => c.bands === target.bands)) ||
      (target.bands === 'Third' && cached.some((c) => c.bands === 'Octave')
        ? ' (octave bands cannot be split into third octaves)'
        : '');
    const bandChoice = target.bands === 'Third' ? 'Third-octave' : 'Octave';
    const setting = `${bandChoice} under Spectra${P === null ? '' : `, with ${periodWords(P)} periods or shorter`}`;
    return `${target.weighting}-weighted ${bandWord(target.bands)} bands${periods} were not synced ${forRange} and cannot be derived from what is cached${why}: ${IN_SYNC} tick ${setting}.`;
  }
  if (target.timeHistory && channel !== 'LAeq') {
    return `The ${channel} time history${periods} was not synced ${forRange} and cannot be derived from what is cached: a site sync keeps the noise time history of LAeq at 1 s only. Choose LAeq here, or read ${channel} in the noise levels.`;
  }
  if (isStatistical(channel)) {
    return `${channel}${periods} was not synced ${forRange}, and a statistical level cannot be computed from other values or periods: ${IN_SYNC} tick ${channel} under Noise values (it is kept as recorded).`;
  }
  const why = onlyLonger(cached.filter((c) => c.values.includes(channel)));
  const orBands = overallOf(channel) === null ? '' : ' (or keep octave or third-octave spectra)';
  const shorter =
    P === null ? ', as recorded' : `, with “As recorded” or ${periodWords(P)} periods or shorter`;
  return `${channel}${periods} was not synced ${forRange} and cannot be derived from what is cached${why}: ${IN_SYNC} tick ${channel} under Noise values${shorter}${orBands}.`;
}

/**
 * What the cache determines of `query` over `range` (already ending at `now`), from other cached
 * queries of the same instrument; `exactCoveredMs` is how much of the range the query as asked has.
 */
export function deriveFromCache(
  store: CacheStore,
  accountId: string,
  query: DatasetQuery,
  range: TimeInterval,
  now: number,
  exactCoveredMs: number,
): Derivation {
  const target = targetOf(query);
  if (target === null || range.end <= range.start) return { answer: null, notes: [], underivable: [] };
  const plans = planDerivation(store, accountId, target, range, now);
  const given = new Set(plans.flatMap((p) => p.channels));
  const underivable = target.channels
    .filter((c) => !given.has(c))
    .map((c) => underivableNote(store, accountId, target, c, exactCoveredMs > 0));
  if (plans.length === 0) return { answer: null, notes: [], underivable };

  // Measurement sources first: their records carry the overload flags.
  plans.sort((a, b) => Number(TIME_HISTORY(a.source.dataset)) - Number(TIME_HISTORY(b.source.dataset)));
  const runs = plans.map((plan) => ({ plan, ...runPlan(store, target, plan) }));
  const merged = merge(runs.map((r) => r.readings));
  const head = headOf(range, target.periodMs);
  const covered = normalize([
    ...head,
    ...runs.reduce<TimeInterval[]>((acc, r) => intersect(acc, r.derivable), [range]),
  ]);
  const order =
    target.kind === 'noise' ? target.channels : [...merged.channels.keys()].filter((n) => n !== BANDS);
  const fetched = runs.flatMap((r) => (r.fetchedAt === null ? [] : [r.fetchedAt]));
  const sources = runs.map((r) => ({
    dataset: r.plan.source.dataset,
    options: optionsOf(r.plan.source),
    how: describe(target, r.plan, r.combined),
    // Values read as fetched (with others) are cached data, not computed: said, not flagged derived.
    computed: r.plan.kind !== 'same' || r.combined,
  }));
  const from = sources.filter((f) => f.computed).map(({ computed: _, ...f }) => f);
  return {
    answer: {
      series: toSeries(merged, order, range),
      records: target.timeHistory ? null : toRecords(merged, order),
      covered,
      missing: subtract([range], covered),
      cachedAt: fetched.length === 0 ? null : Math.min(...fetched),
      from,
    },
    notes: sources.map((f) => f.how),
    underivable,
  };
}
