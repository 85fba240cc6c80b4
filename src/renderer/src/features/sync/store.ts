/**
 * features/sync — sync.start, .list, .cancel, .resume, .onProgress and the profiles: this store, "Prepare for
 * site visit" (launcher, dialog, result) and its pure logic (logic.ts).
 */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { useApi } from '../../api-injection';
import type { SyncRequest, SyncSnapshot } from '../../../../shared/data';
import { BUILT_IN_PROFILES, type SyncChoices, type SyncProfile } from '../../../../shared/sync-choices';
import type { FieldDeskError } from '../../../../shared/errors';
import { asFieldDeskError } from '../../errors';
import { isSyncActive, mergeSyncSnapshot } from './logic';
import { newestFirst } from '../../ui/table-slice';
import { useAccountsStore } from '../accounts/store';
import { useCacheStore } from '../cache/store';

/**
 * Site syncs ("Prepare for site visit"): started here, followed through `sync.onProgress`, and
 * re-attached after a reload through `sync.list()`. When one finishes, the cache summary is
 * reloaded so the dialog can say what is now available offline.
 */
export const useSyncStore = defineStore('sync', () => {
  const api = useApi();
  const accounts = useAccountsStore();
  const cache = useCacheStore();
  const byId = ref<Record<string, SyncSnapshot>>({});
  const loadError = ref<FieldDeskError | null>(null);
  /** Whether the sync dialog is open: a sync that ends there is seen, and needs no notice elsewhere. */
  const dialogOpen = ref(false);
  /** The built-in profiles until the saved ones are read (and when they cannot be). */
  const profiles = ref<SyncProfile[]>([...BUILT_IN_PROFILES]);
  let unsubscribe: (() => void) | null = null;
  let started: Promise<void> | null = null;

  /** The active account's syncs, newest first. */
  const all = computed(() =>
    newestFirst(Object.values(byId.value), (s) => s.startedAt).filter(
      (s) => s.accountId === accounts.activeId,
    ),
  );
  const active = computed(() => all.value.find(isSyncActive) ?? null);
  /** A sync cut short by a restart, offered for resuming (the newest one). */
  const interrupted = computed(() => all.value.find((s) => s.state === 'interrupted') ?? null);

  function apply(snapshot: SyncSnapshot): void {
    const current = byId.value[snapshot.id];
    const next = mergeSyncSnapshot(current, snapshot);
    if (next === current) return;
    byId.value = { ...byId.value, [snapshot.id]: next };
    // Finished just now: what is offline has changed.
    if (current !== undefined && isSyncActive(current) && !isSyncActive(next)) void cache.load();
  }

  async function load(): Promise<void> {
    try {
      for (const snapshot of await api.sync.list()) apply(snapshot);
      loadError.value = null;
    } catch (failure) {
      loadError.value = asFieldDeskError(failure);
    }
  }

  /** Subscribes once, then loads: an event between the two is merged, not lost. */
  function start(): Promise<void> {
    unsubscribe ??= api.sync.onProgress(apply);
    started ??= load();
    return started;
  }

  function stop(): void {
    unsubscribe?.();
    unsubscribe = null;
    started = null;
  }

  /** Applies the snapshot a request answers with; a refusal is thrown as the backend said it. */
  async function call(work: () => Promise<SyncSnapshot>): Promise<SyncSnapshot> {
    const snapshot = await work();
    apply(snapshot);
    return byId.value[snapshot.id] ?? snapshot;
  }

  /** Starts a sync; progress follows as events. Throws the backend's refusal. */
  async function startSync(request: SyncRequest): Promise<SyncSnapshot> {
    return call(() => api.sync.start(request));
  }

  function cancel(id: string): Promise<SyncSnapshot> {
    return call(() => api.sync.cancel({ id }));
  }

  function resume(id: string): Promise<SyncSnapshot> {
    return call(() => api.sync.resume({ id }));
  }

  async function loadProfiles(): Promise<void> {
    profiles.value = await api.sync.profiles();
  }

  /** Saves a profile of the user's; throws the backend's refusal (a built-in name, too many). */
  async function saveProfile(name: string, choices: SyncChoices): Promise<void> {
    profiles.value = await api.sync.saveProfile({ name, choices });
  }

  async function deleteProfile(name: string): Promise<void> {
    profiles.value = await api.sync.deleteProfile({ name });
  }

  function get(id: string): SyncSnapshot | null {
    return byId.value[id] ?? null;
  }

  return {
    byId,
    all,
    dialogOpen,
    active,
    interrupted,
    loadError,
    profiles,
    loadProfiles,
    saveProfile,
    deleteProfile,
    start,
    stop,
    load,
    startSync,
    cancel,
    resume,
    get,
  };
});
