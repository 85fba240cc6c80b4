/**
 * Acoustics of the demo noise: third-octave band centres, A and C frequency weightings
 * (IEC 61672-1), and the spectrum shapes of the sound sources the demo instruments hear.
 */
import { toEnergy, weightingDb } from '../../shared/acoustics';
import {
  OCTAVE_BAND_NAMES,
  THIRD_OCTAVE_BAND_NAMES,
  type FrequencyWeighting,
} from '../../shared/service/limits';

/** Exact (base-ten) centre frequencies of the 36 third-octave bands, 6.3 Hz to 20 kHz. */
export const THIRD_OCTAVE_CENTRES: readonly number[] = THIRD_OCTAVE_BAND_NAMES.map(
  (_, i) => 1000 * 10 ** ((i - 22) / 10),
);
export const BAND_COUNT = THIRD_OCTAVE_CENTRES.length;
/** Index of the first third octave of each octave band (31.5 Hz octave = 25, 31.5, 40 Hz thirds). */
export const OCTAVE_FIRST_THIRD: readonly number[] = OCTAVE_BAND_NAMES.map((_, i) => 6 + 3 * i);

/** A-weighting in dB at frequency f (IEC 61672-1 analytic form). */
export const aWeighting = (f: number): number => weightingDb('A', f);

/** C-weighting in dB at frequency f. */
export const cWeighting = (f: number): number => weightingDb('C', f);

export const weightingIndex = (w: FrequencyWeighting): number => (w === 'A' ? 0 : w === 'C' ? 1 : 2);

const WEIGHTING_DB: readonly (readonly number[])[] = [
  THIRD_OCTAVE_CENTRES.map(aWeighting),
  THIRD_OCTAVE_CENTRES.map(cWeighting),
  THIRD_OCTAVE_CENTRES.map(() => 0),
];

/** The weighting w (0 A, 1 C, 2 Z) in dB at the exact mid-band frequency of third octave b. */
export const weightingDbAt = (w: number, b: number): number => WEIGHTING_DB[w]![b]!;

/**
 * A spectrum relative to its A-weighted energy: `rel[w][b]` is the energy of band b under
 * weighting w per unit of A-weighted broadband energy, and `sum[w]` their total (sum[A] = 1).
 * So the band levels of any weighting add up energetically to that weighting's broadband level.
 */
export interface SpectrumWeights {
  rel: readonly Float64Array[];
  sum: Float64Array;
}

/** Builds the weights from unweighted (Z) band levels in dB (any reference). */
export function spectrumWeights(zLevels: ArrayLike<number>): SpectrumWeights {
  const raw = WEIGHTING_DB.map((weights) => {
    const out = new Float64Array(BAND_COUNT);
    for (let b = 0; b < BAND_COUNT; b++) out[b] = toEnergy((zLevels[b] as number) + (weights[b] as number));
    return out;
  });
  const aTotal = (raw[0] as Float64Array).reduce((sum, e) => sum + e, 0);
  const rel = raw.map((bands) => bands.map((e) => e / aTotal));
  const sum = new Float64Array(rel.map((bands) => bands.reduce((total, e) => total + e, 0)));
  return { rel, sum };
}

interface ShapeParams {
  /** Frequency of the spectrum's maximum (Hz). */
  peak: number;
  /** Fall below the peak, dB per octave. */
  low: number;
  /** Fall above the peak, dB per octave. */
  high: number;
  /** Frequency from which the top end rolls off faster, and how fast (dB per octave squared). */
  roll: number;
  rollSlope: number;
  /** A tonal component (sirens, reversing alarms): centre and gain in dB. */
  tone?: { f: number; gain: number };
}

/** Unweighted band levels (dB, peak near 0) of a source with the given shape. */
export function shapeLevels(params: ShapeParams, tilt = 0): Float64Array {
  const out = new Float64Array(BAND_COUNT);
  for (let b = 0; b < BAND_COUNT; b++) {
    const f = THIRD_OCTAVE_CENTRES[b] as number;
    const below = Math.max(0, Math.log2(params.peak / f));
    const above = Math.max(0, Math.log2(f / params.peak));
    const rolled = Math.max(0, Math.log2(f / params.roll));
    let level = -params.low * below ** 1.2 - params.high * above - params.rollSlope * rolled * rolled;
    level += tilt * Math.log2(f / 500);
    if (params.tone) {
      const distance = Math.abs(Math.log2(f / params.tone.f)) * 3;
      if (distance < 1.5) level += params.tone.gain * (1 - distance / 1.5);
    }
    out[b] = level;
  }
  return out;
}

/** Road traffic at a receptor: most energy at 50–125 Hz, A-weighted peak near 1 kHz. */
export const TRAFFIC: ShapeParams = { peak: 63, low: 9, high: 2.5, roll: 2500, rollSlope: 3 };

/**
 * Sources of events, each with a name a field engineer would recognise: loud ones that set off a
 * level trigger, and what makes someone on site press the manual trigger (a barking dog).
 */
export const EVENT_SOURCES: readonly { name: string; shape: ShapeParams; trigger: 'level' | 'manual' }[] = [
  {
    name: 'HGV pass-by',
    shape: { peak: 50, low: 10, high: 3.5, roll: 2000, rollSlope: 3 },
    trigger: 'level',
  },
  { name: 'motorcycle', shape: { peak: 125, low: 9, high: 2, roll: 3000, rollSlope: 3 }, trigger: 'level' },
  { name: 'aircraft', shape: { peak: 100, low: 8, high: 3, roll: 1500, rollSlope: 5 }, trigger: 'level' },
  {
    name: 'siren',
    shape: { peak: 125, low: 9, high: 3, roll: 2500, rollSlope: 3, tone: { f: 1000, gain: 22 } },
    trigger: 'level',
  },
  { name: 'breaker', shape: { peak: 500, low: 6, high: 1.5, roll: 4000, rollSlope: 4 }, trigger: 'level' },
  {
    name: 'dog barking',
    shape: { peak: 630, low: 12, high: 4, roll: 3000, rollSlope: 4, tone: { f: 500, gain: 8 } },
    trigger: 'manual',
  },
];

/** Indices of the sources of level-triggered events, in order (the first five). */
export const LEVEL_EVENT_SOURCES: readonly number[] = EVENT_SOURCES.flatMap((source, i) =>
  source.trigger === 'level' ? [i] : [],
);
/** The source of manually triggered events. */
export const MANUAL_EVENT_SOURCE = EVENT_SOURCES.findIndex((source) => source.trigger === 'manual');

export const EVENT_SOURCE_WEIGHTS: readonly SpectrumWeights[] = EVENT_SOURCES.map((source) =>
  spectrumWeights(shapeLevels(source.shape)),
);
