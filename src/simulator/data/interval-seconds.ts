/**
 * One recorded 15-minute interval of the demo noise model, second by second (the background, the
 * events added energetically, the sub-second pattern of each second), and what the data answers
 * derive from it: each weighting's per-second levels and the band energies.
 */
import { toEnergy, toLevel } from '../../shared/acoustics';
import type { SpectrumWeights } from './acoustics';
import { GRID_MS } from './availability';
import type { NoiseEvent, NoiseModel } from './noise-model';

export const SECONDS_PER_GRID = GRID_MS / 1000;

export interface IntervalEvent {
  event: NoiseEvent;
  /** Offset (seconds into the interval) of energy[0]. */
  from: number;
  /** The event's A-weighted energy per second. */
  energy: Float64Array;
  spectrum: SpectrumWeights;
}

/** One 15-minute grid interval of recorded seconds. */
export class IntervalSeconds {
  private spectrumCache: SpectrumWeights | null = null;

  constructor(
    private readonly model: NoiseModel,
    readonly g: number,
    readonly startSec: number,
    /** Background LAeq per second. */
    readonly bg: Float64Array,
    /** LAeq per second, events included. */
    readonly la: Float64Array,
    /** Sub-second pattern index per second. */
    readonly pattern: Uint8Array,
    readonly events: IntervalEvent[],
  ) {}

  /** Spectrum of the background; only C/Z levels and bands need it, so it is made on first use. */
  get spectrum(): SpectrumWeights {
    this.spectrumCache ??= this.model.backgroundSpectrum(this.g);
    return this.spectrumCache;
  }
}

/** Per-second Leq of weighting w (0 A, 1 C, 2 Z) into `out`. */
export function weightedLevels(iv: IntervalSeconds, w: number, out: Float64Array): Float64Array {
  if (w === 0) {
    out.set(iv.la);
    return out;
  }
  const bgGain = toLevel(iv.spectrum.sum[w] as number);
  for (let i = 0; i < SECONDS_PER_GRID; i++) out[i] = (iv.bg[i] as number) + bgGain;
  if (iv.events.length > 0) {
    // Seconds with events: mix the components' energies under the weighting.
    const energy = new Float64Array(SECONDS_PER_GRID);
    const touched = new Uint8Array(SECONDS_PER_GRID);
    for (const ev of iv.events) {
      const gain = ev.spectrum.sum[w] as number;
      for (let j = 0; j < ev.energy.length; j++) {
        energy[ev.from + j] = (energy[ev.from + j] as number) + (ev.energy[j] as number) * gain;
        touched[ev.from + j] = 1;
      }
    }
    for (let i = 0; i < SECONDS_PER_GRID; i++) {
      if (touched[i]) out[i] = toLevel(toEnergy(out[i] as number) + (energy[i] as number));
    }
  }
  return out;
}

/** Mean energy per band (weighting w) over the interval: what a frequency measurement records. */
export function meanBandEnergies(
  iv: IntervalSeconds,
  w: number,
  groups: readonly (readonly number[])[],
): Float64Array {
  let bgMean = 0;
  for (let i = 0; i < SECONDS_PER_GRID; i++) bgMean += toEnergy(iv.bg[i] as number);
  bgMean /= SECONDS_PER_GRID;
  const eventMeans = iv.events.map((ev) => ev.energy.reduce((sum, e) => sum + e, 0) / SECONDS_PER_GRID);
  return Float64Array.from(groups, (thirds) => {
    let total = 0;
    for (const b of thirds) {
      total += bgMean * (iv.spectrum.rel[w]![b] as number);
      iv.events.forEach((ev, j) => {
        total += (eventMeans[j] as number) * (ev.spectrum.rel[w]![b] as number);
      });
    }
    return total;
  });
}

/** Per-second band energies (weighting w) for the given bands (third-octave indices grouped). */
export function bandEnergies(
  iv: IntervalSeconds,
  w: number,
  groups: readonly (readonly number[])[],
): Float64Array[] {
  return groups.map((thirds) => {
    let bgRel = 0;
    for (const b of thirds) bgRel += iv.spectrum.rel[w]![b] as number;
    const out = new Float64Array(SECONDS_PER_GRID);
    for (let i = 0; i < SECONDS_PER_GRID; i++) out[i] = toEnergy(iv.bg[i] as number) * bgRel;
    for (const ev of iv.events) {
      let rel = 0;
      for (const b of thirds) rel += ev.spectrum.rel[w]![b] as number;
      for (let j = 0; j < ev.energy.length; j++) {
        out[ev.from + j] = (out[ev.from + j] as number) + (ev.energy[j] as number) * rel;
      }
    }
    return out;
  });
}
