/**
 * Folders of the operating system are refused for audio downloads, with the reason: the lists of
 * Linux, macOS and Windows checked by rule (any computer can run them), then on this computer's real
 * files through `audio.setFolder`: a system folder, one below it that does not exist yet (never
 * created), and a link in a temporary folder that leads into one (judged where it leads).
 */
import { existsSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  homeFolderOf,
  resolveFolder,
  systemFolderOf,
  systemFolderProblem,
  type SystemFolderRules,
} from '../../../src/main/backend/core/system-folders';
import { dispatchRequest } from '../../../src/shared/ipc/contract';
import { startDemoBackend } from './backend-helpers';
import { useTempDirs } from './helpers';

const tempDir = useTempDirs();

const LINUX: SystemFolderRules = { platform: 'linux', home: '/home/me', temp: '/tmp', env: {} };
const MAC: SystemFolderRules = {
  platform: 'darwin',
  home: '/Users/me',
  temp: '/private/var/folders/ab/cd/T',
  env: {},
};
const WINDOWS: SystemFolderRules = {
  platform: 'win32',
  home: 'C:\\Users\\me',
  temp: 'C:\\Users\\me\\AppData\\Local\\Temp',
  env: {
    SystemDrive: 'C:',
    SystemRoot: 'C:\\WINDOWS',
    ProgramFiles: 'C:\\Program Files',
    'ProgramFiles(x86)': 'C:\\Program Files (x86)',
    ProgramData: 'C:\\ProgramData',
  },
};

const rootOf = (folder: string, rules: SystemFolderRules) => systemFolderOf(folder, rules)?.root ?? null;

describe('system folders by rule', () => {
  it('Linux: the system’s own folders and everything in them, not folders that merely start alike', () => {
    const refused: Array<[string, string]> = [
      ['/', '/'],
      ['/etc', '/etc'],
      ['/etc/cron.d', '/etc'],
      ['/etc/', '/etc'],
      ['/bin', '/bin'],
      ['/sbin/x', '/sbin'],
      ['/usr/local/share/recordings', '/usr'],
      ['/lib/x', '/lib'],
      ['/lib64', '/lib64'],
      ['/boot/efi', '/boot'],
      ['/dev/shm', '/dev'],
      ['/proc/1', '/proc'],
      ['/sys/class', '/sys'],
      ['/run/user/1000', '/run'],
      ['/var/lib/recordings', '/var'],
      ['/var/spool/cron', '/var'],
    ];
    for (const [folder, root] of refused) expect(rootOf(folder, LINUX), folder).toBe(root);
    for (const folder of [
      '/home/me/Recordings',
      '/home/me',
      '/mnt/usb/recordings',
      '/media/me/FIELD',
      '/srv/recordings',
      '/opt/recordings',
      '/tmp/recordings',
      '/etcetera',
      '/usr2/x',
      '/variable',
      '/library',
    ])
      expect(rootOf(folder, LINUX), folder).toBeNull();
  });

  it('Linux: a home folder under /var (Fedora Silverblue) is the user’s own, the rest of /var is not', () => {
    const silverblue = { ...LINUX, home: '/var/home/me' };
    expect(rootOf('/var/home/me/Recordings', silverblue)).toBeNull();
    expect(rootOf('/var/home/other', silverblue)).toBe('/var');
    expect(rootOf('/var/lib', silverblue)).toBe('/var');
    // A home at the top of the disk exempts nothing.
    expect(rootOf('/etc', { ...LINUX, home: '/' })).toBe('/etc');
  });

  it('macOS: /System, /Library, /Applications and /private, but the user’s Library and the temporary folder are theirs', () => {
    for (const [folder, root] of [
      ['/System/Library/Sounds', '/System'],
      ['/Library/Audio', '/Library'],
      ['/Applications/FieldDesk.app', '/Applications'],
      ['/private/etc', '/private'],
      ['/private/var/db', '/private'],
      ['/usr/local', '/usr'],
      ['/', '/'],
    ] as const)
      expect(rootOf(folder, MAC), folder).toBe(root);
    for (const folder of [
      '/Users/me/Music/Recordings',
      '/Users/me/Library/Audio',
      '/Volumes/USB/rec',
      '/private/var/folders/ab/cd/T/x',
    ])
      expect(rootOf(folder, MAC), folder).toBeNull();
  });

  it('Windows: the system drive’s top, Windows, Program Files and ProgramData, in any case', () => {
    for (const [folder, root] of [
      ['C:\\', 'C:\\'],
      ['c:\\windows\\System32\\Tasks', 'C:\\WINDOWS'],
      ['C:\\Windows', 'C:\\WINDOWS'],
      ['C:\\Program Files\\FieldDesk', 'C:\\Program Files'],
      ['C:\\PROGRAM FILES (X86)', 'C:\\Program Files (x86)'],
      ['C:\\ProgramData\\x', 'C:\\ProgramData'],
    ] as const)
      expect(rootOf(folder, WINDOWS), folder).toBe(root);
    for (const folder of [
      'C:\\Users\\me\\Music\\Recordings',
      'C:\\Recordings',
      'D:\\',
      'D:\\Windows',
      'C:\\Windowsx',
      'E:\\Program Files',
    ])
      expect(rootOf(folder, WINDOWS), folder).toBeNull();
    // Without the environment, the usual places.
    expect(rootOf('C:\\Windows\\Temp', { ...WINDOWS, env: {} })).toBe('C:\\Windows');
  });
});

