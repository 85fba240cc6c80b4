/**
 * features/actions — actions.start and actions.history: this store, the actions card, the guided
 * calibration, the PASS/FAIL verdict (verdict.ts) and why an action cannot run (logic.ts).
 */
import { defineStore } from 'pinia';
import { api } from '../../api';
import type { ActionName, ActionRecord, OperationSnapshot } from '../../../../shared/operations';
import { newestFirst } from '../../ui/table-slice';
import { useOperationsStore } from '../operations/store';

/** Field actions on an instrument of the active account; their progress is an operation's. */
export const useActionsStore = defineStore('actions', () => {
  const operations = useOperationsStore();

  /**
   * Starts an action; the snapshot comes back at once and progress follows as operation events.
   * Throws the backend's error when it refuses to start (another action running, no account, offline…).
   * `calibratorId`: Calibration only, the register's calibrator fitted (none: not named).
   */
  async function start(
    serial: string,
    action: ActionName,
    calibratorId?: string,
  ): Promise<OperationSnapshot> {
    const snapshot = await api.actions.start({
      serial,
      action,
      ...(calibratorId === undefined ? {} : { calibratorId }),
    });
    operations.apply(snapshot);
    return operations.get(snapshot.id) ?? snapshot;
  }

  /** The local record of actions run from FieldDesk on an instrument, newest first. */
  async function record(serial: string): Promise<ActionRecord[]> {
    return newestFirst(await api.actions.history({ serial }), (r) => r.finishedAt);
  }

  return { start, record };
});
