/**
 * How the outcome of an action reads on screen: a PASS or FAIL that cannot be mistaken (icon,
 * word and colour together), the figures behind it, and the backend's message naming the rule.
 */
import {
  calendarDateIn,
  calibratorName,
  CALIBRATOR_CLASS_LABELS,
  certificateStatus,
  type CalibratorSnapshot,
} from '../../../../shared/calibrators';
import { checkDbText, checkOfOutcome, checkVerdictsText } from '../../../../shared/check-record';
import { failingTones, sicBandText } from '../../../../shared/check-verdicts';
import { dbText } from '../../../../shared/format';
import type { ActionOutcome, OperationSnapshot } from '../../../../shared/operations';
import { isFinishedState, SIC_TONE_LABELS } from '../../../../shared/operations';
import type { Tone } from '../../ui/tone';

/** What a figure the instrument did not report reads as. */
const NO_READING = 'No reading';

export type VerdictKind = 'pass' | 'fail' | 'noResult';

/** Icon names as `Icon.vue` knows them (kept as strings so this stays free of components). */
export type VerdictIcon = 'check' | 'error' | 'warning' | 'info';

export interface VerdictFact {
  label: string;
  value: string;
  /** A figure that broke the rule: shown emphasised (and said in words by `VerdictView.message`). */
  flagged?: boolean;
}

export interface VerdictView {
  kind: VerdictKind;
  /** The big word: PASS, FAIL or NO RESULT. */
  word: string;
  /** What the word is about: "Calibration passed", "Stopped watching". */
  title: string;
  tone: Tone;
  icon: VerdictIcon;
  facts: VerdictFact[];
  /** The backend's explanation (names the failed rule, or what to do next). */
  message: string;
  /** FieldDesk's verdict and the instrument's, side by side, each naming whose it is. */
  verdicts: VerdictSides | null;
  /** Calibration: the calibrator the engineer said was fitted (`calibratorUsed`); absent otherwise. */
  calibrator?: CalibratorUsed;
}

/** The calibrator kept with a calibration, in words, and whether its certificate had expired then. */
export interface CalibratorUsed {
  text: string;
  expired: boolean;
}

/**
 * "Calibrator: CR:515 #054433 (IEC 60942 class 1) at 94.0 dB, certificate due 2027-03-01", with
 * "expired 444 days before it was used" when its due date had passed on the day it was used
 * (laptop's zone); "Calibrator: none named" when the engineer chose none.
 */
export function calibratorUsed(calibrator: CalibratorSnapshot | null, usedAt: number): CalibratorUsed {
  if (calibrator === null) return { text: 'Calibrator: none named', expired: false };
  const status = certificateStatus(calibrator.dueDate, calendarDateIn(usedAt));
  const expired = status.state === 'expired';
  const daysBefore = -status.daysLeft;
  return {
    text:
      `Calibrator: ${calibratorName(calibrator)} (${CALIBRATOR_CLASS_LABELS[calibrator.class]}) at ` +
      `${settingDbText(calibrator.levelDb)}, certificate due ${calibrator.dueDate}` +
      (expired ? `, expired ${daysBefore} day${daysBefore === 1 ? '' : 's'} before it was used` : ''),
    expired,
  };
}

/** "FieldDesk: Fail (−19.68 dB from 114.0 dB)" beside "Instrument: “Success”". */
export interface VerdictSides {
  fieldDesk: { text: string; passed: boolean };
  instrument: { text: string; passed: boolean | null };
}

/**
 * Whose verdict is whose, for a calibration or SIC outcome: FieldDesk's (against the reference,
 * tolerance and tone bands) and the instrument's own status word. Null for Identify.
 */
export function verdictSides(result: ActionOutcome): VerdictSides | null {
  if (result.kind === 'identify') return null;
  // The instrument's own word, quoted: never confused with FieldDesk's "Pass"/"Fail".
  const instrument = {
    text: result.status ? `“${result.status}”` : 'no status',
    passed: result.instrumentPassed,
  };
  if (result.kind === 'calibration') {
    const against =
      result.deviationDb === null
        ? 'no level'
        : `${checkDbText(result.deviationDb, { signed: true })} from ${settingDbText(result.referenceDb)}`;
    return {
      fieldDesk: { text: `${result.passed ? 'Pass' : 'Fail'} (${against})`, passed: result.passed },
      instrument,
    };
  }
  const failing = failingTones(result.tones);
  const judged = result.tones.some((t) => t.within !== null);
  const detail =
    failing.length > 0
      ? failing
          .map(
            (t) =>
              `${SIC_TONE_LABELS[t.tone]} ${checkDbText(t.levelDb, { missing: NO_READING })}, expected ${sicBandText(t)}`,
          )
          .join('; ')
      : judged
        ? `tones within ±${settingDbText(result.toleranceDb ?? 0)}`
        : 'tones not judged: no earlier passing check';
  return {
    fieldDesk: { text: `${result.passed ? 'Pass' : 'Fail'} (${detail})`, passed: result.passed },
    instrument,
  };
}

/** "94.0 dB", "0.5 dB", "0.25 dB": a setting, one decimal unless the second matters. */
export const settingDbText = (value: number): string => dbText(value, { decimals: 'setting' });

const ACTION_TITLES = {
  Calibration: { pass: 'Calibration passed', fail: 'Calibration failed' },
  SIC: { pass: 'System integrity check passed', fail: 'System integrity check failed' },
  Identify: { pass: 'Identify sent', fail: 'Identify failed' },
} as const;

const NO_RESULT_TITLES = {
  cancelled: 'Stopped watching',
  timedOut: 'No result in time',
  failed: 'Could not complete',
} as const;

