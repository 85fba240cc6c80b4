/**
 * The thresholds of fleet attention (shared/attention.ts), kept with the app's settings: each one's
 * bounds, default, unit and words, the defaults, and how a typed value is read and checked — alone
 * and against the others (the urgent battery limit below the battery limit). The settings form and
 * the backend both ask. Callers import it through shared/attention.ts.
 */

/** The attention thresholds, kept with the app's settings. */
export interface AttentionThresholds {
  /** Offline for more than this many hours. */
  attentionOfflineHours: number;
  /** No new data for more than this many hours. */
  attentionNoDataHours: number;
  /** The last calibration older than this many days. */
  attentionCalibrationDays: number;
  /** Storage in use above this percentage. */
  attentionStoragePercent: number;
  /** Supply voltage below this (V): soon. */
  attentionBatteryVolts: number;
  /** Supply voltage below this (V): urgent, go today. Below `attentionBatteryVolts`. */
  attentionBatteryUrgentVolts: number;
  /** LTE RSRP below this (dBm). */
  attentionSignalRsrpDbm: number;
}

export type AttentionThresholdKey = keyof AttentionThresholds;

/** How each threshold is set: its bounds, default, unit and whether it is whole. */
export interface ThresholdRule {
  /** The settings field's label. */
  label: string;
  /** How messages name it: "The offline limit". */
  name: string;
  /** The unit in words for messages: "hours". */
  unitWords: string;
  unit: string;
  min: number;
  max: number;
  default: number;
  integer: boolean;
  /** What the setting does, for the settings page. */
  hint: string;
  /** How a replaced value's default is said ("offline after 2 h"). */
  byDefault: string;
}

export const ATTENTION_THRESHOLD_RULES: Readonly<Record<AttentionThresholdKey, ThresholdRule>> = {
  attentionOfflineHours: {
    name: 'The offline limit',
    unitWords: 'hours',
    label: 'Offline for more than (hours)',
    unit: 'h',
    min: 1,
    max: 168,
    default: 2,
    integer: true,
    hint: 'An instrument offline longer than this needs attention (1 to 168 hours; 2 is usual).',
    byDefault: 'offline after 2 h',
  },
  attentionNoDataHours: {
    name: 'The no-new-data limit',
    unitWords: 'hours',
    label: 'No new data for more than (hours)',
    unit: 'h',
    min: 1,
    max: 168,
    default: 6,
    integer: true,
    hint: 'The newest reading known is older than this (1 to 168 hours; 6 is usual).',
    byDefault: 'no new data after 6 h',
  },
  attentionCalibrationDays: {
    name: 'The calibration interval',
    unitWords: 'days',
    label: 'Calibration older than (days)',
    unit: 'd',
    min: 1,
    max: 400,
    default: 30,
    integer: true,
    hint: 'A noise instrument whose last calibration is older than this is due one (1 to 400 days; 30 is usual).',
    byDefault: 'calibration due after 30 days',
  },
  attentionStoragePercent: {
    name: 'The storage limit',
    unitWords: 'percent',
    label: 'Storage in use above (%)',
    unit: '%',
    min: 50,
    max: 99,
    default: 90,
    integer: true,
    hint: 'A monitor whose storage is fuller than this is nearly full (50 to 99 %; 90 is usual).',
    byDefault: 'storage nearly full above 90 %',
  },
  attentionBatteryVolts: {
    name: 'The battery limit',
    unitWords: 'volts',
    label: 'Battery below (V)',
    unit: 'V',
    min: 9,
    max: 14,
    default: 11.8,
    integer: false,
    hint: 'A supply voltage lower than this means a low battery, to change soon (9.0 to 14.0 V; 11.8 V is usual for a 12 V battery).',
    byDefault: 'battery low below 11.8 V',
  },
  attentionBatteryUrgentVolts: {
    name: 'The urgent battery limit',
    unitWords: 'volts',
    label: 'Battery urgent below (V)',
    unit: 'V',
    min: 8,
    max: 14,
    default: 11.5,
    integer: false,
    hint: 'Lower than this the battery is nearly flat: urgent, go today (8.0 to 14.0 V, below the battery limit; 11.5 V is usual for a 12 V battery).',
    byDefault: 'battery urgent below 11.5 V',
  },
  attentionSignalRsrpDbm: {
    name: 'The signal limit',
    unitWords: 'dBm',
    label: 'Signal (RSRP) below (dBm)',
    unit: 'dBm',
    min: -140,
    max: -60,
    default: -110,
    integer: true,
    hint: 'An LTE RSRP lower than this is a weak signal (−140 to −60 dBm; −110 dBm is usual).',
    byDefault: 'weak signal below −110 dBm',
  },
};

