import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { FieldDeskError } from '../../../src/shared/errors';
import { account, actionSnapshot as snapshot } from './fixtures';

/** The fake backend: `emit` pushes an `operations.progress` event to the store's listener. */
const fake = vi.hoisted(() => {
  const listeners = new Set<(s: unknown) => void>();
  return {
    list: vi.fn<() => Promise<unknown[]>>(),
    start: vi.fn<(arg: { serial: string; action: string }) => Promise<unknown>>(),
    cancel: vi.fn<(arg: { id: string }) => Promise<unknown>>(),
    listeners,
    emit: (snapshot: unknown) => listeners.forEach((listener) => listener(snapshot)),
  };
});

vi.mock('../../../src/renderer/src/api', () => ({
  api: {
    operations: {
      list: fake.list,
      cancel: fake.cancel,
      onProgress: (listener: (s: unknown) => void) => {
        fake.listeners.add(listener);
        return () => fake.listeners.delete(listener);
      },
    },
    actions: { start: fake.start },
    accounts: { onChanged: () => () => undefined },
    connectivity: { onChanged: () => () => undefined },
  },
}));

const { useOperationsStore } = await import('../../../src/renderer/src/features/operations/store');
const { useAccountsStore } = await import('../../../src/renderer/src/features/accounts/store');
const { useConnectivityStore } = await import('../../../src/renderer/src/features/connectivity/store');

describe('operations store', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    fake.listeners.clear();
    vi.clearAllMocks();
    useAccountsStore().apply({
      accounts: [account()],
      activeId: 'acc-1',
      vault: { storage: 'keychain', reason: null },
    });
  });

  it('re-attaches at start: a running calibration from list() shows for its instrument', async () => {
    fake.list.mockResolvedValueOnce([snapshot(), snapshot({ id: 'old', state: 'succeeded', startedAt: 10 })]);
    const store = useOperationsStore();
    await store.start();
    expect(store.activeFor('QT100001')?.id).toBe('op-1');
    expect(store.running.map((s) => s.id)).toEqual(['op-1']);
    store.stop();
  });

  it('follows progress events, and an event during the initial load is not lost', async () => {
    let answer!: (value: unknown[]) => void;
    fake.list.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const store = useOperationsStore();
    const started = store.start();
    fake.emit(snapshot({ updatedAt: 5_000, state: 'succeeded', phase: 'Done' }));
    answer([snapshot({ updatedAt: 2_000 })]);
    await started;
    expect(store.get('op-1')?.state).toBe('succeeded');
    expect(store.running).toEqual([]);
    store.stop();
  });

  it('keeps the first progress event when the start answer lands after it', async () => {
    const store = useOperationsStore();
    fake.list.mockResolvedValueOnce([]);
    await store.start();
    fake.start.mockImplementationOnce(async () => {
      fake.emit(snapshot({ updatedAt: 3_000, phase: 'Waiting for the instrument' }));
      return snapshot({ state: 'starting', phase: 'Sending request', updatedAt: 1_000 });
    });
    const started = await store.startAction('QT100001', 'Calibration');
    expect(fake.start).toHaveBeenCalledWith({ serial: 'QT100001', action: 'Calibration' });
    expect(started.phase).toBe('Waiting for the instrument');
    store.stop();
  });

  it('shows only the active account’s running operations', async () => {
    fake.list.mockResolvedValueOnce([snapshot({ accountId: 'someone-else' })]);
    const store = useOperationsStore();
    await store.start();
    expect(store.running).toEqual([]);
    expect(store.activeFor('QT100001')).toBeNull();
    store.stop();
  });

  it('passes a refused start on, leaving connectivity to the backend', async () => {
    const store = useOperationsStore();
    fake.start.mockRejectedValueOnce(new FieldDeskError('offline', 'Cannot reach the service.'));
    await expect(store.startAction('QT100001', 'Identify')).rejects.toMatchObject({ code: 'offline' });
    expect(useConnectivityStore().isOffline).toBe(false);
  });

  it('applies the cancelled snapshot with the backend’s words', async () => {
    fake.list.mockResolvedValueOnce([snapshot()]);
    const store = useOperationsStore();
    await store.start();
    fake.cancel.mockResolvedValueOnce(
      snapshot({
        state: 'cancelled',
        updatedAt: 9_000,
        message: 'The instrument may still be running the calibration',
      }),
    );
    await store.cancel('op-1');
    expect(fake.cancel).toHaveBeenCalledWith({ id: 'op-1' });
    expect(store.get('op-1')?.message).toContain('may still be running');
    expect(store.activeFor('QT100001')).toBeNull();
    store.stop();
  });
});
