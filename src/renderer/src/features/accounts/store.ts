/**
 * features/accounts — accounts.* and accounts.onChanged: this store, the first-run and accounts
 * screens, the account card and form, the key field, labels and checks (logic.ts, scopes.ts).
 */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { useApi } from '../../api-injection';
import type { AccountCheck, AccountsState, AccountSummary, VaultStatus } from '../../../../shared/accounts';
import type { FieldDeskError } from '../../../../shared/errors';
import { asFieldDeskError } from '../../errors';

/**
 * Accounts as the backend knows them. The renderer never holds a stored key: it only passes
 * on the one the user is typing, and reads summaries back.
 */
export const useAccountsStore = defineStore('accounts', () => {
  const api = useApi();
  const accounts = ref<AccountSummary[]>([]);
  const activeId = ref<string | null>(null);
  const vault = ref<VaultStatus>({ storage: 'keychain', reason: null });
  const loaded = ref(false);
  const loadError = ref<FieldDeskError | null>(null);
  let unsubscribe: (() => void) | null = null;

  const activeAccount = computed(() => accounts.value.find((a) => a.id === activeId.value) ?? null);
  const hasAccounts = computed(() => accounts.value.length > 0);

  function apply(state: AccountsState): void {
    accounts.value = state.accounts;
    activeId.value = state.activeId;
    vault.value = state.vault;
    loaded.value = true;
    loadError.value = null;
  }

  function replaceSummary(summary: AccountSummary): void {
    accounts.value = accounts.value.map((a) => (a.id === summary.id ? summary : a));
  }

  async function load(): Promise<void> {
    try {
      apply(await api.accounts.getState());
    } catch (error) {
      loadError.value = asFieldDeskError(error);
    }
  }

  /** Subscribes to changes (once) and loads the current state. */
  async function start(): Promise<void> {
    unsubscribe ??= api.accounts.onChanged(apply);
    await load();
  }

  function stop(): void {
    unsubscribe?.();
    unsubscribe = null;
  }

  async function add(input: { name: string; baseUrl: string; apiKey: string }): Promise<AccountCheck> {
    const check = await api.accounts.add(input);
    await load();
    return check;
  }

  async function tryDemo(): Promise<AccountCheck> {
    const check = await api.accounts.tryDemo();
    await load();
    return check;
  }

  async function check(id: string): Promise<AccountCheck> {
    const result = await api.accounts.check({ id });
    replaceSummary(result.account);
    return result;
  }

  async function rename(id: string, name: string): Promise<AccountSummary> {
    const summary = await api.accounts.rename({ id, name });
    replaceSummary(summary);
    return summary;
  }

  async function replaceKey(id: string, apiKey: string): Promise<AccountCheck> {
    const result = await api.accounts.replaceKey({ id, apiKey });
    replaceSummary(result.account);
    return result;
  }

  async function remove(id: string): Promise<void> {
    apply(await api.accounts.remove({ id }));
  }

  async function activate(id: string): Promise<void> {
    apply(await api.accounts.activate({ id }));
  }

  return {
    accounts,
    activeId,
    vault,
    loaded,
    loadError,
    activeAccount,
    hasAccounts,
    apply,
    load,
    start,
    stop,
    add,
    tryDemo,
    check,
    rename,
    replaceKey,
    remove,
    activate,
  };
});
