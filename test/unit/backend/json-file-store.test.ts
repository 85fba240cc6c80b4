import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { openJsonFile } from '../../../src/main/backend/core/json-file-store';
import { openSettingsStore, SETTINGS_FILE_NAME } from '../../../src/main/backend/settings/settings-store';
import { ACCOUNTS_FILE_NAME, openAccountStore } from '../../../src/main/backend/accounts/account-store';
import { DEFAULT_SETTINGS } from '../../../src/shared/operations';
import { settingsHandlers } from '../../../src/main/backend/settings/handlers';
import { createNoticeBoard } from '../../../src/main/backend/core/notices';
import { createEventHub } from '../../../src/main/backend/core/events';
import { createAccountState } from '../../../src/main/backend/accounts/account-state';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import { mountTmpfs, useTempDirs } from './helpers';

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
    expect((await readdir(dir)).sort()).toEqual(['backups', 'things.json', aside].sort());
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

  it('restores a damaged file from its newest backup copy: an account comes back with its id, so its sites do too', async () => {
    const dir = await tempDir();
    let clock = Date.UTC(2026, 10, 23, 8, 0, 0);
    const first = await openAccountStore(dir, { now: () => clock });
    const added = await first.add({
      name: 'Site laptop',
      baseUrl: 'https://api.example.test/v1',
      kind: 'service',
      createdAt: 1,
      lastCheckedAt: null,
      missingScopes: [],
    });
    clock += 60_000;
    await first.setActive(added.id);
    await first.flush();
    // Each save left a dated copy; the newest wins.
    expect((await readdir(join(dir, 'backups'))).sort()).toEqual([
      'accounts-2026-11-23T08-00-00-000Z.json',
      'accounts-2026-11-23T08-01-00-000Z.json',
    ]);
    await writeFile(join(dir, ACCOUNTS_FILE_NAME), '\0\0\0\0');

    const again = await openAccountStore(dir, { now: () => Date.UTC(2026, 10, 23, 9, 0, 0) });
    expect(again.list().map((a) => a.id)).toEqual([added.id]);
    expect(again.activeId()).toBe(added.id);
    expect(again.warning).toMatch(
      /^Your saved accounts are damaged, so FieldDesk restored them from the backup of 2026-11-23 08:01 UTC\. The old file was kept as accounts\.json\.corrupt-2026-11-23T09-00-00-000Z/,
    );
  });

  it('takes a first copy of a file an earlier version wrote, so it can be restored before its next save', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'things.json'), JSON.stringify({ version: 2, items: ['from before'] }));
    await open(dir);
    await writeFile(join(dir, 'things.json'), '{"version": 2, "ite');
    const again = await open(dir);
    expect(again.loaded).toEqual({ items: ['from before'] });
    expect(again.warning).toContain('restored them from the backup of 2026-11-23 12:00 UTC');
  });

  it('falls back to an older copy when the newest does not read', async () => {
    const dir = await tempDir();
    const file = await open(dir);
    await file.save({ items: ['older'] });
    await mkdir(join(dir, 'backups'), { recursive: true });
    await writeFile(
      join(dir, 'backups', 'things-2026-11-24T00-00-00-000Z.json'),
      '{"version": 2, "items": [',
    );
    await writeFile(join(dir, 'things.json'), 'garbage');
    const again = await open(dir);
    expect(again.loaded).toEqual({ items: ['older'] });
    expect(again.restoredFrom).toBe(Date.UTC(2026, 10, 23, 12, 0, 0));
  });

  it('does not apply a settings change that could not be written, and says the folder is gone', async () => {
    const parent = await tempDir();
    const dir = join(parent, 'data');
    await mkdir(dir);
    const settings = await openSettingsStore(dir);
    const handlers = settingsHandlers({
      settings,
      notices: createNoticeBoard(createEventHub(), () => 0),
      dataDir: dir,
    });
    await handlers['settings.update']({ refreshCachedAfterMinutes: 20 });
    // The data folder disappears under FieldDesk (a removed drive), a file in its place.
    await rm(dir, { recursive: true });
    await writeFile(dir, 'not a folder');
    const error = await handlers['settings.update']({ refreshCachedAfterMinutes: 45 }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'diskError', retryable: true });
    expect((error as Error).message).toMatch(
      /The folder .*data does not exist \(any more\), so your settings could not be saved\. The change is not in effect/,
    );
    expect(settings.get().refreshCachedAfterMinutes).toBe(20);
    expect((await handlers['settings.get']({})).settings.refreshCachedAfterMinutes).toBe(20);
  });

  it('a read-only disk: the account list is not changed, and the message says read-only', async (ctx) => {
    const disk = await mountTmpfs(512);
    if (disk.path === null) return ctx.skip(`skipped: ${disk.why}; the test above covers a refused write`);
    const store = await openAccountStore(disk.path);
    const account = {
      name: 'A',
      baseUrl: 'https://api.example.test/v1',
      kind: 'service' as const,
      createdAt: 1,
      lastCheckedAt: null,
      missingScopes: [],
    };
    await store.add(account);
    execFileSync('mount', ['-o', 'remount,ro', disk.path]);
    const state = createAccountState(store, createMemoryVault('test'), createEventHub(), disk.path);
    const error = await state.saving(store.add({ ...account, name: 'B' })).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      new RegExp(`${disk.path} is on a read-only disk, so your account list could not be saved`),
    );
    expect(store.list().map((a) => a.name)).toEqual(['A']);
    execFileSync('mount', ['-o', 'remount,rw', disk.path]);
    await store.add({ ...account, name: 'B' });
    expect(store.list().map((a) => a.name)).toEqual(['A', 'B']);
  });
});
