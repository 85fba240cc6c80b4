/**
 * Fleet attention: which instruments need a visit or a look, and why, from what is known of each
 * (its status, the monitor's current state and newest stats, the newest data held). Pure: the
 * backend keeps the facts (instruments/health.ts), the renderer judges them with the user's
 * thresholds (settings: attention-thresholds.ts, re-exported here) and lists the reasons, most
 * urgent first.
 *
 * Every rule raises a reason only when its figure is beyond the limit: a figure exactly at the
 * limit is still fine ("offline for more than 2 h", "battery below 11.8 V").
 */
// Types only: check-record's values reach operations.ts, which needs this module's defaults first.
import type { CheckRecord, LastChecks } from './check-record';
import type { InstrumentStatus } from './service/schemas';
import type { AttentionThresholds } from './attention-thresholds';

// The thresholds are set in the settings; callers import them through this module.
export * from './attention-thresholds';

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

/** Whether a subscription's status says it has lapsed (cancelled, expired, suspended). */
export function subscriptionLapsed(status: string | null | undefined): boolean {
  return /expir|suspend|cancel|lapsed|inactive/i.test(status ?? '');
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
