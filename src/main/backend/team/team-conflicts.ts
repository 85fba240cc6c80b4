/**
 * The records in conflict and their resolution. A record is noted as it is received when it has
 * two live versions or a deletion a live version was not chosen over (`note`), so listing the
 * conflicts reads those few records, not every record of a team; the list is kept in the database
 * (`_local/conflicts`) across restarts. Resolving keeps one version for everyone: the others become
 * tombstones marked `resolved` (never shown as a user's deletion), and a kept version names the
 * deletions it was chosen over.
 */
import { FieldDeskError } from '../../../shared/errors';
import type { TeamConflict } from '../../../shared/team';
import {
  leavesOf,
  openDeletions,
  parseDocumentId,
  winnerOf,
  type Doc,
  type TeamDatabase,
  type Tombstone,
} from './team-revisions';

const SUSPECTS = '_local/conflicts';

export interface ConflictDeskDeps {
  db: TeamDatabase;
  /** The replica's one queue of writes. */
  serial<T>(work: () => Promise<T>): Promise<T>;
  engineer(): string;
  now(): number;
  markWaiting(ids: readonly string[]): Promise<void>;
}

export interface ConflictDesk {
  /** Notes whether a record is in conflict now (as it is received). */
  note(id: string, inConflict: boolean): Promise<void>;
  list(): Promise<TeamConflict[]>;
  /** Keeps one version (`keepRev`), or the deletion (null), for everyone. */
  resolve(id: string, keepRev: string | null): Promise<void>;
}

export async function openConflictDesk(deps: ConflictDeskDeps): Promise<ConflictDesk> {
  const { db } = deps;
  // The records that may be in conflict, kept up to date as each change is received, so listing
  // the conflicts reads those few and not every record of the team.
  const suspectsDoc = await db.get<{ ids: string[] }>(SUSPECTS).catch(() => null);
  const suspects = new Set<string>(suspectsDoc?.ids ?? []);
  let suspectsKnown = suspectsDoc !== null;
  async function noteSuspect(id: string, inConflict: boolean): Promise<void> {
    if (inConflict === suspects.has(id)) return;
    if (inConflict) suspects.add(id);
    else suspects.delete(id);
    const doc = await db.get<{ ids: string[] }>(SUSPECTS).catch(() => null);
    await db.put({ _id: SUSPECTS, ...(doc === null ? {} : { _rev: doc._rev }), ids: [...suspects] });
  }

  async function list(): Promise<TeamConflict[]> {
    const found: TeamConflict[] = [];
    if (!suspectsKnown) {
      const all = await db.allDocs({ startkey: 'a', endkey: '\uffff' });
      for (const row of all.rows) suspects.add(row.id);
      suspectsKnown = true;
    }
    for (const id of [...suspects]) {
      const parsed = parseDocumentId(id);
      const winner = await winnerOf(db, id);
      if (parsed === null || winner === null) {
        await deps.serial(() => noteSuspect(id, false));
        continue;
      }
      const versions = await leavesOf(db, id);
      const deletions = openDeletions(versions, winner);
      if (deletions.length === 0 && (winner._conflicts ?? []).length === 0) {
        await deps.serial(() => noteSuspect(id, false));
        continue;
      }
      const shown = [
        winner,
        ...versions.filter((v) => v._rev !== winner._rev && (v._deleted !== true || deletions.includes(v))),
      ];
      found.push({
        id,
        kind: parsed.kind,
        recordId: parsed.recordId,
        site: winner.site,
        type: deletions.length > 0 ? 'deleted' : 'edited',
        versions: shown.map((v) => ({
          rev: v._rev,
          deleted: v._deleted === true,
          record: v.record,
          changedBy: v.changedBy,
          changedAt: v.changedAt,
        })),
      });
    }
    return found;
  }

  async function resolve(id: string, keepRev: string | null): Promise<void> {
    await deps.serial(async () => {
      const winner = await winnerOf(db, id);
      if (winner === null) throw new FieldDeskError('notFound', 'That record is no longer in conflict.');
      const all = await leavesOf(db, id);
      const live = all.filter((leaf): leaf is Doc => leaf._deleted !== true);
      const deletions = openDeletions(all, winner);
      const kept = keepRev === null ? null : live.find((leaf) => leaf._rev === keepRev);
      if (keepRev !== null && kept === undefined)
        throw new FieldDeskError(
          'conflict',
          'That version is no longer one of the record’s versions; look again.',
        );
      const tombstone = (leaf: Doc, resolved: boolean): Tombstone & { _rev: string } => ({
        _id: id,
        _rev: leaf._rev,
        _deleted: true,
        kind: leaf.kind,
        site: leaf.site,
        record: null,
        changedBy: deps.engineer(),
        changedAt: deps.now(),
        ...(resolved ? { resolved: true } : {}),
      });
      if (kept === null || kept === undefined) {
        await db.bulkDocs(live.map((leaf) => tombstone(leaf, false)));
      } else {
        await db.bulkDocs([
          {
            ...winner,
            _conflicts: undefined,
            record: kept.record,
            changedBy: deps.engineer(),
            changedAt: deps.now(),
            keptOver: [...(winner.keptOver ?? []), ...deletions.map((leaf) => leaf._rev)],
          },
          ...live.filter((leaf) => leaf._rev !== winner._rev).map((leaf) => tombstone(leaf, true)),
        ]);
      }
      await deps.markWaiting([id]);
    });
  }

  return { note: noteSuspect, list, resolve };
}
