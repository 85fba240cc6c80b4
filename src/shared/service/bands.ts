/** Frequency bands by name as the service spells them, and as a person reads them. */

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

/** "500 Hz", "1 kHz", "12.5 kHz" for a band name; a name that is not a band as it is. */
export function bandLabel(name: string): string {
  const frequency = bandCentreFrequency(name);
  if (frequency === null) return name;
  return frequency < 1000 ? `${frequency} Hz` : `${frequency / 1000} kHz`;
}
