/**
 * The team's records on this laptop: a local PouchDB database (in the data folder) that mirrors the
 * shared tables of records.db and replicates with the team's CouchDB database whenever it can be
 * reached. records.db stays what every screen reads; this is the bridge between the two:
 *
 * - out: every committed change of a shared record (records-database.ts `onCommitted`) becomes a new
 *   revision, or a tombstone that keeps the record's kind and site; at start the tables and the
 *   documents are compared, so what changed while the bridge was not running is sent too, and a
 *   record a restore brought back after the team deleted it is deleted again, never resurrected;
 * - in: every change of the local database (a colleague's, arriving by replication) is written into
 *   records.db — journalled and backed up like the user's own — unless it is in conflict;
 * - conflicts: two versions of one record are merged where safe (three-way-merge.ts) or shown with
 *   both versions and who made them; a deletion on one laptop while another edited the record is a
 *   conflict too (CouchDB's rule would let the edit win silently), until the user chooses.
 *
 * One queue orders all local writes and applies, so a record is never written from two sides at once.
 */
import { isDeepStrictEqual } from 'node:util';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import PouchDB from 'pouchdb-node';
import { FieldDeskError } from '../../../shared/errors';
import type { TeamChange, TeamConflict, TeamStatus } from '../../../shared/team';
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
  type TeamDocument,
  type TeamKind,
} from './team-documents';
import {
  checkedDatabaseName,
  checkedServerUrl,
  checkTeamAccess,
  databaseUrl,
  FOLLOWED_FILTER,
  type TeamServer,
} from './team-server';
import { recordProblem } from './record-check';
import { openConflictDesk } from './team-conflicts';
import { photoAttachments, receivePhotos, type VisitPhotoFiles } from './team-photos';
import {
  commonAncestor,
  leavesOf,
  openDeletions,
  parseDocumentId,
  siteChangesOf,
  winnerOf,
  type Doc,
  type Tombstone,
} from './team-revisions';
import { mergeThreeWay } from './three-way-merge';

/** The replication's own state; the service adds the membership and the conflict count. */
export type TeamSyncState = Omit<TeamStatus, 'membership' | 'conflicts' | 'seq'>;

export interface TeamReplicaOptions {
  /** Where the local database lives (a folder of its own). */
  folder: string;
  rows: RecordRows;
  onCommitted(listener: (changes: readonly RecordChange[]) => void): () => void;
  /** The laptop's account the team's records are kept under. */
  accountId: string;
  engineer(): string;
  /** Sites whose records this laptop receives; 'all' for every site of the team. */
  follow: 'all' | readonly string[];
  log: Logger;
  now: () => number;
  onState?(state: TeamSyncState): void;
  /** A visit's photo files in the data folder, sent and received as attachments. */
  photos?: VisitPhotoFiles;
  /** The sites followed changed here (a site made on this laptop is followed), to be kept. */
  onFollow?(follow: readonly string[]): void;
  fetch?: typeof fetch;
}