/** The outcome of a finished operation; null while it is still running. */
export function operationVerdict(snapshot: OperationSnapshot): VerdictView | null {
  if (!isFinishedState(snapshot.state)) return null;
  const result = snapshot.result;
  if (result === null || snapshot.state === 'cancelled' || snapshot.state === 'timedOut') {
    const state = snapshot.state === 'succeeded' ? 'failed' : snapshot.state;
    return {
      kind: 'noResult',
      word: 'NO RESULT',
      title: NO_RESULT_TITLES[state],
      tone: 'warning',
      icon: 'warning',
      facts: [],
      message: snapshot.message,
      verdicts: null,
      ...(snapshot.calibrator === undefined
        ? {}
        : { calibrator: calibratorUsed(snapshot.calibrator, snapshot.startedAt) }),
    };
  }
  const passed = result.kind === 'identify' ? snapshot.state === 'succeeded' : result.passed;
  const base = {
    kind: passed ? 'pass' : 'fail',
    word: passed ? 'PASS' : 'FAIL',
    title: ACTION_TITLES[snapshot.action][passed ? 'pass' : 'fail'],
    tone: passed ? 'ok' : 'danger',
    icon: passed ? 'check' : 'error',
    message: snapshot.message,
    verdicts: verdictSides(result),
    ...(snapshot.calibrator === undefined
      ? {}
      : { calibrator: calibratorUsed(snapshot.calibrator, snapshot.startedAt) }),
  } as const;
  if (result.kind === 'calibration') {
    const outside = result.deviationDb === null || Math.abs(result.deviationDb) > result.toleranceDb + 1e-9;
    const statusBad = result.status.trim().toLowerCase() !== 'success';
    return {
      ...base,
      facts: [
        {
          label: 'Measured level',
          value: checkDbText(result.level, { missing: NO_READING }),
          flagged: result.level === null,
        },
        {
          label: `Deviation from the ${settingDbText(result.referenceDb)} reference`,
          value: checkDbText(result.deviationDb, { signed: true, missing: NO_READING }),
          flagged: outside,
        },
        { label: 'Allowed', value: `±${settingDbText(result.toleranceDb)}` },
        { label: 'Offset', value: checkDbText(result.offset, { signed: true, missing: NO_READING }) },
        { label: 'Instrument reported', value: result.status, flagged: statusBad },
        ...(result.probableCalibratorDb === null
          ? []
          : [
              {
                label: 'Calibrator probably set to',
                value: settingDbText(result.probableCalibratorDb),
                flagged: true,
              },
            ]),
      ],
    };
  }
  if (result.kind === 'sic') {
    return {
      ...base,
      facts: [
        ...(['_500Hz', '_1KHz', '_8KHz'] as const).map((tone) => {
          const judged = result.tones.find((t) => t.tone === tone);
          const band =
            judged === undefined || judged.referenceDb === null ? '' : ` · expected ${sicBandText(judged)}`;
          return {
            label: `${SIC_TONE_LABELS[tone]}${band}`,
            value: checkDbText(result[tone], { missing: NO_READING }),
            flagged: judged?.within === false,
          };
        }),
        { label: 'Instrument reported', value: result.status, flagged: result.instrumentPassed !== true },
      ],
    };
  }
  return { ...base, facts: [] };
}

export interface ResultBadge {
  label: string;
  tone: Tone;
  icon: VerdictIcon;
}

/**
 * The result column of the local action record: FieldDesk's verdict in one or two words (named as
 * FieldDesk's where the instrument's own verdict is shown beside it, `recordVerdictsText`).
 */
export function actionRecordBadge(record: {
  action: OperationSnapshot['action'];
  state: OperationSnapshot['state'];
  result: OperationSnapshot['result'];
}): ResultBadge {
  switch (record.state) {
    case 'succeeded':
      return record.action === 'Identify'
        ? { label: 'Done', tone: 'ok', icon: 'check' }
        : { label: 'FieldDesk: Pass', tone: 'ok', icon: 'check' };
    case 'failed':
      return record.result === null
        ? { label: 'Did not run', tone: 'danger', icon: 'error' }
        : { label: 'FieldDesk: Fail', tone: 'danger', icon: 'error' };
    case 'timedOut':
      return { label: 'Timed out', tone: 'warning', icon: 'warning' };
    case 'cancelled':
      return { label: 'Stopped watching', tone: 'warning', icon: 'warning' };
    default:
      return { label: 'Running', tone: 'info', icon: 'warning' };
  }
}

/** A service record's status ("Success", "Failed", "Error") as a badge: the word is kept. */
export function serviceStatusBadge(status: string): ResultBadge {
  const lower = status.trim().toLowerCase();
  if (lower === 'success') return { label: 'Success', tone: 'ok', icon: 'check' };
  if (lower === 'failed' || lower === 'fail') return { label: status, tone: 'danger', icon: 'error' };
  if (lower === 'inprogress') return { label: 'In progress', tone: 'info', icon: 'info' };
  return { label: status || 'Unknown', tone: 'warning', icon: 'warning' };
}

/**
 * A kept record's check in one line, as every output writes it (shared/check-record.ts), or null
 * when it has no calibration or SIC result.
 */
export function recordVerdictsText(record: { result: OperationSnapshot['result'] }): string | null {
  const result = record.result;
  if (result === null || result.kind === 'identify') return null;
  return result.kind === 'sic'
    ? checkVerdictsText(checkOfOutcome(result), result)
    : checkVerdictsText(checkOfOutcome(result));
}
