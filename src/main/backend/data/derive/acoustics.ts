/**
 * What cached levels determine: the correction between weightings per band, and how each noise
 * value combines over time (the acoustics itself is shared/acoustics.ts).
 */
import { exactMidBand, toLevel, weightingDb, type Weighting } from '../../../../shared/acoustics';
import { bandCentreFrequency } from '../../../../shared/service/bands';

/** The correction (dB) that turns a band level of weighting `from` into one of weighting `to`; null for a name that is not a band. */
export function bandCorrection(bandName: string, from: Weighting, to: Weighting): number | null {
  const nominal = bandCentreFrequency(bandName);
  if (nominal === null) return null;
  const f = exactMidBand(nominal);
  return weightingDb(to, f) - weightingDb(from, f);
}

/**
 * How a noise value combines over a longer period: `mean` energetically (Leq), `sum` energetically
 * (exposures: LAE, LEX8), `max` / `min` as the largest / smallest, `none` when it cannot be derived
 * from shorter periods at all (statistical levels need the level distribution, which no other
 * period keeps).
 */
export type Combination = 'mean' | 'sum' | 'max' | 'min' | 'none';

export function combinationOf(valueName: string): Combination {
  if (/^L[ACZ]eq$/.test(valueName)) return 'mean';
  if (/^L[ACZ]E$/.test(valueName) || valueName === 'LEX8') return 'sum';
  // Maxima of moving averages (LeqT1Max, LeqT2Max) too: the service takes the largest of its periods'.
  if (/^L[ACZ](Peak|[FSI]Max)$/.test(valueName) || /^LeqT\dMax$/.test(valueName)) return 'max';
  if (/^L[ACZ][FSI]Min$/.test(valueName)) return 'min';
  return 'none';
}

/** A statistical level (LAF10, LAF90, …): the level exceeded n % of the time. */
export const isStatistical = (valueName: string): boolean => /^L[ACZ][FSI]\d{1,2}$/.test(valueName);

/**
 * The Leq an exposure is made of, for when only the Leq was kept: LAE = LAeq + 10·log10(T / 1 s),
 * LEX8 = LAE − 10·log10(8 h / 1 s); null for values that are not exposures.
 */
export function exposureOf(valueName: string): { leq: string; offsetDb: number } | null {
  if (valueName === 'LEX8') return { leq: 'LAeq', offsetDb: -toLevel(8 * 3600) };
  const match = /^L([ACZ])E$/.exec(valueName);
  return match === null ? null : { leq: `L${match[1]}eq`, offsetDb: 0 };
}

/** The weighting and kind of a broadband Leq or exposure (LAeq, LCE, …) an overall level from bands can give. */
export function overallOf(valueName: string): { weighting: Weighting; exposure: boolean } | null {
  const match = /^L([ACZ])(eq|E)$/.exec(valueName);
  if (match === null) return null;
  return { weighting: match[1] as Weighting, exposure: match[2] === 'E' };
}
