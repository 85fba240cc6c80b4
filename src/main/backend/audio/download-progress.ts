/**
 * What is said of a download's progress: its snapshot (`audio.progress`) from its row and, while it
 * runs, its live transfer state, with the rate over the last few seconds and the time left.
 */
import type { DownloadSnapshot } from '../../../shared/audio';
import type { TransferState } from '../service/audio-transfer';
import { parseError, parseFormat, parseRecording, type DownloadRow } from './audio-records';
import type { DamagedRows } from '../core/damaged-rows';

/** The rate is measured over this last stretch of a download (ms). */
export const RATE_WINDOW_MS = 5_000;
/** No rate is said before this much of the download was measured (ms). */
const RATE_MIN_SPAN_MS = 500;

/** A download while it runs: how to stop it, its transfer state and the pacing of what is said. */
export interface LiveDownload {
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

/** A download as the renderer sees it; null (said to `damaged`) when its row cannot be read. */
export function snapshotOf(
  row: DownloadRow,
  live: LiveDownload | undefined,
  damaged?: DamagedRows,
): DownloadSnapshot | null {
  const from = { table: 'audio_downloads', id: row.id, damaged } as const;
  const recording = parseRecording(row.recording_json, { ...from, column: 'recording_json' });
  const format = parseFormat(row.format, { ...from, column: 'format' });
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
    etaMs: rate !== null && rate > 0 && total !== null ? Math.max(0, ((total - bytes) / rate) * 1000) : null,
    resumed: live?.state.resumed ?? row.resumed,
    restarted: live?.state.restarted ?? row.restarted,
    error: parseError(row.error_json, { ...from, column: 'error_json' }),
    updatedAt: row.updated_at,
  };
}
