import { describe, expect, it } from 'vitest';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ACCOUNTS_FILE_NAME, openAccountStore } from '../../../src/main/backend/accounts/account-store';
import { useTempDirs } from './helpers';

const tempDir = useTempDirs();

const sample = {
  name: 'Client A',
  baseUrl: 'https://api.mycirrus.cloud/v1',
  kind: 'service' as const,
  createdAt: 1_700_000_000_000,
  lastCheckedAt: null,
  missingScopes: [],
};

describe('account store', () => {
  it('saves accounts and the active id, and loads them again', async () => {
    const dir = await tempDir();
    const store = await openAccountStore(dir);
    const added = await store.add(sample);
    expect(added.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    await store.setActive(added.id);
    await store.update(added.id, (a) => ({ ...a, missingScopes: ['instruments:write'] }));

    const file = JSON.parse(await readFile(join(dir, ACCOUNTS_FILE_NAME), 'utf8'));
    expect(file).toEqual({
      version: 1,
      activeId: added.id,
      accounts: [{ ...sample, id: added.id, missingScopes: ['instruments:write'] }],
    });

    const reopened = await openAccountStore(dir);
    expect(reopened.warning).toBeNull();
    expect(reopened.activeId()).toBe(added.id);
    expect(reopened.list()).toEqual([{ ...sample, id: added.id, missingScopes: ['instruments:write'] }]);
  });

  it('keeps the last of many concurrent changes (saves never overtake each other)', async () => {
    const dir = await tempDir();
    const store = await openAccountStore(dir);
    const added = await store.add(sample);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.update(added.id, (a) => ({ ...a, name: `Name ${i}` }))),
    );
    const reopened = await openAccountStore(dir);
    expect(reopened.get(added.id)?.name).toBe('Name 19');
  });

  it('moves a damaged file aside, starts empty and explains', async () => {
    const dir = await tempDir();
    const damaged = '{"version": 1, "accounts": [ {"id": "a"';
    await writeFile(join(dir, ACCOUNTS_FILE_NAME), damaged);
    const store = await openAccountStore(dir, { now: () => Date.UTC(2026, 0, 2, 3, 4, 5, 678) });
    expect(store.list()).toEqual([]);
    const asideName = 'accounts.json.corrupt-2026-01-02T03-04-05-678Z';
    expect(store.warning).toContain('damaged');
    expect(store.warning).toContain(asideName);
    expect(await readFile(join(dir, asideName), 'utf8')).toBe(damaged);
    expect(await readdir(dir)).toEqual([asideName]);
  });

  it('treats valid JSON of the wrong shape as damaged too, and a newer version as newer', async () => {
    const dir = await tempDir();
    await writeFile(
      join(dir, ACCOUNTS_FILE_NAME),
      JSON.stringify({ version: 1, activeId: null, accounts: [{ id: 5 }] }),
    );
    expect((await openAccountStore(dir)).warning).toContain('damaged');

    const newer = await tempDir();
    await writeFile(join(newer, ACCOUNTS_FILE_NAME), JSON.stringify({ version: 2, accounts: 'new format' }));
    const store = await openAccountStore(newer);
    expect(store.warning).toContain('newer version of FieldDesk');
    expect((await readdir(newer)).some((name) => name.startsWith('accounts.json.corrupt-'))).toBe(true);
  });

  it('drops an active id that names no account, and scopes it does not know', async () => {
    const dir = await tempDir();
    await writeFile(
      join(dir, ACCOUNTS_FILE_NAME),
      JSON.stringify({
        version: 1,
        activeId: 'gone',
        accounts: [{ ...sample, id: 'acc-1', missingScopes: ['instruments:write', 'future:scope'] }],
      }),
    );
    const store = await openAccountStore(dir);
    expect(store.warning).toBeNull();
    expect(store.activeId()).toBeNull();
    expect(store.get('acc-1')?.missingScopes).toEqual(['instruments:write']);
  });
});
