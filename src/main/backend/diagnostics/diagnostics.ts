/**
 * What "Save diagnostics…" puts in its zip, each text passed through the redactor: the log files,
 * the versions (app, Electron/Node, OS) with the stored records found damaged this session,
 * settings.json as it is on disk, the accounts as the
 * renderer sees them (names, addresses, where each key is kept — never a key), and the data folder's
 * file list with sizes and dates (never a file's contents: no cached data, no user records). The
 * data folder's absolute path and the home folder are written `<data folder>` and `~` everywhere in
 * it: on a real laptop they carry the user's name, and support needs neither.
 */
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { arch, homedir, platform, release, type, version as osVersion } from 'node:os';
import path, { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { strToU8, zipSync, type Zippable } from 'fflate';
import type { AccountsState } from '../../../shared/accounts';
import { damagedRecordsText, DIAGNOSTICS_FILES, type DamagedRecords } from '../../../shared/diagnostics';
import type { AppInfo } from '../../../shared/ipc/contract';
import { logFiles, LOG_FOLDER_NAME } from '../core/log';
import type { Redact } from '../core/secrets';
import { SETTINGS_FILE_NAME } from '../settings/settings-store';

/** Entries listed of the data folder at most (an audio library inside it can hold many). */
export const FILE_LIST_LIMIT = 5_000;

const errorCodeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? String(error);

/** The data folder's files, one line each: path, size in bytes, last modified (UTC). */
export async function listDataFolder(dataDir: string, limit = FILE_LIST_LIMIT): Promise<string> {
  const lines: string[] = [];
  let more = false;
  async function walk(folder: string, relative: string): Promise<void> {
    let names: string[];
    try {
      names = (await readdir(folder)).sort();
    } catch (error) {
      lines.push(`${relative || '.'}/\t-\t(could not be read: ${errorCodeOf(error)})`);
      return;
    }
    for (const name of names) {
      if (lines.length >= limit) {
        more = true;
        return;
      }
      const path = join(folder, name);
      const shown = relative === '' ? name : `${relative}/${name}`;
      try {
        const info = await lstat(path);
        const modified = info.mtime.toISOString();
        if (info.isDirectory()) {
          lines.push(`${shown}/\t-\t${modified}`);
          await walk(path, shown);
        } else {
          lines.push(`${shown}${info.isSymbolicLink() ? ' (link)' : ''}\t${info.size}\t${modified}`);
        }
      } catch (error) {
        lines.push(`${shown}\t-\t(could not be read: ${errorCodeOf(error)})`);
      }
    }
  }
  await walk(dataDir, '');
  const header = `Files in ${dataDir} (path, bytes, last modified UTC)`;
  return (
    [header, ...lines, ...(more ? [`… more not listed (the first ${limit} are)`] : [])].join('\n') + '\n'
  );
}

/**
 * Versions of what runs: the app, Electron and Chromium (in the app), Node, the OS; and, when given,
 * the stored records found damaged and left out this session (the log names each).
 */
export function describeRuntime(
  appInfo: AppInfo,
  now: number,
  damaged?: DamagedRecords,
): Record<string, unknown> {
  const { electron, chrome, node, v8 } = process.versions as NodeJS.ProcessVersions & {
    electron?: string;
    chrome?: string;
  };
  return {
    app: { name: 'FieldDesk', version: appInfo.version, shell: appInfo.shell },
    versions: { ...(electron ? { electron } : {}), ...(chrome ? { chrome } : {}), node, v8 },
    os: { platform: platform(), arch: arch(), type: type(), release: release(), version: osVersion() },
    createdAt: new Date(now).toISOString(),
    ...(damaged === undefined
      ? {}
      : { damagedRecords: { said: damagedRecordsText(damaged), tables: damaged.tables } }),
  };
}

async function settingsText(dataDir: string): Promise<string> {
  try {
    return await readFile(join(dataDir, SETTINGS_FILE_NAME), 'utf8');
  } catch (error) {
    const reason =
      errorCodeOf(error) === 'ENOENT'
        ? 'There is no settings.json: the defaults apply.'
        : `settings.json could not be read (${errorCodeOf(error)}).`;
    return `${JSON.stringify({ note: reason }, null, 2)}\n`;
  }
}

/** What the data folder is written as in the zip. */
export const DATA_FOLDER_PLACEHOLDER = '<data folder>';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replaces the data folder with `<data folder>` and the home folder with `~` in a text, in each way
 * a path can be written there: as given, with links resolved, JSON-escaped (a log line; Windows'
 * backslashes doubled), with forward slashes, and percent-encoded as in a file URL. Longest first,
 * so the data folder inside the home folder is named as the data folder. A path only counts whole:
 * `/home/jo` is not replaced inside `/home/joan`.
 */
export async function pathHider(
  dataDir: string,
  home: string,
  platformName: NodeJS.Platform = process.platform,
): Promise<(text: string) => string> {
  const api = platformName === 'win32' ? path.win32 : path.posix;
  const spellings = async (folder: string): Promise<string[]> => {
    const resolved = api.resolve(folder);
    // The top of a disk (a home of `/`) would hide every path: never replaced.
    if (folder === '' || api.dirname(resolved) === resolved) return [];
    const real = await realpath(resolved).catch(() => resolved);
    const forms = new Set<string>();
    for (const form of [resolved, real]) {
      forms.add(form);
      forms.add(JSON.stringify(form).slice(1, -1));
      forms.add(form.replaceAll('\\', '/'));
      // A file URL's path (`/home/Jo%20Doe/…`): only this computer's platform can write one.
      if (platformName === process.platform) forms.add(pathToFileURL(form).pathname);
    }
    return [...forms].filter((form) => form.length > 1);
  };
  const replacements = [
    ...(await spellings(dataDir)).map((form) => [form, DATA_FOLDER_PLACEHOLDER] as const),
    ...(await spellings(home)).map((form) => [form, '~'] as const),
  ].sort(([a], [b]) => b.length - a.length);
  const flags = platformName === 'win32' ? 'gi' : 'g';
  const patterns = replacements.map(
    // Whole paths only: `/home/jo` stays inside `/home/joan`, `/home/jo.x` and `/backup/home/jo`.
    ([form, by]) => [new RegExp(`(?<![\\w.-])${escapeRegExp(form)}(?![\\w-]|\\.[\\w-])`, flags), by] as const,
  );
  return (text) => patterns.reduce((hidden, [pattern, by]) => hidden.replace(pattern, by), text);
}

export interface DiagnosticsSources {
  dataDir: string;
  appInfo: AppInfo;
  /** The accounts as the renderer sees them: no key in it. */
  accounts: AccountsState;
  redact: Redact;
  now: number;
  /** The user's home folder, written `~` (default the OS's). */
  home?: string;
  /** The stored records found damaged this session (about.json says them). */
  damaged?: DamagedRecords;
}

/** The zip's bytes. */
export async function buildDiagnostics(sources: DiagnosticsSources): Promise<Uint8Array> {
  const { redact } = sources;
  const hidePaths = await pathHider(sources.dataDir, sources.home ?? homedir());
  const mtime = new Date(sources.now);
  const files: Zippable = {};
  const add = (name: string, text: string) => {
    // Secrets last: nothing a path replacement makes can bring one back.
    files[name] = [strToU8(redact(hidePaths(text))), { mtime }];
  };
  for (const path of await logFiles(sources.dataDir)) {
    try {
      add(`${LOG_FOLDER_NAME}/${basename(path)}`, await readFile(path, 'utf8'));
    } catch (error) {
      // Rotated away between the listing and the read: said in its place, the others still go.
      add(`${LOG_FOLDER_NAME}/${basename(path)}.missing.txt`, `Not read: ${errorCodeOf(error)}\n`);
    }
  }
  const about = describeRuntime(sources.appInfo, sources.now, sources.damaged);
  add(DIAGNOSTICS_FILES.about, `${JSON.stringify(about, null, 2)}\n`);
  add(DIAGNOSTICS_FILES.settings, await settingsText(sources.dataDir));
  add(DIAGNOSTICS_FILES.accounts, `${JSON.stringify(sources.accounts, null, 2)}\n`);
  add(DIAGNOSTICS_FILES.files, await listDataFolder(sources.dataDir));
  return zipSync(files, { level: 6 });
}
