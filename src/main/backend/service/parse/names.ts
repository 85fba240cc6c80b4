/** Band and value names as the data endpoints spell them, whatever the answer's spelling. */
import { bandCentreFrequency } from '../../../../shared/service/bands';
import { NOISE_MEASUREMENT_VALUES, THIRD_OCTAVE_BAND_NAMES } from '../../../../shared/service/limits';

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
