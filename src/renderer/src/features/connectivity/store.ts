/**
 * features/connectivity — whether the active account's service can be reached, in the backend's
 * words only: `connectivity.get` once at start, then every `connectivity.changed` event.
 */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { useApi } from '../../api-injection';
import type { Connectivity } from '../../../../shared/ipc/contract';
import { isUnreachable, type FieldDeskErrorData } from '../../../../shared/errors';

export const useConnectivityStore = defineStore('connectivity', () => {
  const api = useApi();
  // `since: 0` until the backend answers, so its first word is never taken for an older one.
  const current = ref<Connectivity>({ state: 'unknown', accountId: null, since: 0, message: null });
  let unsubscribe: (() => void) | null = null;
  let asked = false;

  /** The backend's word. An older one (a slow answer crossing an event) is dropped. */
  function apply(next: Connectivity): void {
    if (next.since >= current.value.since) current.value = next;
  }

  /**
   * Follows the events first, then asks once: an event between the two is kept. A failed
   * `get` changes nothing: the state stays unknown until the backend says more.
   */
  function start(): void {
    unsubscribe ??= api.connectivity.onChanged(apply);
    if (asked) return;
    asked = true;
    api.connectivity.get().then(apply, () => undefined);
  }

  function stop(): void {
    unsubscribe?.();
    unsubscribe = null;
  }

  const isOffline = computed(() => current.value.state === 'offline');

  /**
   * Whether the app-wide offline banner already says why `error` happened (the service cannot
   * be reached and the backend says so), so the screen need not say it again.
   */
  function explains(error: Pick<FieldDeskErrorData, 'code'> | null): boolean {
    return error !== null && isUnreachable(error) && isOffline.value;
  }

  return { current, isOffline, start, stop, explains };
});
