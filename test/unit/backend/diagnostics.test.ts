/**
 * diagnostics.save on the ways it can end besides a saved zip (cancelled, a disk that refuses), the
 * data folder's file list it holds, and the user's name kept out of it: the zip is unzipped and
 * searched for the data folder's and the home folder's paths, in every spelling a log line has.
 */
import { mkdir, readdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { createBackend, type BackendOptions } from '../../../src/main/backend/backend';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import { memoryLogWriter } from '../../../src/main/backend/core/log';
import {
  DATA_FOLDER_PLACEHOLDER,
  listDataFolder,
  pathHider,
} from '../../../src/main/backend/diagnostics/diagnostics';
import { DIAGNOSTICS_FILES } from '../../../src/shared/diagnostics';
import { TEST_APP_INFO } from './backend-helpers';
import { makeTempDir } from './helpers';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function backendWith(options: Partial<BackendOptions>) {
  const dataDir = await makeTempDir();
  cleanups.push(() => dataDir.remove());
  const backend = await createBackend({
    dataDir: dataDir.path,
    vault: createMemoryVault('tests keep keys in memory'),
    appInfo: TEST_APP_INFO,
    startDemo: async () => {
      throw new Error('no demo in this test');
    },
    log: memoryLogWriter(),
    ...options,
  });
  cleanups.push(() => backend.close());
  return { backend, dataDir: dataDir.path };
}

describe('saving diagnostics', () => {
  it('writes nothing when the user cancels the save dialog', async () => {
    const { backend, dataDir } = await backendWith({ chooseExportPath: async () => null });
    expect(await backend.handlers['diagnostics.save']({})).toEqual({ saved: false });
    expect(await readdir(dataDir)).not.toContain('exports');
  });

  it('says in words which folder refused the zip', async () => {
    const { backend } = await backendWith({
      chooseExportPath: async (name) => join('/nonexistent-fielddesk-folder', name),
    });
    const failure = await backend.handlers['diagnostics.save']({}).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'diskError',
      message: expect.stringMatching(
        /^The folder \/nonexistent-fielddesk-folder does not exist \(any more\), so the diagnostics could not be saved\./,
      ),
    });
  });

  it('says in words when the exports folder cannot be made (no save dialog)', async () => {
    const { backend, dataDir } = await backendWith({});
    await writeFile(join(dataDir, 'exports'), 'a file where the folder should be');
    const failure = await backend.handlers['diagnostics.save']({}).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'diskError',
      message: expect.stringContaining('so the diagnostics could not be saved'),
    });
  });
});

