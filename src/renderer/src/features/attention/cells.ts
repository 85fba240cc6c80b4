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
  type LastChecks,
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

/** One of the monitor's figures, shown with its icon and unit. */
export interface MonitorFigure {
  kind: 'battery' | 'storage' | 'signal';
  /** "12.9 V", "14 %", "−92 dBm" */
  text: string;
  /** What it is, for a screen reader ("Battery 12.90 V"). */
  label: string;
  /** Within its limits (neutral), beyond one (warning), beyond the urgent one (danger: the battery). */
  tone: 'neutral' | 'warning' | 'danger';
}

export interface MonitorCell extends HealthCell {
  figures: MonitorFigure[];
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

/** "12.9 V · 14 % · −92 dBm" (each figure with its icon on screen); a warning when one is beyond its limit. */
export function monitorCell(
  health: InstrumentHealth | null,
  thresholds: AttentionThresholds,
  now: number,
): MonitorCell {
  const supply = health?.supply ?? null;
  const signal = health?.signal ?? null;
  if (supply === null && signal === null)
    return {
      text: '—',
      title: 'This instrument reports no battery, storage or signal',
      tone: 'neutral',
      figures: [],
    };
  const figures: MonitorFigure[] = [];
  const title: string[] = [];
  if (supply?.voltage !== null && supply?.voltage !== undefined) {
    const label = `Battery ${supply.voltage.toFixed(2)} V`;
    figures.push({
      kind: 'battery',
      text: `${supply.voltage.toFixed(1)} V`,
      label,
      tone:
        supply.voltage < thresholds.attentionBatteryUrgentVolts
          ? 'danger'
          : supply.voltage < thresholds.attentionBatteryVolts
            ? 'warning'
            : 'neutral',
    });
    title.push(label);
  }
  if (supply?.diskPercent !== null && supply?.diskPercent !== undefined) {
    const label = `Storage ${supply.diskPercent.toFixed(1)} % in use`;
    figures.push({
      kind: 'storage',
      text: `${Math.round(supply.diskPercent)} %`,
      label,
      tone: supply.diskPercent > thresholds.attentionStoragePercent ? 'warning' : 'neutral',
    });
    title.push(label);
  }
  if (signal !== null && signal.rsrp !== null) {
    const quality = [
      `RSRP ${signed(signal.rsrp, 'dBm')}`,
      ...(signal.rsrq === null ? [] : [`RSRQ ${signed(signal.rsrq, 'dB')}`]),
      ...(signal.sinr === null ? [] : [`SINR ${signed(signal.sinr, 'dB')}`]),
    ];
    figures.push({
      kind: 'signal',
      text: signed(signal.rsrp, 'dBm'),
      label: `Signal ${signed(signal.rsrp, 'dBm')}`,
      tone: signal.rsrp < thresholds.attentionSignalRsrpDbm ? 'warning' : 'neutral',
    });
    title.push(`Signal ${quality.join(', ')}`);
  } else if (signal !== null) {
    title.push('No LTE signal reported');
  }
  const readAt = newestOf(supply?.time, signal?.time);
  return {
    text: figures.length === 0 ? '—' : figures.map((f) => f.text).join(' · '),
    title: `${title.join(' · ')}${readAt === null ? '' : ` (read ${agoText(readAt, now)})`}`,
    tone: figures.some((f) => f.tone === 'danger')
      ? 'danger'
      : figures.some((f) => f.tone === 'warning')
        ? 'warning'
        : 'neutral',
    figures,
  };
}

/** Verdict ranks for sorting: what needs doing first. */
const TONE_RANK: Record<Tone, number> = { danger: 0, warning: 1, ok: 2, neutral: 2, info: 2 };

/**
 * A health column's sort value (ascending order): the last contact by its age (newest first; an
 * offline instrument with no contact known the oldest); a check by its verdict (failed, then due or
 * of an unknown word, then passed), the oldest first within each; the monitor by its battery
 * voltage (lowest first). Null when nothing is known: those rows go last both ways.
 */
export function healthSortValue(
  key: 'contact' | 'calibration' | 'sic' | 'monitor',
  cells: {
    health: InstrumentHealth | null;
    status: InstrumentStatus | null;
    listReadAt: number | null;
    checks: LastChecks;
    thresholds: AttentionThresholds;
    now: number;
  },
): number | null {
  const { health, status, checks, thresholds, now } = cells;
  switch (key) {
    case 'contact': {
      const contact = newestOf(health?.lastContact, status?.online === true ? cells.listReadAt : null);
      if (contact === null) return status?.online === false ? Number.POSITIVE_INFINITY : null;
      return now - contact;
    }
    case 'calibration':
    case 'sic': {
      const check = checks[key];
      if (check === null) return null;
      const cell = key === 'sic' ? sicCell(check, now) : calibrationCell(check, thresholds, now);
      // Ages are under 1e12 ms (31 years): the rank leads, the older check first within it.
      return TONE_RANK[cell.tone] * 1e13 - (now - check.time);
    }
    case 'monitor':
      return health?.supply?.voltage ?? null;
  }
}

/** One line of the instrument page's health card. */
export interface HealthFact {
  label: string;
  value: string;
  /** The limit it is judged against, or when it was read. */
  note: string | null;
  tone: Tone;
}

/**
 * The instrument page's health card: the same figures as the list's cells (last contact, battery,
 * storage, signal, newest data), each in full with its limit, and when they were read.
 */
export function healthFacts(
  health: InstrumentHealth | null,
  status: InstrumentStatus | null,
  listReadAt: number | null,
  thresholds: AttentionThresholds,
  now: number,
): HealthFact[] {
  const contact = lastContactCell(health, status, listReadAt, thresholds, now);
  const contactAt = newestOf(health?.lastContact, status?.online === true ? listReadAt : null);
  const facts: HealthFact[] = [
    {
      label: 'Last contact',
      value: contactAt === null ? contact.text : `${exactTimeText(contactAt)} (${agoText(contactAt, now)})`,
      note: status?.online === false ? `Offline; listed after ${thresholds.attentionOfflineHours} h` : null,
      tone: contact.tone,
    },
  ];
  const monitor = monitorCell(health, thresholds, now);
  const figure = (kind: MonitorFigure['kind']) => monitor.figures.find((f) => f.kind === kind);
  const supply = health?.supply ?? null;
  const battery = figure('battery');
  if (battery !== undefined && supply?.voltage != null)
    facts.push({
      label: 'Battery',
      value: `${supply.voltage.toFixed(2)} V`,
      note: `Low below ${thresholds.attentionBatteryVolts.toFixed(1)} V, urgent below ${thresholds.attentionBatteryUrgentVolts.toFixed(1)} V`,
      tone: battery.tone,
    });
  const storage = figure('storage');
  if (storage !== undefined && supply?.diskPercent != null)
    facts.push({
      label: 'Storage',
      value: `${supply.diskPercent.toFixed(1)} % in use`,
      note: `Nearly full above ${thresholds.attentionStoragePercent} %`,
      tone: storage.tone,
    });
  const signal = health?.signal ?? null;
  if (signal !== null)
    facts.push({
      label: 'Signal',
      value:
        signal.rsrp === null
          ? 'No LTE signal reported'
          : [
              `RSRP ${signed(signal.rsrp, 'dBm')}`,
              ...(signal.rsrq === null ? [] : [`RSRQ ${signed(signal.rsrq, 'dB')}`]),
              ...(signal.sinr === null ? [] : [`SINR ${signed(signal.sinr, 'dB')}`]),
            ].join(', '),
      note: `Weak below ${signed(thresholds.attentionSignalRsrpDbm, 'dBm')}`,
      tone: figure('signal')?.tone ?? 'neutral',
    });
  const newestData = health?.newestData ?? null;
  if (newestData !== null)
    facts.push({
      label: 'Newest data',
      value: `${exactTimeText(newestData)} (${agoText(newestData, now)})`,
      note: null,
      tone: now - newestData > thresholds.attentionNoDataHours * HOUR_MS ? 'warning' : 'neutral',
    });
  // A figure never wraps away from its unit in the narrow card ("90 %", "−110 dBm").
  const keepUnit = (text: string) => text.replace(/ (%|V|dBm|dB)(?=[,.)]|$| )/g, '\u00a0$1');
  return facts.map((f) => ({
    ...f,
    value: keepUnit(f.value),
    note: f.note === null ? null : keepUnit(f.note),
  }));
}
