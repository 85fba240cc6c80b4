/**
 * One audio download from its row to a whole file in the library: its `.part` beside its final name,
 * the transfer (service/audio-transfer.ts: resume, retries, size check), progress paced while bytes
 * arrive, and what a cancel, a close or a failure leaves in its row (download-manager.ts runs these).
 *
 * Finishing a whole `.part` so that a stop at any moment is found at the next start is
 * download-finish.ts. Every `.part` is listed with the unfinished files (core/unfinished-files.ts) before it is made, so
 * one no download uses any more (its row pruned, or lost with a damaged database) is removed then.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AudioFormat, Recording } from '../../../shared/audio';
import { FieldDeskError } from '../../../shared/errors';
import { transferAudio } from '../service/audio-transfer';
import type { ServiceClientOptions } from '../service/requester';
import { diskFailure } from '../core/disk-errors';
import type { Logger } from '../core/log';
import { syncFolder, type UnfinishedFiles } from '../core/unfinished-files';
import { parseFormat, parseRecording, type DownloadRow } from './audio-records';
import { createDownloadFinisher, stateFields, type DownloadFinishContext } from './download-finish';
import { RATE_WINDOW_MS, type LiveDownload } from './download-progress';
import { freeFileName, libraryFileName, type AudioLibrary } from './library';

/** How often the bytes so far are written to the database while a download runs (ms). */
const SAVE_INTERVAL_MS = 2_000;

export const RUN_MESSAGES = {
  cancelled: 'The download was stopped.',
  unreadable: 'This download’s record could not be read, so it cannot run. Download the recording again.',
  notRecorded: (path: string) =>
    `The recording was saved as ${path}, but FieldDesk could not add it to the library. Download it again to add it: it will not be fetched again.`,
  gone: 'This recording no longer exists at the service: it may have been deleted, or be older than the service keeps audio.',
  noAddon: (serial: string) =>
    `${serial} has no Audio add-on in its subscription, so the service keeps no audio of it.`,
} as const;

/** What a download shares with the queue that runs it (download-manager.ts). */
export interface DownloadRunContext extends DownloadFinishContext {
  library: AudioLibrary;
  serviceFor: (accountId: string) => Promise<ServiceClientOptions>;
  audioAddon?: (accountId: string, serial: string) => Promise<boolean | null>;
  /** Progress events while bytes arrive, at most this often (ms). */
  progressIntervalMs: number;
  log: Logger;
  /** The downloads running now, by id. */
  running: Map<string, LiveDownload>;
  /** Whether FieldDesk is closing: no download starts any more. */
  closing: () => boolean;
  /** Tells the renderer a download's state (`audio.progress`). */
  emit: (id: string) => void;
}

/** The service path of a recording's audio: the audio list's, or a noise event's. */
function audioPath(recording: Recording): string {
  const id = encodeURIComponent(recording.id);
  return recording.source === 'event' ? `/data/events/audio/${id}` : `/data/audio/${id}`;
}

/** Removes a `.part` no download needs any more, and takes it off the unfinished list. */
export async function removePart(unfinished: UnfinishedFiles, path: string | null): Promise<void> {
  if (path === null) return;
  try {
    await rm(path, { force: true });
  } catch (error) {
    // It stays on the unfinished list and is removed at the next start.
    void error;
    return;
  }
  await unfinished.end(path);
}

/** The paths one run of a download has used, and whether its file reached its final name. */
interface RunPaths {
  partPath: string | null;
  finalPath: string | null;
  renamed: boolean;
}

