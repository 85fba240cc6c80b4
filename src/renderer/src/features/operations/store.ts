/**
 * features/operations — operations.list, .cancel and .onProgress: this store (actions start in
 * actions/store.ts), the progress bars' logic (logic.ts) and the top bar's running-actions link.
 */
import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import { useApi } from '../../api-injection';
import type { ActionName, OperationSnapshot } from '../../../../shared/operations';
import type { FieldDeskError } from '../../../../shared/errors';
import { asFieldDeskError } from '../../errors';
import { activeOperationFor, isActive, latestOperationFor, mergeSnapshot, sortOperations } from './logic';
import { useAccountsStore } from '../accounts/store';

/** Elapsed time is shown to the second; half a second keeps it from skipping one. */
const CLOCK_TICK_MS = 500;

/**
 * Long-running work the backend does for us (field actions today). Loads `operations.list()` at
 * start and follows `operations.onProgress`, so a reloaded window re-attaches to what runs.
 * Keeps a clock ticking while something runs, for the elapsed time on the progress bars.
 */
export const useOperationsStore = defineStore('operations', () => {
  const api = useApi();
  const accounts = useAccountsStore();
  const byId = ref<Record<string, OperationSnapshot>>({});
  const loaded = ref(false);
  const loadError = ref<FieldDeskError | null>(null);
  const now = ref(Date.now());
  let unsubscribe: (() => void) | null = null;
  let clock: ReturnType<typeof setInterval> | null = null;

  const all = computed(() => sortOperations(Object.values(byId.value)));
  /** Running operations of the active account, newest first. */
  const running = computed(() => all.value.filter((s) => isActive(s) && s.accountId === accounts.activeId));

  function apply(snapshot: OperationSnapshot): void {
    const current = byId.value[snapshot.id];
    const next = mergeSnapshot(current, snapshot);
    if (next !== current) byId.value = { ...byId.value, [snapshot.id]: next };
  }

  async function load(): Promise<void> {
    try {
      const list = await api.operations.list();
      for (const snapshot of list) apply(snapshot);
      loaded.value = true;
      loadError.value = null;
    } catch (error) {
      loadError.value = asFieldDeskError(error);
    }
  }

  /** Subscribes (once), then loads: an event between the two is merged, not lost. */
  async function start(): Promise<void> {
    unsubscribe ??= api.operations.onProgress(apply);
    await load();
  }

  function stop(): void {
    unsubscribe?.();
    unsubscribe = null;
  }

  /** Stops watching (the instrument is told nothing); the snapshot says so in plain words. */
  async function cancel(id: string): Promise<OperationSnapshot> {
    const snapshot = await api.operations.cancel({ id });
    apply(snapshot);
    return byId.value[id] ?? snapshot;
  }

  function get(id: string): OperationSnapshot | null {
    return byId.value[id] ?? null;
  }

  function activeFor(serial: string): OperationSnapshot | null {
    return activeOperationFor(all.value, accounts.activeId, serial);
  }

  function latestFor(serial: string, action?: ActionName): OperationSnapshot | null {
    return latestOperationFor(all.value, accounts.activeId, serial, action);
  }

  // The clock runs only while something runs: an idle window does no work.
  watch(
    () => all.value.some(isActive),
    (anyRunning) => {
      if (anyRunning && clock === null) {
        now.value = Date.now();
        clock = setInterval(() => (now.value = Date.now()), CLOCK_TICK_MS);
      } else if (!anyRunning && clock !== null) {
        clearInterval(clock);
        clock = null;
      }
    },
    { immediate: true },
  );

  return {
    byId,
    all,
    running,
    loaded,
    loadError,
    now,
    apply,
    load,
    start,
    stop,
    cancel,
    get,
    activeFor,
    latestFor,
  };
});
