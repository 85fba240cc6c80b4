/** Connectivity is the backend's word: asked once at start, then followed through its events. */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Connectivity } from '../../../src/shared/ipc/contract';
import { FieldDeskError } from '../../../src/shared/errors';
import { deferred } from './fixtures';
import { createFakeBackend, fakePinia } from './fake-api';
import { useConnectivityStore } from '../../../src/renderer/src/features/connectivity/store';

/** The fake backend the stores talk to instead of `window.fielddesk`, typed from the contract. */
const backend = createFakeBackend();
const fake = backend.api;

const offline = (since: number): Connectivity => ({
  state: 'offline',
  accountId: 'acc-1',
  since,
  message: 'Cannot reach api.mycirrus.cloud.',
});
const online = (since: number): Connectivity => ({
  state: 'online',
  accountId: 'acc-1',
  since,
  message: null,
});

beforeEach(() => {
  fakePinia(backend);
  backend.reset();
});

describe('connectivity store', () => {
  it('asks the backend once when it starts, then follows its events', async () => {
    fake.connectivity.get.mockResolvedValue(offline(10));
    const store = useConnectivityStore();
    expect(store.current.state).toBe('unknown');
    store.start();
    store.start();
    await vi.waitFor(() => expect(store.isOffline).toBe(true));
    expect(fake.connectivity.get).toHaveBeenCalledTimes(1);
    expect(backend.listenerCount('connectivity.changed')).toBe(1);

    backend.emit('connectivity.changed', online(20));
    expect(store.current).toEqual(online(20));
    store.stop();
    expect(backend.listenerCount('connectivity.changed')).toBe(0);
  });

  it('keeps an event that arrives before the slower answer to its first question', async () => {
    const answer = deferred<Connectivity>();
    fake.connectivity.get.mockReturnValueOnce(answer.promise);
    const store = useConnectivityStore();
    store.start();
    backend.emit('connectivity.changed', online(20));
    answer.resolve(offline(10));
    await answer.promise;
    await Promise.resolve();
    expect(store.current).toEqual(online(20));
  });

  it('stays unknown when the question fails: a failed request does not decide connectivity', async () => {
    fake.connectivity.get.mockRejectedValueOnce(new FieldDeskError('offline', 'The backend is not running.'));
    const store = useConnectivityStore();
    store.start();
    await vi.waitFor(() => expect(fake.connectivity.get).toHaveBeenCalled());
    await Promise.resolve();
    expect(store.current.state).toBe('unknown');
    expect(store.isOffline).toBe(false);
  });

  it('says when the offline banner already explains a failure', () => {
    const store = useConnectivityStore();
    store.start();
    const unreachable = new FieldDeskError('timeout', 'No answer in time.');
    const refused = new FieldDeskError('serverError', 'The service had a problem.');
    expect(store.explains(unreachable)).toBe(false);
    backend.emit('connectivity.changed', offline(5));
    expect(store.explains(unreachable)).toBe(true);
    expect(store.explains(new FieldDeskError('offline', 'x'))).toBe(true);
    expect(store.explains(refused)).toBe(false);
    expect(store.explains(null)).toBe(false);
  });
});
