/**
 * Fleet attention: which instruments need a visit or a look, and why, from what is known of each
 * (its status, the monitor's current state and newest stats, the newest data held). Pure: the
 * backend keeps the facts (instruments/health.ts), the renderer judges them with the user's
 * thresholds (settings) and lists the reasons, most urgent first.
 *
 * Every rule raises a reason only when its figure is beyond the limit: a figure exactly at the
 * limit is still fine ("offline for more than 2 h", "battery below 11.8 V").
 */
// Types only: check-record's values reach operations.ts, which needs this module's defaults first.
import type { CheckRecord, LastChecks } from './check-record';
import type { InstrumentStatus } from './service/schemas';

// ---- what is known of an instrument --------------------------------------------------------------

/** The signal quality of the monitor's modem, from its newest stats sample. */
export interface SignalReading {
  /** dBm. */
  rsrp: number | null;
  /** dB. */
  rsrq: number | null;
  /** dB. */
  sinr: number | null;
  /** When the sample was taken (epoch ms). */
  time: number;
}

/** The monitor's supply and storage, from its current state (or the newest stats sample). */
export interface SupplyReading {
  /** Supply voltage (V). */
  voltage: number | null;
  /** Disk in use (%). */
  diskPercent: number | null;
  /** When it was read (epoch ms). */
  time: number;
}

/** What FieldDesk last knew of one instrument's health (`instruments.health`), kept offline too. */
export interface InstrumentHealth {
  serial: string;
  /** When FieldDesk last read any of it (epoch ms). */
  readAt: number;
  /** The status as last read, and when; null when it was never read. */
  status: InstrumentStatus | null;
  statusReadAt: number | null;
  /**
   * The newest moment the instrument was known to be in touch with the service: a status read
   * saying online, a current monitor state, or its newest data. Kept across reads: an instrument
   * that goes offline keeps the last contact it had.
   */
  lastContact: number | null;
  /** The newest reading known (the cache's data, the monitor's stats), epoch ms. */
  newestData: number | null;
  supply: SupplyReading | null;
  signal: SignalReading | null;
  /** What could not be read this time, in plain words (the rest is still used). */
  problems: string[];
}

// ---- thresholds (settings) ------------------------------------------------------------------------

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

