import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DownloadSnapshot, LibraryItem, Recording } from '../../../src/shared/audio';
import { FieldDeskError } from '../../../src/shared/errors';
import { recordingStatus } from '../../../src/renderer/src/features/audio/logic';
import { createFakeBackend, expectCalledWith, fakePinia } from './fake-api';
import { deferred } from './fixtures';
import { useAudioStore } from '../../../src/renderer/src/features/audio/store';

/** The fake backend the stores talk to instead of `window.fielddesk`, typed from the contract. */
const backend = createFakeBackend();
const fake = backend.api;

const T0 = Date.UTC(2026, 10, 23, 14, 2, 0);

function recording(id: string): Recording {
  return {
    id,
    source: 'recording',
    serial: 'QT1',
    start: T0,
    end: T0 + 35_000,
    triggerStart: null,
    triggerEnd: null,
    triggerName: 'Level over 65 dB(A)',
  };
}

/** A FLAC download of recording `id`, a quarter in. */
function download(id: string, change: Partial<DownloadSnapshot> = {}): DownloadSnapshot {
  return {
    id: `d-${id}`,
    key: `k-${id}`,
    recording: recording(id),
    format: 'FLAC',
    state: 'downloading',
    bytes: 3_000_000,
    total: 12_000_000,
    rate: 2_000_000,
    etaMs: 4_500,
    resumed: 0,
    restarted: 0,
    error: null,
    updatedAt: 1,
    ...change,
  };
}

function item(id: string): LibraryItem {
  return {
    key: `k-${id}`,
    recording: recording(id),
    format: 'FLAC',
    fileName: `QT1 ${id}.flac`,
    path: `/audio/QT1 ${id}.flac`,
    bytes: 12_000_000,
    downloadedAt: T0,
  };
}

/** Answers a start with these downloads and library, and the folder /audio. */
function stubStart(downloads: DownloadSnapshot[] = [], library: LibraryItem[] = []): void {
  fake.audio.downloads.mockResolvedValueOnce(downloads);
  fake.audio.library.mockResolvedValueOnce(library);
  fake.audio.folder.mockResolvedValueOnce({ path: '/audio' });
}

const statusOf = (store: ReturnType<typeof useAudioStore>, id: string) =>
  recordingStatus(recording(id), 'FLAC', store.downloads, store.library).kind;

beforeEach(() => {
  fakePinia(backend);
  backend.reset();
});

