/**
 * Audio as the app sees it: recordings (the service's audio recording list and events with audio),
 * downloads with progress, and the library of downloaded files that play offline. Types only; the
 * requests are `audio.*` in the contract, progress is pushed as `audio.progress`.
 */
import type { FieldDeskErrorData } from './errors';
import type { Provenance } from './data';

export const AUDIO_FORMATS = ['FLAC', 'WAV', 'AAC', 'OGG'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/**
 * Bytes per second of a format before any file of it was downloaded (the service lists recordings
 * without sizes): the bit rate of recordings as the demo service makes them, 16 kHz mono 16-bit —
 * WAV exactly 32,000 bytes a second, FLAC (and FLAC in Ogg) about 70 % of that, AAC about 32 kbit/s.
 * The first file downloaded then gives this service's own rate ("Download all" says which it used).
 */
export const ASSUMED_AUDIO_BYTES_PER_SECOND: Readonly<Record<AudioFormat, number>> = {
  WAV: 32_000,
  FLAC: 22_400,
  AAC: 4_000,
  OGG: 22_600,
};

/** The file name extension a format is saved with. */
export const AUDIO_EXTENSIONS: Readonly<Record<AudioFormat, string>> = {
  FLAC: 'flac',
  WAV: 'wav',
  AAC: 'aac',
  OGG: 'ogg',
};

/**
 * Where a recording's audio is fetched from: a recording of the audio list
 * (`/data/audio/{id}`), or a noise event's audio (`/data/events/audio/{audioId}`).
 */
export type AudioSource = 'recording' | 'event';

/** One recording as engineers read it: trigger, start, length — never a raw id on screen. */
export interface Recording {
  /** The service's id (opaque); used in requests, not shown. */
  id: string;
  source: AudioSource;
  serial: string;
  /** Epoch ms; the recording's own span. */
  start: number;
  end: number;
  /** The trigger interval inside the recording (epoch ms); null when the service gave none. */
  triggerStart: number | null;
  triggerEnd: number | null;
  /** "Level over 65 dB(A)", "Manual trigger", … as the service names it. */
  triggerName: string;
}

/** `audio.recordings`: an instrument's recordings in a range, read through the cache. */
export interface RecordingList {
  serial: string;
  start: number;
  end: number;
  recordings: Recording[];
  provenance: Provenance;
  /**
   * What the list cannot show and why, one plain sentence each: items the service sent that could
   * not be read, an instrument without the Audio add-on. Absent when there is nothing to say.
   */
  notes?: string[];
}

/**
 * How soon a download runs: `urgent` when someone waits on it (an event's Play, one recording asked
 * for), before everything `bulk` ("Download all", what a restart continues).
 */
export const DOWNLOAD_PRIORITIES = ['urgent', 'bulk'] as const;
export type DownloadPriority = (typeof DOWNLOAD_PRIORITIES)[number];

export type DownloadState = 'queued' | 'downloading' | 'done' | 'failed' | 'cancelled';

/** One download, as `audio.progress` pushes it after every change. */
export interface DownloadSnapshot {
  id: string;
  /** The library key the file will have (`recordingId` + format). */
  key: string;
  recording: Recording;
  format: AudioFormat;
  state: DownloadState;
  /** Bytes on disk so far (a resumed download counts what it already had). */
  bytes: number;
  /** The whole file's size once the service said it; null until then. */
  total: number | null;
  /** Bytes per second over the last few seconds; null until measured. */
  rate: number | null;
  etaMs: number | null;
  /** How many times it continued from where it stopped (range request), and restarted from 0. */
  resumed: number;
  restarted: number;
  error: FieldDeskErrorData | null;
  updatedAt: number;
}

/** A downloaded file in the library: plays offline, deleted with its entry. */
export interface LibraryItem {
  key: string;
  recording: Recording;
  format: AudioFormat;
  fileName: string;
  /** Full path on disk. */
  path: string;
  bytes: number;
  downloadedAt: number;
  /** The file is no longer where it was saved (moved or deleted outside FieldDesk): it cannot play. */
  missing?: true;
}

/** The most recordings one `audio.download` request may queue. */
export const AUDIO_DOWNLOAD_MAX = 500;

/**
 * A library key: the format and a digest of the recording's source and id, so it is safe in a URL
 * and a file system, and the same recording in the same format always has the same key.
 */
export const AUDIO_LIBRARY_KEY_PATTERN = /^(flac|wav|aac|ogg)-[0-9a-f]{40}$/;

export function isLibraryKey(value: string): boolean {
  return AUDIO_LIBRARY_KEY_PATTERN.test(value);
}

/** The desktop app plays library files from this privileged scheme: `fielddesk-audio://library/<key>`. */
export const AUDIO_SCHEME = 'fielddesk-audio';
export const AUDIO_SCHEME_HOST = 'library';
/** The browser harness serves the same files under this path (with its token). */
export const HARNESS_AUDIO_PATH = '/audio-library/';

/**
 * The address an `<audio>` element plays a library file from. In the desktop app (`shell` of
 * `app.getInfo`) a `fielddesk-audio:` URL; in the browser harness its `/audio-library/` route on the
 * page's own origin, carrying the harness token (a media element cannot send a header).
 */
export function audioPlayUrl(
  shell: 'electron' | 'harness',
  key: string,
  harness: { token?: string | null; origin?: string } = {},
): string {
  const safeKey = encodeURIComponent(key);
  if (shell === 'electron') return `${AUDIO_SCHEME}://${AUDIO_SCHEME_HOST}/${safeKey}`;
  const token = harness.token ? `?token=${encodeURIComponent(harness.token)}` : '';
  return `${harness.origin ?? ''}${HARNESS_AUDIO_PATH}${safeKey}${token}`;
}

/** The library key of a `fielddesk-audio://library/<key>` URL, or null for anything else. */
export function libraryKeyOfAudioUrl(url: string): string | null {
  const match = new RegExp(`^${AUDIO_SCHEME}://${AUDIO_SCHEME_HOST}/([^/?#]+)/?(?:[?#].*)?$`).exec(url);
  if (match === null) return null;
  let key: string;
  try {
    key = decodeURIComponent(match[1] as string);
  } catch {
    return null;
  }
  return isLibraryKey(key) ? key : null;
}

/**
 * The one inline stylesheet the player needs: wavesurfer.js (8.0.1) puts its layout in a <style>
 * in its shadow root. Allowed by this hash only — any other inline style stays refused — so a
 * wavesurfer upgrade that changes it shows at once as a CSP error in the audio e2e test.
 */
export const PLAYER_STYLE_HASH = "'sha256-7Wn/5ghbhb9U5yM332FZpa4jDUilNGJdZ87eJ6XZFBA='";
