/**
 * The acoustics every part of FieldDesk shares — the backend's figures and derived levels, the
 * renderer's range figures and the demo service's noise: energy and level, energetic means and
 * sums, and the A and C frequency weightings of IEC 61672-1. One definition, so a level computed
 * anywhere is the same number.
 */

/** ln(10)/10: a level in dB times this is the natural log of its energy. */
export const ENERGY_PER_DB = Math.LN10 / 10;

/**
 * Energy ↔ level in dB: 10^(L/10) written as e^(L·ln10/10), the same number to about 1e-15 and
 * several times faster in V8 (a year of 1 s levels is 31 million of them).
 */
export const toEnergy = (level: number): number => Math.exp(level * ENERGY_PER_DB);
export const toLevel = (energy: number): number => Math.log(energy) / ENERGY_PER_DB;

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

export type Weighting = 'A' | 'C' | 'Z';

/*
 * The weightings by IEC 61672-1:2013's analytic expressions (Annex E: poles f1 = 20.60 Hz,
 * f2 = 107.7 Hz, f3 = 737.9 Hz, f4 = 12194 Hz), normalised to exactly 0 dB at 1 kHz (the standard's
 * A1000 = −2.000 dB and C1000 = −0.062 dB are these values rounded; a C offset of 0.06 left every C
 * level 0.002 dB off). The standard's table holds the same numbers rounded to 0.1 dB; the analytic
 * form is used so that a derived level carries only the rounding of the cached level, not a second
 * 0.1 dB from the table.
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

/** The exact base-ten mid-band frequency of a nominal one (IEC 61260-1: 31.5 → 31.62 Hz, 1250 → 1258.9 Hz). */
export function exactMidBand(nominal: number): number {
  return 1000 * 10 ** (Math.round(10 * Math.log10(nominal / 1000)) / 10);
}
