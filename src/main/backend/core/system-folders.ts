/**
 * Folders of the operating system, where FieldDesk never saves what the user downloads: its
 * programs, libraries, settings and devices (`/etc`, `/usr`, `/boot`, `C:\Windows`, `Program
 * Files`, macOS's `/System` and `/Library`, …). A folder is judged where it really is — symbolic
 * links (and Windows junctions) resolved — so a link in the home folder that leads to `/etc/cron.d`
 * is refused like `/etc/cron.d` itself. The user's home folder and the system's temporary folder
 * are never refused, even where a system places them under a system folder (Fedora Silverblue's
 * `/var/home`, macOS's `/private/var/folders`).
 */
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { realpath } from 'node:fs/promises';
import { errorCode } from './json-file-store';

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

/** Why `chosen` cannot take downloads when it is in a system folder, in words; null when it can. */
export async function systemFolderProblem(
  chosen: string,
  what: string,
  rules?: SystemFolderRules,
): Promise<string | null> {
  const resolved = await resolveFolder(chosen);
  const system = systemFolderOf(resolved, rules ?? (await currentSystemFolderRules()));
  if (system === null) return null;
  const api = (rules?.platform ?? process.platform) === 'win32' ? path.win32 : path.posix;
  const same = (a: string, b: string) => api.resolve(a) === api.resolve(b);
  const osFolder = `a folder of the operating system (${system.holds})`;
  const place = same(resolved, system.root)
    ? `${system.root} is ${osFolder}`
    : `${resolved} is inside ${system.root}, ${osFolder}`;
  const said = same(resolved, chosen)
    ? place
    : same(resolved, system.root)
      ? `${chosen} leads to ${system.root}, ${osFolder}`
      : `${chosen} leads to ${resolved}, inside ${system.root}, ${osFolder}`;
  return `${said}, so FieldDesk does not save ${what} there. Choose a folder of your own, for example in your home folder.`;
}
