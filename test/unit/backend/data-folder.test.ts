/**
 * The data folder is the user's alone: a backend creates a missing one 0700 and tightens one an
 * earlier version (or Electron's `userData`, made 0755) left listable, checked on a real temp
 * folder's mode. Its files are 0600 each, but a listable folder still shows their names.
 */
import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBackend } from '../../../src/main/backend/backend';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import { secureDataFolder } from '../../../src/main/backend/core/data-folder';
import { memoryLogWriter } from '../../../src/main/backend/core/log';
import { TEST_APP_INFO } from './backend-helpers';
import { useTempDirs } from './helpers';

const tempDir = useTempDirs();
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

async function startAndClose(dataDir: string) {
  const log = memoryLogWriter();
  const backend = await createBackend({
    dataDir,
    vault: createMemoryVault('tests keep keys in memory'),
    appInfo: TEST_APP_INFO,
    startDemo: () => Promise.reject(new Error('no demo in this test')),
    log,
  });
  await backend.close();
  return log;
}

describe.skipIf(process.platform === 'win32')('the data folder’s mode', () => {
  it('a new data folder (and the folders above it that did not exist) is created 0700', async () => {
    const dataDir = join(await tempDir(), 'new', 'FieldDesk');
    await startAndClose(dataDir);
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(join(dataDir, '..'))).toBe(0o700);
  });

  it('an existing data folder left 0755 (or 0775) is tightened to 0700 at start', async () => {
    for (const mode of [0o755, 0o775, 0o750]) {
      const dataDir = join(await tempDir(), 'FieldDesk');
      await mkdir(dataDir);
      await chmod(dataDir, mode);
      expect(await modeOf(dataDir)).toBe(mode);
      await startAndClose(dataDir);
      expect(await modeOf(dataDir), mode.toString(8)).toBe(0o700);
    }
  });

  it('what cannot be done is said in words, for the log (the backend still starts)', async () => {
    const dir = await tempDir();
    expect(await secureDataFolder(join(dir, 'FieldDesk'))).toBeNull();
    // A file where a folder above it should be: nothing can be created there.
    await writeFile(join(dir, 'a-file'), '');
    const inFile = join(dir, 'a-file', 'FieldDesk');
    expect(await secureDataFolder(inFile)).toBe(
      `the data folder ${inFile} could not be made readable only by you (ENOTDIR)`,
    );
  });
});
