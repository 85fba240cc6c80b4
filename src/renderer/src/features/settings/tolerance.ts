/** Checking the tolerances typed on the Settings page (calibration, SIC) before they are saved. */
import { dbText } from '../../../../shared/format';
import {
  CALIBRATION_TOLERANCE_MAX_DB,
  CALIBRATION_TOLERANCE_MIN_DB,
  SIC_TOLERANCE_MAX_DB,
  SIC_TOLERANCE_MIN_DB,
} from '../../../../shared/operations';

export type ToleranceCheck = { ok: true; value: number } | { ok: false; message: string };

interface ToleranceRange {
  min: number;
  max: number;
  /** A usual value, said when what was typed is not a number. */
  example: string;
}

const CALIBRATION: ToleranceRange = {
  min: CALIBRATION_TOLERANCE_MIN_DB,
  max: CALIBRATION_TOLERANCE_MAX_DB,
  example: '0.5',
};

export const SIC_TOLERANCE_RANGE: ToleranceRange = {
  min: SIC_TOLERANCE_MIN_DB,
  max: SIC_TOLERANCE_MAX_DB,
  example: '2.0',
};

/**
 * "0.5", " 0,5 " (a decimal comma is common in the field) → 0.5; anything else says why not. The
 * calibration's range unless another is given.
 */
export function parseTolerance(text: string, range: ToleranceRange = CALIBRATION): ToleranceCheck {
  const between = `between ${dbText(range.min, { decimals: 1 })} and ${dbText(range.max, { decimals: 1 })}`;
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return { ok: false, message: `Enter the tolerance in decibels, ${between}.` };
  if (!/^\d*\.?\d+$/.test(trimmed))
    return { ok: false, message: `Enter a number of decibels, such as ${range.example}.` };
  const value = Number(trimmed);
  if (value < range.min - 1e-9 || value > range.max + 1e-9) {
    return { ok: false, message: `The tolerance must be ${between}.` };
  }
  // Hundredths are the finest a calibrator or a test tone is read to.
  return { ok: true, value: Math.round(value * 100) / 100 };
}
