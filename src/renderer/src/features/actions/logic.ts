/**
 * Which field actions an instrument offers right now, and why not when it does not. The first
 * reason that applies wins, from the most lasting (the key) to the most passing (a run in progress).
 */
import type { AccountSummary } from '../../../../shared/accounts';
import type { FieldDeskLastResults } from '../../../../shared/check-record';
import type { InstrumentEntry } from '../../../../shared/ipc/contract';
import type { ActionName, OperationSnapshot } from '../../../../shared/operations';
import { ACTIONS } from '../../../../shared/service/wire';
import { instrumentKind } from '../instruments/logic';

/** What the buttons say. */
export const ACTION_BUTTON_LABELS: Record<ActionName, string> = {
  Identify: 'Identify',
  Calibration: 'Calibrate',
  SIC: 'Run SIC',
};

/** What the action is called in a sentence ("… is running on this instrument"). */
export const ACTION_NAMES: Record<ActionName, string> = {
  Identify: 'Identify',
  Calibration: 'Calibration',
  SIC: 'System integrity check (SIC)',
};

export const ACTION_REASONS = {
  noAccount: 'Choose an account first.',
  missingScope: 'This key cannot run actions: it lacks instruments:action.',
  appOffline: 'FieldDesk is offline: actions need a connection to the service.',
  loading: 'The instrument is still loading.',
  statusUnknown:
    'The instrument’s status could not be read, so FieldDesk cannot tell whether it is online. Refresh, then try again.',
  instrumentOffline: 'The instrument is offline: actions need it online and connected to the service.',
  notNoise: 'Calibration is for noise instruments only (an acoustic calibrator on the microphone).',
  noSic: 'This instrument has no SIC feature.',
  running: (action: ActionName) =>
    `${ACTION_NAMES[action]} is running on this instrument. Wait for it to finish.`,
  calibrating: 'The instrument is calibrating. Wait for it to finish.',
  sicRunning: 'The instrument is running its system integrity check. Wait for it to finish.',
} as const;

export interface ActionContext {
  account: AccountSummary | null;
  appOffline: boolean;
  entry: InstrumentEntry | null;
  /** The operation running on this instrument from FieldDesk, if any. */
  running: OperationSnapshot | null;
}

/** `null`: the action can start. Otherwise the reason it cannot, in plain words. */
export function actionBlockedReason(action: ActionName, context: ActionContext): string | null {
  const { account, entry } = context;
  if (account === null) return ACTION_REASONS.noAccount;
  if (account.missingScopes.includes('instruments:action')) return ACTION_REASONS.missingScope;
  if (context.appOffline) return ACTION_REASONS.appOffline;
  if (entry === null) return ACTION_REASONS.loading;
  if (action === 'Calibration' && instrumentKind(entry.instrument.type) !== 'Noise')
    return ACTION_REASONS.notNoise;
  if (action === 'SIC' && !entry.instrument.feature.includes('SIC')) return ACTION_REASONS.noSic;
  const status = entry.status;
  if (status === null) return ACTION_REASONS.statusUnknown;
  if (!status.online) return ACTION_REASONS.instrumentOffline;
  if (context.running !== null) return ACTION_REASONS.running(context.running.action);
  if (status.calibrationInProgress) return ACTION_REASONS.calibrating;
  if (status.sicInProgress) return ACTION_REASONS.sicRunning;
  return null;
}

export interface ActionsAvailability {
  reasons: Record<ActionName, string | null>;
  /** When every action is blocked for the same reason, it is said once instead of three times. */
  sharedReason: string | null;
}

export function actionsAvailability(context: ActionContext): ActionsAvailability {
  const reasons = Object.fromEntries(
    ACTIONS.map((action) => [action, actionBlockedReason(action, context)]),
  ) as Record<ActionName, string | null>;
  const distinct = new Set(Object.values(reasons));
  const only = distinct.size === 1 ? [...distinct][0] : null;
  return { reasons, sharedReason: only ?? null };
}

/**
 * FieldDesk's newest Calibration and SIC outcome on `serial`: the kept ones, replaced by a newer
 * result of an operation of the active account that finished in this window (by the check's time).
 */
export function withFinishedResults(
  kept: FieldDeskLastResults | null,
  serial: string,
  snapshots: readonly OperationSnapshot[],
  accountId: string | null,
): FieldDeskLastResults | null {
  let merged = kept;
  for (const snapshot of snapshots) {
    const result = snapshot.result;
    if (snapshot.serial !== serial || snapshot.accountId !== accountId) continue;
    if (result === null || result.kind === 'identify') continue;
    const base = merged ?? { serial, calibration: null, sic: null };
    const known = base[result.kind];
    if (known !== null && known.time >= result.time) continue;
    merged = result.kind === 'calibration' ? { ...base, calibration: result } : { ...base, sic: result };
  }
  return merged;
}
