/** The contract's audio requests (`audio.*`): recordings, downloads, the library and its folder. */
import { z } from 'zod';
import {
  AUDIO_DOWNLOAD_MAX,
  AUDIO_FORMATS,
  AUDIO_LIBRARY_KEY_PATTERN,
  DOWNLOAD_PRIORITIES,
  type DownloadSnapshot,
  type LibraryItem,
  type RecordingList,
} from '../audio';
import { epochMsSchema } from './data-requests';
import { noArgs, request, serialSchema } from './request-spec';

/** A year: more recordings than anyone reads through at once, split into requests by the backend. */
export const AUDIO_LIST_MAX_SPAN_MS = 366 * 24 * 3_600_000;

/** The longest folder path accepted (Windows' long paths reach 32,767; nobody types more than this). */
export const AUDIO_FOLDER_MAX_LENGTH = 4_096;

const recordingsRangeSchema = z
  .object({ serial: serialSchema, start: epochMsSchema, end: epochMsSchema })
  .strict()
  .superRefine((range, ctx) => {
    if (range.end <= range.start) {
      ctx.addIssue({ code: 'custom', message: 'The end must be after the start.', path: ['end'] });
    } else if (range.end - range.start > AUDIO_LIST_MAX_SPAN_MS) {
      ctx.addIssue({ code: 'custom', message: 'Choose a range of at most a year.', path: ['end'] });
    }
  });

/** A service id: opaque, but printable and of a sane length (it goes into a request path, encoded). */
const recordingIdSchema = z
  .string()
  .min(1, 'This recording has no id.')
  .max(1_024, 'That is not a recording of the service.')
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'That is not a recording of the service.');

export const recordingSchema = z
  .object({
    id: recordingIdSchema,
    source: z.enum(['recording', 'event'], { error: 'A recording comes from the audio list or an event.' }),
    serial: serialSchema,
    start: epochMsSchema,
    end: epochMsSchema,
    triggerStart: epochMsSchema.nullable(),
    triggerEnd: epochMsSchema.nullable(),
    triggerName: z.string().max(200, 'The trigger name is too long.'),
  })
  .strict()
  .refine((recording) => recording.start <= recording.end, {
    message: 'A recording cannot end before it starts.',
    path: ['end'],
  });

const downloadIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Unknown download.');
const libraryKeySchema = z.string().regex(AUDIO_LIBRARY_KEY_PATTERN, 'That file is not in the library.');

export const audioFolderSchema = z
  .string()
  .trim()
  .min(1, 'Give the folder to save recordings in.')
  .max(AUDIO_FOLDER_MAX_LENGTH, 'That folder path is too long.')
  .regex(/^[^\u0000-\u001f]+$/, 'A folder path cannot hold control characters.');

/** Where downloads go (`audio.folder`, `audio.setFolder`, `audio.chooseFolder`). */
export interface AudioFolder {
  path: string;
}

export const AUDIO_REQUESTS = {
  /**
   * An instrument's recordings in a range, through the cache (offline, what it holds): the audio
   * list and the noise events that have audio, each once, by start.
   */
  'audio.recordings': request<RecordingList>()(recordingsRangeSchema),
  /**
   * Queues downloads; answers their first snapshots (a recording already in the library is done at
   * once). `priority: 'urgent'` when someone waits on them (an event's Play, one recording asked
   * for): they start before what "Download all" queued (default `bulk`).
   */
  'audio.download': request<DownloadSnapshot[]>()(
    z
      .object({
        recordings: z
          .array(recordingSchema)
          .min(1, 'Choose at least one recording.')
          .max(AUDIO_DOWNLOAD_MAX, `Download at most ${AUDIO_DOWNLOAD_MAX} recordings at a time.`),
        format: z.enum(AUDIO_FORMATS, { error: 'Choose FLAC, WAV, AAC or OGG.' }),
        priority: z.enum(DOWNLOAD_PRIORITIES, { error: 'A download is urgent or bulk.' }).optional(),
      })
      .strict(),
  ),
  /** Downloads running or waiting, then the recently finished, newest first (a reloaded window re-attaches). */
  'audio.downloads': request<DownloadSnapshot[]>()(noArgs),
  /** Stops a download and removes what it had written; a finished one is answered as it is. */
  'audio.cancel': request<DownloadSnapshot>()(z.object({ id: downloadIdSchema }).strict()),
  /** The downloaded files, newest first; one instrument's when `serial` is given. */
  'audio.library': request<LibraryItem[]>()(z.object({ serial: serialSchema.optional() }).strict()),
  /** Deletes a downloaded file and its entry; answers the library left. */
  'audio.delete': request<LibraryItem[]>()(z.object({ key: libraryKeySchema }).strict()),
  /** The folder new downloads are saved in. */
  'audio.folder': request<AudioFolder>()(noArgs),
  /** Saves new downloads in another folder (created if need be); files already downloaded stay put. */
  'audio.setFolder': request<AudioFolder>()(z.object({ path: audioFolderSchema }).strict()),
  /**
   * Lets the user pick the folder with the system's dialog (desktop app only); answers the folder
   * in force afterwards, and whether it changed.
   */
  'audio.chooseFolder': request<AudioFolder & { changed: boolean }>()(noArgs),
  /** Opens the downloads folder in the system's file manager, or shows one library file there (desktop app only). */
  'audio.openFolder': request<AudioFolder>()(z.object({ key: libraryKeySchema.optional() }).strict()),
};
