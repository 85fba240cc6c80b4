/**
 * Desktop notifications for actions that finish and site syncs that end while FieldDesk is in the
 * background: an engineer walks to the monitor with the calibrator, or starts a sync before
 * packing up, and the laptop's window is not in front. The decisions are pure functions so they
 * are tested in Node; index.ts shows them with Electron, and the browser harness records them.
 */
import { failingTones, sicToneText } from '../shared/check-verdicts';
import type { SyncSnapshot } from '../shared/data';
import { dbText } from '../shared/format';
import type { EventChannel } from '../shared/ipc/channels';
import type { UrgentReason } from '../shared/ipc/contract';
import { isFinishedState, type OperationSnapshot } from '../shared/operations';
import { syncEndedNotice, syncOutcome, type Notice } from '../shared/sync-outcome';

export type { Notice };

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

/**
 * Calls `show` once each time a sync ends, only while the window is not focused. A resumed sync
 * that ends again is told again; the repeated snapshots of one end are not.
 */
export function createSyncNotifier(isWindowFocused: () => boolean, show: (notice: Notice) => void) {
  const told = new Set<string>();
  return (snapshot: SyncSnapshot): void => {
    const ended = syncOutcome(snapshot) !== null && snapshot.state !== 'interrupted';
    if (!ended) {
      told.delete(snapshot.id);
      return;
    }
    if (told.has(snapshot.id)) return;
    told.add(snapshot.id);
    if (isWindowFocused()) return;
    const notice = syncEndedNotice(snapshot);
    if (notice !== null) show(notice);
  };
}

/**
 * The backend's events that can end in a notice (finished actions, ended syncs), as one listener
 * for `backend.subscribe`: the app and the harness wire the same rules.
 */
export function createBackgroundNotifier(isWindowFocused: () => boolean, show: (notice: Notice) => void) {
  const action = createActionNotifier(isWindowFocused, show);
  const sync = createSyncNotifier(isWindowFocused, show);
  return (channel: EventChannel, payload: unknown): void => {
    if (channel === 'operations.progress') action(payload as OperationSnapshot);
    else if (channel === 'sync.progress') sync(payload as SyncSnapshot);
    else if (channel === 'instruments.urgent' && !isWindowFocused())
      show(urgentNotice(payload as UrgentReason));
  };
}

/** A new urgent attention reason (the renderer tells each once, when the user opted in). */
export function urgentNotice({ serial, name, reason }: UrgentReason): Notice {
  return { title: `Needs attention today — ${name || serial}`, body: `${serial}: ${reason}.` };
}
