/**
 * Audio downloads and the library as SQLite keeps them (tables `audio_downloads`, `audio_library`
 * and `audio_settings`, migrations 6 and 9 of `core/migrations.ts`): the row types and every statement.
 * Reading a row's JSON is tolerant: a row that cannot be read is left out, never a crash, and said
 * to the `DamagedRows` the reader is given (core/damaged-rows.ts).
 */
import { z } from 'zod';
import { AUDIO_FORMATS, type AudioFormat, type DownloadState, type Recording } from '../../../shared/audio';
import type { FieldDeskErrorData } from '../../../shared/errors';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../core/database';
import { readStoredJson, reportDamaged, type StoredValue } from '../core/damaged-rows';

/** Finished downloads kept for `audio.downloads` (the library keeps the files themselves). */
export const KEEP_FINISHED_DOWNLOADS = 100;

export interface DownloadRow {
  id: string;
  account_id: string;
  key: string;
  recording_json: string;
  format: string;
  state: DownloadState;
  bytes: number;
  total: number | null;
  /** The temporary file, once the download has started; it sits in the folder of the final file. */
  part_path: string | null;
  /**
   * The name the finished file is given, recorded once the `.part` is whole and synced and before
   * it is renamed (migration 9): found there at the next start when FieldDesk stopped in between.
   */
  final_path: string | null;
  /** 1 when the service said it can continue the body (`Accept-Ranges: bytes`). */
  ranges: number;
  /** The ETag or Last-Modified to continue with (`If-Range`). */
  validator: string | null;
  resumed: number;
  restarted: number;
  error_json: string | null;
  created_at: number;
  updated_at: number;
}

export interface LibraryRow {
  key: string;
  account_id: string;
  serial: string;
  recording_json: string;
  format: string;
  path: string;
  bytes: number;
  downloaded_at: number;
}

export type DownloadChange = Partial<Omit<DownloadRow, 'id' | 'key' | 'created_at'>>;

const ACTIVE: readonly DownloadState[] = ['queued', 'downloading'];

/** A kept recording: what identifies it must be there; the trigger, when unreadable, reads as none. */
const recordingSchema: z.ZodType<Recording> = z.object({
  id: z.string(),
  source: z.enum(['recording', 'event']),
  serial: z.string(),
  start: z.number(),
  end: z.number(),
  triggerStart: z.number().nullable().catch(null),
  triggerEnd: z.number().nullable().catch(null),
  triggerName: z.string().catch(''),
});

/** A row's `recording_json`; null when it cannot be read, then reported as `from` says (unsaid without it). */
export function parseRecording(json: string, from?: StoredValue): Recording | null {
  return readStoredJson(json, recordingSchema, from);
}

/** A row's format; null (reported as `parseRecording` does) for one this version does not know. */
export function parseFormat(text: string, from?: StoredValue): AudioFormat | null {
  if ((AUDIO_FORMATS as readonly string[]).includes(text)) return text as AudioFormat;
  reportDamaged(from, 'a format this version does not know');
  return null;
}

const errorDataSchema = z.looseObject({ code: z.string(), message: z.string() });

/** A row's `error_json`; null when there is none or it cannot be read (reported as `parseRecording` does). */
export function parseError(json: string | null, from?: StoredValue): FieldDeskErrorData | null {
  if (json === null) return null;
  return readStoredJson(json, errorDataSchema, from) as FieldDeskErrorData | null;
}

export interface AudioRecords {
  insertDownloads(rows: readonly DownloadRow[]): void;
  updateDownload(id: string, change: DownloadChange): void;
  download(id: string): DownloadRow | undefined;
  /** The newest download of a key, whatever its state. */
  latestForKey(key: string): DownloadRow | undefined;
  /** Queued and downloading rows, oldest first (the order they run in). */
  activeDownloads(): DownloadRow[];
  /** Every active row, then the finished ones newest first (at most `KEEP_FINISHED_DOWNLOADS`). */
  downloads(): DownloadRow[];
  /** Rows left `downloading` by a FieldDesk that stopped are queued again (their `.part` stays). */
  requeueInterrupted(): void;
  /** Whether a row, in any state, still has `path` as its `.part` (one to continue or to finish). */
  usesPart(path: string): boolean;
  /** Drops finished rows beyond `KEEP_FINISHED_DOWNLOADS`. */
  pruneFinished(): void;
  /** The file is in the library and the download done, in one transaction. */
  finish(id: string, item: LibraryRow, change: DownloadChange): void;
  library(serial?: string): LibraryRow[];
  libraryItem(key: string): LibraryRow | undefined;
  removeLibraryItem(key: string): void;
  setting(name: string): string | null;
  setSetting(name: string, value: string): void;
}

const DOWNLOAD_COLUMNS = [
  'id',
  'account_id',
  'key',
  'recording_json',
  'format',
  'state',
  'bytes',
  'total',
  'part_path',
  'final_path',
  'ranges',
  'validator',
  'resumed',
  'restarted',
  'error_json',
  'created_at',
  'updated_at',
] as const;

