/**
 * The bridge between records.db and the team's local database (team-replica.ts), both ways:
 *
 * - out: every committed change of a shared record becomes a new revision, or a tombstone that keeps
 *   the record's kind and site;
 * - in: a document changed in the local database (a colleague's, arriving by replication) is written
 *   into records.db — journalled and backed up like the user's own — unless it is in conflict; two
 *   live versions are merged where safe (three-way-merge.ts), else noted as a conflict;
 * - at start (`reconcile`): the tables and the documents are compared, so what changed while the
 *   bridge was not running is sent too, and a record a restore brought back after the team deleted
 *   it is deleted again, never resurrected.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from '../core/log';
import type { RecordChange } from '../records/change-journal';
import type { RecordRows } from '../records/record-rows';
import {
  changedAtOf,
  documentId,
  kindOfTable,
  recordIdOfKey,
  recordOfRow,
  rowKey,
  rowOfRecord,
  TEAM_KINDS,
  TEAM_TABLES,
  type JsonRecord,
  type TeamKind,
} from './team-documents';
import { recordProblem } from './record-check';
import { photoAttachments, receivePhotos, type VisitPhotoFiles } from './team-photos';
import {
  commonAncestor,
  leavesOf,
  openDeletions,
  parseDocumentId,
  winnerOf,
  type Doc,
  type TeamDatabase,
  type Tombstone,
} from './team-revisions';
import { mergeThreeWay } from './three-way-merge';

export interface TeamBridgeOptions {
  db: TeamDatabase;
  rows: RecordRows;
  /** The laptop's account the team's records are kept under. */
  accountId: string;
  engineer(): string;
  log: Logger;
  now: () => number;
  /** A visit's photo files in the data folder, sent and received as attachments. */
  photos: VisitPhotoFiles | undefined;
  /** The replica's one queue of writes. */
  serial<T>(work: () => Promise<T>): Promise<T>;
  /** Notes documents changed here, waiting to be sent. */
  markWaiting(ids: readonly string[]): Promise<void>;
  /** Notes whether a record is in conflict now (team-conflicts.ts). */
  noteSuspect(id: string, inConflict: boolean): Promise<void>;
  /** Told when a site is first sent from this laptop (made here: it is followed). */
  siteMadeHere(id: string): void;
}

export interface TeamBridge {
  /** Sends committed changes of records.db to the local database (through the queue). */
  mirror(changes: readonly RecordChange[]): void;
  /** Makes records.db hold what the team's database holds for one record. */
  receive(docId: string): Promise<void>;
  /**
   * What changed on either side while the bridge was not running. `sendNew` false while the
   * database has never taken the team's records (a first join, a team folder lost): records it
   * lacks wait until it has, or each would go again as a new version beside the team's own.
   */
  reconcile(sendNew: boolean): Promise<void>;
}

