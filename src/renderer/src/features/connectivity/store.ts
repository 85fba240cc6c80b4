/** Whether the active account's service can be reached, as the backend reports it. */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { api } from '../../api';
import type { Connectivity } from '../../../../shared/ipc/contract';
import type { FieldDeskError } from '../../../../shared/errors';

export const useConnectivityStore = defineStore('connectivity', () => {
  const current = ref<Connectivity>({ state: 'unknown', accountId: null, since: Date.now(), message: null });
  let unsubscribe: (() => void) | null = null;

  function start(): void {
    unsubscribe ??= api.connectivity.onChanged((next) => {
      current.value = next;
    });
  }

  function stop(): void {
    unsubscribe?.();
    unsubscribe = null;
  }

  /**
   * A request failed as offline. The backend normally says so with an event (naming the
   * account); when no event came, the backend itself may be unreachable (browser harness
   * stopped), so the state names no account and the request's message says why.
   */
  function noteOffline(error: FieldDeskError): void {
    if (current.value.state === 'offline') return;
    current.value = { state: 'offline', accountId: null, since: Date.now(), message: error.message };
  }

  /** A request just succeeded: we are evidently online. */
  function noteOnline(accountId: string | null): void {
    if (current.value.state === 'online' && current.value.accountId === accountId) return;
    current.value = { state: 'online', accountId, since: Date.now(), message: null };
  }

  const isOffline = computed(() => current.value.state === 'offline');

  return { current, isOffline, start, stop, noteOffline, noteOnline };
});