/** Returns the function that runs one queued download to its end (done, failed, cancelled or stopped). */
export function createDownloadRunner(context: DownloadRunContext): (id: string) => Promise<void> {
  const { log, running, claimed, update, emit } = context;
  const interval = context.progressIntervalMs;
  const { finalPathFor, recordFinished, finishRenamed } = createDownloadFinisher(context);

  function onBytes(id: string, live: LiveDownload): void {
    // The real clock (not the injected one): rates and pacing are about actual time.
    const at = performance.now();
    if (at - live.lastEmit < interval) {
      // Said a little later, so the count where a transfer pauses is not left untold.
      live.trailing ??= setTimeout(
        () => {
          live.trailing = null;
          if (running.get(id) === live) onBytes(id, live);
        },
        interval - (at - live.lastEmit),
      );
      return;
    }
    live.lastEmit = at;
    live.samples.push({ at, bytes: live.state.bytes });
    while (live.samples.length > 2 && at - live.samples[1]!.at > RATE_WINDOW_MS) live.samples.shift();
    if (at - live.lastSave >= SAVE_INTERVAL_MS) {
      live.lastSave = at;
      try {
        update(id, { bytes: live.state.bytes });
      } catch (error) {
        // The bytes on disk are what counts at the next start; the row catches up at the end.
        log.debug('download progress not recorded', { id, error });
      }
    }
    emit(id);
  }

  /** The temporary file of a download: its own if its folder is still there, else a new one. */
  async function partPathFor(row: DownloadRow, recording: Recording, format: AudioFormat): Promise<string> {
    if (row.part_path !== null && existsSync(dirname(row.part_path))) return row.part_path;
    const folder = context.library.folder();
    await mkdir(folder, { recursive: true });
    const name = freeFileName(folder, libraryFileName(recording, format), { reserved: claimed });
    const partPath = join(folder, `${name}.part`);
    // Claimed until its download ends: another one starting meanwhile picks another name.
    claimed.add(partPath);
    await context.unfinished.begin(partPath, 'file', `the recording “${name}”`);
    update(row.id, { part_path: partPath, final_path: null });
    return partPath;
  }

  /**
   * A failure as the engineer should read it: a recording not found says why, when it can; a
   * folder the disk refused (full, read-only, not allowed) says which and what to do.
   */
  async function explain(
    error: unknown,
    accountId: string,
    recording: Recording,
    folder: string,
  ): Promise<FieldDeskError> {
    const failure =
      error instanceof FieldDeskError
        ? error
        : (diskFailure(error, { folder, what: 'the recording' }) ??
          new FieldDeskError('internal', 'Something went wrong inside FieldDesk. Try again.', {
            cause: error,
          }));
    if (failure.code !== 'notFound') return failure;
    const addon = await (context.audioAddon?.(accountId, recording.serial) ?? Promise.resolve(null)).catch(
      () => null,
    );
    return new FieldDeskError(
      'notFound',
      addon === false ? RUN_MESSAGES.noAddon(recording.serial) : RUN_MESSAGES.gone,
      {
        ...failure.toData(),
        retryable: false,
      },
    );
  }

  /** A download about to run, as it stands in its row; `finish` settles its `done`. */
  function liveFrom(row: DownloadRow): { live: LiveDownload; finish: () => void } {
    let finish: () => void = () => undefined;
    const live: LiveDownload = {
      abort: new AbortController(),
      stopping: null,
      state: {
        bytes: row.bytes,
        total: row.total,
        ranges: row.ranges === 1,
        validator: row.validator,
        resumed: row.resumed,
        restarted: row.restarted,
      },
      samples: [],
      lastEmit: performance.now(),
      lastSave: performance.now(),
      trailing: null,
      done: new Promise<void>((resolve) => (finish = resolve)),
    };
    return { live, finish };
  }

  /**
   * Fetches the recording into its `.part` and finishes it under its final name (see the top of
   * this file), noting in `paths` what it has used as it goes.
   */
  async function fetchAndFinish(
    row: DownloadRow,
    recording: Recording,
    format: AudioFormat,
    live: LiveDownload,
    paths: RunPaths,
  ): Promise<void> {
    const id = row.id;
    if (await finishRenamed(row, recording, format)) return;
    const service = await context.serviceFor(row.account_id);
    if (live.abort.signal.aborted) throw live.abort.signal.reason;
    const partPath = await partPathFor(row, recording, format);
    paths.partPath = partPath;
    await transferAudio({
      path: audioPath(recording),
      query: { format },
      service,
      partPath,
      state: live.state,
      signal: live.abort.signal,
      onBytes: () => onBytes(id, live),
      onLearned: () => {
        try {
          update(id, stateFields(live.state));
        } catch (error) {
          // Kept at the end of the attempt instead.
          log.debug('what the service said of a download not recorded yet', { id, error });
        }
      },
    });
    if (live.abort.signal.aborted) throw live.abort.signal.reason;
    // The bytes are synced (audio-transfer.ts); the name is recorded before the rename, so a
    // FieldDesk stopped in between finds the file at the next start (see the top of this file).
    const current = context.records().download(id) ?? row;
    const finalPath = finalPathFor(current, partPath);
    paths.finalPath = finalPath;
    update(id, { ...stateFields(live.state), final_path: finalPath });
    await rename(partPath, finalPath);
    paths.renamed = true;
    await syncFolder(dirname(finalPath));
    recordFinished(row, recording, format, finalPath, live.state);
    await context.unfinished.end(partPath);
  }

  /** What a run that stopped leaves in its row: queued (closing), cancelled, or failed and why. */
  async function recordStop(
    error: unknown,
    row: DownloadRow,
    recording: Recording,
    live: LiveDownload,
    paths: RunPaths,
  ): Promise<void> {
    const id = row.id;
    const { partPath, finalPath } = paths;
    const why = live.stopping;
    if (paths.renamed) {
      // The file is whole under its recorded name; only its library entry failed (the
      // database). Asking again finishes it from the file (finishRenamed), nothing fetched.
      const failure = new FieldDeskError('internal', RUN_MESSAGES.notRecorded(finalPath ?? ''), {
        cause: error,
        retryable: true,
      });
      update(id, { state: 'failed', error_json: JSON.stringify(failure.toData()) });
    } else if (why === 'closing') {
      update(id, { ...stateFields(live.state), state: 'queued' });
    } else if (why === 'cancelled') {
      await removePart(context.unfinished, partPath);
      live.state.bytes = 0;
      update(id, {
        ...stateFields(live.state),
        state: 'cancelled',
        part_path: null,
        final_path: null,
        error_json: JSON.stringify(new FieldDeskError('cancelled', RUN_MESSAGES.cancelled).toData()),
      });
    } else {
      const folder = partPath === null ? context.library.folder() : dirname(partPath);
      const failure = await explain(error, row.account_id, recording, folder);
      // What can be continued is kept for the next try; anything else is of no use.
      const keep = live.state.ranges && partPath !== null;
      if (!keep) {
        await removePart(context.unfinished, partPath);
        live.state.bytes = 0;
      }
      update(id, {
        ...stateFields(live.state),
        state: 'failed',
        part_path: keep ? partPath : null,
        final_path: null,
        error_json: JSON.stringify(failure.toData()),
      });
    }
  }

  return async function run(id: string): Promise<void> {
    const records = context.records();
    const row = records.download(id);
    if (context.closing() || row === undefined || row.state !== 'queued') return;
    const recording = parseRecording(row.recording_json);
    const format = parseFormat(row.format);
    if (recording === null || format === null) {
      update(id, {
        state: 'failed',
        error_json: JSON.stringify(new FieldDeskError('internal', RUN_MESSAGES.unreadable).toData()),
      });
      emit(id);
      return;
    }
    const { live, finish } = liveFrom(row);
    running.set(id, live);
    update(id, { state: 'downloading', error_json: null });
    emit(id);
    const paths: RunPaths = { partPath: row.part_path, finalPath: null, renamed: false };
    if (paths.partPath !== null) claimed.add(paths.partPath);
    try {
      await fetchAndFinish(row, recording, format, live, paths);
    } catch (error) {
      try {
        await recordStop(error, row, recording, live, paths);
      } catch (recordError) {
        // The database is unusable: the row stays as it was, and is looked at again at the next start.
        void recordError;
      }
    } finally {
      for (const path of [row.part_path, paths.partPath, paths.finalPath])
        if (path !== null) claimed.delete(path);
      if (live.trailing !== null) clearTimeout(live.trailing);
      running.delete(id);
      finish();
      emit(id);
    }
  };
}
