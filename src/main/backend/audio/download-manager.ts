/**
 * Audio downloads as a queue that survives a restart: every download is a row of `audio_downloads`
 * before any request, at most `concurrency` run at once, each streams into a `.part` file beside
 * its final name (service/audio-transfer.ts: resume, retries, size check) and appears under its
 * final name only when whole, at the same moment it enters the library.
 *
 * - Progress is pushed as `audio.progress` at once on every change of state, and while bytes arrive
 *   at most every `progressIntervalMs`, with the rate over the last few seconds and the time left.
 * - Cancel stops the transfer and removes the `.part`: nothing of it is left under any name.
 * - Closing FieldDesk stops the transfers and leaves them `queued` with their `.part`; the next
 *   start continues them (with a range request where the service allows it).
 * - A download that fails keeps its `.part` when it can be continued, so asking again resumes it.
 *
 * Finishing survives being stopped at any moment (a crash, a kill, a power cut). The bytes are
 * synced to the `.part` (audio-transfer.ts); then the final name is chosen and recorded in the row
 * (`final_path`); then the `.part` is renamed to it and the folder synced; then the library entry
 * and the row's `done` are written in one transaction. At the next start:
 * - stopped before the name was recorded: the `.part` holds the declared size, so it is taken as
 *   whole without a request (audio-transfer.ts) and finished;
 * - stopped after it was recorded, before the rename: the same, under the recorded name;
 * - stopped after the rename, before the library entry: the `.part` is gone and the file under the
 *   recorded name has the declared size, so the download is finished from it, nothing fetched.
 * Every `.part` is listed with the unfinished files (core/unfinished-files.ts) before it is made, so
 * one no download uses any more (its row pruned, or lost with a damaged database) is removed then.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AudioFormat, DownloadPriority, DownloadSnapshot, Recording } from '../../../shared/audio';
import { FieldDeskError } from '../../../shared/errors';
import { transferAudio, type TransferState } from '../service/audio-transfer';
import type { ServiceClientOptions } from '../service/requester';
import { diskFailure } from '../core/disk-errors';
import { syncFolder, type UnfinishedFiles } from '../core/unfinished-files';
import {
  parseError,
  parseFormat,
  parseRecording,
  type AudioRecords,
  type DownloadChange,
  type DownloadRow,
} from './audio-records';
import { createDownloadQueue } from './download-queue';
import { freeFileName, libraryFileName, libraryKey, type AudioLibrary } from './library';
import { silentLogger, type Logger } from '../core/log';

/** Downloads running at once: two keep a slow link busy without starving the rest of the app. */
export const AUDIO_CONCURRENCY = 2;
/** Progress events while bytes arrive, at most this often per download (ms). */
export const PROGRESS_INTERVAL_MS = 250;
/** How often the bytes so far are written to the database while a download runs (ms). */
const SAVE_INTERVAL_MS = 2_000;
/** The rate is measured over this last stretch of a download (ms). */
const RATE_WINDOW_MS = 5_000;
/** No rate is said before this much of the download was measured (ms). */
const RATE_MIN_SPAN_MS = 500;

const MESSAGES = {
  cancelled: 'The download was stopped.',
  closing: 'FieldDesk is closing; the download continues at the next start.',
  unknown: 'Unknown download.',
  unreadable: 'This download’s record could not be read, so it cannot run. Download the recording again.',
  notRecorded: (path: string) =>
    `The recording was saved as ${path}, but FieldDesk could not add it to the library. Download it again to add it: it will not be fetched again.`,
  gone: 'This recording no longer exists at the service: it may have been deleted, or be older than the service keeps audio.',
  noAddon: (serial: string) =>
    `${serial} has no Audio add-on in its subscription, so the service keeps no audio of it.`,
} as const;