describe('the home folder and its hidden folders by rule', () => {
  const placeOf = (folder: string, rules: SystemFolderRules) => {
    const place = homeFolderOf(folder, rules);
    return place === null ? null : `${place.kind} ${place.root}`;
  };

  it('refuses the home folder itself and its hidden folders with what is in them, on every system', () => {
    for (const [folder, place] of [
      ['/home/me', 'home /home/me'],
      ['/home/me/', 'home /home/me'],
      ['/home/me/.ssh', 'hidden /home/me/.ssh'],
      ['/home/me/.config/autostart', 'hidden /home/me/.config'],
      ['/home/me/.local/share/applications', 'hidden /home/me/.local'],
      ['/home/me/Music/.hidden-inside-visible', null],
      ['/home/me/Recordings', null],
      ['/home/mentor/.ssh', null],
      ['/home/other/.ssh', null],
      ['/mnt/usb/.recordings', null],
    ] as const)
      expect(placeOf(folder, LINUX), folder).toBe(place);
    expect(placeOf('/Users/me/.ssh', MAC)).toBe('hidden /Users/me/.ssh');
    expect(placeOf('/Users/me', MAC)).toBe('home /Users/me');
    expect(placeOf('/Users/me/Music', MAC)).toBeNull();
    expect(placeOf('c:\\users\\ME\\.ssh\\keys', WINDOWS)).toBe('hidden C:\\Users\\me\\.ssh');
    expect(placeOf('C:\\USERS\\me', WINDOWS)).toBe('home C:\\Users\\me');
    expect(placeOf('C:\\Users\\me\\Music', WINDOWS)).toBeNull();
    // The temporary folder stays usable where it lies in a hidden folder, but never exempts the home.
    const hiddenTemp = { ...LINUX, temp: '/home/me/.cache/tmp' };
    expect(placeOf('/home/me/.cache/tmp/x', hiddenTemp)).toBeNull();
    expect(placeOf('/home/me/.cache/other', hiddenTemp)).toBe('hidden /home/me/.cache');
    expect(placeOf('/home/me', { ...LINUX, temp: '/home' })).toBe('home /home/me');
    expect(placeOf('/home/me/.ssh', { ...LINUX, temp: '/home/me' })).toBe('hidden /home/me/.ssh');
    // A home at the top of the disk (already refused as such) makes nothing "hidden".
    expect(placeOf('/.ssh', { ...LINUX, home: '/' })).toBeNull();
  });

  it('says why: the home folder itself, a hidden folder, inside one, or a link that leads there', async () => {
    expect(await systemFolderProblem('/home/me', 'recordings', LINUX)).toBe(
      '/home/me is your home folder itself, so FieldDesk does not save recordings loose among your own files there. Choose or create a folder inside it, for example /home/me/Recordings.',
    );
    expect(await systemFolderProblem('/home/me/.ssh', 'recordings', LINUX)).toBe(
      '/home/me/.ssh is a hidden folder of your home folder, where programs keep their keys and settings and what starts when you log in, so FieldDesk does not save recordings there. Choose a folder of your own, for example /home/me/Recordings.',
    );
    expect(await systemFolderProblem('/home/me/.config/autostart', 'recordings', LINUX)).toMatch(
      /^\/home\/me\/\.config\/autostart is inside \/home\/me\/\.config, a hidden folder of your home folder/,
    );
    const dir = await tempDir();
    const link = join(dir, 'home-link');
    await symlink(dir, link);
    const rules = { ...LINUX, home: await resolveFolder(dir), temp: '/elsewhere' };
    expect(await systemFolderProblem(join(link, '.ssh'), 'recordings', rules)).toMatch(
      new RegExp(
        `^${join(link, '.ssh')} leads to ${join(rules.home, '.ssh')}, a hidden folder of your home folder`,
      ),
    );
    expect(await systemFolderProblem(join(link, 'Recordings'), 'recordings', rules)).toBeNull();
  });
});

