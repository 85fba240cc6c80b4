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
 * This file opens the database and keeps the queue, the list of changes waiting to be sent, the state
 * and the sites followed; the bridge is team-bridge.ts, the replication with the server
 * team-replication.ts, the conflicts team-conflicts.ts.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import PouchDB from 'pouchdb-node';
import type { TeamChange, TeamConflict, TeamStatus } from '../../../shared/team';
import type { Logger } from '../core/log';
import type { RecordChange } from '../records/change-journal';
import type { RecordRows } from '../records/record-rows';
import type { TeamDocument } from './team-documents';
import { FOLLOWED_FILTER, type TeamServer } from './team-server';
import { createTeamBridge } from './team-bridge';
import { openConflictDesk } from './team-conflicts';
import type { VisitPhotoFiles } from './team-photos';
import { createTeamReplication, wasInitialised } from './team-replication';
import { siteChangesOf } from './team-revisions';

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

  async function markWaiting(ids: readonly string[]): Promise<void> {
    for (const id of ids) pending.add(id);
    await savePending();
    setState(state.phase === 'upToDate' ? { phase: 'sending' } : {});
  }

  const bridge = createTeamBridge({
    db,
    rows,
    accountId,
    engineer: () => options.engineer(),
    log,
    now,
    photos: options.photos,
    serial,
    markWaiting,
    noteSuspect: conflictDesk.note,
    // A site made here is one this laptop follows.
    siteMadeHere(id) {
      if (follow === 'all' || follow.includes(id)) return;
      follow = [...follow, id];
      options.onFollow?.(follow);
      const server = replication.connectedTo();
      if (server !== null) void replication.connect(server).catch(() => undefined);
    },
  });

  const initialised = await wasInitialised(db);
  const replication = createTeamReplication({
    db,
    log,
    now,
    fetch: options.fetch,
    serial,
    pending,
    savePending,
    state: () => state,
    setState,
    // What this laptop pulls: every site's records, or those of the sites it follows.
    pull: () =>
      follow === 'all' ? {} : { filter: FOLLOWED_FILTER, query_params: { sites: follow.join(',') } },
    initialised,
    reconcile: bridge.reconcile,
  });
  await serial(() => bridge.reconcile(initialised));
  const stopMirror = options.onCommitted(bridge.mirror);
  const feed = db
    .changes({ since: 'now', live: true, style: 'all_docs' })
    .on('change', (change) => void serial(() => bridge.receive(change.id)))
    .on('error', (error) => log.error('the team records feed stopped', { error }));

  /** Follows other sites from now: replicates again with the new filter when connected. */
  async function setFollow(next: 'all' | readonly string[]): Promise<void> {
    follow = next;
    const server = replication.connectedTo();
    if (server !== null) await replication.connect(server);
  }

  return {
    connect: replication.connect,
    disconnect: replication.disconnect,
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
    teamSites: replication.teamSites,
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
      await replication.disconnect();
      feed.cancel();
      await queue;
      await db.close();
    },
  };
}
