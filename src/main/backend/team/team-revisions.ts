/**
 * A team record's revisions in the local PouchDB database: its live and deleted leaves, the winner
 * CouchDB's rule picks, the deletions a live version was not chosen over (a deletion conflict), the
 * version two versions share (for a safe merge), and its history as changes (who did what).
 */
import type PouchDB from 'pouchdb-node';
import { teamRecordTitle, type TeamChange } from '../../../shared/team';
import { SAFE_RECORD_ID } from './record-check';
import { TEAM_KINDS, type JsonRecord, type TeamDocument, type TeamKind } from './team-documents';

export type TeamDatabase = PouchDB.Database<TeamDocument>;
export type Doc = PouchDB.Existing<TeamDocument>;
/** A tombstone; `resolved` when written as a conflict was resolved (not a user's deletion of the record). */
export type Tombstone = Omit<TeamDocument, 'record'> & { record: null; _deleted: true; resolved?: boolean };
export type Leaf = Doc | (Tombstone & { _rev: string });

export const isNotFound = (error: unknown): boolean => (error as { status?: number } | null)?.status === 404;

export const parseDocumentId = (id: string): { kind: TeamKind; recordId: string } | null => {
  const at = id.indexOf(':');
  const kind = id.slice(0, at) as TeamKind;
  const recordId = id.slice(at + 1);
  return at > 0 && TEAM_KINDS.includes(kind) && SAFE_RECORD_ID.test(recordId) ? { kind, recordId } : null;
};

export async function leavesOf(db: TeamDatabase, id: string): Promise<Leaf[]> {
  const answer = await db.get(id, { open_revs: 'all' });
  return answer.flatMap((leaf) => (leaf.ok === undefined ? [] : [leaf.ok]));
}

export async function winnerOf(db: TeamDatabase, id: string): Promise<Doc | null> {
  try {
    return await db.get(id, { conflicts: true });
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Deletions a user made that the live version was not chosen over: a deletion conflict. */
export const openDeletions = (all: readonly Leaf[], winner: Doc): Leaf[] =>
  all.filter(
    (leaf) =>
      leaf._deleted === true &&
      (leaf as Tombstone).resolved !== true &&
      !(winner.keptOver ?? []).includes(leaf._rev),
  );

/** The content of the version two versions share, when this laptop still has it. */
export async function commonAncestor(
  db: TeamDatabase,
  docId: string,
  a: string,
  b: string,
): Promise<JsonRecord | null> {
  const history = async (rev: string): Promise<string[]> => {
    const doc = await db.get(docId, { rev, revs: true });
    const revisions = doc._revisions;
    return revisions === undefined ? [] : revisions.ids.map((hash, i) => `${revisions.start - i}-${hash}`);
  };
  const ofB = new Set(await history(b));
  for (const rev of await history(a)) {
    if (!ofB.has(rev)) continue;
    try {
      const base = await db.get(docId, { rev });
      return base.record;
    } catch {
      return null; // the shared version's content is not on this laptop: the user chooses
    }
  }
  return null;
}

/** Versions of a record kept on this laptop, newest first, each as a change (up to `perRecord`). */
async function versionsOf(db: TeamDatabase, docId: string, perRecord: number): Promise<TeamChange[]> {
  const parsed = parseDocumentId(docId);
  if (parsed === null) return [];
  const latest = await db.get(docId, { revs_info: true }).catch(() => null);
  const available = (latest?._revs_info ?? [])
    .filter((info) => info.status === 'available')
    .slice(0, perRecord);
  const changes: Array<TeamChange & { named: boolean }> = [];
  for (const info of available) {
    const version = await db.get(docId, { rev: info.rev }).catch(() => null);
    if (version === null) continue;
    changes.push({
      kind: parsed.kind,
      recordId: parsed.recordId,
      title: teamRecordTitle(parsed.kind, parsed.recordId, version.record ?? {}),
      named: version.record !== null,
      change: version._deleted === true ? 'deleted' : info.rev.startsWith('1-') ? 'added' : 'changed',
      changedBy: version.changedBy,
      changedAt: version.changedAt,
    });
  }
  // A deletion is named as the record was before it.
  return changes.map(({ named, ...change }, index) => ({
    ...change,
    title: named
      ? change.title
      : (changes.slice(index + 1).find((older) => older.named)?.title ?? change.title),
  }));
}

/** The newest changes of a site's records (the site and its visits), newest first. */
export async function siteChangesOf(db: TeamDatabase, siteId: string, limit: number): Promise<TeamChange[]> {
  const ids = new Set<string>();
  // Deleted records too: the feed holds every record's newest version, tombstones included.
  const feed = await db.changes({ since: 0, include_docs: true });
  for (const row of feed.results) if (row.doc?.site === siteId) ids.add(row.id);
  const all = (await Promise.all([...ids].map((id) => versionsOf(db, id, 5)))).flat();
  return all.sort((a, b) => b.changedAt - a.changedAt).slice(0, limit);
}