export interface DownloadManagerOptions {
  /** The audio tables of the database in use (it may be replaced after damage). */
  records: () => AudioRecords;
  library: AudioLibrary;
  /** How to reach the service for the account a download belongs to; throws when it cannot. */
  serviceFor: (accountId: string) => Promise<ServiceClientOptions>;
  /** Whether an instrument has the Audio add-on (null: not known), to explain a recording not found. */
  audioAddon?: (accountId: string, serial: string) => Promise<boolean | null>;
  emit: (snapshot: DownloadSnapshot) => void;
  /** Where `.part` files are listed before they are made (see the top of this file). */
  unfinished: UnfinishedFiles;
  now?: () => number;
  concurrency?: number;
  progressIntervalMs?: number;
  /** Where what is caught and let go is recorded. */
  log?: Logger;
}

export interface DownloadManager {
  /**
   * Queues the recordings (once each); answers their snapshots at once. `urgent`: someone waits
   * on them (an event's Play, one recording asked for), so they go before bulk downloads
   * (download-queue.ts), a waiting one moved forward.
   */
  enqueue(
    accountId: string,
    recordings: readonly Recording[],
    format: AudioFormat,
    priority?: DownloadPriority,
  ): DownloadSnapshot[];
  /** Running and waiting downloads, then the recently finished, newest first. */
  list(): DownloadSnapshot[];
  /** Stops a download (or takes it out of the queue) and removes its temporary file. */
  cancel(id: string): Promise<DownloadSnapshot>;
  /** Starts what the queue holds (at start-up: what the last run of FieldDesk left). */
  start(): void;
  /** Stops every transfer, leaving it queued with its `.part` for the next start. */
  close(): Promise<void>;
}

interface Live {
  abort: AbortController;
  stopping: 'cancelled' | 'closing' | null;
  state: TransferState;
  samples: Array<{ at: number; bytes: number }>;
  lastEmit: number;
  lastSave: number;
  /** The progress event held back by the rate limit, sent when it expires. */
  trailing: ReturnType<typeof setTimeout> | null;
  done: Promise<void>;
}

/** Bytes per second over the samples of the last `RATE_WINDOW_MS`; null until long enough measured. */
export function rateOf(samples: ReadonlyArray<{ at: number; bytes: number }>): number | null {
  const last = samples.at(-1);
  const first = samples.find((s) => last !== undefined && last.at - s.at <= RATE_WINDOW_MS);
  if (last === undefined || first === undefined) return null;
  const span = last.at - first.at;
  return span < RATE_MIN_SPAN_MS ? null : ((last.bytes - first.bytes) * 1000) / span;
}

/** The service path of a recording's audio: the audio list's, or a noise event's. */
function audioPath(recording: Recording): string {
  const id = encodeURIComponent(recording.id);
  return recording.source === 'event' ? `/data/events/audio/${id}` : `/data/audio/${id}`;
}

