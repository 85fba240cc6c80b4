/**
 * The tolerance rules for reading the service's answers, one place for every endpoint (the
 * control answers' schemas and the data parser both use them):
 * - numbers may come as text ("51.2"); text that is not a finite number is unreadable;
 * - booleans may come as "true"/"false";
 * - an absent, `null` or empty (`{}`, only nulls) optional object means "not given";
 * - values outside physical sense are implausible: kept out of what is shown as fact;
 * - text is cut for display.
 */

export type Read<T> = { ok: true; value: T } | { ok: false };

const unreadable = { ok: false } as const;

/** A number, a number sent as text, or null for "no reading" (absent, null, empty text). */
export function readNumber(value: unknown): Read<number | null> {
  if (value === null || value === undefined) return { ok: true, value: null };
  if (typeof value === 'number') return Number.isFinite(value) ? { ok: true, value } : unreadable;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return { ok: true, value: null };
    const parsed = Number(text);
    return Number.isFinite(parsed) ? { ok: true, value: parsed } : unreadable;
  }
  return unreadable;
}

/** A boolean, or "true"/"false" in any letter case; null when absent. */
export function readBoolean(value: unknown): Read<boolean | null> {
  if (value === null || value === undefined) return { ok: true, value: null };
  if (typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim()))
    return { ok: true, value: value.trim().toLowerCase() === 'true' };
  return unreadable;
}

/** Whether an optional object was really given: `{}` or one holding only nulls is "not given". */
export function isGiven(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value !== 'object' || Array.isArray(value)) return true;
  return Object.values(value).some((v) => v !== null && v !== undefined && v !== '');
}

/** Physical bounds outside which a reported value cannot be right. */
export const PLAUSIBLE = {
  /** Any sound level an instrument can measure (dB). */
  soundLevelDb: { min: 0, max: 200 },
  /** A calibration's offset from the factory calibration (dB). */
  calibrationOffsetDb: { min: -20, max: 20 },
  /**
   * One frequency band's level (dB): A-weighting takes up to 70 dB off the lowest bands, so a quiet
   * site's band levels can be well below zero; far below that no instrument measures.
   */
  bandLevelDb: { min: -100, max: 200 },
  /**
   * LTE signal quality a modem reports (3GPP TS 36.133 reports RSRP −156…−31 dBm, RSRQ −34…+2.5 dB,
   * SINR about −20…+40 dB), with room either side: RSRQ is negative by nature, not a fault.
   */
  lteRsrpDbm: { min: -160, max: -30 },
  lteRsrqDb: { min: -40, max: 20 },
  lteSinrDb: { min: -30, max: 50 },
} as const;

export function isPlausible(value: number, range: { min: number; max: number }): boolean {
  return Number.isFinite(value) && value >= range.min && value <= range.max;
}

/** A position on the globe, and not exactly 0,0 (what an unset GPS reports). */
export function isPlausiblePosition(lat: number, long: number): boolean {
  return (
    Number.isFinite(lat) &&
    Number.isFinite(long) &&
    Math.abs(lat) <= 90 &&
    Math.abs(long) <= 180 &&
    !(lat === 0 && long === 0)
  );
}

/** The longest text shown as it came (names, messages); longer text is cut with an ellipsis. */
export const DISPLAY_TEXT_MAX = 200;

export function cutForDisplay(text: string, max = DISPLAY_TEXT_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A short quote of a value for a message: numbers as written, text cut short. */
export function quoteValue(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `"${cutForDisplay(value, 40)}"`;
  if (value === null) return 'null';
  return Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : String(value);
}
