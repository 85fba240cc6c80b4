/**
 * The second place of a result the data folder refused (read-only, full): one file per result in a
 * folder of the system's temporary folder, `fielddesk-held-<hash of the data folder>`, so a quit
 * (or a crash) before the disk takes it does not lose it; merged at the next start, then removed.
 * The temporary folder is usually another file system than the home folder (often memory), so it
 * still takes a file when the data folder's disk is full or read-only.
 *
 * It is shared with other users on Unix: the folder is made 0700 and used only when it is a real
 * folder (not a link) of this user's, closed to others; files are 0600, read only when they are
 * this user's regular files, and checked as action records before anything is merged.
 */
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ActionRecord } from '../../../shared/operations';
import { errorCode } from '../core/file-basics';
import type { Logger } from '../core/log';
import { actionRecordSchema } from './action-records';

export interface HeldResults {
  /** Where the copies are kept, for messages. */
  readonly folder: string;
  /** Keeps a copy of a result; throws when it cannot (the caller says the result is in memory only). */
  hold(record: ActionRecord): void;
  /** Forgets the copy of a result now written to the data folder (a copy left is merged again, harmlessly). */
  release(id: string): void;
  /** The results kept by an earlier run (or this one), each checked; none when there is no folder. */
  list(): ActionRecord[];
}

/** The folder of a data folder's held results in the system's temporary folder. */
export function heldResultsFolder(dataDir: string, temp = tmpdir()): string {
  const digest = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16);
  return join(temp, `fielddesk-held-${digest}`);
}

const fileOf = (id: string) => `${createHash('sha256').update(id).digest('hex').slice(0, 32)}.json`;

/** Whether a file-system entry is this user's alone (Windows: its temporary folder is the user's). */
function ownedAlone(info: Stats): boolean {
  if (process.platform === 'win32') return true;
  return info.uid === process.getuid?.() && (info.mode & 0o077) === 0;
}

export function openHeldResults(folder: string, log: Logger): HeldResults {
  /** Throws unless `folder` is a folder of this user's alone (made if missing). */
  function checkFolder(create: boolean): boolean {
    if (create) {
      try {
        mkdirSync(folder, { mode: 0o700 });
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
    }
    let info: Stats;
    try {
      info = lstatSync(folder);
    } catch (error) {
      if (!create && errorCode(error) === 'ENOENT') return false;
      throw error;
    }
    if (!info.isDirectory() || !ownedAlone(info))
      throw new Error(`${folder} is not a folder of this user's alone: not used for held results`);
    return true;
  }

  return {
    folder,

    hold(record) {
      checkFolder(true);
      const path = join(folder, fileOf(record.id));
      const partial = `${path}.${process.pid}.part`;
      // Whole or not at all: a file cut short would be skipped at the next start.
      writeFileSync(partial, JSON.stringify(record), { mode: 0o600, flush: true });
      renameSync(partial, path);
    },

    release(id) {
      try {
        rmSync(join(folder, fileOf(id)), { force: true });
        rmdirSync(folder);
      } catch (error) {
        // Other results still held keep the folder; a copy not removed is merged again (an upsert).
        if (errorCode(error) !== 'ENOTEMPTY' && errorCode(error) !== 'ENOENT')
          log.warn('held result copy not removed', { id, folder, error });
      }
    },

    list() {
      if (!checkFolder(false)) return [];
      const records: ActionRecord[] = [];
      for (const name of readdirSync(folder).sort()) {
        if (!name.endsWith('.json')) continue;
        const path = join(folder, name);
        try {
          const info = lstatSync(path);
          if (!info.isFile() || !ownedAlone(info)) {
            log.warn('held result file not this user’s own: not merged', { path });
            continue;
          }
          const parsed = actionRecordSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
          if (parsed.success) records.push(parsed.data);
          else log.warn('held result file not an action record: not merged', { path });
        } catch (error) {
          log.warn('held result file not read: not merged', { path, error });
        }
      }
      return records;
    },
  };
}
