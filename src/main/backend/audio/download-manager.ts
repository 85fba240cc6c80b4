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
 * One download's run — its `.part`, resume, size check, and what a failure leaves — is
 * download-run.ts; its crash-safe finishing, download-finish.ts; its snapshot and rate,
 * download-progress.ts; which download runs next, download-queue.ts.
 */
import { randomUUID } from 'node:crypto';
import type { AudioFormat, DownloadPriority, DownloadSnapshot, Recording } from '../../../shared/audio';
import { FieldDeskError } from '../../../shared/errors';
import type { ServiceClientOptions } from '../service/requester';
import type { UnfinishedFiles } from '../core/unfinished-files';
import type { AudioRecords, DownloadChange, DownloadRow } from './audio-records';
import { createDownloadQueue } from './download-queue';
import { snapshotOf, type LiveDownload } from './download-progress';
import type { DamagedRows } from '../core/damaged-rows';
import { sizeIfFile } from './download-finish';
import { createDownloadRunner, removePart, RUN_MESSAGES } from './download-run';
import { libraryKey, type AudioLibrary } from './library';
import { silentLogger, type Logger } from '../core/log';

/** Downloads running at once: two keep a slow link busy without starving the rest of the app. */
export const AUDIO_CONCURRENCY = 2;
/** Progress events while bytes arrive, at most this often per download (ms). */
export const PROGRESS_INTERVAL_MS = 250;

const MESSAGES = {
  cancelled: RUN_MESSAGES.cancelled,
  closing: 'FieldDesk is closing; the download continues at the next start.',
  unknown: 'Unknown download.',
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
  /** Where `.part` files are listed before they are made (see download-run.ts). */
  unfinished: UnfinishedFiles;
  now?: () => number;
  concurrency?: number;
  progressIntervalMs?: number;
  /** Where what is caught and let go is recorded. */
  log?: Logger;
  /** Told of a download's row that cannot be read (it is left out of the list). */
  damaged?: DamagedRows;
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

export function createDownloadManager(options: DownloadManagerOptions): DownloadManager {
  const log = options.log ?? silentLogger;
  const now = options.now ?? Date.now;
  const queue = createDownloadQueue({
    concurrency: options.concurrency ?? AUDIO_CONCURRENCY,
    run: (id) => run(id),
    // run() records its own failures in the download's row; what escapes it is only logged.
    onError: (id, error) => log.warn('audio download stopped unexpectedly', { id, error }),
  });
  const running = new Map<string, LiveDownload>();
  let closing = false;

  /** A download's snapshot, with its live state while it runs. */
  const snapshotFor = (row: DownloadRow): DownloadSnapshot | null =>
    snapshotOf(row, running.get(row.id), options.damaged);

  function emit(id: string): void {
    const row = options.records().download(id);
    const snapshot = row === undefined ? null : snapshotFor(row);
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

  const run = createDownloadRunner({
    records: options.records,
    library: options.library,
    serviceFor: options.serviceFor,
    audioAddon: options.audioAddon,
    unfinished: options.unfinished,
    now,
    progressIntervalMs: options.progressIntervalMs ?? PROGRESS_INTERVAL_MS,
    log,
    running,
    claimed: new Set<string>(),
    closing: () => closing,
    update,
    emit,
  });

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
        .map((row) => (row === undefined ? null : snapshotFor(row)))
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
        .map((row) => snapshotFor(row))
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
          await removePart(options.unfinished, row.part_path);
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
      const snapshot = row === undefined ? null : snapshotFor(row);
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
