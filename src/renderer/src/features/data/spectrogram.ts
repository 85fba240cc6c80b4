/**
 * The frequency time history as a spectrogram: time slots across, bands up the side, each cell the
 * highest level of that band in that slot (peak-preserving, like the line charts), coloured on a
 * perceptually even scale (viridis) from the lowest to the highest cell, with a legend.
 */
import type { SeriesChannel, TimeInterval } from '../../../../shared/data';
import { rampColour } from './chart-points';

export interface SpectrogramCell {
  /** Slot start and end (epoch ms). */
  start: number;
  end: number;
  band: string;
  level: number;
}

export interface SpectrogramGrid {
  /** Band labels from the lowest frequency to the highest. */
  bands: string[];
  slots: number;
  cells: SpectrogramCell[];
  /** The lowest and highest cell level; null without readings. */
  scale: { min: number; max: number } | null;
}

/** Cells of `slots` equal time slots over `range`; slots a band has no reading in are left out. */
export function spectrogramGrid(
  series: readonly SeriesChannel[],
  range: TimeInterval,
  slots: number,
): SpectrogramGrid {
  const span = Math.max(1, range.end - range.start);
  const cells: SpectrogramCell[] = [];
  let min = Infinity;
  let max = -Infinity;
  for (const channel of series) {
    const highest = new Float64Array(slots).fill(Number.NaN);
    for (let i = 0; i < channel.times.length; i++) {
      const value = channel.values[i]!;
      const time = channel.times[i]!;
      if (Number.isNaN(value) || time < range.start || time >= range.end) continue;
      const slot = Math.min(slots - 1, Math.floor(((time - range.start) / span) * slots));
      if (!(highest[slot]! >= value)) highest[slot] = value;
    }
    highest.forEach((level, slot) => {
      if (Number.isNaN(level)) return;
      min = Math.min(min, level);
      max = Math.max(max, level);
      cells.push({
        start: range.start + (slot * span) / slots,
        end: range.start + ((slot + 1) * span) / slots,
        band: channel.label ?? channel.name,
        level,
      });
    });
  }
  return {
    bands: series.map((channel) => channel.label ?? channel.name),
    slots,
    cells,
    scale: min <= max ? { min, max } : null,
  };
}

/** Viridis at nine even stops: dark blue (low) to yellow (high), readable in greyscale too. */
export const VIRIDIS = [
  '#440154',
  '#472d7b',
  '#3b528b',
  '#2c728e',
  '#21918c',
  '#28ae80',
  '#5ec962',
  '#addc30',
  '#fde725',
] as const;

/** The colour of `level` between `min` and `max` (the ends of the scale outside it). */
export function levelColour(level: number, min: number, max: number): string {
  return rampColour(VIRIDIS, max > min ? (level - min) / (max - min) : 0.5);
}
