/**
 * diagnostics.save on the ways it can end besides a saved zip (cancelled, a disk that refuses), and
 * the data folder's file list it holds.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBackend, type BackendOptions } from '../../../src/main/backend/backend';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import { memoryLogWriter } from '../../../src/main/backend/core/log';
import { listDataFolder } from '../../../src/main/backend/diagnostics/diagnostics';
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
