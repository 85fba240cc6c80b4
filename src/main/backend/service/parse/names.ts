/** Band and value names as the data endpoints spell them, whatever the answer's spelling. */
import { NOISE_MEASUREMENT_VALUES, THIRD_OCTAVE_BAND_NAMES } from '../../../../shared/service/limits';

/**
 * The centre frequency (Hz) of a band name such as `31.5Hz`, `1KHz`, `1.25KHz3` (the live
 * channel's third-octave suffix) or `_8KHz` (SIC fields); null when the name is not a band.
 */
export function bandCentreFrequency(name: string): number | null {
  const match = /^_?(\d+(?:\.\d+)?)\s*(k?)hz(3)?$/i.exec(name.trim());
  if (!match) return null;
  const value = Number(match[1]) * (match[2] === '' ? 1 : 1000);
  return Number.isFinite(value) && value > 0 ? value : null;
}

const BAND_BY_FREQUENCY = new Map(
  THIRD_OCTAVE_BAND_NAMES.map((name) => [bandCentreFrequency(name) as number, name as string]),
);

/** The data endpoints' spelling of a band (`1.25khz3` → `1.25KHz`); unknown names as sent. */
export function canonicalBandName(name: string): string {
  const frequency = bandCentreFrequency(name);
  return (frequency === null ? undefined : BAND_BY_FREQUENCY.get(frequency)) ?? name;
}

const NOISE_VALUE_BY_LOWER = new Map(NOISE_MEASUREMENT_VALUES.map((name) => [name.toLowerCase(), name]));
export const canonicalValueName = (name: string): string =>
  NOISE_VALUE_BY_LOWER.get(name.toLowerCase()) ?? name;