describe("the data folder's file list", () => {
  it('lists every file with its size and date, folders first by name, and says when it stopped', async () => {
    const folder = await makeTempDir();
    cleanups.push(() => folder.remove());
    await mkdir(join(folder.path, 'logs'));
    await writeFile(join(folder.path, 'logs', 'fielddesk.log'), 'x'.repeat(12));
    await writeFile(join(folder.path, 'settings.json'), '{}');
    const whole = await listDataFolder(folder.path);
    const lines = whole.trim().split('\n');
    expect(lines[0]).toBe(`Files in ${folder.path} (path, bytes, last modified UTC)`);
    expect(lines.slice(1).map((line) => line.split('\t').slice(0, 2))).toEqual([
      ['logs/', '-'],
      ['logs/fielddesk.log', '12'],
      ['settings.json', '2'],
    ]);
    expect(lines[2]!.split('\t')[2]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const cut = (await listDataFolder(folder.path, 2)).trim().split('\n');
    expect(cut.at(-1)).toBe('… more not listed (the first 2 are)');
    expect(cut).toHaveLength(4);
  });
});

describe('the user’s name kept out of the zip', () => {
  it('writes the data folder as <data folder> and the home folder as ~, whole paths only', async () => {
    const hide = await pathHider('/home/jo/.config/FieldDesk', '/home/jo', 'linux');
    expect(hide('records at /home/jo/.config/FieldDesk/records.db, audio in /home/jo/Music.')).toBe(
      `records at ${DATA_FOLDER_PLACEHOLDER}/records.db, audio in ~/Music.`,
    );
    expect(hide('"/home/jo" /home/jo. file:///home/jo/x')).toBe('"~" ~. file://~/x');
    // Another user, a longer name, a copy elsewhere: not the home folder.
    for (const other of ['/home/joan/x', '/home/jo.old/x', '/home/jo-2', '/backup/home/jo/x'])
      expect(hide(other)).toBe(other);
    // A home at the top of the disk would hide every path: left alone.
    expect((await pathHider('/data/FieldDesk', '/', 'linux'))('/etc/x /data/FieldDesk/y')).toBe(
      `/etc/x ${DATA_FOLDER_PLACEHOLDER}/y`,
    );
  });

  it('on Windows: any case, JSON-escaped backslashes, forward slashes', async () => {
    const hide = await pathHider(
      'C:\\Users\\Jo Doe\\AppData\\Roaming\\FieldDesk',
      'C:\\Users\\Jo Doe',
      'win32',
    );
    expect(hide('{"path":"C:\\\\Users\\\\Jo Doe\\\\AppData\\\\Roaming\\\\FieldDesk\\\\records.db"}')).toBe(
      `{"path":"${DATA_FOLDER_PLACEHOLDER}\\\\records.db"}`,
    );
    expect(hide('c:\\users\\jo doe\\Downloads and C:/Users/Jo Doe/Music')).toBe('~\\Downloads and ~/Music');
  });

  it('diagnostics.save: no entry of the zip names the data folder or the home folder, log lines included', async () => {
    // The data folder through a link, in a folder named like a person, as on a real laptop.
    const parent = await makeTempDir();
    cleanups.push(() => parent.remove());
    const person = join(parent.path, 'Jo Doe');
    await mkdir(join(person, 'FieldDesk'), { recursive: true });
    await symlink(person, join(parent.path, 'jo'));
    const dataDir = join(parent.path, 'jo', 'FieldDesk');
    const realDataDir = await realpath(dataDir);
    const exportPath = join(parent.path, 'diagnostics.zip');
    const backend = await createBackend({
      dataDir,
      vault: createMemoryVault('tests keep keys in memory'),
      appInfo: TEST_APP_INFO,
      startDemo: async () => {
        throw new Error('no demo in this test');
      },
      chooseExportPath: async () => exportPath,
    });
    cleanups.push(() => backend.close());
    const audio = join(homedir(), 'Downloads', 'FieldDesk');
    backend.log.warn('paths a log line can hold', {
      given: join(dataDir, 'records.db'),
      real: join(realDataDir, 'records.db'),
      url: pathToFileURL(join(realDataDir, 'visits')).href,
      audio,
    });
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ exportsIn: join(dataDir, 'exports') }));

    expect(await backend.handlers['diagnostics.save']({})).toMatchObject({ saved: true, path: exportPath });
    const zip = unzipSync(new Uint8Array(await readFile(exportPath)));
    const forms = [dataDir, realDataDir, person, pathToFileURL(realDataDir).pathname, 'Jo Doe', 'Jo%20Doe'];
    for (const [name, content] of Object.entries(zip)) {
      const text = strFromU8(content);
      for (const form of [...forms, homedir()]) expect(text, `${name} names ${form}`).not.toContain(form);
    }
    const log = strFromU8(zip['logs/fielddesk.log']!);
    const line = log
      .split('\n')
      .filter((entry) => entry.includes('paths a log line can hold'))
      .map((entry) => JSON.parse(entry) as Record<string, string>)[0];
    expect(line).toMatchObject({
      given: `${DATA_FOLDER_PLACEHOLDER}/records.db`,
      real: `${DATA_FOLDER_PLACEHOLDER}/records.db`,
      url: `file://${DATA_FOLDER_PLACEHOLDER}/visits`,
      audio: '~/Downloads/FieldDesk',
    });
    expect(strFromU8(zip[DIAGNOSTICS_FILES.files]!)).toMatch(
      /^Files in <data folder> \(path, bytes, last modified UTC\)\n/,
    );
    expect(
      Object.values(zip)
        .map((content) => strFromU8(content))
        .join('\n'),
    ).toContain(`${DATA_FOLDER_PLACEHOLDER}/exports`);
  });
});