export function createDownloadManager(options: DownloadManagerOptions): DownloadManager {
  const log = options.log ?? silentLogger;
  const now = options.now ?? Date.now;
  const interval = options.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
  const queue = createDownloadQueue({
    concurrency: options.concurrency ?? AUDIO_CONCURRENCY,
    run: (id) => run(id),
    // run() records its own failures in the download's row; what escapes it is only logged.
    onError: (id, error) => log.warn('audio download stopped unexpectedly', { id, error }),
  });
  const running = new Map<string, Live>();
  /** Paths running downloads have chosen (their `.part`, then their final name) before they exist. */
  const claimed = new Set<string>();
  let closing = false;

  function snapshotOf(row: DownloadRow, live = running.get(row.id)): DownloadSnapshot | null {
    const recording = parseRecording(row.recording_json);
    const format = parseFormat(row.format);
    if (recording === null || format === null) return null;
    const bytes = live?.state.bytes ?? row.bytes;
    const total = live?.state.total ?? row.total;
    const rate = live === undefined ? null : rateOf(live.samples);
    return {
      id: row.id,
      key: row.key,
      recording,
      format,
      state: row.state,
      bytes,
      total,
      rate,
      etaMs:
        rate !== null && rate > 0 && total !== null ? Math.max(0, ((total - bytes) / rate) * 1000) : null,
      resumed: live?.state.resumed ?? row.resumed,
      restarted: live?.state.restarted ?? row.restarted,
      error: parseError(row.error_json),
      updatedAt: row.updated_at,
    };
  }

  function emit(id: string): void {
    const row = options.records().download(id);
    const snapshot = row === undefined ? null : snapshotOf(row);
    if (snapshot === null) return;
    try {
      options.emit(snapshot);
    } catch (error) {
      // A failing receiver must not stop the download.
      log.warn('a download’s progress could not be passed on', { id, error });
    }
  }

  function update(id: string, change: DownloadChange): void {
    options.records().updateDownload(id, { ...change, updated_at: now() });
  }

  /** Removes a `.part` no download needs any more, and takes it off the unfinished list. */
  async function removePart(path: string | null): Promise<void> {
    if (path === null) return;
    try {
      await rm(path, { force: true });
    } catch (error) {
      // It stays on the unfinished list and is removed at the next start.
      void error;
      return;
    }
    await options.unfinished.end(path);
  }

  const stateFields = (state: TransferState): DownloadChange => ({
    bytes: state.bytes,
    total: state.total,
    ranges: state.ranges ? 1 : 0,
    validator: state.validator,
    resumed: state.resumed,
    restarted: state.restarted,
  });

  function onBytes(id: string, live: Live): void {
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
    const folder = options.library.folder();
    await mkdir(folder, { recursive: true });
    const name = freeFileName(folder, libraryFileName(recording, format), { reserved: claimed });
    const partPath = join(folder, `${name}.part`);
    // Claimed until its download ends: another one starting meanwhile picks another name.
    claimed.add(partPath);
    await options.unfinished.begin(partPath, 'file', `the recording “${name}”`);
    update(row.id, { part_path: partPath, final_path: null });
    return partPath;
  }

  /**
   * The name a whole `.part` is given: the one recorded before, while it is free, else the first
   * free one (its own name, or "… (2)"). Claimed at once, so no other download picks it.
   */
  function finalPathFor(row: DownloadRow, partPath: string): string {
    const recorded = row.final_path;
    if (recorded !== null && !claimed.has(recorded) && !existsSync(recorded)) {
      claimed.add(recorded);
      return recorded;
    }
    const folder = dirname(partPath);
    const fileName = freeFileName(folder, basename(partPath, '.part'), {
      except: partPath,
      reserved: claimed,
    });
    const path = join(folder, fileName);
    claimed.add(path);
    return path;
  }

  /** The library entry and the row's `done`, in one transaction. */
  function recordFinished(
    row: DownloadRow,
    recording: Recording,
    format: AudioFormat,
    path: string,
    state: TransferState,
  ): void {
    const at = now();
    const bytes = statSync(path).size;
    // The database in use now (it may have been replaced while the bytes arrived).
    const current = options.records();
    current.finish(
      row.id,
      {
        key: row.key,
        account_id: row.account_id,
        serial: recording.serial,
        recording_json: row.recording_json,
        format,
        path,
        bytes,
        downloaded_at: at,
      },
      {
        ...stateFields(state),
        bytes,
        total: bytes,
        state: 'done',
        part_path: null,
        final_path: null,
        error_json: null,
        updated_at: at,
      },
    );
    current.pruneFinished();
  }

  /**
   * A download FieldDesk stopped after renaming its `.part` and before recording it (see the top of
   * this file): its `.part` is gone and the recorded file holds the declared size. Finished from it
   * (true), without a request; false when that is not the case (then it runs as usual).
   */
  async function finishRenamed(
    row: DownloadRow,
    recording: Recording,
    format: AudioFormat,
  ): Promise<boolean> {
    if (row.final_path === null || row.total === null) return false;
    if (row.part_path !== null && existsSync(row.part_path)) return false;
    if (sizeIfFile(row.final_path) !== row.total) {
      // Not the file it was renamed to (moved, deleted, replaced): fetched again from the start.
      update(row.id, { final_path: null });
      return false;
    }
    recordFinished(row, recording, format, row.final_path, {
      bytes: row.total,
      total: row.total,
      ranges: row.ranges === 1,
      validator: row.validator,
      resumed: row.resumed,
      restarted: row.restarted,
    });
    if (row.part_path !== null) await options.unfinished.end(row.part_path);
    return true;
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
    const addon = await (options.audioAddon?.(accountId, recording.serial) ?? Promise.resolve(null)).catch(
      () => null,
    );
    return new FieldDeskError(
      'notFound',
      addon === false ? MESSAGES.noAddon(recording.serial) : MESSAGES.gone,
      {
        ...failure.toData(),
        retryable: false,
      },
    );
  }

  async function run(id: string): Promise<void> {
    const records = options.records();
    const row = records.download(id);
    if (closing || row === undefined || row.state !== 'queued') return;
    const recording = parseRecording(row.recording_json);
    const format = parseFormat(row.format);
    if (recording === null || format === null) {
      update(id, {
        state: 'failed',
        error_json: JSON.stringify(new FieldDeskError('internal', MESSAGES.unreadable).toData()),
      });
      emit(id);
      return;
    }
    let finish: () => void = () => undefined;
    const live: Live = {
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
    running.set(id, live);
    update(id, { state: 'downloading', error_json: null });
    emit(id);
    let partPath: string | null = row.part_path;
    let finalPath: string | null = null;
    let renamed = false;
    if (partPath !== null) claimed.add(partPath);
    try {
      if (await finishRenamed(row, recording, format)) return;
      const service = await options.serviceFor(row.account_id);
      if (live.abort.signal.aborted) throw live.abort.signal.reason;
      partPath = await partPathFor(row, recording, format);
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
      const current = options.records().download(id) ?? row;
      finalPath = finalPathFor(current, partPath);
      update(id, { ...stateFields(live.state), final_path: finalPath });
      await rename(partPath, finalPath);
      renamed = true;
      await syncFolder(dirname(finalPath));
      recordFinished(row, recording, format, finalPath, live.state);
      await options.unfinished.end(partPath);
    } catch (error) {
      const why = live.stopping;
      try {
        if (renamed) {
          // The file is whole under its recorded name; only its library entry failed (the
          // database). Asking again finishes it from the file (finishRenamed), nothing fetched.
          const failure = new FieldDeskError('internal', MESSAGES.notRecorded(finalPath ?? ''), {
            cause: error,
            retryable: true,
          });
          update(id, { state: 'failed', error_json: JSON.stringify(failure.toData()) });
        } else if (why === 'closing') {
          update(id, { ...stateFields(live.state), state: 'queued' });
        } else if (why === 'cancelled') {
          await removePart(partPath);
          live.state.bytes = 0;
          update(id, {
            ...stateFields(live.state),
            state: 'cancelled',
            part_path: null,
            final_path: null,
            error_json: JSON.stringify(new FieldDeskError('cancelled', MESSAGES.cancelled).toData()),
          });
        } else {
          const folder = partPath === null ? options.library.folder() : dirname(partPath);
          const failure = await explain(error, row.account_id, recording, folder);
          // What can be continued is kept for the next try; anything else is of no use.
          const keep = live.state.ranges && partPath !== null;
          if (!keep) {
            await removePart(partPath);
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
      } catch (recordError) {
        // The database is unusable: the row stays as it was, and is looked at again at the next start.
        void recordError;
      }
    } finally {
      for (const path of [row.part_path, partPath, finalPath]) if (path !== null) claimed.delete(path);
      if (live.trailing !== null) clearTimeout(live.trailing);
      running.delete(id);
      finish();
      emit(id);
    }
  }

  function schedule(id: string, priority: DownloadPriority): void {
    // A download left waiting when the queue is cleared at close stays `queued` for the next start.
    queue.add(id, priority);
  }

  return {
    enqueue(accountId, recordings, format, priority = 'bulk') {
      const records = options.records();
      const at = now();
      const ids: string[] = [];
      const fresh: DownloadRow[] = [];
      const toRun: string[] = [];
      const seen = new Set<string>();
      for (const recording of recordings) {
        const key = libraryKey(recording, format);
        if (seen.has(key)) continue;
        seen.add(key);
        const latest = records.latestForKey(key);
        if (latest !== undefined && (latest.state === 'queued' || latest.state === 'downloading')) {
          ids.push(latest.id);
          // Waiting behind others and now waited on: moved forward (a running one stays as it is).
          if (latest.state === 'queued' && priority === 'urgent') toRun.push(latest.id);
          continue;
        }
        const base: DownloadRow = {
          id: randomUUID(),
          account_id: accountId,
          key,
          recording_json: JSON.stringify(recording),
          format,
          state: 'queued',
          bytes: 0,
          total: null,
          part_path: null,
          final_path: null,
          ranges: 0,
          validator: null,
          resumed: 0,
          restarted: 0,
          error_json: null,
          created_at: at,
          updated_at: at,
        };
        const kept = records.libraryItem(key);
        const keptSize = kept === undefined ? null : sizeIfFile(kept.path);
        if (keptSize !== null) {
          // Already in the library, and on disk: nothing to fetch.
          fresh.push({ ...base, state: 'done', bytes: keptSize, total: keptSize });
          ids.push(base.id);
          continue;
        }
        if (latest !== undefined && (latest.state === 'failed' || latest.state === 'cancelled')) {
          // Asked again: the same row runs again, continuing its `.part` where it can.
          update(latest.id, { state: 'queued', error_json: null, account_id: accountId });
          ids.push(latest.id);
          toRun.push(latest.id);
          continue;
        }
        fresh.push(base);
        ids.push(base.id);
        toRun.push(base.id);
      }
      records.insertDownloads(fresh);
      const snapshots = ids
        .map((id) => records.download(id))
        .map((row) => (row === undefined ? null : snapshotOf(row)))
        .filter((s): s is DownloadSnapshot => s !== null);
      for (const snapshot of snapshots) {
        try {
          options.emit(snapshot);
        } catch (error) {
          // A failing receiver must not stop the queue.
          log.warn('a download’s progress could not be passed on', { id: snapshot.id, error });
        }
      }
      for (const id of toRun) schedule(id, priority);
      return snapshots;
    },

    list() {
      return options
        .records()
        .downloads()
        .map((row) => snapshotOf(row))
        .filter((s): s is DownloadSnapshot => s !== null);
    },

    async cancel(id) {
      const live = running.get(id);
      if (live !== undefined) {
        live.stopping ??= 'cancelled';
        live.abort.abort(new FieldDeskError('cancelled', MESSAGES.cancelled));
        await live.done;
      } else {
        const row = options.records().download(id);
        if (row === undefined) throw new FieldDeskError('invalidInput', MESSAGES.unknown, { field: 'id' });
        if (row.state === 'queued' || row.state === 'failed') {
          await removePart(row.part_path);
          update(id, {
            state: 'cancelled',
            bytes: 0,
            part_path: null,
            final_path: null,
            error_json: JSON.stringify(new FieldDeskError('cancelled', MESSAGES.cancelled).toData()),
          });
          emit(id);
        }
      }
      const row = options.records().download(id);
      const snapshot = row === undefined ? null : snapshotOf(row);
      if (snapshot === null) throw new FieldDeskError('invalidInput', MESSAGES.unknown, { field: 'id' });
      return snapshot;
    },

    start() {
      try {
        const records = options.records();
        records.requeueInterrupted();
        records.pruneFinished();
        for (const row of records.activeDownloads()) schedule(row.id, 'bulk');
      } catch (error) {
        // Without the records there is no queue to continue; downloads say so when asked for.
        log.warn('audio download queue not resumed', { error });
      }
    },

    async close() {
      closing = true;
      queue.clear();
      const all = [...running.values()];
      for (const live of all) {
        live.stopping ??= 'closing';
        live.abort.abort(new FieldDeskError('cancelled', MESSAGES.closing));
      }
      await Promise.all(all.map((live) => live.done));
    },
  };
}

function sizeIfFile(path: string): number | null {
  try {
    const info = statSync(path);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}
