/**
 * What a channel measures, declared once per channel (the backend's record specs and noise value
 * names; see `backend/service/parse/record-specs.ts`) and carried on every series and record column:
 *
 * - its kind, which says which figures mean something over a range:
 *   - `level`: a sound level in dB (LAeq, a band): the energetic mean (Leq), L10/L90, highest, lowest;
 *   - `exposure`: a sound exposure level per period (LAE): the periods' energies add up, so the
 *     range has a total (10·log10 Σ 10^(L/10)), highest, lowest;
 *   - `peak`: a peak or maximum (LCPeak, LAFMax, PPV): the highest and when; a mean of maxima
 *     or their L10/L90 is no figure anyone uses;
 *   - `dose`: a vibration dose value (VDV, BS 6472-1): the intervals combine as the fourth root of
 *     the sum of fourth powers, so the range has its own VDV, and a highest;
 *   - `signal`: radio signal quality (LTE RSRP, RSRQ, SINR): arithmetic mean, highest, lowest —
 *     dB here is a ratio of powers read off a modem, not a sound level to average energetically;
 *   - `counter`: a running total that only grows (data received and sent): the increase over the
 *     range and the last value, never a mean (the mean of a running total says nothing);
 *   - `direction`: a compass direction in degrees (wind direction): the mean direction of the unit
 *     vectors, so 350° and 10° average to 0°, not 180°; highest, lowest;
 *   - `plain`: any other quantity (particulates, gases, weather, storage, supply…): arithmetic
 *     mean, highest, lowest;
 * - its precision: the one way its values are written everywhere (chart tooltips, range figures,
 *   record tables, exports of what is shown);
 * - its plausible range, where one is known: a reading outside it cannot be a measurement.
 */
import { numberText } from './format';
import { PLAUSIBLE } from './service/reading';

export const QUANTITY_KINDS = [
  'level',
  'exposure',
  'peak',
  'dose',
  'signal',
  'counter',
  'direction',
  'plain',
] as const;
export type QuantityKind = (typeof QUANTITY_KINDS)[number];

/**
 * How a value is written: a fixed number of decimals (0.1 dB, 0.1 µg/m³, whole MB) or, for a
 * quantity spanning decades (VDV), significant digits.
 */
export type Precision = { decimals: number } | { significant: number };

export interface PlausibleRange {
  readonly min: number;
  readonly max: number;
}

export interface Quantity {
  kind: QuantityKind;
  /** Null for a channel nothing declares: its values as they came, to four decimals at most. */
  precision: Precision | null;
  /** Values outside it cannot be a reading of this channel; absent where no bound is known. */
  plausible?: PlausibleRange;
}

/** A channel's quantity as declared, or, for one nothing declared, the rule by its unit. */
export function quantityOf(channel: {
  unit: string | null;
  kind?: QuantityKind | undefined;
  precision?: Precision | undefined;
}): Quantity {
  const fallback = undeclaredQuantity(channel.unit);
  return {
    kind: channel.kind ?? fallback.kind,
    precision: channel.precision ?? (channel.kind === undefined ? fallback.precision : null),
  };
}

/**
 * A channel nothing declares (a field the service added, a series made in a test): dB as a sound
 * level to a tenth, degrees as a direction, anything else a plain quantity as it came. No
 * plausible range: what it measures is not known.
 */
export function undeclaredQuantity(unit: string | null): Quantity {
  if (unit === 'dB') return { kind: 'level', precision: { decimals: 1 } };
  return { kind: unit === '°' ? 'direction' : 'plain', precision: null };
}

/** The decimals a value is written with under `precision`: for significant digits, from the value's size. */
export function decimalsFor(precision: Precision, value: number | null): number {
  if ('decimals' in precision) return precision.decimals;
  if (value === null || value === 0 || !Number.isFinite(value)) return precision.significant - 1;
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  return Math.max(0, precision.significant - 1 - magnitude);
}

/** What a missing value reads as. */
export const NO_VALUE = '—';

/**
 * A value at its channel's precision, with the unit when given: "58.1 dB", "3.0 µg/m³", "5,560 MB",
 * "0.00213 m/s¹·⁷⁵", "-9 dB"; of no declared precision, as it came to four decimals at most (a
 * Float32's tail cut). The one formatter of the data explorer's numbers (through `numberText`), so
 * a channel's values read alike in the tooltip, the range figures and the record table. A value
 * that rounds to zero reads "0.0", never "-0.0".
 */
export function quantityValueText(
  value: number | null,
  precision: Precision | null,
  unit: string | null = null,
): string {
  if (value === null || !Number.isFinite(value)) return NO_VALUE;
  const text = numberText(
    value,
    precision === null ? { maxDecimals: 4 } : { decimals: decimalsFor(precision, value) },
  );
  return unit ? `${text} ${unit}` : text;
}

/**
 * A reading for an export: at least its channel's precision (so a column reads evenly, "59.0" beside
 * "58.1"), and every digit the reading carries beyond it (a Float32 reading as the service sent it,
 * 62.3 not 62.29999923706055, to seven significant digits): an export loses nothing. Empty for no
 * reading; a plain "-" sign, as spreadsheets read it.
 */
export function exportValueText(value: number, precision: Precision | null): string {
  if (!Number.isFinite(value)) return '';
  const sent = Number(value.toPrecision(7));
  const sentText = String(sent);
  if (/e/i.test(sentText)) return sentText; // far from 1: as sent, in exponent form
  const sentDecimals = sentText.split('.')[1]?.length ?? 0;
  const declared = precision === null ? 0 : decimalsFor(precision, sent);
  const text = sent.toFixed(Math.max(declared, sentDecimals));
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/** The sound level bounds of a noise channel (any A/C/Z level an instrument measures). */
export const SOUND_LEVEL_RANGE: PlausibleRange = PLAUSIBLE.soundLevelDb;

/**
 * A noise value by its name (the service's value names, `NOISE_MEASUREMENT_VALUES`): peaks and
 * maxima (`LCPeak`, `LAFMax`, `LeqT1Max`) are `peak`, exposure levels (`LAE`) `exposure`, the
 * statistical levels (`LAF90`) plain levels averaged arithmetically (as a background level is),
 * every other (`LAeq`, `LEX8`, a name this version does not know) a `level`. All to a tenth of a
 * dB, within what an instrument measures.
 */
export function noiseValueQuantity(name: string): Quantity {
  const base = { precision: { decimals: 1 }, plausible: SOUND_LEVEL_RANGE } as const;
  if (/(Peak|Max)$/i.test(name)) return { kind: 'peak', ...base };
  if (/^L[ACZ]E$/i.test(name)) return { kind: 'exposure', ...base };
  if (/^L[ACZ][FSI]\d+$/i.test(name)) return { kind: 'plain', ...base };
  return { kind: 'level', ...base };
}

/** What the range figures call a kind's combined figure (null: the kind has none). */
export const COMBINED_FIGURE_NAMES: Readonly<Record<QuantityKind, string | null>> = {
  level: 'Leq',
  exposure: 'Total exposure',
  peak: null,
  dose: 'VDV of the range',
  signal: 'Mean',
  counter: 'Increase',
  direction: 'Mean direction',
  plain: 'Mean',
};
