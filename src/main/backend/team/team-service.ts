/**
 * This laptop's membership of a team (`team.*`): the team's server, database and the engineer's names
 * in `team.json` (the password in the keychain, never in a file), the replica of the shared records
 * (team-replica.ts) opened while a member, and its state pushed as `team.changed` after each change.
 * Joining checks the name, the password and the membership before anything is kept; a laptop that
 * joined replicates again at every start, offline first.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { FieldDeskError } from '../../../shared/errors';
import type { TeamChange, TeamConflict, TeamMembership, TeamSites, TeamStatus } from '../../../shared/team';
import type { KeyVault } from '../accounts/vault';
import type { EventHub } from '../core/events';
import { openJsonFile, type JsonFile } from '../core/json-file-store';
import type { Logger } from '../core/log';
import type { SecretRegistry } from '../core/secrets';
import type { RecordChange } from '../records/change-journal';
import type { RecordRows } from '../records/record-rows';
import { writeThroughPart, type UnfinishedFiles } from '../core/unfinished-files';
import { photoFolder } from '../visits/visit-photos';
import { openTeamReplica, type TeamReplica, type TeamSyncState } from './team-replica';
import type { VisitPhotoFiles } from './team-photos';
import { checkedDatabaseName, checkedServerUrl, checkTeamAccess } from './team-server';

export const TEAM_FILE_NAME = 'team.json';
/** The keychain entry of the team server's password (one team per laptop). */
const PASSWORD_ENTRY = 'team-server';

const membershipSchema = z.object({
  teamName: z.string(),
  url: z.string(),
  database: z.string(),
  username: z.string(),
  engineer: z.string(),
  follow: z.union([z.literal('all'), z.array(z.string())]),
  /** The laptop's account the team's records are kept under. */
  accountId: z.string(),
});
const fileSchema = z.object({ membership: membershipSchema.nullable() });
type StoredMembership = z.infer<typeof membershipSchema>;

export interface TeamServiceDeps {
  dataDir: string;
  vault: KeyVault;
  secrets: SecretRegistry;
  events: EventHub;
  rows: RecordRows;
  onCommitted(listener: (changes: readonly RecordChange[]) => void): () => void;
  /** The active account's id (the team's records are kept under it); throws when there is none. */
  activeAccountId(): string;
  log: Logger;
  now: () => number;
  fetch?: typeof fetch;
  unfinished: UnfinishedFiles;
}

export interface TeamService {
  status(): Promise<TeamStatus>;
  join(request: TeamMembership & { password: string }): Promise<TeamStatus>;
  leave(): Promise<TeamStatus>;
  conflicts(): Promise<TeamConflict[]>;
  resolve(id: string, keepRev: string | null): Promise<TeamConflict[]>;
  /** The team's sites (from its server), each with whether this laptop follows it. */
  teamSites(): Promise<TeamSites>;
  /** Follows every site, or only those given, from now. */
  follow(follow: 'all' | string[]): Promise<TeamStatus>;
  /** The newest changes of a site's records by the team (none while not in a team). */
  siteChanges(siteId: string): Promise<TeamChange[]>;
  /** Waits for the replica's queued writes (tests). */
  settled(): Promise<void>;
  readonly warning: string | null;
  close(): Promise<void>;
}

