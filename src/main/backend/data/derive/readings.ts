/**
 * Levels over time in one columnar form, whether they came from measurement records or from time
 * history series, and the pure steps a derivation is made of: re-weighting bands, an overall level
 * from bands, and combining readings into longer periods. Then back to records and series in the
 * shapes the service's answers are parsed into (records.ts), gap markers included.
 */
import type {
  CellValue,
  RecordColumn,
  RecordTable,
  SeriesChannel,
  TimeInterval,
} from '../../../../shared/data';
import { buildChannel, TOLERANCE_MS } from '../../service/parse/series';
import { OCTAVE_BAND_NAMES } from '../../../../shared/service/limits';
import { bandCentreFrequency } from '../../../../shared/service/bands';
import { toEnergy, toLevel, type Weighting } from '../../../../shared/acoustics';
import { bandCorrection, type Combination } from './acoustics';

export interface Readings {
  /** Start (epoch ms) of each reading, ascending. */
  starts: Float64Array;
  ends: Float64Array;
  /** Seconds measured in each reading: the service's `duration`, or the sample length of time history. */
  durations: Float64Array;
  /** Per reading; null where not known (time history carries no overload flag). */
  overload: Array<boolean | null>;
  /** Level per reading by channel name; NaN is "no reading". */
  channels: Map<string, Float64Array>;
  units: Map<string, string | null>;
  /** Text fields carried along (LeqT1Type, LeqT2Type). */
  texts: Map<string, string>;
}

const SPECIAL_COLUMNS = new Set(['startTime', 'endTime', 'duration', 'overload']);

/** Readings from parsed measurement records (noise or frequency). */
export function fromRecords(table: RecordTable): Readings {
  const rows = table.rows;
  const n = rows.length;
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  const durations = new Float64Array(n);
  const overload: Array<boolean | null> = [];
  const numeric = table.columns.filter((c) => c.type === 'number' && !SPECIAL_COLUMNS.has(c.key));
  const channels = new Map(numeric.map((c) => [c.key, new Float64Array(n)]));
  const texts = new Map<string, string>();
  rows.forEach((row, i) => {
    const start = row[table.timeKey] as number;
    const end = typeof row.endTime === 'number' ? row.endTime : null;
    const duration = typeof row.duration === 'number' && row.duration > 0 ? row.duration : null;
    starts[i] = start;
    ends[i] = end ?? start + (duration ?? 0) * 1000;
    durations[i] = duration ?? (ends[i]! - start) / 1000;
    overload.push(typeof row.overload === 'boolean' ? row.overload : null);
    for (const [key, values] of channels) {
      const value = row[key];
      values[i] = typeof value === 'number' ? value : Number.NaN;
    }
    for (const key of ['LeqT1Type', 'LeqT2Type']) {
      const value = row[key];
      if (typeof value === 'string' && !texts.has(key)) texts.set(key, value);
    }
  });
  return {
    starts,
    ends,
    durations,
    overload,
    channels,
    units: new Map(numeric.map((c) => [c.key, c.unit])),
    texts,
  };
}

/** Readings from time history series sampled every `stepMs`; gap markers (all NaN) are not readings. */
export function fromSeries(series: readonly SeriesChannel[], stepMs: number): Readings {
  const shared = sharedTimes(series);
  if (shared !== null) return fromAlignedSeries(series, shared, stepMs);
  const times = new Set<number>();
  for (const channel of series) {
    for (let i = 0; i < channel.times.length; i++) {
      if (!Number.isNaN(channel.values[i]!)) times.add(channel.times[i]!);
    }
  }
  const starts = Float64Array.from(times).sort();
  const index = new Map<number, number>();
  starts.forEach((t, i) => index.set(t, i));
  const channels = new Map<string, Float64Array>();
  for (const channel of series) {
    const values = new Float64Array(starts.length).fill(Number.NaN);
    for (let i = 0; i < channel.times.length; i++) {
      const at = index.get(channel.times[i]!);
      if (at !== undefined) values[at] = channel.values[i]!;
    }
    channels.set(channel.name, values);
  }
  return {
    starts,
    ends: starts.map((t) => t + stepMs),
    durations: new Float64Array(starts.length).fill(stepMs / 1000),
    overload: new Array<boolean | null>(starts.length).fill(null),
    channels,
    units: new Map(series.map((c) => [c.name, c.unit])),
    texts: new Map(),
  };
}

/** The times all channels share (the usual answer: one block per hour for every channel), or null. */
function sharedTimes(series: readonly SeriesChannel[]): Float64Array | null {
  const first = series[0];
  if (first === undefined) return new Float64Array(0);
  for (const channel of series) {
    if (channel.times.length !== first.times.length) return null;
    for (let i = 0; i < first.times.length; i++) if (channel.times[i] !== first.times[i]) return null;
  }
  return first.times;
}

