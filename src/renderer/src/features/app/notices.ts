/**
 * features/app — app.notices, app.dismissNotice and app.noticesChanged: what the user must know
 * that no single screen owns (a damaged file set aside, results kept in the journal), shown by the shell.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import { useApi } from '../../api-injection';
import type { AppNotice } from '../../../../shared/ipc/contract';
import { errorMessage } from '../../errors';

export const useNoticesStore = defineStore('notices', () => {
  const api = useApi();
  const notices = ref<AppNotice[]>([]);
  const dismissError = ref<string | null>(null);
  let unsubscribe: (() => void) | null = null;
  /** Set once an event came: a slower answer to the first question must not undo it. */
  let heardEvent = false;

  /** Follows the events first, then asks once, so nothing raised in between is missed. */
  function start(): void {
    if (unsubscribe !== null) return;
    unsubscribe = api.app.onNoticesChanged((next) => {
      heardEvent = true;
      notices.value = next;
    });
    api.app.notices().then(
      (listed) => {
        if (!heardEvent) notices.value = listed;
      },
      () => undefined,
    );
  }

  function stop(): void {
    unsubscribe?.();
    unsubscribe = null;
  }

  async function dismiss(id: string): Promise<void> {
    dismissError.value = null;
    try {
      notices.value = await api.app.dismissNotice({ id });
    } catch (error) {
      dismissError.value = errorMessage(error);
    }
  }

  return { notices, dismissError, start, stop, dismiss };
});
