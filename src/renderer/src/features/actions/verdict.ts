/**
 * How the outcome of an action reads on screen: a PASS or FAIL that cannot be mistaken (icon,
 * word and colour together), the figures behind it, and the backend's message naming the rule.
 */
import { dbText } from '../../../../shared/format';
import type { OperationSnapshot } from '../../../../shared/operations';
import { isFinishedState } from '../../../../shared/operations';
import type { Tone } from '../../ui/tone';

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
}

// Which precision each figure gets; the writing itself is shared/format's dbText.
const NO_READING = 'No reading';

/** "94.12 dB": measured figures keep the instrument's two decimals. */
export const levelText = (value: number | null): string => dbText(value, { missing: NO_READING });

/** "80.6 dB": SIC tone levels, reported by the instrument to a tenth. */
export const bandText = (value: number | null): string => dbText(value, { decimals: 1, missing: NO_READING });

/** "+0.12 dB", "−0.31 dB", "±0.00 dB": a deviation always says which way. */
export const signedDbText = (value: number | null): string =>
  dbText(value, { signed: true, missing: NO_READING });

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
  } as const;
  if (result.kind === 'calibration') {
    const outside = result.deviationDb === null || Math.abs(result.deviationDb) > result.toleranceDb + 1e-9;
    const statusBad = result.status.trim().toLowerCase() !== 'success';
    return {
      ...base,
      facts: [
        { label: 'Measured level', value: levelText(result.level), flagged: result.level === null },
        {
          label: `Deviation from the ${settingDbText(result.referenceDb)} reference`,
          value: signedDbText(result.deviationDb),
          flagged: outside,
        },
        { label: 'Allowed', value: `±${settingDbText(result.toleranceDb)}` },
        { label: 'Offset', value: signedDbText(result.offset) },
        { label: 'Instrument reported', value: result.status, flagged: statusBad },
      ],
    };
  }
  if (result.kind === 'sic') {
    return {
      ...base,
      facts: [
        { label: '500 Hz', value: bandText(result._500Hz) },
        { label: '1 kHz', value: bandText(result._1KHz) },
        { label: '8 kHz', value: bandText(result._8KHz) },
        { label: 'Instrument reported', value: result.status, flagged: !result.passed },
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

/** The result column of the local action record: what happened, in one or two words. */
export function actionRecordBadge(record: {
  action: OperationSnapshot['action'];
  state: OperationSnapshot['state'];
  result: OperationSnapshot['result'];
}): ResultBadge {
  switch (record.state) {
    case 'succeeded':
      return { label: record.action === 'Identify' ? 'Done' : 'Passed', tone: 'ok', icon: 'check' };
    case 'failed':
      return record.result === null
        ? { label: 'Did not run', tone: 'danger', icon: 'error' }
        : { label: 'Failed', tone: 'danger', icon: 'error' };
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
