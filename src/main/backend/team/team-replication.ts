/**
 * The live replication of the team's local database (team-replica.ts) with the team's CouchDB
 * database: connecting (the server checked first, its refusal said), taking the team's records once
 * before sending what this laptop has, and telling the state after each pause — caught up, still
 * sending, or the server unreachable — with the waiting changes forgotten once the server holds them.
 */
import PouchDB from 'pouchdb-node';
import { FieldDeskError } from '../../../shared/errors';
import type { Logger } from '../core/log';
import type { TeamDocument } from './team-documents';
import {
  checkedDatabaseName,
  checkedServerUrl,
  checkTeamAccess,
  databaseUrl,
  type TeamServer,
} from './team-server';
import { leavesOf, type TeamDatabase } from './team-revisions';
import type { TeamSyncState } from './team-replica';

const INITIALISED = '_local/initialised';

/** Whether the local database has taken the team's records once. */
export async function wasInitialised(db: TeamDatabase): Promise<boolean> {
  return db.get<{ at: number }>(INITIALISED).then(
    () => true,
    () => false,
  );
}

export interface TeamReplicationOptions {
  db: TeamDatabase;
  log: Logger;
  now: () => number;
  fetch?: typeof fetch;
  /** The replica's one queue of writes. */
  serial<T>(work: () => Promise<T>): Promise<T>;
  /** The documents changed here and not yet known to be on the server. */
  pending: Set<string>;
  /** Keeps `pending` across restarts. */
  savePending(): Promise<void>;
  state(): TeamSyncState;
  setState(change: Partial<TeamSyncState>): void;
  /** What this laptop pulls: every site's records, or those of the sites it follows. */
  pull(): PouchDB.SyncOptions['pull'];
  /** Whether the local database had taken the team's records once when it was opened. */
  initialised: boolean;
  /** Compares records.db with the local database, sending what the team lacks (team-bridge.ts). */
  reconcile(sendNew: boolean): Promise<void>;
}

export interface TeamReplication {
  /** Replicates with the team's server until `disconnect`; throws when the server refuses. */
  connect(server: TeamServer): Promise<void>;
  disconnect(): Promise<void>;
  /** The server replicated with now; null when not connected. */
  connectedTo(): TeamServer | null;
  /** The team's sites as its database holds them (needs the server). */
  teamSites(): Promise<Array<{ id: string; name: string }>>;
}

export function createTeamReplication(options: TeamReplicationOptions): TeamReplication {
  const { db, log, now, serial, pending, savePending, setState } = options;
  let initialised = options.initialised;
  let sync: PouchDB.Emitter<PouchDB.SyncEvents<TeamDocument>> | null = null;
  /** The team's database while connected (for its list of sites). */
  let remoteDb: PouchDB.Database<TeamDocument> | null = null;
  let connectedTo: TeamServer | null = null;
  const unreachableSince = (): number => options.state().unreachableSince ?? now();

  /** Takes the team's records once, then sends what this laptop has that the team lacks. */
  async function initialise(
    remote: PouchDB.Database<TeamDocument>,
    pull: PouchDB.SyncOptions['pull'],
  ): Promise<void> {
    if (initialised) return;
    await db.replicate.from(remote, pull ?? {});
    await serial(async () => {
      if (initialised) return;
      await options.reconcile(true);
      await db.put({ _id: INITIALISED, at: now() });
      initialised = true;
    });
  }

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

  /** The team's database at `server`, its progress counts made safe to lose. */
  function remoteOf(server: TeamServer): PouchDB.Database<TeamDocument> {
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
    return remote;
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
          : { phase: 'unreachable', unreachableSince: unreachableSince() },
      );
      if (refused) throw error;
    }
    const remote = remoteOf(server);
    const pull = options.pull();
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
        if (sync === running && options.state().phase !== 'unreachable' && pending.size > 0)
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
    if (answers && !initialised) await initialise(remote, options.pull()).catch(() => undefined);
    // A change the server already has from another laptop (the same merge) is never pushed: asked.
    if (answers && pending.size > 0) await serial(() => confirmSent(remote)).catch(() => undefined);
    if (!answers) setState({ phase: 'unreachable', unreachableSince: unreachableSince() });
    else if (pending.size === 0) setState({ phase: 'upToDate', syncedAt: now(), unreachableSince: null });
    else setState({ phase: 'sending', unreachableSince: null });
  }

  /** Forgets the waiting changes whose every version the server holds. */
  async function confirmSent(remote: PouchDB.Database<TeamDocument>): Promise<void> {
    const asked: Record<string, string[]> = {};
    for (const id of pending) asked[id] = (await leavesOf(db, id).catch(() => [])).map((leaf) => leaf._rev);
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

  return { connect, disconnect, connectedTo: () => connectedTo, teamSites };
}