/** Whether a subscription's status says it has lapsed (cancelled, expired, suspended). */
export function subscriptionLapsed(status: string | null | undefined): boolean {
  return /expir|suspend|cancel|lapsed|inactive/i.test(status ?? '');
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

// ---- durations in words ---------------------------------------------------------------------------

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** "under 1 min", "45 min", "3 h 10 min", "2 d 4 h": a span of time in its two largest units. */
export function spanText(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / MINUTE_MS);
  if (minutes < 1) return 'under 1 min';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** "4 min ago", "3 h 10 min ago", "just now". */
export function agoText(then: number, now: number): string {
  return now - then < MINUTE_MS ? 'just now' : `${spanText(now - then)} ago`;
}

// ---- the rules ------------------------------------------------------------------------------------

export type AttentionKind =
  | 'offline'
  | 'noData'
  | 'calibrationFailed'
  | 'calibrationOld'
  | 'sicFailed'
  | 'storageFull'
  | 'batteryLow'
  | 'subscription'
  | 'signalWeak';

/** 3: go today; 2: soon; 1: keep an eye on it. */
export type Urgency = 1 | 2 | 3;

export interface AttentionReason {
  kind: AttentionKind;
  urgency: Urgency;
  /** In plain words with the figures: "Offline for 3 h 10 min (limit 2 h)". */
  text: string;
}

/** The order of reasons of the same urgency, and of the rules below. */
const KIND_ORDER: readonly AttentionKind[] = [
  'offline',
  'noData',
  'calibrationFailed',
  'sicFailed',
  'calibrationOld',
  'storageFull',
  'batteryLow',
  'subscription',
  'signalWeak',
];

const URGENCY: Record<AttentionKind, Urgency> = {
  offline: 3,
  noData: 3,
  calibrationFailed: 3,
  sicFailed: 2,
  calibrationOld: 2,
  storageFull: 2,
  batteryLow: 2,
  subscription: 2,
  signalWeak: 1,
};

/**
 * Whose verdict a failed check's reason gives: "FieldDesk's verdict; the instrument reported
 * “Success”", or the instrument's word alone where FieldDesk did not run the check.
 */
function whoseText(check: CheckRecord): string {
  const instrument = check.status
    ? `the instrument reported “${check.status}”`
    : 'the instrument reported no status';
  return check.fieldDesk === null ? instrument : `FieldDesk’s verdict; ${instrument}`;
}

const volts = (value: number): string => `${value.toFixed(1)} V`;
const dbm = (value: number): string => `${Math.round(value)} dBm`.replace('-', '\u2212');

/**
 * What the figures of one instrument say needs attention, most urgent first. `checks`: its last
 * calibration and SIC as records (shared/check-record.ts `lastChecks`), FieldDesk's verdict in them
 * where FieldDesk ran them.
 */
export function attentionReasons(
  health: InstrumentHealth | null,
  status: InstrumentStatus | null,
  thresholds: AttentionThresholds,
  now: number,
  checks: LastChecks,
  subscription: { status?: string | undefined } | null = null,
): AttentionReason[] {
  const reasons: AttentionReason[] = [];
  const add = (kind: AttentionKind, text: string, urgency: Urgency = URGENCY[kind]) =>
    reasons.push({ kind, urgency, text });
  const lastContact = health?.lastContact ?? null;

  const offlineLimitMs = thresholds.attentionOfflineHours * HOUR_MS;
  if (status !== null && !status.online) {
    if (lastContact === null) add('offline', 'Offline; no contact known');
    else if (now - lastContact > offlineLimitMs)
      add('offline', `Offline for ${spanText(now - lastContact)} (limit ${spanText(offlineLimitMs)})`);
  }

  const newestData = health?.newestData ?? null;
  const noDataLimitMs = thresholds.attentionNoDataHours * HOUR_MS;
  if (newestData !== null && now - newestData > noDataLimitMs)
    add('noData', `No new data for ${spanText(now - newestData)} (limit ${spanText(noDataLimitMs)})`);

  // A check that did not pass (FieldDesk's verdict where it ran it) is a failure, never "calibrated".
  const calibration = checks.calibration;
  if (calibration !== null) {
    const age = now - calibration.time;
    if (calibration.passed !== true)
      add(
        'calibrationFailed',
        `Last calibration ${calibration.passed === false ? 'failed' : 'not known to have passed'}, ` +
          `${spanText(age)} ago (${whoseText(calibration)})`,
      );
    const limitMs = thresholds.attentionCalibrationDays * DAY_MS;
    if (age > limitMs) add('calibrationOld', `Calibrated ${spanText(age)} ago (limit ${spanText(limitMs)})`);
  }

  const sic = checks.sic;
  if (sic !== null && sic.passed !== true)
    add(
      'sicFailed',
      `Last SIC ${sic.passed === false ? 'failed' : 'not known to have passed'}, ${spanText(now - sic.time)} ago (${whoseText(sic)})`,
    );

  const disk = health?.supply?.diskPercent ?? null;
  if (disk !== null && disk > thresholds.attentionStoragePercent)
    add('storageFull', `Storage ${Math.round(disk)} % full (limit ${thresholds.attentionStoragePercent} %)`);

  const voltage = health?.supply?.voltage ?? null;
  if (voltage !== null && voltage < thresholds.attentionBatteryUrgentVolts)
    add(
      'batteryLow',
      `Battery nearly flat: ${volts(voltage)} (urgent below ${volts(thresholds.attentionBatteryUrgentVolts)})`,
      3,
    );
  else if (voltage !== null && voltage < thresholds.attentionBatteryVolts)
    add('batteryLow', `Battery low: ${volts(voltage)} (limit ${volts(thresholds.attentionBatteryVolts)})`);

  // The service gives no end date, so "ending soon" cannot be told; a lapsed one stops the data.
  if (subscriptionLapsed(subscription?.status))
    add(
      'subscription',
      `Subscription ${subscription?.status?.toLowerCase()}: the service may stop taking its data (it reports “${subscription?.status}”)`,
    );

  const rsrp = health?.signal?.rsrp ?? null;
  if (rsrp !== null && rsrp < thresholds.attentionSignalRsrpDbm)
    add('signalWeak', `Weak signal: RSRP ${dbm(rsrp)} (limit ${dbm(thresholds.attentionSignalRsrpDbm)})`);

  return reasons.sort(
    (a, b) => b.urgency - a.urgency || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind),
  );
}

export interface AttentionItem {
  serial: string;
  reasons: AttentionReason[];
}

/**
 * The instruments that need attention, most urgent first: by their most urgent reason, then by
 * how many reasons they have, then by serial so the order never jumps.
 */
export function rankAttention(items: readonly AttentionItem[]): AttentionItem[] {
  return items
    .filter((item) => item.reasons.length > 0)
    .sort(
      (a, b) =>
        (b.reasons[0]?.urgency ?? 0) - (a.reasons[0]?.urgency ?? 0) ||
        b.reasons.length - a.reasons.length ||
        a.serial.localeCompare(b.serial),
    );
}

// ---- last contact -------------------------------------------------------------------------------

/** The newest of the moments given (null ones ignored); null when none is known. */
export function newestOf(...times: ReadonlyArray<number | null | undefined>): number | null {
  const known = times.filter((t): t is number => typeof t === 'number' && Number.isFinite(t));
  return known.length === 0 ? null : Math.max(...known);
}
