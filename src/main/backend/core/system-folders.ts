/**
 * Folders of the operating system, where FieldDesk never saves what the user downloads: its
 * programs, libraries, settings and devices (`/etc`, `/usr`, `/boot`, `C:\Windows`, `Program
 * Files`, macOS's `/System` and `/Library`, …). A folder is judged where it really is — symbolic
 * links (and Windows junctions) resolved — so a link in the home folder that leads to `/etc/cron.d`
 * is refused like `/etc/cron.d` itself. The user's home folder and the system's temporary folder
 * are never refused as system folders, even where a system places them under one (Fedora
 * Silverblue's `/var/home`, macOS's `/private/var/folders`). Within the home folder, the home folder
 * itself and its hidden folders (`~/.ssh`, `~/.config/autostart`, …: where programs keep keys,
 * settings and what starts at login) are refused too: a file dropped there can be read as a
 * setting or run.
 */
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { realpath } from 'node:fs/promises';
import { errorCode } from './file-basics';

export interface SystemFolderRules {
  platform: NodeJS.Platform;
  /** The user's home folder and the temporary folder, resolved: never refused. */
  home: string;
  temp: string;
  /** Windows' folders by their environment variables (`SystemRoot`, `ProgramFiles`, …). */
  env: Readonly<Record<string, string | undefined>>;
}

/** The system folder `folder` is (or is inside), and what it is; null when it is not in one. */
export interface SystemFolder {
  /** The system folder as written, e.g. `/etc` or `C:\Windows`. */
  root: string;
  /** What it holds, for the message: "the system's settings". */
  holds: string;
}

type Entry = readonly [root: string, holds: string, exact?: 'exact'];

const LINUX: readonly Entry[] = [
  ['/', 'the top of the disk', 'exact'],
  ['/etc', 'the system’s settings'],
  ['/bin', 'the system’s programs'],
  ['/sbin', 'the system’s programs'],
  ['/usr', 'the system’s programs and libraries'],
  ['/lib', 'the system’s libraries'],
  ['/lib32', 'the system’s libraries'],
  ['/lib64', 'the system’s libraries'],
  ['/libx32', 'the system’s libraries'],
  ['/boot', 'what starts the computer'],
  ['/dev', 'the computer’s devices'],
  ['/proc', 'the running system'],
  ['/sys', 'the running system'],
  ['/run', 'the running system'],
  ['/var', 'the system’s own data'],
  ['/snap', 'installed programs'],
];

const MAC: readonly Entry[] = [
  ['/', 'the top of the disk', 'exact'],
  ['/System', 'macOS itself'],
  ['/Library', 'the system’s settings and components'],
  ['/Applications', 'installed programs'],
  ['/bin', 'the system’s programs'],
  ['/sbin', 'the system’s programs'],
  ['/usr', 'the system’s programs and libraries'],
  ['/dev', 'the computer’s devices'],
  ['/cores', 'the system’s crash reports'],
  // /etc, /var and /tmp are links into /private.
  ['/private', 'the system’s settings and data'],
];

function windowsEntries(env: SystemFolderRules['env']): Entry[] {
  const drive = (env['SystemDrive'] ?? 'C:').replace(/[\\/]+$/, '');
  const entries: Entry[] = [
    [`${drive}\\`, 'the top of the system disk', 'exact'],
    [env['SystemRoot'] ?? env['windir'] ?? `${drive}\\Windows`, 'Windows itself'],
    [env['ProgramFiles'] ?? `${drive}\\Program Files`, 'installed programs'],
    [env['ProgramFiles(x86)'] ?? `${drive}\\Program Files (x86)`, 'installed programs'],
    [env['ProgramData'] ?? `${drive}\\ProgramData`, 'programs’ shared data'],
  ];
  return entries;
}

/** Whether `child` is `parent` or inside it, by the platform's rules (Windows: any case). */
function isWithin(child: string, parent: string, platform: NodeJS.Platform): boolean {
  const api = platform === 'win32' ? path.win32 : path.posix;
  const [a, b] = platform === 'win32' ? [child.toLowerCase(), parent.toLowerCase()] : [child, parent];
  const relative = api.relative(b, a);
  return relative === '' || (!relative.startsWith('..') && !api.isAbsolute(relative));
}