const CHANGEABLE = new Set<string>(DOWNLOAD_COLUMNS.filter((c) => !['id', 'key', 'created_at'].includes(c)));

export function createAudioRecords(db: SqliteDatabase): AudioRecords {
  const insert = db.prepare(
    `INSERT INTO audio_downloads (${DOWNLOAD_COLUMNS.join(', ')})
     VALUES (${DOWNLOAD_COLUMNS.map((c) => `@${c}`).join(', ')})`,
  );
  const byId = db.prepare<[string], DownloadRow>('SELECT * FROM audio_downloads WHERE id = ?');
  const byKey = db.prepare<[string], DownloadRow>(
    'SELECT * FROM audio_downloads WHERE key = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
  );
  const active = db.prepare<[], DownloadRow>(
    `SELECT * FROM audio_downloads WHERE state IN (${ACTIVE.map((s) => `'${s}'`).join(', ')})
     ORDER BY created_at, rowid`,
  );
  const finished = db.prepare<[number], DownloadRow>(
    `SELECT * FROM audio_downloads WHERE state NOT IN (${ACTIVE.map((s) => `'${s}'`).join(', ')})
     ORDER BY updated_at DESC, rowid DESC LIMIT ?`,
  );
  const requeue = db.prepare("UPDATE audio_downloads SET state = 'queued' WHERE state = 'downloading'");
  const partUser = db.prepare<[string], { id: string }>(
    'SELECT id FROM audio_downloads WHERE part_path = ? LIMIT 1',
  );
  const prune = db.prepare(
    `DELETE FROM audio_downloads WHERE state NOT IN (${ACTIVE.map((s) => `'${s}'`).join(', ')})
     AND id NOT IN (SELECT id FROM audio_downloads WHERE state NOT IN (${ACTIVE.map((s) => `'${s}'`).join(', ')})
                    ORDER BY updated_at DESC, rowid DESC LIMIT ?)`,
  );
  const upsertItem = db.prepare(
    `INSERT INTO audio_library (key, account_id, serial, recording_json, format, path, bytes, downloaded_at)
     VALUES (@key, @account_id, @serial, @recording_json, @format, @path, @bytes, @downloaded_at)
     ON CONFLICT (key) DO UPDATE SET account_id = excluded.account_id, serial = excluded.serial,
       recording_json = excluded.recording_json, format = excluded.format, path = excluded.path,
       bytes = excluded.bytes, downloaded_at = excluded.downloaded_at`,
  );
  const allItems = db.prepare<[], LibraryRow>('SELECT * FROM audio_library ORDER BY downloaded_at DESC, key');
  const itemsOf = db.prepare<[string], LibraryRow>(
    'SELECT * FROM audio_library WHERE serial = ? ORDER BY downloaded_at DESC, key',
  );
  const item = db.prepare<[string], LibraryRow>('SELECT * FROM audio_library WHERE key = ?');
  const removeItem = db.prepare('DELETE FROM audio_library WHERE key = ?');
  const getSetting = db.prepare<[string], { value: string }>(
    'SELECT value FROM audio_settings WHERE name = ?',
  );
  const putSetting = db.prepare(
    `INSERT INTO audio_settings (name, value) VALUES (?, ?)
     ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
  );

  /** One statement per set of columns changed (a handful in all), prepared once. */
  const updates = new Map<string, Statement>();
  function updateDownload(id: string, change: DownloadChange): void {
    const keys = Object.keys(change)
      .filter((key) => CHANGEABLE.has(key))
      .sort();
    if (keys.length === 0) return;
    const signature = keys.join(',');
    let statement = updates.get(signature);
    if (statement === undefined) {
      statement = db.prepare(
        `UPDATE audio_downloads SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`,
      );
      updates.set(signature, statement);
    }
    statement.run({ ...Object.fromEntries(keys.map((k) => [k, change[k as keyof DownloadChange]])), id });
  }

  const insertAll = db.transaction((rows: readonly DownloadRow[]) => {
    for (const row of rows) insert.run(row);
  });
  const finishTx = db.transaction((id: string, libraryRow: LibraryRow, change: DownloadChange) => {
    upsertItem.run(libraryRow);
    updateDownload(id, change);
  });

  return {
    insertDownloads: (rows) => insertAll(rows),
    updateDownload,
    download: (id) => byId.get(id),
    latestForKey: (key) => byKey.get(key),
    activeDownloads: () => active.all(),
    downloads: () => [...active.all(), ...finished.all(KEEP_FINISHED_DOWNLOADS)],
    requeueInterrupted: () => void requeue.run(),
    usesPart: (path) => partUser.get(path) !== undefined,
    pruneFinished: () => void prune.run(KEEP_FINISHED_DOWNLOADS),
    finish: (id, libraryRow, change) => finishTx(id, libraryRow, change),
    library: (serial) => (serial === undefined ? allItems.all() : itemsOf.all(serial)),
    libraryItem: (key) => item.get(key),
    removeLibraryItem: (key) => void removeItem.run(key),
    setting: (name) => getSetting.get(name)?.value ?? null,
    setSetting: (name, value) => void putSetting.run(name, value),
  };
}
