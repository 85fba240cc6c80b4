/**
 * Finishing a download whose `.part` is whole, in an order that survives being stopped at any moment
 * (a crash, a kill, a power cut). The bytes are synced to the `.part` (audio-transfer.ts); then the
 * final name is chosen and recorded in the row (`final_path`); then the `.part` is renamed to it and
 * the folder synced (download-run.ts); then the library entry and the row's `done` are written in one
 * transaction. At the next start:
 * - stopped before the name was recorded: the `.part` holds the declared size, so it is taken as
 *   whole without a request (audio-transfer.ts) and finished;
 * - stopped after it was recorded, before the rename: the same, under the recorded name;
 * - stopped after the rename, before the library entry: the `.part` is gone and the file under the
 *   recorded name has the declared size, so the download is finished from it, nothing fetched.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { AudioFormat, Recording } from '../../../shared/audio';
import type { TransferState } from '../service/audio-transfer';
import type { UnfinishedFiles } from '../core/unfinished-files';
import type { AudioRecords, DownloadChange, DownloadRow } from './audio-records';
import { freeFileName } from './library';

/** What finishing a download needs of the queue that runs it. */
export interface DownloadFinishContext {
  /** The audio tables of the database in use (it may be replaced after damage). */
  records: () => AudioRecords;
  unfinished: UnfinishedFiles;
  now: () => number;
  /** Paths running downloads have chosen (their `.part`, then their final name) before they exist. */
  claimed: Set<string>;
  /** Writes a change to a download's row, stamped with the time. */
  update: (id: string, change: DownloadChange) => void;
}

export interface DownloadFinisher {
  /**
   * The name a whole `.part` is given: the one recorded before, while it is free, else the first
   * free one (its own name, or "… (2)"). Claimed at once, so no other download picks it.
   */
  finalPathFor(row: DownloadRow, partPath: string): string;
  /** The library entry and the row's `done`, in one transaction. */
  recordFinished(
    row: DownloadRow,
    recording: Recording,
    format: AudioFormat,
    path: string,
    state: TransferState,
  ): void;
  /**
   * A download FieldDesk stopped after renaming its `.part` and before recording it: its `.part` is
   * gone and the recorded file holds the declared size. Finished from it (true), without a request;
   * false when that is not the case (then it runs as usual).
   */
  finishRenamed(row: DownloadRow, recording: Recording, format: AudioFormat): Promise<boolean>;
}

export function sizeIfFile(path: string): number | null {
  try {
    const info = statSync(path);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}

/** A transfer's state as the columns of its row. */
export const stateFields = (state: TransferState): DownloadChange => ({
  bytes: state.bytes,
  total: state.total,
  ranges: state.ranges ? 1 : 0,
  validator: state.validator,
  resumed: state.resumed,
  restarted: state.restarted,
});

export function createDownloadFinisher(context: DownloadFinishContext): DownloadFinisher {
  const { claimed, update } = context;

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

  function recordFinished(
    row: DownloadRow,
    recording: Recording,
    format: AudioFormat,
    path: string,
    state: TransferState,
  ): void {
    const at = context.now();
    const bytes = statSync(path).size;
    // The database in use now (it may have been replaced while the bytes arrived).
    const current = context.records();
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
    if (row.part_path !== null) await context.unfinished.end(row.part_path);
    return true;
  }

  return { finalPathFor, recordFinished, finishRenamed };
}
