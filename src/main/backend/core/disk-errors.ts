/**
 * A write that the disk refused, in words that say which folder, why, and what was not saved: a
 * full disk, a read-only one and a folder FieldDesk may not write to each need a different action
 * from the user, so each has its own sentence (never "Something went wrong", never "check free
 * space" for a read-only disk).
 */
import { dirname } from 'node:path';
import { FieldDeskError } from '../../../shared/errors';
import { errorCode } from './file-basics';

/** What kind of refusal a file-system error is. */
export type DiskProblem = 'full' | 'readOnly' | 'denied' | 'missing' | 'other';

const PROBLEM_OF_CODE: Readonly<Record<string, DiskProblem>> = {
  ENOSPC: 'full',
  EDQUOT: 'full',
  EFBIG: 'full',
  EROFS: 'readOnly',
  EACCES: 'denied',
  EPERM: 'denied',
  ENOENT: 'missing',
  ENOTDIR: 'missing',
};

/** The kind of a file-system error, or null when it is not one (no errno code). */
export function diskProblemOf(error: unknown): DiskProblem | null {
  const code = errorCode(error);
  if (code === undefined || !/^E[A-Z]+$/.test(code)) return null;
  return PROBLEM_OF_CODE[code] ?? 'other';
}

export interface DiskWrite {
  /** The folder written to, as the user knows it (the data folder, the export's folder). */
  folder: string;
  /** What was not saved, as the subject of a sentence: "the report", "your settings". */
  what: string;
  /** Advice after the reason; default depends on the problem. */
  advice?: string;
}

function sentence(problem: DiskProblem, code: string, write: DiskWrite): string {
  const { folder, what } = write;
  switch (problem) {
    case 'full':
      return `The disk holding ${folder} is full, so ${what} could not be saved. ${write.advice ?? 'Free some space and try again.'}`;
    case 'readOnly':
      return `${folder} is on a read-only disk, so ${what} could not be saved. ${write.advice ?? 'Choose a folder on a writable disk.'}`;
    case 'denied':
      return `FieldDesk is not allowed to write to ${folder}, so ${what} could not be saved. ${write.advice ?? "Check the folder's permissions, or choose another."}`;
    case 'missing':
      return `The folder ${folder} does not exist (any more), so ${what} could not be saved. ${write.advice ?? 'Choose another folder.'}`;
    case 'other':
      return `FieldDesk could not write to ${folder} (${code}), so ${what} could not be saved. ${write.advice ?? 'Try again, or choose another folder.'}`;
  }
}

/**
 * The user-facing error for a failed write; null when `error` is not a file-system error (then the
 * caller reports it as what it is). Retryable: the user can free space or choose another place.
 */
export function diskFailure(error: unknown, write: DiskWrite): FieldDeskError | null {
  const problem = diskProblemOf(error);
  if (problem === null) return null;
  const message = sentence(problem, errorCode(error) ?? 'unknown', write);
  return new FieldDeskError('diskError', message.charAt(0).toUpperCase() + message.slice(1), {
    retryable: true,
    cause: error,
  });
}

/** What the user asked to save and where: an export, a report, a chart image. */
/**
 * A change of the user's own files (settings, accounts) that could not be written, and so is not in
 * effect: the disk's reason in its words, else `otherwise`; a FieldDeskError passes as it is.
 */
export function unsavedChange(error: unknown, write: DiskWrite & { otherwise: string }): FieldDeskError {
  if (error instanceof FieldDeskError) return error;
  return diskFailure(error, write) ?? new FieldDeskError('internal', write.otherwise, { cause: error });
}

export interface SaveAttempt {
  /** The path the user chose (for a set of files, the folder or name it is saved under). */
  path: string;
  /** What was not saved, as the subject of a sentence: `the report “Site A.pdf”`. */
  what: string;
}

/**
 * The one way an export or a report that could not be saved is told: the disk's reason through
 * `diskFailure`, naming the folder; anything else (a report that could not be made) says what
 * failed and that trying another place would not help.
 */
export function saveFailure(error: unknown, attempt: SaveAttempt): FieldDeskError {
  const disk = diskFailure(error, { folder: dirname(attempt.path), what: attempt.what });
  if (disk !== null) return disk;
  if (error instanceof FieldDeskError) return error;
  const text = error instanceof Error && error.message !== '' ? error.message : String(error);
  const reason = text.replace(/[.!]\s*$/, '');
  const message = `FieldDesk could not make ${attempt.what}: ${reason}. Nothing was saved.`;
  return new FieldDeskError('internal', message.charAt(0).toUpperCase() + message.slice(1), {
    cause: error,
  });
}

const SQLITE_DISK_CODES: Readonly<Record<string, string>> = {
  SQLITE_FULL: 'ENOSPC',
  SQLITE_READONLY: 'EROFS',
  SQLITE_READONLY_DBMOVED: 'EROFS',
  SQLITE_READONLY_DIRECTORY: 'EROFS',
  SQLITE_CANTOPEN: 'EACCES',
  SQLITE_PERM: 'EACCES',
  SQLITE_IOERR_WRITE: 'EIO',
  SQLITE_IOERR_FSYNC: 'EIO',
  SQLITE_IOERR_SHMOPEN: 'EIO',
};

/** SQLite's way of saying the disk refused a write, as the file-system error it stands for. */
export function sqliteDiskError(error: unknown): NodeJS.ErrnoException | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  const errno = SQLITE_DISK_CODES[code] ?? (code.startsWith('SQLITE_READONLY') ? 'EROFS' : undefined);
  if (errno === undefined) return null;
  return Object.assign(new Error(error instanceof Error ? error.message : code), { code: errno });
}
