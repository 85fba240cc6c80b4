import { describe, expect, it } from 'vitest';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { openJsonFile } from '../../../src/main/backend/core/json-file-store';
import { openSettingsStore, SETTINGS_FILE_NAME } from '../../../src/main/backend/settings/settings-store';
import { ACCOUNTS_FILE_NAME, openAccountStore } from '../../../src/main/backend/accounts/account-store';
import { DEFAULT_SETTINGS } from '../../../src/shared/operations';
import { useTempDirs } from './helpers';

const tempDir = useTempDirs();

const schema = z.object({ items: z.array(z.string()) });
const open = (dataDir: string) =>
  openJsonFile({
    dataDir,
    fileName: 'things.json',
    version: 2,
    schema,
    describe: { subject: 'Your things', fallback: 'so FieldDesk started without them' },
    now: () => Date.UTC(2026, 10, 23, 12, 0, 0),
  });

describe('JSON file store', () => {
  it('writes { version, …content } privately and reads it back', async () => {
    const dir = await tempDir();
    const file = await open(dir);
    expect(file.loaded).toBeNull();
    await file.save({ items: ['a', 'b'] });
    expect(JSON.parse(await readFile(join(dir, 'things.json'), 'utf8'))).toEqual({
      version: 2,
      items: ['a', 'b'],
    });
    expect((await stat(join(dir, 'things.json'))).mode & 0o777).toBe(0o600);
    const again = await open(dir);
    expect(again.loaded).toEqual({ items: ['a', 'b'] });
    expect(again.warning).toBeNull();
  });

  it('keeps the last of many quick saves', async () => {
    const dir = await tempDir();
    const file = await open(dir);
    await Promise.all(Array.from({ length: 20 }, (_, i) => file.save({ items: [`v${i}`] })));
    expect((await open(dir)).loaded).toEqual({ items: ['v19'] });
  });

  it.each([
    ['damaged', '{"version": 2, "items": [', 'are damaged'],
    ['of the wrong shape', JSON.stringify({ version: 2, items: 'x' }), 'are damaged'],
    ['from an older format it does not know', JSON.stringify({ version: 1, items: [] }), 'are damaged'],
    ['from a newer FieldDesk', JSON.stringify({ version: 3, whatever: true }), 'newer version of FieldDesk'],
  ])('moves a file %s aside untouched and says so', async (_label, text, phrase) => {
    const dir = await tempDir();
    await writeFile(join(dir, 'things.json'), text);
    const file = await open(dir);
    expect(file.loaded).toBeNull();
    const aside = 'things.json.corrupt-2026-11-23T12-00-00-000Z';
    expect(file.warning).toContain(phrase);
    expect(file.warning).toContain(aside);
    expect(await readFile(join(dir, aside), 'utf8')).toBe(text);
    await file.save({ items: ['fresh'] });
    expect((await readdir(dir)).sort()).toEqual(['things.json', aside].sort());
  });

  it('saves nothing when a bad file cannot be moved aside, and says where it is', async (ctx) => {
    // root ignores directory permissions, so the rename cannot be made to fail this way.
    if (process.getuid?.() === 0) {
      console.info(
        'JSON file store: the "cannot move aside" test is skipped when running as root (directory permissions do not stop a rename).',
      );
      ctx.skip('running as root: directory permissions do not stop a rename');
    }
    const dir = await tempDir();
    const locked = join(dir, 'locked');
    await mkdir(locked);
    await writeFile(join(locked, 'things.json'), '{broken');
    await chmod(locked, 0o500);
    try {
      const file = await open(locked);
      expect(file.warning).toContain('could not move the file aside');
      await file.save({ items: ['x'] });
      expect(await readFile(join(locked, 'things.json'), 'utf8')).toBe('{broken');
    } finally {
      await chmod(locked, 0o700);
    }
  });

  it('gives accounts and settings the same handling of a newer file, each with its own words', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, SETTINGS_FILE_NAME), JSON.stringify({ version: 9, settings: {} }));
    await writeFile(join(dir, ACCOUNTS_FILE_NAME), JSON.stringify({ version: 9, accounts: [] }));
    const settings = await openSettingsStore(dir);
    const accounts = await openAccountStore(dir);
    expect(settings.warning).toMatch(
      /^Your settings were saved by a newer version of FieldDesk, so the defaults apply/,
    );
    expect(accounts.warning).toMatch(
      /^Your saved accounts were saved by a newer version of FieldDesk, so FieldDesk started without them/,
    );
    expect(accounts.warning).toContain('API keys in the system keychain are untouched.');
    expect(settings.get()).toEqual(DEFAULT_SETTINGS);
  });
});
