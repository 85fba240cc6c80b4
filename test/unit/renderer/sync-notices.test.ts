/**
 * A site sync that ends while the user looks elsewhere leaves a notice in the app, in the desktop
 * notice's words: only one seen running, not while the sync dialog shows it, not one stopped.
 */
import { describe, expect, it } from 'vitest';
import { endedSyncNotices } from '../../../src/renderer/src/features/operations/sync-notices';
import type { SyncSnapshot } from '../../../src/shared/data';

function sync(overrides: Partial<SyncSnapshot>): SyncSnapshot {
  return {
    id: 'sync-1',
    kind: 'sync',
    accountId: 'acc-1',
    serials: ['QT930998', 'QT380979'],
    start: 0,
    end: 86_400_000,
    state: 'running',
    phase: 'Fetching',
    startedAt: 1_000,
    updatedAt: 20_000,
    elapsedMs: 19_000,
    done: 3,
    total: 10,
    fetched: 3,
    bytes: 1_000,
    etaMs: null,
    message: 'Ready for the site visit: 2 instruments available offline (3.1 MB fetched).',
    failures: [],
    error: null,
    ...overrides,
  };
}
const clock = (at: number) => `t${at}`;

describe('notices of syncs that ended elsewhere', () => {
  it('says the end of a sync seen running, in the desktop notice’s words', () => {
    const seen = endedSyncNotices([sync({})], new Set(), false, clock);
    expect(seen.notices).toEqual([]);
    expect([...seen.running]).toEqual(['sync-1']);
    const ended = endedSyncNotices([sync({ state: 'succeeded' })], seen.running, false, clock);
    expect(ended.notices).toEqual([
      {
        id: 'sync-1',
        text: 'Site sync finished — ready for the visit (t20000): QT930998 and QT380979. Ready for the site visit: 2 instruments available offline (3.1 MB fetched).',
        failed: false,
      },
    ]);
    expect(ended.running.size).toBe(0);
  });

  it('says nothing while the dialog shows it, for one stopped, or one that ended before it was seen', () => {
    const running = new Set(['sync-1']);
    expect(endedSyncNotices([sync({ state: 'succeeded' })], running, true, clock).notices).toEqual([]);
    expect(endedSyncNotices([sync({ state: 'cancelled' })], running, false, clock).notices).toEqual([]);
    expect(endedSyncNotices([sync({ state: 'succeeded' })], new Set(), false, clock).notices).toEqual([]);
    expect(endedSyncNotices([sync({ state: 'withGaps' })], running, false, clock).notices[0]?.failed).toBe(
      true,
    );
  });
});
