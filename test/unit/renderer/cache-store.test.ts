import { beforeEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import type { CacheSummary, CachedInstrumentSummary } from '../../../src/shared/data';
import { FieldDeskError } from '../../../src/shared/errors';
import { createFakeBackend, expectCalledWith, fakePinia } from './fake-api';
import { account, deferred } from './fixtures';
import { useCacheStore } from '../../../src/renderer/src/features/cache/store';
import { useAccountsStore } from '../../../src/renderer/src/features/accounts/store';

/** The fake backend the stores talk to instead of `window.fielddesk`, typed from the contract. */
const backend = createFakeBackend();
const fake = backend.api;

const ACCOUNTS = [account(), account({ id: 'acc-2', name: 'Rail depot' })];
const VAULT = { storage: 'keychain', reason: null } as const;

const cached = (serial: string, accountId = 'acc-1', bytes = 1_000): CachedInstrumentSummary => ({
  accountId,
  serial,
  bytes,
  datasets: [],
});
const summaryOf = (...instruments: CachedInstrumentSummary[]): CacheSummary => ({
  totalBytes: instruments.reduce((n, i) => n + i.bytes, 0),
  instruments,
});

/** QT1 and QT2 of acc-1, VB9 of acc-2. */
const BOTH = summaryOf(cached('QT1'), cached('QT2'), cached('VB9', 'acc-2'));

beforeEach(() => {
  fakePinia(backend);
  backend.reset();
  useAccountsStore().apply({ accounts: ACCOUNTS, activeId: 'acc-1', vault: VAULT });
});

async function switchTo(id: string): Promise<void> {
  fake.accounts.activate.mockResolvedValueOnce({ accounts: ACCOUNTS, activeId: id, vault: VAULT });
  await useAccountsStore().activate(id);
  await nextTick();
}

describe('cache store', () => {
  it('reads what is kept offline, and shows only the active account’s instruments', async () => {
    const answer = deferred<CacheSummary>();
    fake.cache.summary.mockReturnValueOnce(answer.promise);
    const store = useCacheStore();
    const loading = store.load();
    expect(store.loading).toBe(true);
    answer.resolve(BOTH);
    await loading;
    expect(store.loading).toBe(false);
    expect(store.instrumentsOfActiveAccount().map((i) => i.serial)).toEqual(['QT1', 'QT2']);
    expect(store.forSerial('QT2')?.bytes).toBe(1_000);
    expect(store.forSerial('VB9')).toBeNull();
  });

  it('shows a failed read and keeps what it showed; a read that succeeds clears the error', async () => {
    fake.cache.summary.mockResolvedValueOnce(BOTH);
    const store = useCacheStore();
    await store.load();
    fake.cache.summary.mockRejectedValueOnce(new FieldDeskError('internal', 'The offline store is damaged.'));
    await store.load();
    expect(store.error?.message).toBe('The offline store is damaged.');
    expect(store.loading).toBe(false);
    expect(store.instrumentsOfActiveAccount()).toHaveLength(2);

    fake.cache.summary.mockResolvedValueOnce(summaryOf(cached('QT1')));
    await store.load();
    expect(store.error).toBeNull();
    expect(store.instrumentsOfActiveAccount().map((i) => i.serial)).toEqual(['QT1']);
  });

  it('clears one instrument or everything, says which while it clears, and shows what is left', async () => {
    fake.cache.summary.mockResolvedValueOnce(BOTH);
    const store = useCacheStore();
    await store.load();
    const cleared = deferred<CacheSummary>();
    fake.cache.clear.mockReturnValueOnce(cleared.promise);
    const clearing = store.clear('QT2');
    expect(store.clearing).toBe('QT2');
    cleared.resolve(summaryOf(cached('QT1'), cached('VB9', 'acc-2')));
    await clearing;
    expectCalledWith(fake.cache.clear, { serial: 'QT2' });
    expect(store.clearing).toBeNull();
    expect(store.forSerial('QT2')).toBeNull();

    fake.cache.clear.mockResolvedValueOnce(summaryOf());
    const all = store.clear();
    expect(store.clearing).toBe('all');
    await all;
    expectCalledWith(fake.cache.clear, {});
    expect(store.instrumentsOfActiveAccount()).toEqual([]);
  });

  it('passes a refused clear on for the screen to say, and keeps what it showed', async () => {
    fake.cache.summary.mockResolvedValueOnce(BOTH);
    const store = useCacheStore();
    await store.load();
    fake.cache.clear.mockRejectedValueOnce(new FieldDeskError('diskError', 'The disk is read-only.'));
    await expect(store.clear('QT1')).rejects.toMatchObject({ code: 'diskError' });
    expect(store.clearing).toBeNull();
    expect(store.forSerial('QT1')).not.toBeNull();
  });

  it('does not show cleared data again when a read asked before the clear answers after it', async () => {
    const before = deferred<CacheSummary>();
    fake.cache.summary.mockReturnValueOnce(before.promise);
    const store = useCacheStore();
    // A sync ends (its read of the summary starts), then the user clears everything.
    const reading = store.load();
    fake.cache.clear.mockResolvedValueOnce(summaryOf());
    await store.clear();
    before.resolve(BOTH);
    await reading;
    expect(store.instrumentsOfActiveAccount()).toEqual([]);
    expect(store.loading).toBe(false);
  });

  it('reads again on an account switch once it has read, and shows the new account’s instruments', async () => {
    fake.cache.summary.mockResolvedValueOnce(BOTH);
    const store = useCacheStore();
    await store.load();
    fake.cache.summary.mockResolvedValueOnce(BOTH);
    await switchTo('acc-2');
    expect(fake.cache.summary).toHaveBeenCalledTimes(2);
    await vi.waitFor(() => expect(store.loading).toBe(false));
    expect(store.instrumentsOfActiveAccount().map((i) => i.serial)).toEqual(['VB9']);
  });

  it('reads nothing on an account switch when nothing was read before', async () => {
    useCacheStore();
    await switchTo('acc-2');
    expect(fake.cache.summary).not.toHaveBeenCalled();
  });
});
