/**
 * features/instruments — instruments.list, .get, .statuses and .rename: this store, the list and
 * detail screens, the name editor, and the pure logic (logic.ts, notes.ts, rename.ts, icons.ts)
 * and the statuses of a large fleet's rows on screen (row-statuses.ts).
 */
import { defineStore } from 'pinia';
import { computed, reactive, ref, shallowRef, watch } from 'vue';
import { useApi } from '../../api-injection';
import type { InstrumentDetail, InstrumentEntry } from '../../../../shared/ipc/contract';
import { FieldDeskError } from '../../../../shared/errors';
import { asFieldDeskError, errorMessage } from '../../errors';
import {
  dependsOnState,
  EMPTY_FILTER,
  filterEntries,
  isFiltered,
  nextSort,
  sortEntries,
  type ListFilter,
  type SortKey,
  type SortOrder,
} from './logic';
import { rolledBack, withInstrument, withName } from './rename';
import { createRowStatusLoader, type RowStatus } from './row-statuses';
import { useAccountsStore } from '../accounts/store';

export const AUTO_REFRESH_MS = 60_000;
/**
 * A large fleet's list (statuses come per row, refreshed on their own) is read again this seldom:
 * thousands of instruments every minute would be megabytes for a list that rarely changes.
 */
export const LARGE_FLEET_REFRESH_MS = 10 * AUTO_REFRESH_MS;

export interface RenameState {
  saving: boolean;
  /** Why the last attempt failed, in the backend's words. */
  error: string | null;
}

/**
 * The active account's instruments: the list with its time, search and filters, details, and
 * renaming with an optimistic update. A failed refresh keeps the last loaded list on screen.
 */