export function createTeamBridge(options: TeamBridgeOptions): TeamBridge {
  const { db, rows, accountId, log, now, serial, markWaiting, noteSuspect } = options;
  const tableOf = (kind: TeamKind) => TEAM_TABLES[kind];
  const leaves = (id: string) => leavesOf(db, id);

  /** Writes a record's new version from this laptop's records. */
  async function sendRecord(kind: TeamKind, id: string, site: string | null, record: JsonRecord) {
    const docId = documentId(kind, id);
    const winner = await winnerOf(db, docId);
    if (winner !== null && isDeepStrictEqual(winner.record, record)) return;
    if (kind === 'site' && winner === null) options.siteMadeHere(id);
    const attachments =
      kind === 'visit' && options.photos !== undefined
        ? await photoAttachments(options.photos, log, id, record, winner)
        : undefined;
    await db.put({
      _id: docId,
      ...(winner === null ? {} : { _rev: winner._rev }),
      kind,
      site,
      record,
      changedBy: options.engineer(),
      changedAt: now(),
      ...(winner?.keptOver === undefined ? {} : { keptOver: winner.keptOver }),
      ...(attachments === undefined ? {} : { _attachments: attachments }),
    });
    await markWaiting([docId]);
  }

  /** Deletes a record from the team: every live version of it, each a tombstone keeping kind and site. */
  async function sendDeletion(kind: TeamKind, id: string): Promise<void> {
    const docId = documentId(kind, id);
    const live = (await leaves(docId)).filter((leaf): leaf is Doc => leaf._deleted !== true);
    if (live.length === 0) return;
    await db.bulkDocs(
      live.map((leaf): Tombstone & { _rev: string } => ({
        _id: docId,
        _rev: leaf._rev,
        _deleted: true,
        kind,
        site: leaf.site,
        record: null,
        changedBy: options.engineer(),
        changedAt: now(),
      })),
    );
    await markWaiting([docId]);
  }

  function mirror(changes: readonly RecordChange[]): void {
    for (const change of changes) {
      const kind = kindOfTable(change.table);
      if (kind === null) continue;
      if (change.op === 'delete') {
        const id = recordIdOfKey(kind, change.key, accountId);
        if (id === null) continue;
        void serial(() => sendDeletion(kind, id));
      } else if (change.row !== undefined) {
        const shared = recordOfRow(kind, change.row, accountId);
        if (shared !== null) void serial(() => sendRecord(kind, shared.id, shared.site, shared.record));
      }
    }
  }

  async function receive(docId: string): Promise<void> {
    const parsed = parseDocumentId(docId);
    if (parsed === null) return;
    const { kind, recordId } = parsed;
    const key = rowKey(kind, recordId, accountId);
    const all = await leaves(docId);
    const live = all.filter((leaf): leaf is Doc => leaf._deleted !== true);
    if (live.length === 0) {
      await noteSuspect(docId, false);
      if (rows.get(tableOf(kind), key) !== undefined)
        rows.apply([{ table: tableOf(kind), key, op: 'delete' }]);
      return;
    }
    const winner = await winnerOf(db, docId);
    if (winner === null || winner.record === null) return;
    const inDeletionConflict = openDeletions(all, winner).length > 0;
    await noteSuspect(docId, inDeletionConflict || live.length > 1);
    if (inDeletionConflict) return; // shown as a conflict; records stay as they are
    const problem = recordProblem(kind, recordId, winner.record);
    if (problem !== null) {
      log.warn('a team record that does not fit was left out', { id: docId, by: winner.changedBy, problem });
      return;
    }
    if (live.length > 1 && (await mergeVersions(docId, winner, live))) return; // the merge comes back here
    // The photos first: a visit never names a picture that is not on this laptop.
    if (kind === 'visit' && options.photos !== undefined)
      await receivePhotos(db, options.photos, log, docId, recordId, winner);
    const current = rows.get(tableOf(kind), key);
    const currentRecord = current === undefined ? null : recordOfRow(kind, current, accountId)?.record;
    if (isDeepStrictEqual(currentRecord, winner.record)) return;
    rows.apply([
      {
        table: tableOf(kind),
        key,
        op: 'put',
        row: rowOfRecord(kind, recordId, winner.record, accountId, current),
      },
    ]);
  }

  /**
   * Two or more live versions merged from the version they share, when that is safe. The merge is
   * deterministic (the winner's side first, the later time, both names), so laptops merging the same
   * conflict at once write the same revisions and do not make a new conflict.
   */
  async function mergeVersions(docId: string, winner: Doc, live: Doc[]): Promise<boolean> {
    let merged = winner.record as JsonRecord;
    for (const other of live.filter((leaf) => leaf._rev !== winner._rev)) {
      const base = await commonAncestor(db, docId, winner._rev, other._rev);
      if (base === null || other.record === null) return false;
      const result = mergeThreeWay(base, merged, other.record);
      if (result === null) return false;
      merged = result;
    }
    const names = [...new Set(live.map((leaf) => leaf.changedBy))].sort();
    const changedAt = Math.max(...live.map((leaf) => leaf.changedAt));
    await db.bulkDocs([
      { ...winner, _conflicts: undefined, record: merged, changedBy: names.join(' and '), changedAt },
      ...live
        .filter((leaf) => leaf._rev !== winner._rev)
        .map((leaf): Tombstone & { _rev: string } => ({
          _id: docId,
          _rev: leaf._rev,
          _deleted: true,
          kind: leaf.kind,
          site: leaf.site,
          record: null,
          changedBy: names.join(' and '),
          changedAt,
          resolved: true,
        })),
    ]);
    await markWaiting([docId]);
    log.info('merged two versions of a team record', { id: docId });
    return true;
  }

  async function reconcile(sendNew: boolean): Promise<void> {
    for (const kind of TEAM_KINDS) {
      const table = tableOf(kind);
      const docs = await db.allDocs({ startkey: `${kind}:`, endkey: `${kind}:\uffff`, include_docs: true });
      const live = new Map(
        docs.rows.flatMap((row) => (row.doc === undefined ? [] : [[row.id, row.doc] as const])),
      );
      const seen = new Set<string>();
      for (const row of rows.all(table)) {
        const shared = recordOfRow(kind, row, accountId);
        if (shared === null) continue;
        const docId = documentId(kind, shared.id);
        seen.add(docId);
        const doc = live.get(docId);
        if (doc !== undefined) {
          if (!isDeepStrictEqual(doc.record, shared.record) && changedAtOf(shared.record) > doc.changedAt)
            await sendRecord(kind, shared.id, shared.site, shared.record);
          else await receive(docId);
          continue;
        }
        if (!sendNew) continue;
        // No live version: new here, or deleted by the team after this copy of the record was made
        // (a restore brought it back) — then it goes again.
        const deletedAfter = (await leaves(docId).catch(() => [])).some(
          (leaf) => leaf._deleted === true && leaf.changedAt >= changedAtOf(shared.record),
        );
        if (deletedAfter) rows.apply([{ table, key: rowKey(kind, shared.id, accountId), op: 'delete' }]);
        else await sendRecord(kind, shared.id, shared.site, shared.record);
      }
      for (const docId of live.keys()) if (!seen.has(docId)) await receive(docId);
    }
  }

  return { mirror, receive, reconcile };
}