describe('audio store', () => {
  it('re-attaches to a running download at start, and an event during the first read is not lost', async () => {
    const listed = deferred<DownloadSnapshot[]>();
    fake.audio.downloads.mockReturnValueOnce(listed.promise);
    fake.audio.library.mockResolvedValueOnce([item('old')]);
    fake.audio.folder.mockResolvedValueOnce({ path: '/audio' });
    const store = useAudioStore();
    const started = store.start();
    backend.emit('audio.progress', download('a', { bytes: 9_000_000, updatedAt: 5 }));
    listed.resolve([download('a', { bytes: 3_000_000, updatedAt: 2 })]);
    await started;

    expect(store.byId['d-a']?.bytes).toBe(9_000_000);
    expect(store.active.map((d) => d.id)).toEqual(['d-a']);
    expect(store.library.map((i) => i.key)).toEqual(['k-old']);
    expect(store.folder).toBe('/audio');
    expect(statusOf(store, 'a')).toBe('download');
  });

  it('ignores a progress event older than what it shows', async () => {
    stubStart([download('a', { bytes: 6_000_000, updatedAt: 4 })]);
    const store = useAudioStore();
    await store.start();
    backend.emit('audio.progress', download('a', { bytes: 1_000_000, updatedAt: 3 }));
    expect(store.byId['d-a']?.bytes).toBe(6_000_000);
  });

  it('reads the library once when a download finishes, and the recording then plays from it', async () => {
    stubStart([download('a')]);
    const store = useAudioStore();
    await store.start();
    const library = deferred<LibraryItem[]>();
    fake.audio.library.mockReturnValueOnce(library.promise);
    backend.emit('audio.progress', download('a', { state: 'done', bytes: 12_000_000, updatedAt: 2 }));
    // Finished, but not yet read into the library.
    expect(store.active).toEqual([]);
    expect(fake.audio.library).toHaveBeenCalledTimes(2);
    // A repeated "done" does not read it again.
    backend.emit('audio.progress', download('a', { state: 'done', bytes: 12_000_000, updatedAt: 3 }));
    expect(fake.audio.library).toHaveBeenCalledTimes(2);

    library.resolve([item('a')]);
    await vi.waitFor(() => expect(statusOf(store, 'a')).toBe('library'));
  });

  it('keeps the library read asked for last when downloads finishing together are answered out of order', async () => {
    stubStart([download('a'), download('b')]);
    const store = useAudioStore();
    await store.start();
    const afterFirst = deferred<LibraryItem[]>();
    const afterSecond = deferred<LibraryItem[]>();
    fake.audio.library.mockReturnValueOnce(afterFirst.promise).mockReturnValueOnce(afterSecond.promise);
    backend.emit('audio.progress', download('a', { state: 'done', updatedAt: 2 }));
    backend.emit('audio.progress', download('b', { state: 'done', updatedAt: 2 }));

    afterSecond.resolve([item('a'), item('b')]);
    await vi.waitFor(() => expect(store.library).toHaveLength(2));
    afterFirst.resolve([item('a')]);
    await afterFirst.promise;
    await Promise.resolve();
    expect(store.library.map((i) => i.key)).toEqual(['k-a', 'k-b']);
    expect(statusOf(store, 'b')).toBe('library');
  });

  it('says so when the library cannot be read after a download, and reading it again clears that', async () => {
    stubStart([download('a')]);
    const store = useAudioStore();
    await store.start();
    fake.audio.library.mockRejectedValueOnce(
      new FieldDeskError('internal', 'The library index could not be read.'),
    );
    backend.emit('audio.progress', download('a', { state: 'done', updatedAt: 2 }));
    await vi.waitFor(() => expect(store.libraryError?.message).toBe('The library index could not be read.'));

    fake.audio.library.mockResolvedValueOnce([item('a')]);
    await store.loadLibrary();
    expect(store.libraryError).toBeNull();
    expect(statusOf(store, 'a')).toBe('library');
  });

  it('starts once for every panel that asks, follows nothing after stop, and starts again after a failed start', async () => {
    stubStart();
    const store = useAudioStore();
    await Promise.all([store.start(), store.start()]);
    expect(fake.audio.downloads).toHaveBeenCalledTimes(1);
    expect(backend.listenerCount('audio.progress')).toBe(1);
    store.stop();
    expect(backend.listenerCount('audio.progress')).toBe(0);

    fake.audio.downloads.mockRejectedValueOnce(
      new FieldDeskError('internal', 'Downloads could not be listed.'),
    );
    fake.audio.library.mockResolvedValueOnce([]);
    fake.audio.folder.mockResolvedValueOnce({ path: '/audio' });
    await expect(store.start()).rejects.toMatchObject({ message: 'Downloads could not be listed.' });
    stubStart([download('a')]);
    await store.start();
    expect(store.active.map((d) => d.id)).toEqual(['d-a']);
  });

  it('shows what download and cancel answer, and what is left in the library after a delete', async () => {
    stubStart([], [item('a'), item('b')]);
    const store = useAudioStore();
    await store.start();
    fake.audio.download.mockResolvedValueOnce([download('c', { state: 'queued', bytes: 0, total: null })]);
    await store.download([recording('c')], 'FLAC');
    expectCalledWith(fake.audio.download, { recordings: [recording('c')], format: 'FLAC' });
    expect(statusOf(store, 'c')).toBe('download');
    expect(store.active.map((d) => d.id)).toEqual(['d-c']);

    fake.audio.cancel.mockResolvedValueOnce(download('c', { state: 'cancelled', updatedAt: 2 }));
    await store.cancel('d-c');
    expect(store.active).toEqual([]);

    fake.audio.delete.mockResolvedValueOnce([item('b')]);
    await store.remove('k-a');
    expectCalledWith(fake.audio.delete, { key: 'k-a' });
    expect(statusOf(store, 'a')).toBe('none');
    expect(statusOf(store, 'b')).toBe('library');
  });

  it('passes a refused download on (offline) and shows nothing on its way', async () => {
    stubStart();
    const store = useAudioStore();
    await store.start();
    fake.audio.download.mockRejectedValueOnce(new FieldDeskError('offline', 'Cannot reach the service.'));
    await expect(store.download([recording('a')], 'FLAC')).rejects.toMatchObject({ code: 'offline' });
    expect(store.downloads).toEqual([]);
    expect(statusOf(store, 'a')).toBe('none');
  });
});