/** The system folder a resolved, absolute `folder` is in; null when it is not in one. */
export function systemFolderOf(folder: string, rules: SystemFolderRules): SystemFolder | null {
  const { platform } = rules;
  const api = platform === 'win32' ? path.win32 : path.posix;
  const normal = api.resolve(folder);
  for (const own of [rules.home, rules.temp]) {
    // A home or temporary folder at the top of the disk would exempt everything: not trusted.
    if (own !== '' && api.dirname(own) !== own && isWithin(normal, own, platform)) return null;
  }
  const entries = platform === 'win32' ? windowsEntries(rules.env) : platform === 'darwin' ? MAC : LINUX;
  for (const [root, holds, exact] of entries) {
    const normalRoot = api.resolve(root);
    const same = isWithin(normal, normalRoot, platform) && isWithin(normalRoot, normal, platform);
    if (exact === 'exact' ? same : isWithin(normal, normalRoot, platform)) return { root, holds };
  }
  return null;
}

/**
 * Where `folder` really is: the deepest part that exists with its links resolved, then the rest
 * (which does not exist yet, so holds no link). A part that is a file is left as it is: creating
 * the folder says that.
 */
export async function resolveFolder(folder: string): Promise<string> {
  const rest: string[] = [];
  let existing = folder;
  for (;;) {
    try {
      return path.join(await realpath(existing), ...rest.reverse());
    } catch (error) {
      const code = errorCode(error);
      const parent = path.dirname(existing);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === existing) return folder;
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

/** The rules of the computer FieldDesk runs on (home and temporary folders resolved). */
export async function currentSystemFolderRules(): Promise<SystemFolderRules> {
  const resolveOr = async (folder: string) => (folder === '' ? '' : resolveFolder(folder));
  return {
    platform: process.platform,
    home: await resolveOr(homedir()),
    temp: await resolveOr(tmpdir()),
    env: process.env,
  };
}

/** Where a resolved, absolute `folder` is the home folder itself or in one of its hidden folders. */
export type HomeFolderPlace = { kind: 'home'; root: string } | { kind: 'hidden'; root: string };

/**
 * Whether a resolved, absolute `folder` is the home folder itself or inside one of its hidden
 * (dot) folders; null otherwise. The temporary folder stays usable even where it lies in a hidden
 * folder (`TMPDIR=~/.cache/tmp`), unless it holds the home folder (which it would then exempt).
 */
export function homeFolderOf(folder: string, rules: SystemFolderRules): HomeFolderPlace | null {
  const { platform, home, temp } = rules;
  const api = platform === 'win32' ? path.win32 : path.posix;
  // A home at the top of the disk is already refused as such; inside it nothing is "hidden".
  if (home === '' || api.dirname(home) === home) return null;
  const normal = api.resolve(folder);
  if (!isWithin(normal, home, platform)) return null;
  if (isWithin(home, normal, platform)) return { kind: 'home', root: home };
  if (temp !== '' && !isWithin(home, temp, platform) && isWithin(normal, temp, platform)) return null;
  // path.win32.relative compares without case and keeps `normal`'s spelling.
  const first = api.relative(home, normal).split(/[\\/]/)[0] ?? '';
  return first.startsWith('.') ? { kind: 'hidden', root: api.join(home, first) } : null;
}

/**
 * Why `chosen` cannot take downloads — in a system folder, the home folder itself, or a hidden
 * folder of the home folder — in words; null when it can.
 */
export async function systemFolderProblem(
  chosen: string,
  what: string,
  rules?: SystemFolderRules,
): Promise<string | null> {
  const resolved = await resolveFolder(chosen);
  const judged = rules ?? (await currentSystemFolderRules());
  const api = judged.platform === 'win32' ? path.win32 : path.posix;
  const same = (a: string, b: string) => api.resolve(a) === api.resolve(b);
  // "X is R, what" / "X is inside R, what", and "C leads to …" when a link took `chosen` elsewhere.
  const where = (root: string, description: string) => {
    const place = same(resolved, root)
      ? `${root} is ${description}`
      : `${resolved} is inside ${root}, ${description}`;
    return same(resolved, chosen)
      ? place
      : same(resolved, root)
        ? `${chosen} leads to ${root}, ${description}`
        : `${chosen} leads to ${resolved}, inside ${root}, ${description}`;
  };
  const system = systemFolderOf(resolved, judged);
  if (system !== null) {
    const osFolder = `a folder of the operating system (${system.holds})`;
    return `${where(system.root, osFolder)}, so FieldDesk does not save ${what} there. Choose a folder of your own, for example in your home folder.`;
  }
  const own = homeFolderOf(resolved, judged);
  if (own === null) return null;
  const example = api.join(judged.home, 'Recordings');
  if (own.kind === 'home')
    return `${where(own.root, 'your home folder itself')}, so FieldDesk does not save ${what} loose among your own files there. Choose or create a folder inside it, for example ${example}.`;
  return `${where(own.root, 'a hidden folder of your home folder, where programs keep their keys and settings and what starts when you log in')}, so FieldDesk does not save ${what} there. Choose a folder of your own, for example ${example}.`;
}