/** Only the names FieldDesk gives a visit and its photo files: a colleague's record names no other path. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const SAFE_PHOTO_FILE = /^[A-Za-z0-9_-]{1,64}(-thumb\.jpg|\.(jpg|png|gif|webp))$/;

function visitPhotoFiles(dataDir: string, accountId: string, unfinished: UnfinishedFiles): VisitPhotoFiles {
  const pathOf = (visitId: string, name: string): string => {
    if (!SAFE_ID.test(visitId) || !SAFE_PHOTO_FILE.test(name))
      throw new FieldDeskError(
        'invalidInput',
        `A team record names a photo file FieldDesk does not write (${name}).`,
      );
    return join(photoFolder(dataDir, accountId, visitId), name);
  };
  return {
    has: async (visitId, name) => existsSync(pathOf(visitId, name)),
    async read(visitId, name) {
      try {
        return await readFile(pathOf(visitId, name));
      } catch {
        return null;
      }
    },
    async write(visitId, name, bytes) {
      const path = pathOf(visitId, name);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await writeThroughPart({ path, what: 'a visit photo from the team', unfinished }, (handle) =>
        handle.writeFile(bytes),
      );
    },
  };
}

export async function openTeamService(deps: TeamServiceDeps): Promise<TeamService> {
  const { log } = deps;
  const file: JsonFile<z.infer<typeof fileSchema>> = await openJsonFile({
    dataDir: deps.dataDir,
    fileName: TEAM_FILE_NAME,
    version: 1,
    schema: fileSchema,
    describe: {
      subject: 'Your team membership',
      fallback: 'so this laptop is not replicating with a team until you join again',
      reassurance: 'Your records on this laptop are untouched.',
    },
    now: deps.now,
    log,
  });
  let membership: StoredMembership | null = file.loaded?.membership ?? null;
  let replica: TeamReplica | null = null;
  let conflictCount = 0;
  let syncState: TeamSyncState = {
    phase: 'local',
    waiting: 0,
    syncedAt: null,
    unreachableSince: null,
    refusal: null,
  };

  const publicMembership = (stored: StoredMembership | null): TeamMembership | null => {
    if (stored === null) return null;
    const { accountId: _accountId, ...shown } = stored;
    return shown;
  };
  /** Numbers each state told, so a screen keeps the newest whichever way it came. */
  let told = 0;
  const snapshot = (): TeamStatus => ({
    membership: publicMembership(membership),
    ...syncState,
    conflicts: conflictCount,
    seq: ++told,
  });
  async function countConflicts(): Promise<void> {
    conflictCount = replica === null ? 0 : (await replica.conflicts()).length;
  }
  const publish = (): void => deps.events.emit('team.changed', snapshot());

  async function openReplica(stored: StoredMembership): Promise<TeamReplica> {
    return openTeamReplica({
      folder: join(deps.dataDir, 'team', stored.database),
      rows: deps.rows,
      onCommitted: deps.onCommitted,
      accountId: stored.accountId,
      engineer: () => membership?.engineer ?? stored.engineer,
      follow: stored.follow,
      log,
      now: deps.now,
      ...(deps.fetch === undefined ? {} : { fetch: deps.fetch }),
      photos: visitPhotoFiles(deps.dataDir, stored.accountId, deps.unfinished),
      onFollow(follow) {
        if (membership === null) return;
        membership = { ...membership, follow: [...follow] };
        void file
          .save({ membership })
          .catch((error: unknown) => log.warn('followed sites not kept', { error }));
      },
      onState(state) {
        syncState = state;
        // A pause after a change may have brought or settled a conflict: counted before it is said.
        void countConflicts().then(publish, (error: unknown) =>
          log.warn('team conflicts not counted', { error }),
        );
      },
    });
  }

  /** Connects in the background: offline first, the state says how it goes. */
  function connectInBackground(stored: StoredMembership, password: string): void {
    if (replica === null) return;
    void replica
      .connect({ url: stored.url, database: stored.database, username: stored.username, password })
      .catch((error: unknown) => log.warn('the team server refused this laptop', { error }));
  }

  // A laptop that joined replicates again from the start.
  if (membership !== null) {
    try {
      replica = await openReplica(membership);
      const stored = await deps.vault.get(PASSWORD_ENTRY);
      if (stored === null) {
        syncState = {
          ...syncState,
          phase: 'refused',
          refusal: 'The team server’s password is no longer in the keychain. Join the team again to give it.',
        };
      } else {
        deps.secrets.add(stored.key, 'team password');
        connectInBackground(membership, stored.key);
      }
      await countConflicts();
    } catch (error) {
      log.error('the team replica could not be opened', { error });
    }
  }

  return {
    warning: file.warning,
    async status() {
      await countConflicts();
      return snapshot();
    },
    async join(request) {
      const { password, ...shown } = request;
      const server = {
        url: checkedServerUrl(shown.url),
        database: checkedDatabaseName(shown.database),
        username: shown.username,
        password,
      };
      deps.secrets.add(password, 'team password');
      await checkTeamAccess(server, deps.fetch);
      const accountId = deps.activeAccountId();
      if (membership !== null && (membership.database !== server.database || membership.url !== server.url))
        throw new FieldDeskError(
          'conflict',
          `This laptop is in ${membership.teamName} already. Leave it first to join another team.`,
        );
      await deps.vault.set(PASSWORD_ENTRY, password);
      const stored: StoredMembership = { ...shown, url: server.url, database: server.database, accountId };
      await file.save({ membership: stored });
      membership = stored;
      if (replica !== null) await replica.close();
      replica = await openReplica(stored);
      await replica.connect(server);
      await countConflicts();
      publish();
      return snapshot();
    },
    async leave() {
      if (replica !== null) await replica.close();
      replica = null;
      await file.save({ membership: null });
      membership = null;
      await deps.vault
        .delete(PASSWORD_ENTRY)
        .catch((error: unknown) => log.warn('team password not removed', { error }));
      syncState = { phase: 'local', waiting: 0, syncedAt: null, unreachableSince: null, refusal: null };
      conflictCount = 0;
      publish();
      return snapshot();
    },
    async conflicts() {
      return replica === null ? [] : replica.conflicts();
    },
    async resolve(id, keepRev) {
      if (replica === null) throw new FieldDeskError('invalidRequest', 'This laptop is not in a team.');
      await replica.resolve(id, keepRev);
      await replica.settled();
      const left = await replica.conflicts();
      conflictCount = left.length;
      publish();
      return left;
    },
    async teamSites() {
      if (replica === null || membership === null)
        throw new FieldDeskError('invalidRequest', 'This laptop is not in a team.');
      const follow = membership.follow;
      const sites = await replica.teamSites();
      return {
        follow,
        sites: sites
          .map((site) => ({ ...site, followed: follow === 'all' || follow.includes(site.id) }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      };
    },
    async follow(follow) {
      if (replica === null || membership === null)
        throw new FieldDeskError('invalidRequest', 'This laptop is not in a team.');
      const next: StoredMembership = { ...membership, follow };
      await file.save({ membership: next });
      membership = next;
      await replica.setFollow(follow);
      publish();
      return snapshot();
    },
    async siteChanges(siteId) {
      return replica === null ? [] : replica.siteChanges(siteId, 20);
    },
    async settled() {
      await replica?.settled();
    },
    async close() {
      await replica?.close();
      replica = null;
      await file.flush();
    },
  };
}
