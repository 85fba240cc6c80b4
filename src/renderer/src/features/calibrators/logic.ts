/**
 * The calibrator form as typed, checked with the contract's own schema (so the form and the
 * backend say the same thing), and how a calibrator reads in the register and the wizard.
 */
import {
  calendarDateIn,
  certificateStatus,
  certificateText,
  CALIBRATOR_CLASS_LABELS,
  calibratorName,
  levelsText,
  type Calibrator,
  type CalibratorChange,
  type CalibratorClass,
} from '../../../../shared/calibrators';
import { calibratorChangeSchema } from '../../../../shared/ipc/calibrator-requests';
import type { Tone } from '../../ui/tone';

export interface CalibratorForm {
  model: string;
  serial: string;
  class: CalibratorClass;
  /** Nominal levels as typed: "94, 114". */
  levels: string;
  certificateDate: string;
  dueDate: string;
}

export type CalibratorField = keyof CalibratorForm;

export const EMPTY_CALIBRATOR_FORM: Readonly<CalibratorForm> = {
  model: '',
  serial: '',
  class: '1',
  levels: '94, 114',
  certificateDate: '',
  dueDate: '',
};

export function formOf(calibrator: Calibrator): CalibratorForm {
  return {
    model: calibrator.model,
    serial: calibrator.serial,
    class: calibrator.class,
    levels: calibrator.levelsDb.join(', '),
    certificateDate: calibrator.certificateDate,
    dueDate: calibrator.dueDate,
  };
}

/** The schema's field names as the form's. */
const FIELD_OF: Readonly<Record<string, CalibratorField>> = {
  model: 'model',
  serial: 'serial',
  class: 'class',
  levelsDb: 'levels',
  certificateDate: 'certificateDate',
  dueDate: 'dueDate',
};

/** A backend error's field as the form's (null when it names none of them). */
export const formFieldOf = (field: string | undefined): CalibratorField | null =>
  field === undefined ? null : (FIELD_OF[field.split('.')[0]!] ?? null);

/** "94, 114" or "94 114 dB" → [94, 114]; a word that is not a number stays NaN (the schema says so). */
function parseLevels(text: string): number[] {
  return text
    .replace(/db/gi, ' ')
    .split(/[\s,;/]+/)
    .filter((part) => part !== '')
    .map((part) => Number(part));
}

/** The change to send, or the first problem of each field. */
export function checkCalibratorForm(
  form: CalibratorForm,
  id?: string,
):
  { ok: true; change: CalibratorChange } | { ok: false; problems: Partial<Record<CalibratorField, string>> } {
  const parsed = calibratorChangeSchema.safeParse({
    ...(id === undefined ? {} : { id }),
    model: form.model,
    serial: form.serial,
    class: form.class,
    levelsDb: parseLevels(form.levels),
    certificateDate: form.certificateDate,
    dueDate: form.dueDate,
  });
  if (parsed.success) {
    const { id: parsedId, ...rest } = parsed.data;
    return { ok: true, change: parsedId === undefined ? rest : { ...rest, id: parsedId } };
  }
  const problems: Partial<Record<CalibratorField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = formFieldOf(issue.path.map(String).join('.'));
    if (field !== null) problems[field] ??= issue.message;
  }
  return { ok: false, problems };
}

/** Today in the laptop's zone: the day a certificate is judged on. */
export const todayHere = (now: number = Date.now()): string => calendarDateIn(now);

export interface CertificateBadge {
  label: string;
  tone: Tone;
  icon: 'check' | 'warning' | 'error';
  /** In words, for the title and screen readers. */
  text: string;
}

/** The certificate's state on `today` as a pill: Valid, Due soon or Expired. */
export function certificateBadge(dueDate: string, today: string): CertificateBadge {
  const status = certificateStatus(dueDate, today);
  const text = certificateText(status, dueDate);
  if (status.state === 'expired') return { label: 'Expired', tone: 'danger', icon: 'error', text };
  if (status.state === 'dueSoon') return { label: 'Due soon', tone: 'warning', icon: 'warning', text };
  return { label: 'Valid', tone: 'ok', icon: 'check', text };
}

/** "CR:515 #054433 · class 1 · 94.0 dB and 114.0 dB · due 2027-03-01": one calibrator in a choice. */
export function calibratorChoiceText(calibrator: Calibrator): string {
  return `${calibratorName(calibrator)} · ${CALIBRATOR_CLASS_LABELS[calibrator.class].replace('IEC 60942 ', '')} · ${levelsText(calibrator.levelsDb)} · due ${calibrator.dueDate}`;
}
