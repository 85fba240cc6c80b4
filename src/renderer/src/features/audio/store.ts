/**
 * features/audio — audio.recordings, .download, .downloads, .cancel, .library, .delete, .folder and
 * .onProgress: this store, the recordings panel, the player and their pure logic (logic.ts).
 * Downloads are followed through `audio.onProgress` and re-attached after a reload through
 * `audio.downloads()`; a finished one reloads the library, which is what plays (offline too).
 */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { useApi } from '../../api-injection';
import type {
  AudioFormat,
  DownloadPriority,
  DownloadSnapshot,
  LibraryItem,
  Recording,
} from '../../../../shared/audio';
import type { FieldDeskError } from '../../../../shared/errors';
import { asFieldDeskError } from '../../errors';
import type { RequestArg } from '../../../../shared/ipc/contract';
import { libraryUrlIn } from './library-url';
import { useShellStore } from '../app/shell';

export const useAudioStore = defineStore('audio', () => {
  const api = useApi();
  const byId = ref<Record<string, DownloadSnapshot>>({});
  const library = ref<LibraryItem[]>([]);
  const folder = ref<string | null>(null);
  /** Why the library could not be read again after a download finished (its file is on disk). */
  const libraryError = ref<FieldDeskError | null>(null);
  let unsubscribe: (() => void) | null = null;
  let started: Promise<void> | null = null;
  /** Downloads finishing together read the library at once: an answer older than the last asked is dropped. */
  let libraryRound = 0;
  const shell = useShellStore();

  const downloads = computed(() => Object.values(byId.value));
  const active = computed(() =>
    downloads.value.filter((d) => d.state === 'queued' || d.state === 'downloading'),
  );

  function apply(snapshot: DownloadSnapshot): void {
    const current = byId.value[snapshot.id];
    if (current !== undefined && current.updatedAt > snapshot.updatedAt) return;
    byId.value = { ...byId.value, [snapshot.id]: snapshot };
    // Finished just now: the file is in the library.
    if (snapshot.state === 'done' && current?.state !== 'done') void loadLibrary();
  }

  /** Keeps the library `read` answers, unless a newer read was asked for meanwhile. */
  async function keepLibrary(read: Promise<LibraryItem[]>): Promise<void> {
    const round = ++libraryRound;
    const items = await read;
    if (round !== libraryRound) return;
    library.value = items;
    libraryError.value = null;
  }

  /** Reads the library again; a failure shows as `libraryError`. */
  async function loadLibrary(): Promise<void> {
    try {
      await keepLibrary(api.audio.library({}));
    } catch (failure) {
      libraryError.value = asFieldDeskError(failure);
    }
  }

  /** Subscribes once, then loads: a progress event between the two is merged, not lost. */
  function start(): Promise<void> {
    unsubscribe ??= api.audio.onProgress(apply);
    started ??= (async () => {
      const [list, , where] = await Promise.all([
        api.audio.downloads(),
        keepLibrary(api.audio.library({})),
        api.audio.folder(),
      ]);
      for (const snapshot of list) apply(snapshot);
      folder.value = where.path;
    })().catch((failure: unknown) => {
      started = null;
      throw failure;
    });
    return started;
  }

  function stop(): void {
    unsubscribe?.();
    unsubscribe = null;
    started = null;
  }

  /**
   * Queues downloads; progress follows as events. Throws the backend's refusal. `urgent` when the
   * user waits on them (a Play, one recording): they go before a "Download all" still running.
   */
  async function download(
    recordings: readonly Recording[],
    format: AudioFormat,
    priority: DownloadPriority = 'bulk',
  ): Promise<void> {
    const answer = await api.audio.download({
      recordings: [...recordings],
      format,
      ...(priority === 'urgent' ? { priority } : {}),
    });
    for (const snapshot of answer) apply(snapshot);
  }

  async function cancel(id: string): Promise<void> {
    apply(await api.audio.cancel({ id }));
  }

  /** Deletes a recording from the library, and its file. */
  async function remove(key: string): Promise<void> {
    await keepLibrary(api.audio.delete({ key }));
  }

  /** Chooses the library's folder with the system's dialog (desktop app only); answers whether it changed. */
  async function chooseFolder(): Promise<boolean> {
    const chosen = await api.audio.chooseFolder();
    if (chosen.changed) folder.value = chosen.path;
    return chosen.changed;
  }

  return {
    recordings: (query: RequestArg<'audio.recordings'>) => api.audio.recordings(query),
    openFolder: () => api.audio.openFolder({}),
    chooseFolder,
    /** Only the desktop app opens folders and folder dialogs. */
    isDesktop: () => shell.isDesktop(),
    /** Where the player reads the library file `key` (library-url.ts). */
    libraryUrl: async (key: string) => libraryUrlIn(await shell.which(), key),
    byId,
    downloads,
    active,
    library,
    libraryError,
    folder,
    start,
    stop,
    loadLibrary,
    download,
    cancel,
    remove,
  };
});
