/**
 * features/cache — cache.summary and cache.clear: this store, the offline data screen, and what
 * each instrument has offline in words (logic.ts).
 */
import { defineStore } from 'pinia';
import { ref, shallowRef, watch } from 'vue';
import { useApi } from '../../api-injection';
import type { CacheSummary, CachedInstrumentSummary } from '../../../../shared/data';
import type { FieldDeskError } from '../../../../shared/errors';
import { asFieldDeskError } from '../../errors';
import { useAccountsStore } from '../accounts/store';

/** What is kept offline (`cache.summary`) and clearing it, per instrument or all at once. */
export const useCacheStore = defineStore('cache', () => {
  const api = useApi();
  const accounts = useAccountsStore();
  const summary = shallowRef<CacheSummary | null>(null);
  const loading = ref(false);
  const error = ref<FieldDeskError | null>(null);
  /** The serial being cleared, `'all'`, or null. */
  const clearing = ref<string | null>(null);
  /**
   * Reads and clears both answer with the summary, and may overlap (a sync ends while the user
   * clears): the answer to the one asked last is kept, so a summary read before a clear never
   * shows cleared data again.
   */
  let round = 0;

  async function load(): Promise<void> {
    const mine = ++round;
    loading.value = true;
    try {
      const answer = await api.cache.summary();
      if (mine !== round) return;
      summary.value = answer;
      error.value = null;
    } catch (failure) {
      if (mine === round) error.value = asFieldDeskError(failure);
    } finally {
      if (mine === round) loading.value = false;
    }
  }

  /** Clears one instrument's cached data, or everything when `serial` is absent. Throws on failure. */
  async function clear(serial?: string): Promise<void> {
    const mine = ++round;
    clearing.value = serial ?? 'all';
    // A read this clear overtook is not waited for.
    loading.value = false;
    try {
      const answer = await api.cache.clear(serial === undefined ? {} : { serial });
      if (mine !== round) return;
      summary.value = answer;
      error.value = null;
    } finally {
      clearing.value = null;
    }
  }

  /** The active account's cached instruments (the cache may hold other accounts' too). */
  function instrumentsOfActiveAccount(): CachedInstrumentSummary[] {
    return (summary.value?.instruments ?? []).filter((i) => i.accountId === accounts.activeId);
  }

  function forSerial(serial: string): CachedInstrumentSummary | null {
    return instrumentsOfActiveAccount().find((i) => i.serial === serial) ?? null;
  }

  watch(
    () => accounts.activeId,
    (id, previous) => {
      if (id !== previous && summary.value !== null) void load();
    },
  );

  return { summary, loading, error, clearing, load, clear, instrumentsOfActiveAccount, forSerial };
});
