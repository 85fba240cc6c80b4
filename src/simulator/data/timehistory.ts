/**
 * Time history sampling: samples of `periodMs` aligned to the UTC clock, each built from whole
 * finer samples (1 s, or 100 ms for fractional periods), kept only where every finer sample was
 * recorded. Contiguous samples form blocks, split at gaps and at every full hour. The interval
 * being recorded now is included up to its last whole sample, as the service shows an instrument's
 * newest readings before their measurement interval closes.
 */
import { formatServiceTime } from '../../shared/service/time';
import { toEnergy, toLevel } from '../../shared/acoustics';
import { GRID_MS } from './availability';
import type { IntervalSeconds } from './interval-seconds';
import type { NoiseModel } from './noise-model';

const HOUR_MS = 3_600_000;

export interface Channel {
  /** Levels (dB) of the interval at the sampling resolution (900 per second-resolution interval). */
  levels(iv: IntervalSeconds, subsecond: boolean): Float64Array;
  /** How finer samples combine: energetic mean, or maximum. */
  combine: 'energy' | 'max';
  /** Added after combining (dB), e.g. 10·log10(T) for exposure levels. */
  add: number;
}

export interface SampleBlock {
  startMs: number;
  count: number;
  /** One array per channel. */
  values: number[][];
}

const round1 = (value: number): number => Math.round(value * 10) / 10;

/** Samples of every channel overlapping [startMs, endMs). */
export function sampleBlocks(
  model: NoiseModel,
  startMs: number,
  endMs: number,
  periodMs: number,
  channels: readonly Channel[],
): SampleBlock[] {
  const subsecond = periodMs % 1000 !== 0;
  const resolutionMs = subsecond ? 100 : 1000;
  const perGrid = GRID_MS / resolutionMs;
  const n = periodMs / resolutionMs;
  /** Levels per channel of a grid interval, and how many of its finer samples exist (all but in the open one). */
  interface GridLevels {
    levels: Float64Array[];
    available: number;
  }
  const cache = new Map<number, GridLevels | null>();
  const intervalLevels = (g: number): GridLevels | null => {
    let entry = cache.get(g);
    if (entry === undefined) {
      entry = null;
      const iv = model.interval(g);
      if (iv !== null) {
        entry = { levels: channels.map((channel) => channel.levels(iv, subsecond)), available: perGrid };
      } else {
        // The interval being recorded: its finer samples up to now.
        const open = model.openInterval(g);
        const available = open === null ? 0 : Math.floor((open.untilMs - g * GRID_MS) / resolutionMs);
        if (open !== null && available > 0)
          entry = { levels: channels.map((channel) => channel.levels(open.iv, subsecond)), available };
      }
      // Samples run forward: drop intervals left behind.
      for (const old of cache.keys()) if (old < g - 1) cache.delete(old);
      cache.set(g, entry);
    }
    return entry;
  };

  const blocks: SampleBlock[] = [];
  let block: SampleBlock | null = null;
  const first = Math.floor(startMs / periodMs) * periodMs;
  const combined = new Float64Array(channels.length);
  for (let t = first; t < endMs; t += periodMs) {
    // Skip whole unrecorded grid intervals at once.
    const g0 = Math.floor(t / GRID_MS);
    if (intervalLevels(g0) === null && t + periodMs <= (g0 + 1) * GRID_MS) {
      block = null;
      const next = Math.ceil(((g0 + 1) * GRID_MS) / periodMs) * periodMs;
      t = Math.max(t, next - periodMs);
      continue;
    }
    let ok = true;
    combined.fill(0);
    for (let c = 0; c < channels.length; c++) combined[c] = channels[c]!.combine === 'max' ? -Infinity : 0;
    let index = t / resolutionMs;
    let remaining = n;
    while (remaining > 0 && ok) {
      const g = Math.floor(index / perGrid);
      const grid = intervalLevels(g);
      const from = index - g * perGrid;
      const take = Math.min(remaining, perGrid - from);
      // A sample is whole or not given: one still being measured waits for the next read.
      if (grid === null || from + take > grid.available) {
        ok = false;
        break;
      }
      for (let c = 0; c < channels.length; c++) {
        const source = grid.levels[c] as Float64Array;
        if (channels[c]!.combine === 'max') {
          let max = combined[c] as number;
          for (let i = from; i < from + take; i++) if ((source[i] as number) > max) max = source[i] as number;
          combined[c] = max;
        } else if (n === 1) {
          combined[c] = source[from] as number;
        } else {
          let sum = combined[c] as number;
          for (let i = from; i < from + take; i++) sum += toEnergy(source[i] as number);
          combined[c] = sum;
        }
      }
      index += take;
      remaining -= take;
    }
    if (!ok) {
      block = null;
      continue;
    }
    const hour = Math.floor(t / HOUR_MS);
    if (block === null || Math.floor(block.startMs / HOUR_MS) !== hour) {
      block = { startMs: t, count: 0, values: channels.map(() => []) };
      blocks.push(block);
    }
    for (let c = 0; c < channels.length; c++) {
      const channel = channels[c] as Channel;
      let value = combined[c] as number;
      if (channel.combine === 'energy' && n > 1) value = toLevel(value / n);
      (block.values[c] as number[]).push(round1(value + channel.add));
    }
    block.count++;
  }
  return blocks;
}

export interface WireBlockTimes {
  start: string;
  end: string;
  sampleDuration: number;
}

export const blockTimes = (block: SampleBlock, periodMs: number): WireBlockTimes => ({
  start: formatServiceTime(block.startMs),
  end: formatServiceTime(block.startMs + block.count * periodMs),
  sampleDuration: periodMs,
});
