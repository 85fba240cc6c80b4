/**
 * Desktop notifications for actions that finish while FieldDesk is in the background: an
 * engineer walks to the monitor with the calibrator and the laptop's window is not in front.
 * The decision is a pure function so it is tested in Node; index.ts shows it with Electron.
 */
import { failingTones, sicToneText } from '../shared/check-verdicts';
import { dbText } from '../shared/format';
import { isFinishedState, type OperationSnapshot } from '../shared/operations';

export interface Notice {
  title: string;
  body: string;
}

/** What to tell the user about a finished operation, or null when there is nothing to say. */
export function finishedActionNotice(snapshot: OperationSnapshot): Notice | null {
  if (!isFinishedState(snapshot.state) || snapshot.state === 'cancelled') return null;
  const { action, serial, result } = snapshot;
  if (snapshot.state === 'timedOut')
    return { title: `${action} on ${serial}: no result`, body: snapshot.message };
  if (snapshot.state === 'failed' && result === null)
    return { title: `${action} on ${serial} failed`, body: snapshot.message };
  if (result?.kind === 'calibration') {
    const verdict = result.passed ? 'PASS' : 'FAIL';
    // The calibrator on the other level: the message says which, and what to do.
    if (result.probableCalibratorDb !== null)
      return { title: `Calibration ${verdict} — ${serial}`, body: snapshot.message };
    return {
      title: `Calibration ${verdict} — ${serial}`,
      body: `Level ${dbText(result.level)} (reference ${dbText(result.referenceDb, { decimals: 'setting' })}, deviation ${dbText(result.deviationDb, { signed: true })}, tolerance ±${dbText(result.toleranceDb, { decimals: 'setting' })}).`,
    };
  }
  if (result?.kind === 'sic') {
    const failing = failingTones(result.tones);
    if (failing.length > 0)
      return { title: `SIC FAIL — ${serial}`, body: `${failing.map(sicToneText).join('; ')}.` };
    return {
      title: `SIC ${result.passed ? 'PASS' : 'FAIL'} — ${serial}`,
      body: `500 Hz ${dbText(result._500Hz)}, 1 kHz ${dbText(result._1KHz)}, 8 kHz ${dbText(result._8KHz)}.`,
    };
  }
  return { title: `${action} on ${serial}`, body: snapshot.message };
}

/**
 * Calls `show` once per finished operation, only while the window is not focused. Progress
 * events repeat snapshots, so ids already told are remembered.
 */
export function createActionNotifier(isWindowFocused: () => boolean, show: (notice: Notice) => void) {
  const told = new Set<string>();
  return (snapshot: OperationSnapshot): void => {
    if (told.has(snapshot.id) || !isFinishedState(snapshot.state)) return;
    told.add(snapshot.id);
    if (isWindowFocused()) return;
    const notice = finishedActionNotice(snapshot);
    if (notice !== null) show(notice);
  };
}
