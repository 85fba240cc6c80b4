/**
 * Which site syncs ended while the user looked elsewhere, and the notice each leaves (in the
 * desktop notice's words, shared/sync-outcome.ts). Pure: ActionNotices.vue follows the syncs and
 * shows them.
 */
import type { SyncSnapshot } from '../../../../shared/data';
import { syncEndedNotice, syncOutcome } from '../../../../shared/sync-outcome';
import { isSyncActive } from '../sync/logic';

export interface SyncEndedNotice {
  id: string;
  text: string;
  failed: boolean;
}

/**
 * The syncs of `all` seen running before (`running`) that have ended, as notices — none while the
 * sync dialog is open (it shows the end itself), none for one the user stopped — and the syncs
 * running now, to remember for the next change.
 */
export function endedSyncNotices(
  all: readonly SyncSnapshot[],
  running: ReadonlySet<string>,
  dialogOpen: boolean,
  clock: (epochMs: number) => string,
): { notices: SyncEndedNotice[]; running: Set<string> } {
  const next = new Set<string>();
  const notices: SyncEndedNotice[] = [];
  for (const snapshot of all) {
    if (isSyncActive(snapshot)) {
      next.add(snapshot.id);
      continue;
    }
    if (!running.has(snapshot.id) || dialogOpen) continue;
    const ended = syncEndedNotice(snapshot);
    if (ended !== null)
      notices.push({
        id: snapshot.id,
        text: `${ended.title} (${clock(snapshot.updatedAt)}): ${ended.body}`,
        failed: syncOutcome(snapshot) !== 'complete',
      });
  }
  return { notices, running: next };
}