/** `fromSeries` without a lookup per sample: a week of 1 s samples is 604,800 of them. */
function fromAlignedSeries(series: readonly SeriesChannel[], times: Float64Array, stepMs: number): Readings {
  const keep: number[] = [];
  for (let i = 0; i < times.length; i++) {
    if (series.some((channel) => !Number.isNaN(channel.values[i]!))) keep.push(i);
  }
  const starts = Float64Array.from(keep, (i) => times[i]!);
  return {
    starts,
    ends: starts.map((t) => t + stepMs),
    durations: new Float64Array(starts.length).fill(stepMs / 1000),
    overload: new Array<boolean | null>(starts.length).fill(null),
    channels: new Map(series.map((c) => [c.name, Float64Array.from(keep, (i) => c.values[i]!)])),
    units: new Map(series.map((c) => [c.name, c.unit])),
    texts: new Map(),
  };
}

/** The band channels turned from weighting `from` to `to` by the per-band corrections; other channels as they are. */
export function reweight(readings: Readings, from: Weighting, to: Weighting): Readings {
  if (from === to) return readings;
  const channels = new Map<string, Float64Array>();
  for (const [name, values] of readings.channels) {
    const correction = bandCorrection(name, from, to);
    channels.set(name, correction === null ? values : values.map((v) => v + correction));
  }
  return { ...readings, channels };
}

/**
 * The overall level of each reading from its bands (energetic sum), under weighting `to` from bands
 * of weighting `from`, as channel `name`; an exposure adds 10·log10 of the reading's seconds.
 * A reading missing any band has no overall level.
 */
export function overall(
  readings: Readings,
  from: Weighting,
  to: Weighting,
  name: string,
  exposure: boolean,
): Readings {
  const bands = [...readings.channels].flatMap(([band, values]) => {
    const correction = bandCorrection(band, from, to);
    return correction === null ? [] : [{ values, correction }];
  });
  const out = readings.starts.map((_, i) => {
    let energy = 0;
    for (const band of bands) energy += toEnergy(band.values[i]! + band.correction);
    const level = bands.length === 0 ? Number.NaN : toLevel(energy);
    return exposure ? level + toLevel(readings.durations[i]!) : level;
  });
  return { ...readings, channels: new Map([[name, out]]), units: new Map([[name, 'dB']]) };
}

/** Base-ten band number of a band name (1 kHz = 0, 31.5 Hz = −15); null for other names. */
function bandNumber(name: string): number | null {
  const f = bandCentreFrequency(name);
  return f === null ? null : Math.round(10 * Math.log10(f / 1000));
}

/**
 * Octave bands from third-octave bands of the same weighting: each octave the energetic sum of its
 * three third octaves (IEC 61260-1: the octave at band number n spans the thirds n − 1 … n + 1).
 * An octave missing any of its thirds in a reading has no level there.
 */
export function toOctaves(readings: Readings): Readings {
  const thirds = new Map<number, Float64Array>();
  for (const [name, values] of readings.channels) {
    const n = bandNumber(name);
    if (n !== null) thirds.set(n, values);
  }
  const channels = new Map<string, Float64Array>();
  for (const name of OCTAVE_BAND_NAMES) {
    const n = bandNumber(name)!;
    const parts = [thirds.get(n - 1), thirds.get(n), thirds.get(n + 1)];
    if (parts.some((p) => p === undefined)) continue;
    channels.set(
      name,
      readings.starts.map((_, i) => toLevel(parts.reduce((sum, p) => sum + toEnergy(p![i]!), 0))),
    );
  }
  return { ...readings, channels, units: new Map([...channels.keys()].map((name) => [name, 'dB'])) };
}

export interface Combined {
  readings: Readings;
  /** Periods (their starts) that a reading runs across the edge of: they cannot be computed. */
  spoiled: Set<number>;
}

/**
 * Readings combined into periods of `periodMs` aligned to the UTC clock (as the service aligns
 * them): each channel by its combination, durations added, overload if any reading was. With
 * `samplesPerPeriod`, a period is kept only when all its samples are there (a time history
 * sample is of a whole period); otherwise, like a measurement, of what was recorded.
 */
export function combine(
  readings: Readings,
  periodMs: number,
  combinations: ReadonlyMap<string, Combination>,
  samplesPerPeriod?: number,
): Combined {
  const slots: Array<{ start: number; members: number[] }> = [];
  const spoiled = new Set<number>();
  for (let i = 0; i < readings.starts.length; i++) {
    const start = Math.floor(readings.starts[i]! / periodMs) * periodMs;
    if (readings.ends[i]! > start + periodMs + TOLERANCE_MS) spoiled.add(start);
    const last = slots[slots.length - 1];
    if (last !== undefined && last.start === start) last.members.push(i);
    else slots.push({ start, members: [i] });
  }
  const kept = slots.filter(
    (slot) =>
      !spoiled.has(slot.start) &&
      (samplesPerPeriod === undefined || slot.members.length === samplesPerPeriod),
  );
  const channels = new Map<string, Float64Array>();
  for (const [name, values] of readings.channels) {
    const how = combinations.get(name);
    if (how === undefined || how === 'none') continue;
    channels.set(
      name,
      Float64Array.from(kept, (slot) => combineLevels(slot.members, values, readings.durations, how)),
    );
  }
  return {
    readings: {
      starts: Float64Array.from(kept, (slot) => slot.start),
      ends: Float64Array.from(kept, (slot) => slot.start + periodMs),
      durations: Float64Array.from(kept, (slot) =>
        slot.members.reduce((sum, i) => sum + readings.durations[i]!, 0),
      ),
      overload: kept.map((slot) => {
        const flags = slot.members.map((i) => readings.overload[i]);
        return flags.includes(true) ? true : flags.includes(null) ? null : false;
      }),
      channels,
      units: readings.units,
      texts: readings.texts,
    },
    spoiled,
  };
}

