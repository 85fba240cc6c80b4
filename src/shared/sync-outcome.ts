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

/** A notice in a title and a body: the desktop's, and the app's own when the user looked elsewhere. */
export interface Notice {
  title: string;
  body: string;
}

/** "QT1", "QT1 and QT2", "QT1, QT2 and 3 more": the instruments a sync was for. */
export function instrumentsText(serials: readonly string[]): string {
  if (serials.length <= 2) return serials.join(' and ');
  if (serials.length === 3) return `${serials[0]}, ${serials[1]} and ${serials[2]}`;
  return `${serials[0]}, ${serials[1]} and ${serials.length - 2} more`;
}

/**
 * What to tell the user about a site sync that ended: what it was for and how it ended (its own
 * message says what is available offline, what is missing, or why nothing could be fetched). Null
 * while it runs, and when the user stopped it or FieldDesk closed during it (nothing to report).
 */
export function syncEndedNotice(snapshot: SyncSnapshot): Notice | null {
  const outcome = syncOutcome(snapshot);
  if (outcome === null || outcome === 'cancelled' || outcome === 'interrupted') return null;
  const what = `${instrumentsText(snapshot.serials)}.`;
  if (outcome === 'complete')
    return { title: 'Site sync finished — ready for the visit', body: `${what} ${snapshot.message}` };
  if (outcome === 'gaps')
    return { title: 'Site sync finished with gaps', body: `${what} ${snapshot.message}` };
  return { title: 'Site sync failed', body: `${what} ${snapshot.message}` };
}
