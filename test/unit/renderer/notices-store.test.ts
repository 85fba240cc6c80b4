/** The app's notices: asked once at start, then followed; dismissing one answers the rest. */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppNotice } from '../../../src/shared/ipc/contract';
import { deferred } from './fixtures';
import { createFakeBackend, fakePinia } from './fake-api';
import { useNoticesStore } from '../../../src/renderer/src/features/app/notices';

const backend = createFakeBackend();
const fake = backend.api;

const notice = (id: string, message: string): AppNotice => ({ id, tone: 'warning', message, since: 1 });

beforeEach(() => {
  fakePinia(backend);
  backend.reset();
});

describe('notices store', () => {
  it('shows what the backend listed at start, then follows its events', async () => {
    fake.app.notices.mockResolvedValue([notice('database-set-aside', 'The database was set aside.')]);
    const store = useNoticesStore();
    store.start();
    await vi.waitFor(() => expect(store.notices.map((n) => n.id)).toEqual(['database-set-aside']));
    backend.emit('app.noticesChanged', []);
    expect(store.notices).toEqual([]);
    store.stop();
    expect(backend.listenerCount('app.noticesChanged')).toBe(0);
  });

  it('keeps an event that came before the slower first answer', async () => {
    const first = deferred<AppNotice[]>();
    fake.app.notices.mockReturnValue(first.promise);
    const store = useNoticesStore();
    store.start();
    backend.emit('app.noticesChanged', [notice('actions-journal', 'Kept in the journal.')]);
    first.resolve([]);
    await first.promise;
    await Promise.resolve();
    expect(store.notices.map((n) => n.id)).toEqual(['actions-journal']);
  });

  it('dismisses a notice and says so when it cannot', async () => {
    fake.app.notices.mockResolvedValue([notice('a', 'A'), notice('b', 'B')]);
    fake.app.dismissNotice.mockResolvedValueOnce([notice('b', 'B')]);
    const store = useNoticesStore();
    store.start();
    await vi.waitFor(() => expect(store.notices).toHaveLength(2));
    await store.dismiss('a');
    expect(store.notices.map((n) => n.id)).toEqual(['b']);
    fake.app.dismissNotice.mockRejectedValueOnce(new Error('gone'));
    await store.dismiss('b');
    expect(store.dismissError).not.toBeNull();
  });
});