export const ATTENTION_THRESHOLD_KEYS = Object.keys(ATTENTION_THRESHOLD_RULES) as AttentionThresholdKey[];

export const DEFAULT_ATTENTION_THRESHOLDS: Readonly<AttentionThresholds> = Object.fromEntries(
  ATTENTION_THRESHOLD_KEYS.map((key) => [key, ATTENTION_THRESHOLD_RULES[key].default]),
) as unknown as AttentionThresholds;

/** "The offline limit must be a whole number of hours from 1 to 168." */
export function thresholdRangeText(key: AttentionThresholdKey): string {
  const rule = ATTENTION_THRESHOLD_RULES[key];
  const bound = (value: number) => (rule.integer ? String(value) : value.toFixed(1)).replace('-', '\u2212');
  const number = rule.integer ? 'a whole number' : 'a number';
  return `${rule.name} must be ${number} of ${rule.unitWords} from ${bound(rule.min)} to ${bound(rule.max)}.`;
}

/**
 * What is wrong with thresholds that are each in range but not together (the urgent battery limit
 * not below the battery limit); null when they agree. The settings form and the backend both ask.
 */
export function thresholdsConflict(
  values: Pick<AttentionThresholds, 'attentionBatteryVolts' | 'attentionBatteryUrgentVolts'>,
): { key: AttentionThresholdKey; message: string } | null {
  return values.attentionBatteryUrgentVolts < values.attentionBatteryVolts
    ? null
    : {
        key: 'attentionBatteryUrgentVolts',
        message: `The urgent battery limit must be below the battery limit (${values.attentionBatteryVolts.toFixed(1)} V).`,
      };
}

/**
 * The urgent battery limit that goes with a battery limit when none was chosen (settings saved
 * before it existed): the usual 11.5 V, or 0.3 V below a lower battery limit.
 */
export function urgentBatteryFor(batteryVolts: number): number {
  const usual = ATTENTION_THRESHOLD_RULES.attentionBatteryUrgentVolts.default;
  return Math.max(
    ATTENTION_THRESHOLD_RULES.attentionBatteryUrgentVolts.min,
    Math.round(Math.min(usual, batteryVolts - 0.3) * 10) / 10,
  );
}

/** Whether `value` is a usable value of the threshold. */
export function isValidThreshold(key: AttentionThresholdKey, value: unknown): value is number {
  const rule = ATTENTION_THRESHOLD_RULES[key];
  return (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!rule.integer || Number.isInteger(value)) &&
    value >= rule.min &&
    value <= rule.max
  );
}

/** A typed threshold read: the number, or the message saying what is wrong with the text. */
export function parseThreshold(
  key: AttentionThresholdKey,
  text: string,
): { ok: true; value: number } | { ok: false; message: string } {
  // People type minus signs of every kind; a decimal comma is a decimal point.
  const cleaned = text
    .trim()
    .replace(/[\u2212\u2013]/g, '-')
    .replace(',', '.');
  const value = cleaned === '' ? Number.NaN : Number(cleaned);
  return isValidThreshold(key, value) ? { ok: true, value } : { ok: false, message: thresholdRangeText(key) };
}
