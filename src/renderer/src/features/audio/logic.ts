/**
 * Recordings and downloads in words (pure, tested directly): a recording's length and trigger, a
 * download's progress ("3.4 MB of 12 MB · 2.1 MB/s · about 5 s left"), the state of a recording
 * among downloads and the library, and the position of a player on the site's clock.
 */
import {
  ASSUMED_AUDIO_BYTES_PER_SECOND,
  type AudioFormat,
  type DownloadSnapshot,
  type LibraryItem,
  type Recording,
} from '../../../../shared/audio';
import { bytesText } from '../../../../shared/format';
import { formatIn, type DisplayZone } from '../../ui/time';

/** "42 s", "3 min 5 s", "1 h 2 min 5 s": a recording's or a clip's length. */
export function lengthText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes < 60) return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min${rest === 0 ? '' : ` ${rest} s`}`;
}

/** "14:02:10 – 14:02:25 (15 s)": when the trigger fired within a recording; null without one. */
export function triggerSpanText(recording: Recording, zone: DisplayZone): string | null {
  const { triggerStart, triggerEnd } = recording;
  if (triggerStart === null) return null;
  const start = formatIn(triggerStart, 'HH:mm:ss', zone);
  if (triggerEnd === null || triggerEnd <= triggerStart) return start;
  return `${start} – ${formatIn(triggerEnd, 'HH:mm:ss', zone)} (${lengthText(triggerEnd - triggerStart)})`;
}

/** Whether a download or library item is of this recording in this format. */
const isOf = (
  thing: { recording: Pick<Recording, 'id' | 'source'>; format: AudioFormat },
  recording: Recording,
  format: AudioFormat,
): boolean =>
  thing.format === format &&
  thing.recording.id === recording.id &&
  thing.recording.source === recording.source;

/** "3.4 MB of 12 MB · 2.1 MB/s · about 5 s left"; "Waiting"; "Done, 12 MB"; the error's words. */
export function downloadStatusText(download: DownloadSnapshot): string {
  switch (download.state) {
    case 'queued':
      return 'Waiting to download';
    case 'done':
      return `Downloaded, ${bytesText(download.bytes)}`;
    case 'cancelled':
      return 'Cancelled';
    case 'failed':
      return download.error?.message ?? 'The download failed.';
    case 'downloading': {
      const parts = [
        download.total === null
          ? bytesText(download.bytes)
          : `${bytesText(download.bytes)} of ${bytesText(download.total)}`,
      ];
      if (download.rate !== null && download.rate > 0) parts.push(`${bytesText(download.rate)}/s`);
      if (download.etaMs !== null) parts.push(`about ${lengthText(Math.max(1000, download.etaMs))} left`);
      if (download.resumed > 0) parts.push('resumed');
      return parts.join(' · ');
    }
  }
}

/** Waiting or running (not finished, failed or cancelled). */
export const isDownloadActive = (download: Pick<DownloadSnapshot, 'state'>): boolean =>
  download.state === 'queued' || download.state === 'downloading';

/** How full a download's bar is; null (indeterminate) while the size is not known. */
export function downloadFraction(download: DownloadSnapshot): number | null {
  if (download.state === 'done') return 1;
  if (download.total === null || download.total <= 0) return download.state === 'queued' ? 0 : null;
  // Never full before the file is checked and in place.
  return Math.min(0.99, download.bytes / download.total);
}

export type RecordingStatus =
  | { kind: 'library'; item: LibraryItem }
  | { kind: 'download'; download: DownloadSnapshot }
  | { kind: 'none' };

/**
 * Where a recording stands in a format: in the library (playable), being downloaded (or failed,
 * with its reason), or neither. A finished download is the library's.
 */
export function recordingStatus(
  recording: Recording,
  format: AudioFormat,
  downloads: readonly DownloadSnapshot[],
  library: readonly LibraryItem[],
): RecordingStatus {
  const item = library.find((i) => isOf(i, recording, format));
  if (item !== undefined) return { kind: 'library', item };
  const download = [...downloads]
    .filter((d) => isOf(d, recording, format) && d.state !== 'done')
    .sort((a, b) => b.updatedAt - a.updatedAt)[0];
  return download === undefined ? { kind: 'none' } : { kind: 'download', download };
}

/** Any format of a recording already in the library, the one asked for first. */
export function playableItem(
  recording: Recording,
  format: AudioFormat,
  library: readonly LibraryItem[],
): LibraryItem | null {
  const mine = library.filter(
    (i) => i.recording.id === recording.id && i.recording.source === recording.source,
  );
  return mine.find((i) => i.format === format) ?? mine[0] ?? null;
}

/** The player's position on the site's clock: "14:02:13.4". */
export const playheadText = (recordingStart: number, seconds: number, zone: DisplayZone): string =>
  formatIn(recordingStart + Math.round(seconds * 1000), 'HH:mm:ss.S', zone);

/** Playback speeds offered: slower helps tell a bark from a horn, faster skims a long recording. */
export const PLAYBACK_RATES = [0.5, 0.75, 1, 1.5, 2] as const;

/** What "Download all" would fetch: how many recordings, how long, and about how many bytes. */
export interface DownloadEstimate {
  count: number;
  /** Seconds of audio in all. */
  seconds: number;
  /** An estimate: the service gives a file's size only as it is downloaded. */
  bytes: number;
  /** Of the recordings, how many sizes the service already gave (a download begun before). */
  ownSizes: number;
  /**
   * What the rest rests on: files of this format already in the library (this service's own
   * rate), or the format's assumed rate; `none` when every size is the recording's own.
   */
  basis: { kind: 'library'; files: number } | { kind: 'assumed' } | { kind: 'none' };
}

const spanSeconds = (recording: Recording) => Math.max(0, recording.end - recording.start) / 1000;
const sameRecording = (a: Recording, b: Recording) => a.id === b.id && a.source === b.source;

/**
 * The size of downloading `recordings` as `format`: each recording's own size where the service
 * gave it (a download of it in this format begun before, `downloads`), the others from their
 * lengths at the bytes per second of the files of that format already in the library (this
 * service's own encoding), or at the format's assumed rate when there are none.
 */
export function downloadEstimate(
  recordings: readonly Recording[],
  format: AudioFormat,
  library: readonly LibraryItem[],
  downloads: readonly DownloadSnapshot[] = [],
): DownloadEstimate {
  const ownSizeOf = (recording: Recording): number | null => {
    const sizes = downloads.flatMap((d) =>
      d.format === format && d.total !== null && d.total > 0 && sameRecording(d.recording, recording)
        ? [d.total]
        : [],
    );
    return sizes.length > 0 ? Math.max(...sizes) : null;
  };
  const known = library.filter(
    (item) =>
      item.format === format &&
      item.missing !== true &&
      item.bytes > 0 &&
      item.recording.end > item.recording.start,
  );
  const knownSeconds = known.reduce((sum, item) => sum + spanSeconds(item.recording), 0);
  const knownBytes = known.reduce((sum, item) => sum + item.bytes, 0);
  const measured = known.length > 0 && knownSeconds > 0;
  const rate = measured ? knownBytes / knownSeconds : ASSUMED_AUDIO_BYTES_PER_SECOND[format];
  let bytes = 0;
  let ownSizes = 0;
  let seconds = 0;
  for (const recording of recordings) {
    const own = ownSizeOf(recording);
    seconds += spanSeconds(recording);
    if (own !== null) ownSizes++;
    bytes += own ?? spanSeconds(recording) * rate;
  }
  return {
    count: recordings.length,
    seconds,
    bytes: Math.round(bytes),
    ownSizes,
    basis:
      ownSizes === recordings.length
        ? { kind: 'none' }
        : measured
          ? { kind: 'library', files: known.length }
          : { kind: 'assumed' },
  };
}

/**
 * The question before "Download all": the count, the length, the estimated size and what the
 * estimate rests on, in words.
 */
export function downloadAllQuestion(
  estimate: DownloadEstimate,
  format: AudioFormat,
): { title: string; size: string; basis: string; confirm: string } {
  const recordingsText = `${estimate.count.toLocaleString('en-GB')} recording${estimate.count === 1 ? '' : 's'}`;
  const rest =
    estimate.basis.kind === 'library'
      ? `estimated from the ${estimate.basis.files === 1 ? `${format} file` : `${estimate.basis.files} ${format} files`} already downloaded`
      : `estimated at ${bytesText(ASSUMED_AUDIO_BYTES_PER_SECOND[format])} per second of ${format} audio`;
  const basis =
    estimate.basis.kind === 'none'
      ? 'From the sizes the service gave as these recordings began to download.'
      : estimate.ownSizes > 0
        ? `${estimate.ownSizes.toLocaleString('en-GB')} of the sizes as the service gave them as they began to download; the others ${rest}: the service gives a recording’s size only as it downloads.`
        : `${rest.charAt(0).toUpperCase()}${rest.slice(1)}: the service gives a recording’s size only as it downloads.`;
  return {
    title: `Download ${recordingsText} as ${format}?`,
    size: `${recordingsText}, ${lengthText(estimate.seconds * 1000)} of audio: about ${bytesText(estimate.bytes)} in all.`,
    basis,
    confirm: `Download ${recordingsText}`,
  };
}