function combineLevels(
  members: readonly number[],
  values: Float64Array,
  durations: Float64Array,
  how: Exclude<Combination, 'none'>,
): number {
  let acc = how === 'max' ? -Infinity : how === 'min' ? Infinity : 0;
  let seconds = 0;
  let any = false;
  for (const i of members) {
    const level = values[i]!;
    if (Number.isNaN(level)) continue;
    any = true;
    if (how === 'max') acc = Math.max(acc, level);
    else if (how === 'min') acc = Math.min(acc, level);
    else if (how === 'sum') acc += toEnergy(level);
    else {
      acc += toEnergy(level) * durations[i]!;
      seconds += durations[i]!;
    }
  }
  if (!any) return Number.NaN;
  if (how === 'sum') return toLevel(acc);
  if (how === 'mean') return seconds > 0 ? toLevel(acc / seconds) : Number.NaN;
  return acc;
}

/** Only the readings that start inside `keep` (normalised intervals). */
export function within(readings: Readings, keep: readonly TimeInterval[]): Readings {
  const inside = (t: number) => keep.some((k) => t >= k.start && t < k.end);
  const picked = [...readings.starts.keys()].filter((i) => inside(readings.starts[i]!));
  const pick = (array: Float64Array) => Float64Array.from(picked, (i) => array[i]!);
  return {
    ...readings,
    starts: pick(readings.starts),
    ends: pick(readings.ends),
    durations: pick(readings.durations),
    overload: picked.map((i) => readings.overload[i]!),
    channels: new Map([...readings.channels].map(([name, values]) => [name, pick(values)])),
  };
}

/**
 * Derived levels are not rounded to the service's 0.1 dB: their inputs already carry that rounding,
 * and a second one would add up to 0.05 dB more. Records keep 0.0001 dB (tidy text, no real loss).
 */
const tidy = (value: number): number => Math.round(value * 10_000) / 10_000;

/** Series of the named channels, with a gap marker wherever readings stop before the next starts. */
export function toSeries(readings: Readings, names: readonly string[], range: TimeInterval): SeriesChannel[] {
  return names.flatMap((name) => {
    const values = readings.channels.get(name);
    if (values === undefined) return [];
    return [
      buildChannel(
        name,
        readings.units.get(name) ?? 'dB',
        (visit) => {
          for (let i = 0; i < values.length; i++) visit(readings.starts[i]!, readings.ends[i]!, values[i]!);
        },
        range,
        true,
        2 * values.length + 1,
      ),
    ];
  });
}

/** Measurement records (as records.ts builds them) of the named channels. */
export function toRecords(readings: Readings, names: readonly string[]): RecordTable {
  const present = names.filter((name) => readings.channels.has(name));
  const columns: RecordColumn[] = [
    { key: 'startTime', label: 'Start', unit: null, type: 'time' },
    { key: 'endTime', label: 'End', unit: null, type: 'time' },
    { key: 'duration', label: 'Duration', unit: 's', type: 'number' },
    { key: 'overload', label: 'Overload', unit: null, type: 'boolean' },
    ...present.map((key): RecordColumn => ({
      key,
      label: key,
      unit: 'dB',
      type: 'number',
      precision: { decimals: 1 },
    })),
    ...[...readings.texts.keys()].map((key): RecordColumn => ({
      key,
      label: key === 'LeqT1Type' ? 'LeqT1 type' : 'LeqT2 type',
      unit: null,
      type: 'text',
    })),
  ];
  const rows = [...readings.starts.keys()].map((i) => {
    const row: Record<string, CellValue> = {
      startTime: readings.starts[i]!,
      endTime: readings.ends[i]!,
      duration: Math.round(readings.durations[i]! * 1000) / 1000,
      overload: readings.overload[i] ?? null,
    };
    for (const name of present) {
      const value = readings.channels.get(name)![i]!;
      row[name] = Number.isNaN(value) ? null : tidy(value);
    }
    for (const [key, value] of readings.texts) row[key] = value;
    return row;
  });
  return { timeKey: 'startTime', columns, rows };
}
