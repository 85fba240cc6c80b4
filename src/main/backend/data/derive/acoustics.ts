/**
 * The acoustics that decide what cached levels determine: energetic means and sums, the A and C
 * frequency weightings of IEC 61672-1 per band, and how each noise value combines over time.
 */
import { bandCentreFrequency } from '../../../../shared/service/bands';

export type Weighting = 'A' | 'C' | 'Z';

/** Energy ↔ level in dB. */
export const toEnergy = (level: number): number => 10 ** (level / 10);
export const toLevel = (energy: number): number => 10 * Math.log10(energy);

/** 10·log10 of the duration-weighted mean of 10^(L/10): the Leq of consecutive Leqs. */
export function energeticMean(levels: readonly number[], durations?: readonly number[]): number {
  let energy = 0;
  let total = 0;
  levels.forEach((level, i) => {
    const weight = durations?.[i] ?? 1;
    energy += toEnergy(level) * weight;
    total += weight;
  });
  return total > 0 ? toLevel(energy / total) : Number.NaN;
}

/** 10·log10 of the sum of 10^(L/10): exposures over time, or bands into an overall level. */
export function energeticSum(levels: readonly number[]): number {
  return levels.length === 0 ? Number.NaN : toLevel(levels.reduce((sum, level) => sum + toEnergy(level), 0));
}

/*
 * The weightings by IEC 61672-1:2013's analytic expressions (Annex E: poles f1 = 20.60 Hz,
 * f2 = 107.7 Hz, f3 = 737.9 Hz, f4 = 12194 Hz), normalised to exactly 0 dB at 1 kHz (the standard's
 * A1000 = −2.000 dB and C1000 = −0.062 dB are these values rounded), evaluated at the exact
 * base-ten mid-band frequency of each band (IEC 61260-1: 1000·10^(n/10) Hz). The standard's table
 * holds the same numbers rounded to 0.1 dB; the analytic form is used so that a derived level
 * carries only the rounding of the cached level, not a second 0.1 dB from the table.
 */
const F1 = 20.6;
const F2 = 107.7;
const F3 = 737.9;
const F4 = 12194;

function aRaw(f: number): number {
  const f2 = f * f;
  return (
    20 *
    Math.log10(
      (F4 ** 2 * f2 * f2) / ((f2 + F1 ** 2) * Math.sqrt((f2 + F2 ** 2) * (f2 + F3 ** 2)) * (f2 + F4 ** 2)),
    )
  );
}

function cRaw(f: number): number {
  const f2 = f * f;
  return 20 * Math.log10((F4 ** 2 * f2) / ((f2 + F1 ** 2) * (f2 + F4 ** 2)));
}

const A_1000 = aRaw(1000);
const C_1000 = cRaw(1000);

/** The weighting in dB at frequency f (Hz): what it adds to a Z-weighted level there. */
export function weightingDb(weighting: Weighting, f: number): number {
  if (weighting === 'Z') return 0;
  return weighting === 'A' ? aRaw(f) - A_1000 : cRaw(f) - C_1000;
}

/** The exact base-ten mid-band frequency of a nominal one (31.5 → 31.62 Hz, 1250 → 1258.9 Hz). */
export function exactMidBand(nominal: number): number {
  return 1000 * 10 ** (Math.round(10 * Math.log10(nominal / 1000)) / 10);
}

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