describe('system folders on this computer’s files', () => {
  it('resolves links and the part that does not exist yet', async () => {
    const dir = await tempDir();
    await symlink('/etc', join(dir, 'settings'));
    expect(await resolveFolder(join(dir, 'settings', 'cron.d'))).toBe('/etc/cron.d');
    expect(await resolveFolder(join(dir, 'settings', 'not-yet', 'deeper'))).toBe('/etc/not-yet/deeper');
    expect(await resolveFolder(join(dir, 'plain', 'new'))).toBe(
      join(await resolveFolder(dir), 'plain', 'new'),
    );
  });

  it('says where a link leads and why that is refused', async () => {
    const dir = await tempDir();
    const link = join(dir, 'Recordings');
    await symlink('/etc/cron.d', link);
    expect(await systemFolderProblem(link, 'recordings', LINUX)).toBe(
      `${link} leads to /etc/cron.d, inside /etc, a folder of the operating system (the system’s settings), so FieldDesk does not save recordings there. Choose a folder of your own, for example in your home folder.`,
    );
    expect(await systemFolderProblem('/usr', 'recordings', LINUX)).toBe(
      '/usr is a folder of the operating system (the system’s programs and libraries), so FieldDesk does not save recordings there. Choose a folder of your own, for example in your home folder.',
    );
  });

  it.skipIf(process.platform !== 'linux')(
    process.platform === 'linux'
      ? 'audio.setFolder refuses /etc/cron.d, a new folder under /etc (not created), and a link into /etc'
      : 'skipped: the Linux system folders are checked on real files only on Linux',
    async () => {
      const { handlers } = await startDemoBackend();
      const before = (await handlers['audio.folder']({})).path;
      const fresh = `/etc/fielddesk-test-${randomUUID()}`;
      const dir = await tempDir();
      await mkdir(join(dir, 'links'));
      const link = join(dir, 'links', 'cron');
      await symlink('/etc/cron.d', link);
      for (const [path, message] of [
        ['/etc/cron.d', /^\/etc\/cron\.d is inside \/etc, a folder of the operating system/],
        [fresh, /is inside \/etc, a folder of the operating system/],
        ['/', /^\/ is a folder of the operating system \(the top of the disk\)/],
        [link, /leads to \/etc\/cron\.d, inside \/etc/],
      ] as const) {
        const refused = await dispatchRequest(handlers, 'audio.setFolder', { path });
        expect(refused, path).toMatchObject({ ok: false, error: { code: 'invalidInput', field: 'path' } });
        expect(refused.ok ? '' : refused.error.message).toMatch(message);
      }
      // Refused before anything was made there (as root, creating it would have worked).
      expect(existsSync(fresh)).toBe(false);
      expect((await handlers['audio.folder']({})).path).toBe(before);
      // A folder of the user's own is still taken.
      const own = join(dir, 'Recordings');
      expect(await handlers['audio.setFolder']({ path: own })).toEqual({ path: own });
    },
  );

  it('audio.setFolder refuses the real home folder, ~/.ssh, ~/.config/autostart and a new hidden folder (not created)', async () => {
    const home = homedir();
    const { handlers } = await startDemoBackend();
    const before = (await handlers['audio.folder']({})).path;
    const fresh = join(home, `.fielddesk-test-${randomUUID()}`, 'recordings');
    const dir = await tempDir();
    const link = join(dir, 'home');
    await symlink(home, link);
    for (const [path, message] of [
      [home, /is your home folder itself/],
      [`${home}/`, /is your home folder itself/],
      [join(home, '.ssh'), /is a hidden folder of your home folder/],
      [join(home, '.config', 'autostart'), /is inside .*\.config, a hidden folder of your home folder/],
      [fresh, /is inside .*\.fielddesk-test-.*, a hidden folder of your home folder/],
      [join(link, '.ssh'), /leads to .*\.ssh, a hidden folder of your home folder/],
    ] as const) {
      const refused = await dispatchRequest(handlers, 'audio.setFolder', { path });
      expect(refused, path).toMatchObject({ ok: false, error: { code: 'invalidInput', field: 'path' } });
      expect(refused.ok ? '' : refused.error.message, path).toMatch(message);
    }
    expect(existsSync(join(fresh, '..'))).toBe(false);
    expect((await handlers['audio.folder']({})).path).toBe(before);
  });
});
