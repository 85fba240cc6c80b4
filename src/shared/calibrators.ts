/**
 * The engineer's acoustic calibrators (the register kept in records.db) and the rules both sides
 * apply to them: whether a certificate is valid, due soon or expired on a calendar date, and
 * whether a calibrator's nominal levels include the reference level a calibration is judged at.
 * Certificates are dated by calendar day, not by instant: a certificate due on 2027-03-01 is valid
 * all of that day, wherever the engineer is, and expired from the next.
 */
import { format } from 'date-fns';
import { tz } from '@date-fns/tz';
import { dbText } from './format';

/** IEC 60942 classes of sound calibrators (LS: laboratory standard). */
export const CALIBRATOR_CLASSES = ['1', '2', 'LS'] as const;
export type CalibratorClass = (typeof CALIBRATOR_CLASSES)[number];
export const CALIBRATOR_CLASS_LABELS: Readonly<Record<CalibratorClass, string>> = {
  '1': 'IEC 60942 class 1',
  '2': 'IEC 60942 class 2',
  LS: 'IEC 60942 class LS',
};

/** Bounds of a nominal level (dB): sound calibrators put out 94 to 124 dB; allow some room. */
export const CALIBRATOR_LEVEL_MIN_DB = 60;
export const CALIBRATOR_LEVEL_MAX_DB = 140;
export const CALIBRATOR_MAX_LEVELS = 4;
export const CALIBRATOR_TEXT_MAX_LENGTH = 40;
/** A certificate runs at most this many years (usual intervals are one or two). */
export const CERTIFICATE_MAX_YEARS = 10;
/** A certificate due within this many days is "due soon". */
export const CERTIFICATE_DUE_SOON_DAYS = 30;

/** A calendar date, `YYYY-MM-DD`. */
export type CalendarDate = string;

export interface Calibrator {
  id: string;
  /** Maker's model, e.g. "CR:515". */
  model: string;
  /** The calibrator's own serial number, e.g. "054433". */
  serial: string;
  class: CalibratorClass;
  /** The levels it puts out (dB), ascending, e.g. [94, 114]. */
  levelsDb: number[];
  /** The date of its calibration certificate. */
  certificateDate: CalendarDate;
  /** The date its next calibration is due. */
  dueDate: CalendarDate;
  /** Retired calibrators stay listed (for the record) but are not offered in the wizard. */
  retired: boolean;
  createdAt: number;
  updatedAt: number;
  /** When it was last chosen for a calibration (epoch ms); null when never. */
  lastUsedAt: number | null;
}

/** What creating or changing a calibrator gives (no id: a new one). */
export interface CalibratorChange {
  id?: string;
  model: string;
  serial: string;
  class: CalibratorClass;
  levelsDb: number[];
  certificateDate: CalendarDate;
  dueDate: CalendarDate;
}

export interface CalibratorList {
  /** Every calibrator: in use first, then retired; each by model and serial. */
  calibrators: Calibrator[];
  /** The one chosen for the last calibration (still in use); null when none. */
  lastUsedId: string | null;
  /** Stored calibrators that could not be read (left out, not dropped). */
  unreadable: number;
}

/**
 * The calibrator as it was when a calibration ran, kept with the calibration's action record
 * (`ActionRecord.calibrator`): a later edit or removal of the register entry does not change it.
 */
