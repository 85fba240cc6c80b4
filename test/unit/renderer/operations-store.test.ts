import { beforeEach, describe, expect, it } from 'vitest';
import { createFakeBackend, expectCalledWith, fakePinia } from './fake-api';
import { FieldDeskError } from '../../../src/shared/errors';
import type { OperationSnapshot } from '../../../src/shared/operations';
import { account, actionSnapshot as snapshot } from './fixtures';
import { useOperationsStore } from '../../../src/renderer/src/features/operations/store';
import { useActionsStore } from '../../../src/renderer/src/features/actions/store';
import { useAccountsStore } from '../../../src/renderer/src/features/accounts/store';
import { useConnectivityStore } from '../../../src/renderer/src/features/connectivity/store';

/** The fake backend the stores talk to instead of `window.fielddesk`, typed from the contract. */
const backend = createFakeBackend();
const fake = backend.api;

describe('operations store', () => {
  beforeEach(() => {
    fakePinia(backend);
    backend.reset();
    useAccountsStore().apply({
      accounts: [account()],
      activeId: 'acc-1',
      vault: { storage: 'keychain', reason: null },
    });
  });

  it('re-attaches at start: a running calibration from list() shows for its instrument', async () => {
    fake.operations.list.mockResolvedValueOnce([
      snapshot(),
      snapshot({ id: 'old', state: 'succeeded', startedAt: 10 }),
    ]);
    const store = useOperationsStore();
    await store.start();
    expect(store.activeFor('QT100001')?.id).toBe('op-1');
    expect(store.running.map((s) => s.id)).toEqual(['op-1']);
    store.stop();
  });

  it('follows progress events, and an event during the initial load is not lost', async () => {
    let answer!: (value: OperationSnapshot[]) => void;
    fake.operations.list.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const store = useOperationsStore();
    const started = store.start();
    backend.emit('operations.progress', snapshot({ updatedAt: 5_000, state: 'succeeded', phase: 'Done' }));
    answer([snapshot({ updatedAt: 2_000 })]);
    await started;
    expect(store.get('op-1')?.state).toBe('succeeded');
    expect(store.running).toEqual([]);
    store.stop();
  });

  it('keeps the first progress event when the start answer lands after it', async () => {
    const store = useOperationsStore();
    fake.operations.list.mockResolvedValueOnce([]);
    await store.start();
    fake.actions.start.mockImplementationOnce(async () => {
      backend.emit(
        'operations.progress',
        snapshot({ updatedAt: 3_000, phase: 'Waiting for the instrument' }),
      );
      return snapshot({ state: 'starting', phase: 'Sending request', updatedAt: 1_000 });
    });
    const started = await useActionsStore().start('QT100001', 'Calibration');
    expectCalledWith(fake.actions.start, { serial: 'QT100001', action: 'Calibration' });
    expect(started.phase).toBe('Waiting for the instrument');
    store.stop();
  });

  it('shows only the active account’s running operations', async () => {
    fake.operations.list.mockResolvedValueOnce([snapshot({ accountId: 'someone-else' })]);
    const store = useOperationsStore();
    await store.start();
    expect(store.running).toEqual([]);
    expect(store.activeFor('QT100001')).toBeNull();
    store.stop();
  });

  it('passes a refused start on, leaving connectivity to the backend', async () => {
    fake.actions.start.mockRejectedValueOnce(new FieldDeskError('offline', 'Cannot reach the service.'));
    await expect(useActionsStore().start('QT100001', 'Identify')).rejects.toMatchObject({ code: 'offline' });
    expect(useConnectivityStore().isOffline).toBe(false);
  });

  it('applies the cancelled snapshot with the backend’s words', async () => {
    fake.operations.list.mockResolvedValueOnce([snapshot()]);
    const store = useOperationsStore();
    await store.start();
    fake.operations.cancel.mockResolvedValueOnce(
      snapshot({
        state: 'cancelled',
        updatedAt: 9_000,
        message: 'The instrument may still be running the calibration',
      }),
    );
    await store.cancel('op-1');
    expectCalledWith(fake.operations.cancel, { id: 'op-1' });
    expect(store.get('op-1')?.message).toContain('may still be running');
    expect(store.activeFor('QT100001')).toBeNull();
    store.stop();
  });
});
