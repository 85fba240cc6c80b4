/**
 * features/webhooks — webhooks.*: the active account's webhooks, adding (its secret kept here only
 * until the user closes it), deleting, revealing a secret on request, and the demo service's test
 * deliveries, followed until each is delivered or has failed.
 */
import { defineStore } from 'pinia';
import { ref, shallowRef, watch } from 'vue';
import { useApi } from '../../api-injection';
import type { RequestArg } from '../../../../shared/ipc/contract';
import type { FieldDeskError } from '../../../../shared/errors';
import type { CreatedWebhook, WebhookDelivery, WebhookList } from '../../../../shared/webhooks';
import { asFieldDeskError } from '../../errors';
import { useAccountsStore } from '../accounts/store';
import { mergeDeliveries } from './logic';

/** How often a pending test delivery is read again (the demo retries for up to a minute). */
export const DELIVERY_POLL_MS = 1_000;

export const useWebhooksStore = defineStore('webhooks', () => {
  const api = useApi();
  const accounts = useAccountsStore();
  const list = shallowRef<WebhookList | null>(null);
  const loading = ref(false);
  const error = ref<FieldDeskError | null>(null);
  /** When the last read of the list failed (the list shown is then older); null once one succeeds. */
  const failedAt = ref<number | null>(null);
  /** The webhook just added with its secret, shown once; null once the user has closed it. */
  const created = shallowRef<CreatedWebhook | null>(null);
  /** Secrets the user asked to see, by webhook id; forgotten when hidden or the page is left. */
  const revealed = shallowRef<ReadonlyMap<string, string>>(new Map());
  /** Deliveries read per webhook id (demo service only), newest first. */
  const deliveries = shallowRef<ReadonlyMap<string, WebhookDelivery[]>>(new Map());
  const polling = new Map<string, ReturnType<typeof setTimeout>>();

  async function load(): Promise<void> {
    loading.value = true;
    try {
      list.value = await api.webhooks.list();
      error.value = null;
      failedAt.value = null;
    } catch (failure) {
      error.value = asFieldDeskError(failure);
      failedAt.value = Date.now();
    } finally {
      loading.value = false;
    }
  }

  /** Adds a webhook and keeps its secret to show once. Throws the backend's error (shown by the form). */
  async function create(form: RequestArg<'webhooks.create'>): Promise<CreatedWebhook> {
    const answer = await api.webhooks.create(form);
    created.value = answer;
    await load();
    return answer;
  }

  function closeCreated(): void {
    created.value = null;
  }

  /** Deletes a webhook; throws on failure (the confirmation says why). */
  async function remove(id: string): Promise<void> {
    await api.webhooks.delete({ id });
    hide(id);
    stopPolling(id);
    if (created.value?.webhook.id === id) created.value = null;
    const next = new Map(deliveries.value);
    next.delete(id);
    deliveries.value = next;
    await load();
  }

  async function reveal(id: string): Promise<void> {
    const { secret } = await api.webhooks.revealSecret({ id });
    revealed.value = new Map(revealed.value).set(id, secret);
  }

  function hide(id: string): void {
    if (!revealed.value.has(id)) return;
    const next = new Map(revealed.value);
    next.delete(id);
    revealed.value = next;
  }

  function keepDeliveries(id: string, fresh: readonly WebhookDelivery[]): void {
    const merged = mergeDeliveries(deliveries.value.get(id) ?? [], fresh);
    deliveries.value = new Map(deliveries.value).set(id, merged);
  }

  function stopPolling(id: string): void {
    clearTimeout(polling.get(id));
    polling.delete(id);
  }

  /** Reads the deliveries again while any is pending. */
  function follow(id: string): void {
    stopPolling(id);
    polling.set(
      id,
      setTimeout(() => {
        void loadDeliveries(id).then(
          () => {
            if ((deliveries.value.get(id) ?? []).some((d) => d.state === 'pending')) follow(id);
            else polling.delete(id);
          },
          // A failed read stops following; the button is there to try again.
          () => polling.delete(id),
        );
      }, DELIVERY_POLL_MS),
    );
  }

  async function loadDeliveries(id: string): Promise<void> {
    keepDeliveries(id, await api.webhooks.deliveries({ id }));
  }

  /** Sends a test message and follows its attempts until it is delivered or has failed. */
  async function sendTest(id: string): Promise<void> {
    keepDeliveries(id, [await api.webhooks.sendTest({ id })]);
    follow(id);
  }

  /** Forgets secrets and stops following deliveries (the page is left). */
  function stop(): void {
    revealed.value = new Map();
    created.value = null;
    for (const id of [...polling.keys()]) stopPolling(id);
  }

  watch(
    () => accounts.activeId,
    (id, previous) => {
      if (id === previous) return;
      stop();
      deliveries.value = new Map();
      // Another account's webhooks: read them if this account's were shown.
      if (list.value !== null) {
        list.value = null;
        void load();
      }
    },
  );

  return {
    list,
    failedAt,
    loading,
    error,
    created,
    revealed,
    deliveries,
    load,
    create,
    closeCreated,
    remove,
    reveal,
    hide,
    loadDeliveries,
    sendTest,
    stop,
  };
});