export const useInstrumentsStore = defineStore('instruments', () => {
  const api = useApi();
  const accounts = useAccountsStore();

  /** As listed: in a fleet over STATUS_EAGER_LIMIT, without statuses (`statusPending`). */
  const entries = shallowRef<InstrumentEntry[]>([]);
  /** Listed items that could not be read at all, in the backend's plain sentences. */
  const skipped = shallowRef<string[]>([]);
  /** Statuses read for a large fleet's rows on screen, while the list is shown. */
  const rowStatuses = shallowRef<ReadonlyMap<string, RowStatus>>(new Map());
  const accountId = ref<string | null>(null);
  const fetchedAt = ref<number | null>(null);
  /** When the last refresh failed (the list shown is then older); null once one succeeds. */
  const refreshFailedAt = ref<number | null>(null);
  const loading = ref(false);
  const error = ref<FieldDeskError | null>(null);
  const filter = reactive<ListFilter>({ ...EMPTY_FILTER });
  const sort = ref<SortOrder>({ key: 'name', direction: 'ascending' });
  const details = ref<Record<string, InstrumentDetail>>({});
  const detailErrors = ref<Record<string, FieldDeskError | null>>({});
  const renames = ref<Record<string, RenameState>>({});

  /** A listed entry with its row status when one was read: still `statusPending` until then. */
  const withRowStatus = (entry: InstrumentEntry): InstrumentEntry => {
    if (!entry.statusPending) return entry;
    const read = rowStatuses.value.get(entry.instrument.serialNumber);
    return read === undefined
      ? entry
      : { instrument: entry.instrument, status: read.status, statusError: read.statusError };
  };
  /**
   * The list as filtered and sorted without the statuses, when neither depends on them: statuses
   * arriving row by row then only fill in rows, rather than sorting thousands again.
   */
  const orderedWithoutState = computed(() =>
    dependsOnState(filter, sort.value) ? null : sortEntries(filterEntries(entries.value, filter), sort.value),
  );
  /** Every entry that matches the search and filters, sorted: the rows of the list. */
  const visibleEntries = computed(() => {
    const ordered = orderedWithoutState.value;
    if (ordered !== null) return rowStatuses.value.size === 0 ? ordered : ordered.map(withRowStatus);
    return sortEntries(filterEntries(entries.value.map(withRowStatus), filter), sort.value);
  });
  const filtered = computed(() => isFiltered(filter));
  /** Whether statuses come row by row (a fleet over STATUS_EAGER_LIMIT). */
  const statusesPerRow = computed(() => entries.value.some((e) => e.statusPending));
  const pendingSerials = computed(
    () => new Set(entries.value.filter((e) => e.statusPending).map((e) => e.instrument.serialNumber)),
  );

  const rowLoader = createRowStatusLoader({
    read: (serials) => api.instruments.statuses({ serials }),
    onChange: (statuses) => (rowStatuses.value = statuses),
    // Nobody looks at a hidden window: its rows are asked again when it shows.
    mayRefresh: () => typeof document === 'undefined' || document.visibilityState === 'visible',
  });

  /** Bumped whenever the account changes so answers for the previous account are dropped. */
  let generation = 0;
  let inFlight: Promise<void> | null = null;

  function clear(): void {
    generation += 1;
    entries.value = [];
    skipped.value = [];
    rowLoader.reset();
    accountId.value = null;
    fetchedAt.value = null;
    refreshFailedAt.value = null;
    error.value = null;
    details.value = {};
    detailErrors.value = {};
    renames.value = {};
    inFlight = null;
    loading.value = false;
  }

  /** Loads the list; concurrent calls share one request. */
  function refresh(): Promise<void> {
    if (inFlight) return inFlight;
    const started = generation;
    loading.value = true;
    inFlight = (async () => {
      try {
        const list = await api.instruments.list();
        if (started !== generation) return;
        entries.value = list.entries;
        skipped.value = list.skipped;
        accountId.value = list.accountId;
        fetchedAt.value = list.fetchedAt;
        // The last known list (the service cannot be reached) shows as a list kept after a failed refresh.
        error.value = list.lastKnown === undefined ? null : FieldDeskError.fromData(list.lastKnown.reason);
        refreshFailedAt.value = list.lastKnown === undefined ? null : Date.now();
      } catch (failure) {
        if (started !== generation) return;
        // Keep what was loaded: in the field, an old list with its time beats an empty screen.
        error.value = asFieldDeskError(failure);
        refreshFailedAt.value = Date.now();
      } finally {
        if (started === generation) {
          loading.value = false;
          inFlight = null;
        }
      }
    })();
    return inFlight;
  }

  async function loadDetail(serial: string): Promise<void> {
    const started = generation;
    try {
      const detail = await api.instruments.get({ serial });
      if (started !== generation) return;
      details.value = { ...details.value, [serial]: detail };
      detailErrors.value = { ...detailErrors.value, [serial]: null };
      entries.value = entries.value.map((e) => {
        if (e.instrument.serialNumber !== serial) return e;
        // A large fleet's row keeps asking for its own status on the list's schedule.
        if (e.statusPending) return { ...e, instrument: detail.instrument };
        return { instrument: detail.instrument, status: detail.status, statusError: detail.statusError };
      });
    } catch (failure) {
      if (started !== generation) return;
      detailErrors.value = { ...detailErrors.value, [serial]: asFieldDeskError(failure) };
    }
  }

  /** What is known about one instrument: its detail if loaded, else its list entry. */
  function entryFor(serial: string): InstrumentEntry | null {
    const listed = entries.value.find((e) => e.instrument.serialNumber === serial);
    return details.value[serial] ?? (listed === undefined ? null : withRowStatus(listed));
  }

  /**
   * While the list is shown, the rows on screen of a large fleet read their statuses and read
   * them again every minute. Returns a stop function that forgets them all (leaving the list).
   */
  function followRowStatuses(): () => void {
    rowLoader.start();
    return () => rowLoader.stop();
  }

  /** The rows on screen now (serials, top to bottom); those without a status ask for it. */
  function showRows(serials: readonly string[]): void {
    const pending = pendingSerials.value;
    rowLoader.show(pending.size === 0 ? [] : serials.filter((serial) => pending.has(serial)));
  }

  /** Reads the list and, in a large fleet, the statuses of the rows on screen again (the Refresh button). */
  async function refreshAll(): Promise<void> {
    await refresh();
    rowLoader.refreshShown();
  }

  /** The instrument's name, or its serial while it has none or is not loaded. */
  function nameOf(serial: string): string {
    return entryFor(serial)?.instrument.name || serial;
  }

  function setDetailName(serial: string, name: string): void {
    const detail = details.value[serial];
    if (detail) {
      details.value = {
        ...details.value,
        [serial]: { ...detail, instrument: { ...detail.instrument, name } },
      };
    }
  }

  /**
   * Renames at once on screen, then asks the service; on failure the old name comes back and
   * the reason is kept in `renames[serial].error`. Returns whether the rename was saved.
   */
  async function rename(serial: string, requestedName: string): Promise<boolean> {
    const name = requestedName.trim();
    const previous = entryFor(serial)?.instrument.name ?? '';
    if (name === previous) {
      renames.value = { ...renames.value, [serial]: { saving: false, error: null } };
      return true;
    }
    const started = generation;
    entries.value = withName(entries.value, serial, name);
    setDetailName(serial, name);
    renames.value = { ...renames.value, [serial]: { saving: true, error: null } };
    try {
      const instrument = await api.instruments.rename({ serial, name });
      if (started !== generation) return true;
      entries.value = withInstrument(entries.value, instrument);
      const detail = details.value[serial];
      if (detail) details.value = { ...details.value, [serial]: { ...detail, instrument } };
      renames.value = { ...renames.value, [serial]: { saving: false, error: null } };
      return true;
    } catch (failure) {
      if (started !== generation) return false;
      entries.value = rolledBack(entries.value, serial, name, previous);
      if (details.value[serial]?.instrument.name === name) setDetailName(serial, previous);
      renames.value = { ...renames.value, [serial]: { saving: false, error: errorMessage(failure) } };
      return false;
    }
  }

  function clearRenameError(serial: string): void {
    const state = renames.value[serial];
    if (state?.error) renames.value = { ...renames.value, [serial]: { ...state, error: null } };
  }

  function sortBy(key: SortKey): void {
    sort.value = nextSort(sort.value, key);
  }

  function resetFilter(): void {
    Object.assign(filter, EMPTY_FILTER);
  }

  /**
   * Refreshes every minute while the window is visible and the computer is online, and at once
   * when the window comes back after the list went stale. Returns a stop function.
   */
  function startAutoRefresh(): () => void {
    const canRefresh = (): boolean =>
      accounts.activeId !== null && document.visibilityState === 'visible' && navigator.onLine;
    const isStale = (): boolean =>
      fetchedAt.value === null ||
      Date.now() - fetchedAt.value >= (statusesPerRow.value ? LARGE_FLEET_REFRESH_MS : AUTO_REFRESH_MS);
    const timer = setInterval(() => {
      if (canRefresh() && isStale()) void refresh();
    }, AUTO_REFRESH_MS);
    const onWake = (): void => {
      if (canRefresh() && isStale()) void refresh();
    };
    document.addEventListener('visibilitychange', onWake);
    window.addEventListener('online', onWake);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onWake);
      window.removeEventListener('online', onWake);
    };
  }

  // A different account means a different fleet: never show one account's list under another.
  watch(
    () => accounts.activeId,
    (id, previousId) => {
      if (id === previousId) return;
      clear();
      if (id !== null) void refresh();
    },
  );

  return {
    /** The instrument's picture as a data URL, fetched by the backend (the renderer reaches no network). */
    image: async (serial: string) => (await api.instruments.image({ serial })).dataUrl,
    entries,
    skipped,
    rowStatuses,
    statusesPerRow,
    accountId,
    fetchedAt,
    refreshFailedAt,
    loading,
    error,
    filter,
    sort,
    details,
    detailErrors,
    renames,
    visibleEntries,
    filtered,
    refresh,
    refreshAll,
    followRowStatuses,
    showRows,
    loadDetail,
    entryFor,
    nameOf,
    rename,
    clearRenameError,
    sortBy,
    resetFilter,
    startAutoRefresh,
    clear,
  };
});