export interface CalibratorSnapshot {
  /** The register entry it came from (it may have been changed or removed since). */
  id: string;
  model: string;
  serial: string;
  class: CalibratorClass;
  /** The reference level the calibration was judged at (dB): the level the calibrator was set to. */
  levelDb: number;
  /** Its nominal levels then (dB). */
  nominalLevelsDb: number[];
  certificateDate: CalendarDate;
  dueDate: CalendarDate;
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** The day number (days since 1970-01-01) of a calendar date; null when it is no real date. */
export function dayNumber(date: string): number | null {
  const match = DATE_PATTERN.exec(date);
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = Date.UTC(year, month - 1, day);
  const back = new Date(utc);
  // Rejects 2026-02-30 and the like, which Date would roll over into March.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day)
    return null;
  return utc / DAY_MS;
}

export const isCalendarDate = (text: string): boolean => dayNumber(text) !== null;

/**
 * The calendar date `epochMs` falls on in `timeZone` (an IANA name), or in this computer's own
 * zone when none is given: the engineer's "today".
 */
export function calendarDateIn(epochMs: number, timeZone?: string): CalendarDate {
  return format(epochMs, 'yyyy-MM-dd', timeZone === undefined ? {} : { in: tz(timeZone) });
}

export type CertificateState = 'valid' | 'dueSoon' | 'expired';

export interface CertificateStatus {
  state: CertificateState;
  /** Days from `today` to the due date: 0 on the due date, negative once expired. */
  daysLeft: number;
}

/**
 * A certificate on `today`: valid up to and including its due date, "due soon" from
 * `dueSoonDays` days before it, expired from the day after. Both dates are calendar dates.
 */
export function certificateStatus(
  dueDate: CalendarDate,
  today: CalendarDate,
  dueSoonDays: number = CERTIFICATE_DUE_SOON_DAYS,
): CertificateStatus {
  const due = dayNumber(dueDate);
  const now = dayNumber(today);
  if (due === null || now === null)
    throw new RangeError(`Not a calendar date: ${due === null ? dueDate : today}`);
  const daysLeft = due - now;
  const state = daysLeft < 0 ? 'expired' : daysLeft <= dueSoonDays ? 'dueSoon' : 'valid';
  return { state, daysLeft };
}

/** "expired 3 days ago (due 2026-11-24)", "due in 12 days (2026-12-09)", "due today", "valid until 2027-05-01". */
export function certificateText(status: CertificateStatus, dueDate: CalendarDate): string {
  const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  if (status.state === 'expired')
    return `expired ${status.daysLeft === -1 ? 'yesterday' : `${days(-status.daysLeft)} ago`} (due ${dueDate})`;
  if (status.state === 'dueSoon')
    return status.daysLeft === 0 ? `due today (${dueDate})` : `due in ${days(status.daysLeft)} (${dueDate})`;
  return `valid until ${dueDate}`;
}

/** Whether one of the nominal levels is the reference level (to the tenth of a dB). */
export function levelMatches(levelsDb: readonly number[], referenceDb: number): boolean {
  return levelsDb.some((level) => Math.abs(level - referenceDb) < 0.05);
}

/** "94 dB and 114 dB". */
export function levelsText(levelsDb: readonly number[]): string {
  const texts = levelsDb.map((level) => dbText(level, { decimals: 'setting' }));
  return texts.length <= 1 ? texts.join('') : `${texts.slice(0, -1).join(', ')} and ${texts.at(-1)}`;
}

/** "CR:515 #054433": how engineers (and the service's calibration log) name a calibrator. */
export const calibratorName = (calibrator: Pick<Calibrator, 'model' | 'serial'>): string =>
  `${calibrator.model} #${calibrator.serial}`;

export interface CalibratorWarning {
  kind: 'expired' | 'dueSoon' | 'level';
  message: string;
}

/**
 * What the engineer should know before calibrating with `calibrator` at `referenceDb` on `today`:
 * an expired or nearly due certificate, a reference level it does not put out. Warnings, never a
 * refusal: the engineer may have no other calibrator on site.
 */
export function calibratorWarnings(
  calibrator: Pick<Calibrator, 'model' | 'serial' | 'levelsDb' | 'dueDate'>,
  referenceDb: number,
  today: CalendarDate,
): CalibratorWarning[] {
  const warnings: CalibratorWarning[] = [];
  const name = calibratorName(calibrator);
  const status = certificateStatus(calibrator.dueDate, today);
  if (status.state === 'expired') {
    warnings.push({
      kind: 'expired',
      message: `The certificate of ${name} ${certificateText(status, calibrator.dueDate)}: a calibration made with it may not be accepted as evidence.`,
    });
  } else if (status.state === 'dueSoon') {
    warnings.push({
      kind: 'dueSoon',
      message: `The certificate of ${name} is ${certificateText(status, calibrator.dueDate)}: book its recalibration.`,
    });
  }
  if (!levelMatches(calibrator.levelsDb, referenceDb)) {
    warnings.push({
      kind: 'level',
      message: `${name} puts out ${levelsText(calibrator.levelsDb)}, not the ${dbText(referenceDb, { decimals: 'setting' })} reference this calibration is judged at: choose its level as the reference, or another calibrator.`,
    });
  }
  return warnings;
}
