/**
 * Folders of the operating system are refused for audio downloads, with the reason: the lists of
 * Linux, macOS and Windows checked by rule (any computer can run them), then on this computer's real
 * files through `audio.setFolder`: a system folder, one below it that does not exist yet (never
 * created), and a link in a temporary folder that leads into one (judged where it leads).
 */
import { existsSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
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
});
