/**
 * The precision each quantity an assessment states is measured to, by its unit: the one source for
 * a figure's stated value, its limit, the report's tables and the charts' points, on screen and in
 * every file (the PDF, the workbook and the CSV), so a VDV reads to the same digits everywhere.
 */
import { decimalsFor, type Precision } from './quantities';

const ASSESSMENT_PRECISION: Readonly<Record<string, Precision>> = {
  dB: { decimals: 1 },
  'µg/m³': { decimals: 1 },
  // PPV to a thousandth of a mm/s, as the instruments' own records write it.
  'mm/s': { decimals: 3 },
  // A vibration dose value spans 0.001 to 10 m/s¹·⁷⁵: three significant digits at any size.
  'm/s¹·⁷⁵': { significant: 3 },
  events: { decimals: 0 },
  days: { decimals: 0 },
};

/** The precision of an assessment's quantity in `unit` (a tenth for a unit it does not know). */
export function precisionOfUnit(unit: string): Precision {
  const known = unit.trim().replace('m/s1.75', 'm/s¹·⁷⁵');
  return ASSESSMENT_PRECISION[known] ?? { decimals: 1 };
}

/** The decimals a value in `unit` is stated with (for significant digits, from the value's size). */
export const unitDecimals = (unit: string, value: number | null): number =>
  decimalsFor(precisionOfUnit(unit), value);
