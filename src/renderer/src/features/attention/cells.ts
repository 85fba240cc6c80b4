/**
 * The instrument list's health cells in words and tones: last contact, calibration, SIC and the
 * monitor's battery · storage · signal. Pure: the table and the tests call these directly.
 */
import {
  agoText,
  newestOf,
  spanText,
  type AttentionThresholds,
  type InstrumentHealth,
} from '../../../../shared/attention';
import {
  checkTone,
  checkVerdictsText,
  checkVerdictWord,
  type CheckRecord,
} from '../../../../shared/check-record';
import type { InstrumentStatus } from '../../../../shared/service/schemas';
import type { Tone } from '../../ui/tone';
import { exactTimeText } from '../../ui/time';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const MINUS = '\u2212';

export interface HealthCell {
  text: string;
  /** The whole story, on hover. */
  title: string;
  tone: Tone;
}

const NOT_KNOWN: HealthCell = { text: '—', title: 'Not known yet', tone: 'neutral' };

/**
 * The newest contact known: the health's, or the list's own status read when it said online
 * (`listReadAt`). Offline beyond the limit reads as danger.
 */
export function lastContactCell(
  health: InstrumentHealth | null,
  status: InstrumentStatus | null,
  listReadAt: number | null,
  thresholds: AttentionThresholds,
  now: number,
): HealthCell {
  const contact = newestOf(health?.lastContact, status?.online === true ? listReadAt : null);
  if (contact === null)
    return status?.online === false
      ? { text: 'Offline', title: 'Offline; no contact known', tone: 'danger' }
      : NOT_KNOWN;
  const late = status?.online === false && now - contact > thresholds.attentionOfflineHours * HOUR_MS;
  return {
    // The largest unit only ("14 h ago"): the column is narrow; the title has the exact time.
    text: agoText(contact, now).replace(/^(\d+ (d|h)) \d+ (h|min) ago$/, '$1 ago'),
    title: `Last contact ${exactTimeText(contact)}${status?.online === false ? '; offline since' : ''}`,
    tone: late ? 'danger' : 'neutral',
  };
}

/**
 * A check's cell from its one record: the verdict that counts in the one vocabulary ("Pass",
 * "Fail" when FieldDesk judged it, else the instrument's own word quoted) and its age.
 */
function checkCell(
  what: string,
  check: CheckRecord | null,
  now: number,
  tooOldMs: number | null,
): HealthCell {
  if (check === null) return { text: '—', title: `No ${what} known`, tone: 'neutral' };
  const age = now - check.time;
  const old = tooOldMs !== null && age > tooOldMs;
  const tone = checkTone(check);
  return {
    // The largest unit only ("12 d"), so the age stays whole in the narrow column; "now" under a minute.
    text: `${checkVerdictWord(check)} · ${age < 60_000 ? 'now' : spanText(age).replace(/ \d+ (min|h)$/, '')}`,
    title:
      `Last ${what} ${exactTimeText(check.time)}. ${checkVerdictsText(check)}.` +
      (check.passed === false ? (what === 'SIC' ? ' Run the check again.' : ' Calibrate again.') : '') +
      (old ? ' Due again.' : ''),
    tone: tone === 'ok' && old ? 'warning' : tone,
  };
}

/**
 * "Pass · 12 d" (FieldDesk's verdict), "Success · 12 d" (the instrument's own word: FieldDesk did
 * not run it, the title says so): warning once older than the interval or of an unknown word,
 * danger when failed.
 */
export function calibrationCell(
  check: CheckRecord | null,
  thresholds: AttentionThresholds,
  now: number,
): HealthCell {
  return checkCell('calibration', check, now, thresholds.attentionCalibrationDays * DAY_MS);
}

export function sicCell(check: CheckRecord | null, now: number): HealthCell {
  return checkCell('SIC', check, now, null);
}

const signed = (value: number, unit: string): string =>
  `${Math.round(value)}`.replace('-', MINUS) + ` ${unit}`;

/** "12.9 V · 14 % · −92 dBm"; a warning when one of them is beyond its limit. */
export function monitorCell(
  health: InstrumentHealth | null,
  thresholds: AttentionThresholds,
  now: number,
): HealthCell {
  const supply = health?.supply ?? null;
  const signal = health?.signal ?? null;
  if (supply === null && signal === null)
    return { text: '—', title: 'This instrument reports no battery, storage or signal', tone: 'neutral' };
  const parts: string[] = [];
  const title: string[] = [];
  let beyond = false;
  if (supply?.voltage !== null && supply?.voltage !== undefined) {
    parts.push(`${supply.voltage.toFixed(1)} V`);
    title.push(`Battery ${supply.voltage.toFixed(2)} V`);
    beyond ||= supply.voltage < thresholds.attentionBatteryVolts;
  }
  if (supply?.diskPercent !== null && supply?.diskPercent !== undefined) {
    parts.push(`${Math.round(supply.diskPercent)} %`);
    title.push(`storage ${supply.diskPercent.toFixed(1)} % in use`);
    beyond ||= supply.diskPercent > thresholds.attentionStoragePercent;
  }
  if (signal !== null && signal.rsrp !== null) {
    parts.push(signed(signal.rsrp, 'dBm'));
    const quality = [
      `RSRP ${signed(signal.rsrp, 'dBm')}`,
      ...(signal.rsrq === null ? [] : [`RSRQ ${signed(signal.rsrq, 'dB')}`]),
      ...(signal.sinr === null ? [] : [`SINR ${signed(signal.sinr, 'dB')}`]),
    ];
    title.push(`signal ${quality.join(', ')}`);
    beyond ||= signal.rsrp < thresholds.attentionSignalRsrpDbm;
  } else if (signal !== null) {
    title.push('no LTE signal reported');
  }
  const readAt = newestOf(supply?.time, signal?.time);
  return {
    text: parts.length === 0 ? '—' : parts.join(' · '),
    title: `${title.join(' · ')}${readAt === null ? '' : ` (read ${agoText(readAt, now)})`}`,
    tone: beyond ? 'warning' : 'neutral',
  };
}
