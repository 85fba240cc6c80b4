/** How a site sync ended, in the words the sync view and the desktop notice share. */
import type { SyncSnapshot } from './data';

export type SyncOutcome = 'complete' | 'gaps' | 'failed' | 'cancelled' | 'interrupted';

export function syncOutcome(snapshot: Pick<SyncSnapshot, 'state' | 'failures'>): SyncOutcome | null {
  switch (snapshot.state) {
    case 'succeeded':
      // A success that still names failures is not one.
      return snapshot.failures.length > 0 ? 'gaps' : 'complete';
    case 'withGaps':
      return 'gaps';
    case 'failed':
    case 'timedOut':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    case 'interrupted':
      return 'interrupted';
    default:
      return null;
  }
}