export interface TeamReplica {
  /** Replicates with the team's server until `disconnect`; throws when the server refuses. */
  connect(server: TeamServer): Promise<void>;
  disconnect(): Promise<void>;
  state(): TeamSyncState;
  conflicts(): Promise<TeamConflict[]>;
  /** Keeps one version of a conflict (for a deletion conflict, `null` keeps the deletion). */
  resolve(id: string, keepRev: string | null): Promise<void>;
  setFollow(follow: 'all' | readonly string[]): Promise<void>;
  teamSites(): Promise<Array<{ id: string; name: string }>>;
  /** The newest changes of a site's records (the site and its visits), newest first. */
  siteChanges(siteId: string, limit: number): Promise<TeamChange[]>;
  /** Resolves once everything queued so far has been written (tests). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function openTeamReplica(options: TeamReplicaOptions): Promise<TeamReplica> {
  const { rows, accountId, log, now } = options;
  // LevelDB makes its own folder, not the folders above it.
  await mkdir(dirname(options.folder), { recursive: true });
  const db = new PouchDB<TeamDocument>(options.folder);
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work);
    queue = next.catch((error: unknown) => log.error('a team record could not be kept', { error }));
    return next;
  };

  let follow = options.follow;
  const conflictDesk = await openConflictDesk({
    db,
    serial,
    engineer: () => options.engineer(),
    now,
    markWaiting: (ids) => markWaiting(ids),
  });
  const noteSuspect = conflictDesk.note;

  const PENDING = '_local/waiting';
  const pending = new Set<string>(
    await db.get<{ ids: string[] }>(PENDING).then(
      (doc) => doc.ids,
      () => [],
    ),
  );
  async function savePending(): Promise<void> {
    const doc = await db.get<{ ids: string[] }>(PENDING).catch(() => null);
    await db.put({ _id: PENDING, ...(doc === null ? {} : { _rev: doc._rev }), ids: [...pending] });
  }

  let state: TeamSyncState = {
    phase: 'local',
    waiting: pending.size,
    syncedAt: null,
    unreachableSince: null,
    refusal: null,
  };
  const setState = (change: Partial<TeamSyncState>): void => {
    state = { ...state, ...change, waiting: pending.size };
    options.onState?.(state);
  };

  const tableOf = (kind: TeamKind) => TEAM_TABLES[kind];
  const parseId = parseDocumentId;
  const leaves = (id: string) => leavesOf(db, id);

  async function markWaiting(ids: readonly string[]): Promise<void> {
    for (const id of ids) pending.add(id);
    await savePending();
    setState(state.phase === 'upToDate' ? { phase: 'sending' } : {});
  }

  /** Writes a record's new version from this laptop's records. */
  async function sendRecord(kind: TeamKind, id: string, site: string | null, record: JsonRecord) {
    const docId = documentId(kind, id);
    const winner = await winnerOf(db, docId);
    if (winner !== null && isDeepStrictEqual(winner.record, record)) return;
    // A site made here is one this laptop follows.
    if (kind === 'site' && winner === null && follow !== 'all' && !follow.includes(id)) {
      follow = [...follow, id];
      options.onFollow?.(follow);
      if (connectedTo !== null) void connect(connectedTo).catch(() => undefined);
    }
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

  /** Makes records.db hold what the team's database holds for one record. */
  async function receive(docId: string): Promise<void> {
    const parsed = parseId(docId);
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

  /**
   * At start: what changed on either side while the bridge was not running. `sendNew` false while
   * the database has never taken the team's records (a first join, a team folder lost): records it
   * lacks wait until it has, or each would go again as a new version beside the team's own.
   */
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

  const INITIALISED = '_local/initialised';
  let initialised = await db.get<{ at: number }>(INITIALISED).then(
    () => true,
    () => false,
  );
  await serial(() => reconcile(initialised));

  /** What this laptop pulls: every site's records, or those of the sites it follows. */
  const pullOf = (): PouchDB.SyncOptions['pull'] =>
    follow === 'all' ? {} : { filter: FOLLOWED_FILTER, query_params: { sites: follow.join(',') } };

  /** Takes the team's records once, then sends what this laptop has that the team lacks. */
  async function initialise(
    remote: PouchDB.Database<TeamDocument>,
    pull: PouchDB.SyncOptions['pull'],
  ): Promise<void> {
    if (initialised) return;
    await db.replicate.from(remote, pull ?? {});
    await serial(async () => {
      if (initialised) return;
      await reconcile(true);
      await db.put({ _id: INITIALISED, at: now() });
      initialised = true;
    });
  }
  const stopMirror = options.onCommitted(mirror);
  const feed = db
    .changes({ since: 'now', live: true, style: 'all_docs' })
    .on('change', (change) => void serial(() => receive(change.id)))
    .on('error', (error) => log.error('the team records feed stopped', { error }));

  let sync: PouchDB.Emitter<PouchDB.SyncEvents<TeamDocument>> | null = null;
  /** The team's database while connected (for its list of sites). */
  let remoteDb: PouchDB.Database<TeamDocument> | null = null;
  let connectedTo: TeamServer | null = null;

  /** Follows other sites from now: replicates again with the new filter when connected. */
  async function setFollow(next: 'all' | readonly string[]): Promise<void> {
    follow = next;
    if (connectedTo !== null) await connect(connectedTo);
  }

  /** The team's sites as its database holds them (needs the server). */
  async function teamSites(): Promise<Array<{ id: string; name: string }>> {
    if (remoteDb === null)
      throw new FieldDeskError('offline', 'The team’s list of sites needs its server; connect to it first.');
    const answer = await remoteDb.allDocs({ startkey: 'site:', endkey: 'site:\uffff', include_docs: true });
    return answer.rows.flatMap((row) =>
      row.doc?.record === null || row.doc === undefined
        ? []
        : [{ id: row.id.slice('site:'.length), name: String(row.doc.record['name'] ?? row.id) }],
    );
  }

  async function connect(given: TeamServer): Promise<void> {
    const server = {
      ...given,
      url: checkedServerUrl(given.url),
      database: checkedDatabaseName(given.database),
    };
    await disconnect();
    setState({ phase: 'connecting', refusal: null });
    try {
      await checkTeamAccess(server, options.fetch);
    } catch (error) {
      const refused = error instanceof FieldDeskError && error.code !== 'offline';
      setState(
        refused
          ? { phase: 'refused', refusal: error.message }
          : { phase: 'unreachable', unreachableSince: state.unreachableSince ?? now() },
      );
      if (refused) throw error;
    }
    const remote = new PouchDB<TeamDocument>(databaseUrl(server), {
      skip_setup: true,
      auth: { username: server.username, password: server.password },
    });
    // PouchDB 9's replication asks the source's `info()` after each batch, only to count progress,
    // and leaves a failure unhandled (`src.info().then(…)`): a server lost at that moment would end
    // the process. Here a failed `info()` answers empty counts; the replication's own requests
    // still fail and are retried.
    const info = remote.info.bind(remote);
    remote.info = () => info().catch(() => ({ doc_count: 0, update_seq: 0 }));
    const pull = pullOf();
    await initialise(remote, pull).catch((error: unknown) =>
      log.warn('the team’s records could not be taken yet; tried again when the server answers', { error }),
    );
    const running = db.sync(remote, {
      live: true,
      retry: true,
      back_off_function: (delay) => (delay === 0 ? 500 : Math.min(delay * 2, 30_000)),
      pull,
    });
    sync = running;
    remoteDb = remote;
    connectedTo = given;
    running
      .on('change', (info) => {
        if (info.direction !== 'push') return;
        for (const doc of info.change.docs) pending.delete(doc._id);
        void serial(savePending);
        setState({});
      })
      // PouchDB pauses between its retries without saying why: the server is asked whether it answers.
      .on('paused', () => void settle(running, server, remote))
      .on('active', () => {
        if (sync === running && state.phase !== 'unreachable' && pending.size > 0)
          setState({ phase: 'sending' });
      })
      .on('denied', (error) => log.warn('the team server refused a record', { error }))
      .on('error', (error) => {
        if (sync !== running) return;
        log.error('team replication stopped', { error });
        setState({
          phase: 'refused',
          refusal: `The team's server stopped the replication (${String(error)}).`,
        });
      });
  }

  /** After a pause: caught up, still sending, or the server unreachable. */
  async function settle(
    running: NonNullable<typeof sync>,
    server: TeamServer,
    remote: PouchDB.Database<TeamDocument>,
  ): Promise<void> {
    const answers = await (options.fetch ?? fetch)(`${server.url}/`, {
      signal: AbortSignal.timeout(5_000),
    }).then(
      (response) => response.ok,
      () => false,
    );
    if (sync !== running) return;
    if (answers && !initialised) await initialise(remote, pullOf()).catch(() => undefined);
    // A change the server already has from another laptop (the same merge) is never pushed: asked.
    if (answers && pending.size > 0) await serial(() => confirmSent(remote)).catch(() => undefined);
    if (!answers) setState({ phase: 'unreachable', unreachableSince: state.unreachableSince ?? now() });
    else if (pending.size === 0) setState({ phase: 'upToDate', syncedAt: now(), unreachableSince: null });
    else setState({ phase: 'sending', unreachableSince: null });
  }

  /** Forgets the waiting changes whose every version the server holds. */
  async function confirmSent(remote: PouchDB.Database<TeamDocument>): Promise<void> {
    const asked: Record<string, string[]> = {};
    for (const id of pending) asked[id] = (await leaves(id).catch(() => [])).map((leaf) => leaf._rev);
    const missing = await remote.revsDiff(asked);
    for (const id of Object.keys(asked)) if (missing[id] === undefined) pending.delete(id);
    await savePending();
  }

  async function disconnect(): Promise<void> {
    const running = sync;
    sync = null;
    remoteDb = null;
    connectedTo = null;
    if (running === null) return;
    running.cancel();
    setState({ phase: 'local', unreachableSince: null });
  }

  return {
    connect,
    disconnect,
    async conflicts() {
      await queue;
      return conflictDesk.list();
    },
    resolve: conflictDesk.resolve,
    async siteChanges(siteId, limit) {
      await queue;
      return siteChangesOf(db, siteId, limit);
    },
    setFollow,
    teamSites,
    state: () => state,
    async settled() {
      // A write may queue a receive, which may queue another write: until nothing new was queued.
      let seen: Promise<unknown> | null = null;
      while (seen !== queue) {
        seen = queue;
        await seen;
        await new Promise((done) => setTimeout(done, 20));
      }
    },
    async close() {
      stopMirror();
      await disconnect();
      feed.cancel();
      await queue;
      await db.close();
    },
  };
}
