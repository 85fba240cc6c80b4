/**
 * An account's name is saved in plain text (accounts.json and its backups), its key only in the
 * keychain: a name that holds the key, in any spelling the redactor knows or as a long piece of it,
 * is refused where accounts are added or renamed (and a key its account's name already holds is
 * refused as the new key), so no file of the data folder ever holds the key.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Backend } from '../../../src/main/backend/backend';
import { createKeyVault } from '../../../src/main/backend/accounts/vault';
import { ACCOUNT_NAME_MAX_LENGTH } from '../../../src/shared/accounts';
import { dispatchRequest } from '../../../src/shared/ipc/contract';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import { createRecordingBackend, TEST_APP_INFO } from './backend-helpers';
import { fakeKeytar, makeTempDir } from './helpers';
import { allSpellings, tracesIn } from './secret-encodings';

const KEY = 'fD7+q/Z9=k~Lm&T!r*8sP.QeN4_x';
const OTHER_KEY = 'other-key-0123456789';
const SPELLINGS = allSpellings(KEY);
/** The spellings that fit in a name, each as the name (the contract refuses longer names anyway). */
const NAMES = Object.entries(SPELLINGS).filter(
  ([, spelling]) => spelling.trim().length <= ACCOUNT_NAME_MAX_LENGTH,
);

let service: RunningDemoService;
let dataDir: { path: string; remove(): Promise<void> };
let keytar: ReturnType<typeof fakeKeytar>;
const backends: Backend[] = [];

beforeEach(async () => {
  service = await startDemoService({ port: 0, keys: { [KEY]: '*', [OTHER_KEY]: '*' }, rateLimit: 10_000 });
  dataDir = await makeTempDir();
  keytar = fakeKeytar();
});

afterEach(async () => {
  await Promise.all(backends.splice(0).map((backend) => backend.close()));
  await service.close();
  await dataDir.remove();
});

async function makeBackend() {
  const made = await createRecordingBackend({
    dataDir: dataDir.path,
    vault: createKeyVault({ loadKeytar: async () => keytar.keytar }),
    appInfo: TEST_APP_INFO,
    startDemo: async () => {
      throw new Error('the demo is not used in this test');
    },
    clientOptions: { timeoutMs: 2_000, retry: { limit: 0 } },
  });
  backends.push(made.backend);
  const request = async (channel: 'accounts.add' | 'accounts.rename' | 'accounts.replaceKey', arg: unknown) =>
    dispatchRequest(made.backend.handlers, channel, arg);
  return { ...made, request };
}

/** What every file of the data folder (accounts.json, its backups, the log, …) holds of the key, once the backend is closed. */
async function tracesOnDisk(): Promise<Array<{ file: string; traces: string[] }>> {
  const entries = await readdir(dataDir.path, { withFileTypes: true, recursive: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  const found = await Promise.all(
    files.map(async (file) => ({
      file,
      traces: tracesIn((await readFile(file)).toString('latin1'), SPELLINGS),
    })),
  );
  return found.filter(({ traces }) => traces.length > 0);
}

async function savedNames(): Promise<string[]> {
  const text = await readFile(join(dataDir.path, 'accounts.json'), 'utf8').catch(() => null);
  if (text === null) return [];
  return (JSON.parse(text) as { accounts: Array<{ name: string }> }).accounts.map((account) => account.name);
}

describe('an account name that holds its key', () => {
  it(`is refused when the account is added, in each of ${NAMES.length} spellings, and nothing is saved`, async () => {
    expect(NAMES.length).toBeGreaterThan(15);
    const { backend, request, events } = await makeBackend();
    for (const [spelling, name] of [...NAMES, ['in a sentence', `Riverside (key ${KEY})`]]) {
      const answer = await request('accounts.add', { name, baseUrl: service.baseUrl, apiKey: KEY });
      expect({ spelling, answer }).toMatchObject({
        spelling,
        answer: {
          ok: false,
          error: {
            code: 'invalidInput',
            field: 'name',
            message: expect.stringContaining("This name contains the account's API key"),
          },
        },
      });
    }
    expect(await savedNames()).toEqual([]);
    expect(keytar.entries.size).toBe(0);
    expect(events.filter((event) => event.channel === 'accounts.changed')).toEqual([]);
    await backend.close();
    expect(await tracesOnDisk()).toEqual([]);
  });

  it('is refused when the account is renamed; the name saved stays, and no file holds the key', async () => {
    const { backend, request } = await makeBackend();
    const added = await request('accounts.add', { name: 'Client A', baseUrl: service.baseUrl, apiKey: KEY });
    if (!added.ok) throw new Error(added.error.message);
    const { id } = (added.value as { account: { id: string } }).account;
    for (const [spelling, name] of NAMES) {
      const answer = await request('accounts.rename', { id, name });
      expect({ spelling, answer }).toMatchObject({
        spelling,
        answer: { ok: false, error: { code: 'invalidInput', field: 'name' } },
      });
    }
    // A name without the key is still taken.
    expect((await request('accounts.rename', { id, name: 'Client B' })).ok).toBe(true);
    expect(await savedNames()).toEqual(['Client B']);
    await backend.close();
    expect(await tracesOnDisk()).toEqual([]);
  });

  it('refuses as the new key one that the account name already holds', async () => {
    const { request } = await makeBackend();
    // Another key's account may be named anything, this key's first characters included.
    const name = `North ${KEY.slice(0, 12)}`;
    const added = await request('accounts.add', { name, baseUrl: service.baseUrl, apiKey: OTHER_KEY });
    if (!added.ok) throw new Error(added.error.message);
    const { id } = (added.value as { account: { id: string } }).account;
    const answer = await request('accounts.replaceKey', { id, apiKey: KEY });
    expect(answer).toMatchObject({
      ok: false,
      error: {
        code: 'invalidInput',
        field: 'apiKey',
        message: expect.stringContaining("The account's name contains this API key"),
      },
    });
    expect([...keytar.entries.values()]).toEqual([OTHER_KEY]);
  });

  it('is any name that does not: a name may share a few characters with the key', async () => {
    const { request } = await makeBackend();
    const name = `Site ${KEY.slice(0, 4)} ${KEY.slice(-4)}`;
    const added = await request('accounts.add', { name, baseUrl: service.baseUrl, apiKey: KEY });
    expect(added.ok).toBe(true);
    expect(await savedNames()).toEqual([name]);
  });
});
