/**
 * The data folder's own mode. Its files are written user-only (0600), but a folder that others can
 * list still shows their names (accounts, sites, exports, visit photos): the folder is created
 * 0700, and one an earlier version (or Electron, which makes `userData` 0755) left open is
 * tightened at start.
 */
import { chmod, mkdir, stat } from 'node:fs/promises';
import { errorCode } from './file-basics';

const DATA_FOLDER_MODE = 0o700;

/**
 * Creates `dataDir` 0700 if missing and takes group and others' access away from an existing one.
 * Returns what could not be done, in words (the caller logs it; the app still starts), or null.
 */
export async function secureDataFolder(dataDir: string): Promise<string | null> {
  try {
    await mkdir(dataDir, { recursive: true, mode: DATA_FOLDER_MODE });
    // Windows has no such bits (its folder under the profile is already the user's own).
    if (process.platform === 'win32') return null;
    const mode = (await stat(dataDir)).mode & 0o777;
    if ((mode & 0o077) !== 0) await chmod(dataDir, mode & 0o700);
    return null;
  } catch (error) {
    return `the data folder ${dataDir} could not be made readable only by you (${errorCode(error) ?? String(error)})`;
  }
}
