/**
 * features/actions — actions.start, actions.history and actions.lastResults: this store, the actions
 * card, the guided calibration, the PASS/FAIL verdict (verdict.ts), why an action cannot run
 * (logic.ts) and FieldDesk's newest verdicts per instrument, which the list, the card and Needs
 * attention put beside the instrument's own status (shared/check-record.ts).
 */
import { defineStore } from 'pinia';
import { ref, shallowRef, watch } from 'vue';
import { useApi } from '../../api-injection';
import type { FieldDeskLastResults } from '../../../../shared/check-record';
import type { FieldDeskError } from '../../../../shared/errors';
import type { ActionName, ActionRecord, OperationSnapshot } from '../../../../shared/operations';
import { asFieldDeskError } from '../../errors';
import { newestFirst } from '../../ui/table-slice';
import { useAccountsStore } from '../accounts/store';
import { useOperationsStore } from '../operations/store';
import { withFinishedResults } from './logic';

/** Field actions on an instrument of the active account; their progress is an operation's. */
export const useActionsStore = defineStore('actions', () => {
  const api = useApi();
  const operations = useOperationsStore();
  const accounts = useAccountsStore();

  /** FieldDesk's newest kept Calibration and SIC outcome per instrument of the active account. */
  const keptResults = shallowRef<ReadonlyMap<string, FieldDeskLastResults>>(new Map());
  /** Why FieldDesk's verdicts could not be read (the views then say only what the instrument said). */
  const lastResultsError = ref<FieldDeskError | null>(null);

  async function loadLastResults(): Promise<void> {
    const accountId = accounts.activeId;
    try {
      const entries = await api.actions.lastResults();
      if (accountId !== accounts.activeId) return;
      keptResults.value = new Map(entries.map((entry) => [entry.serial, entry]));
      lastResultsError.value = null;
    } catch (error) {
      lastResultsError.value = asFieldDeskError(error);
    }
  }

  watch(
    () => accounts.activeId,
    (id) => {
      keptResults.value = new Map();
      if (id !== null) void loadLastResults();
    },
    { immediate: true },
  );

  /**
   * FieldDesk's newest outcomes on `serial`: the kept ones, or a calibration or SIC that finished in
   * this window since (its verdict shows at once, before the kept list is read again).
   */
  function lastResultsFor(serial: string): FieldDeskLastResults | null {
    return withFinishedResults(
      keptResults.value.get(serial) ?? null,
      serial,
      operations.all,
      accounts.activeId,
    );
  }

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

  return { start, record, lastResultsFor, loadLastResults, lastResultsError };
});
