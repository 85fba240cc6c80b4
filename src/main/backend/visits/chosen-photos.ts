/**
 * Photos chosen in the system's dialog (the desktop app): the main process keeps each file's path
 * and the renderer names it by a token, so no path crosses to the renderer and none comes back
 * from it — the backend reads only files the user chose in the dialog, and reads them itself
 * rather than receiving their bytes as text.
 */
import { randomUUID } from 'node:crypto';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { FieldDeskError } from '../../../shared/errors';
import {
  PHOTO_MAX_BYTES,
  photoTooLargeText,
  VISIT_PHOTOS_MAX,
  type ChosenPhoto,
} from '../../../shared/visits';
import { errorCode } from '../core/file-basics';
import type { Logger } from '../core/log';

/** The system's dialog for photos: the chosen files' paths, or null when cancelled. */
export type ChoosePhotoFiles = () => Promise<string[] | null>;

export const CHOSEN_PHOTO_MESSAGES = {
  noDialog:
    'Choosing photos from the disk needs the desktop app; in the browser, use the page’s own file chooser.',
  unknownToken: 'That photo was chosen in an earlier dialog. Choose it again.',
  gone: (name: string) => `“${name}” is no longer where it was chosen (moved or deleted). Choose it again.`,
  unreadable: (name: string) => `FieldDesk could not read “${name}” from the disk. Choose it again.`,
  notFile: (name: string) => `“${name}” is not a file.`,
  changing: (name: string) =>
    `“${name}” changed while FieldDesk read it (is it still being copied?). Choose it again once it is complete.`,
} as const;

interface Chosen {
  path: string;
  fileName: string;
}

export interface ChosenPhotos {
  /** Opens the dialog; the chosen files, each with its token (a new choice replaces the last). */
  choose(): Promise<ChosenPhoto[]>;
  /** The chosen file of `token`, read whole (each token is read once). */
  read(token: string): Promise<{ fileName: string; bytes: Buffer }>;
}

export function chosenPhotos(choose: ChoosePhotoFiles | undefined, log: Logger): ChosenPhotos {
  let byToken = new Map<string, Chosen>();

  function diskReadFailure(error: unknown, fileName: string): FieldDeskError {
    if (errorCode(error) === 'ENOENT')
      return new FieldDeskError('notFound', CHOSEN_PHOTO_MESSAGES.gone(fileName), { cause: error });
    log.warn('a chosen photo could not be read', { error });
    return new FieldDeskError('diskError', CHOSEN_PHOTO_MESSAGES.unreadable(fileName), {
      retryable: true,
      cause: error,
    });
  }

  /**
   * The chosen file's bytes, read through one handle (what is measured is what is read, even if the
   * name is pointed elsewhere meanwhile) and never more than a photo may hold.
   */
  async function readChosen(chosen: Chosen): Promise<Buffer> {
    let handle: FileHandle;
    try {
      handle = await open(chosen.path, 'r');
    } catch (error) {
      throw diskReadFailure(error, chosen.fileName);
    }
    try {
      const info = await handle.stat();
      if (!info.isFile())
        throw new FieldDeskError('invalidInput', CHOSEN_PHOTO_MESSAGES.notFile(chosen.fileName));
      if (info.size > PHOTO_MAX_BYTES)
        throw new FieldDeskError('invalidInput', photoTooLargeText(chosen.fileName));
      // One byte more than measured: a file still being written (copied from a camera) reads past it.
      const buffer = Buffer.alloc(info.size + 1);
      let length = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length === buffer.length) break;
      }
      if (length > info.size)
        throw new FieldDeskError('invalidInput', CHOSEN_PHOTO_MESSAGES.changing(chosen.fileName));
      return buffer.subarray(0, length);
    } catch (error) {
      if (error instanceof FieldDeskError) throw error;
      throw diskReadFailure(error, chosen.fileName);
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  return {
    async choose() {
      if (choose === undefined) throw new FieldDeskError('invalidRequest', CHOSEN_PHOTO_MESSAGES.noDialog);
      const paths = await choose();
      if (paths === null) return [];
      byToken = new Map();
      const photos: ChosenPhoto[] = [];
      // More than a visit can hold are listed too: the screen says how many were left out.
      for (const path of paths.slice(0, VISIT_PHOTOS_MAX * 2)) {
        const chosen = { path, fileName: basename(path) };
        const token = randomUUID();
        byToken.set(token, chosen);
        // A file that cannot be kept is listed with no size: adding it then says why (readChosen).
        const bytes = await stat(path).then(
          (info) => (info.isFile() && info.size <= PHOTO_MAX_BYTES ? info.size : 0),
          () => 0,
        );
        photos.push({ token, fileName: chosen.fileName, bytes });
      }
      return photos;
    },

    async read(token) {
      const chosen = byToken.get(token);
      if (chosen === undefined) throw new FieldDeskError('notFound', CHOSEN_PHOTO_MESSAGES.unknownToken);
      try {
        const bytes = await readChosen(chosen);
        byToken.delete(token);
        return { fileName: chosen.fileName, bytes };
      } catch (error) {
        // A disk that failed for a moment may be asked again with the same token; anything else is final.
        if (!(error instanceof FieldDeskError && error.retryable)) byToken.delete(token);
        throw error;
      }
    },
  };
}
