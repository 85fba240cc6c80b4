/** Stores take the API their pinia was given (api-injection.ts), and say so plainly when it has none. */
import { afterEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { NO_API_MESSAGE, provideApi, useApi } from '../../../src/renderer/src/api-injection';
import { useConnectivityStore } from '../../../src/renderer/src/features/connectivity/store';
import { createFakeBackend, fakePinia } from './fake-api';

afterEach(() => {
  setActivePinia(undefined);
});

describe('useApi', () => {
  it('throws its advice when the active pinia was given no API', () => {
    setActivePinia(createPinia());
    expect(() => useApi()).toThrow(NO_API_MESSAGE);
    // A store's setup is where it is asked: the store cannot be made.
    expect(() => useConnectivityStore()).toThrow(NO_API_MESSAGE);
  });

  it('throws the same advice when there is no pinia at all', () => {
    setActivePinia(undefined);
    expect(() => useApi()).toThrow(NO_API_MESSAGE);
  });

  it('answers the API given to the active pinia', () => {
    const backend = createFakeBackend();
    fakePinia(backend);
    expect(useApi()).toBe(backend.api);
  });

  it('gives each pinia’s stores that pinia’s API', async () => {
    const first = createFakeBackend();
    const second = createFakeBackend();
    const firstPinia = fakePinia(first);
    const secondPinia = provideApi(createPinia(), second.api);
    first.api.connectivity.get.mockResolvedValue({
      state: 'online',
      accountId: 'acc-1',
      since: 1,
      message: null,
    });
    second.api.connectivity.get.mockResolvedValue({
      state: 'offline',
      accountId: 'acc-2',
      since: 1,
      message: 'No network.',
    });

    const one = useConnectivityStore(firstPinia);
    const two = useConnectivityStore(secondPinia);
    one.start();
    two.start();
    await new Promise((resolve) => setTimeout(resolve, 0));

    expect(one.current.state).toBe('online');
    expect(two.current.state).toBe('offline');
    expect(first.listenerCount('connectivity.changed')).toBe(1);
    expect(second.listenerCount('connectivity.changed')).toBe(1);
  });
});
