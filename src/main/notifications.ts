/**
 * Desktop notifications for actions that finish while FieldDesk is in the background: an
 * engineer walks to the monitor with the calibrator and the laptop's window is not in front.
 * The decision is a pure function so it is tested in Node; index.ts shows it with Electron.
 */
import { isFinishedState, type OperationSnapshot } from '../shared/operations';

export interface Notice {
  title: string;
  body: string;
}

function formatDb(value: number | null, signed = false): string {
  if (value === null) return '—';
  const text = value.toFixed(2);
  return signed && value > 0 ? `+${text} dB` : `${text} dB`;
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
    return {
      title: `Calibration ${verdict} — ${serial}`,
      body: `Level ${formatDb(result.level)} (reference ${result.referenceDb.toFixed(1)} dB, deviation ${formatDb(result.deviationDb, true)}, tolerance ±${result.toleranceDb.toFixed(1)} dB).`,
    };
  }
  if (result?.kind === 'sic') {
    return {
      title: `SIC ${result.passed ? 'PASS' : 'FAIL'} — ${serial}`,
      body: `500 Hz ${formatDb(result._500Hz)}, 1 kHz ${formatDb(result._1KHz)}, 8 kHz ${formatDb(result._8KHz)}.`,
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
