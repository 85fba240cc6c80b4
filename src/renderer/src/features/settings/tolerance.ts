/** Checking the calibration settings typed on the Settings page before they are saved. */
import { dbText } from '../../../../shared/format';
import { CALIBRATION_TOLERANCE_MAX_DB, CALIBRATION_TOLERANCE_MIN_DB } from '../../../../shared/operations';

export type ToleranceCheck = { ok: true; value: number } | { ok: false; message: string };

const RANGE = `between ${dbText(CALIBRATION_TOLERANCE_MIN_DB, { decimals: 1 })} and ${dbText(CALIBRATION_TOLERANCE_MAX_DB, { decimals: 1 })}`;

/** "0.5", " 0,5 " (a decimal comma is common in the field) → 0.5; anything else says why not. */
export function parseTolerance(text: string): ToleranceCheck {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return { ok: false, message: `Enter the tolerance in decibels, ${RANGE}.` };
  if (!/^\d*\.?\d+$/.test(trimmed)) return { ok: false, message: `Enter a number of decibels, such as 0.5.` };
  const value = Number(trimmed);
  if (value < CALIBRATION_TOLERANCE_MIN_DB - 1e-9 || value > CALIBRATION_TOLERANCE_MAX_DB + 1e-9) {
    return { ok: false, message: `The tolerance must be ${RANGE}.` };
  }
  // Hundredths are the finest a calibrator is read to.
  return { ok: true, value: Math.round(value * 100) / 100 };
}
