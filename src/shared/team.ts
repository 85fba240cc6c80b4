/**
 * A team's shared records as the screens see them: whether this laptop has joined a team, the
 * replication's state in words (one wording for every screen), and the conflicts to resolve.
 */
import { agoText } from './attention';

export type TeamPhase = 'local' | 'connecting' | 'upToDate' | 'sending' | 'unreachable' | 'refused';

export interface TeamMembership {
  /** The team's name as the user gave it, e.g. "Team North". */
  teamName: string;
  url: string;
  database: string;
  username: string;
  /** The engineer's name colleagues see on each change. */
  engineer: string;
  /** Sites whose records this laptop receives; 'all' for every site of the team. */
  follow: 'all' | string[];
}

export interface TeamStatus {
  /** Null until the laptop joins a team. */
  membership: TeamMembership | null;
  phase: TeamPhase;
  /** Local changes not yet on the team's server. */
  waiting: number;
  syncedAt: number | null;
  unreachableSince: number | null;
  /** Why the server refused, in words. */
  refusal: string | null;
  /** Records in conflict, waiting for a user's choice. */
  conflicts: number;
  /**
   * Higher for a newer state: an answer to a request may arrive after a newer state pushed as
   * `team.changed`, and must not replace it.
   */
  seq: number;
}

/** The team's sites as its server holds them, and which this laptop follows. */
export interface TeamSites {
  follow: 'all' | string[];
  sites: Array<{ id: string; name: string; followed: boolean }>;
}

export type TeamRecordKind = 'site' | 'visit' | 'calibrator' | 'checklist';

export interface TeamVersion {
  rev: string;
  deleted: boolean;
  record: Record<string, unknown> | null;
  changedBy: string;
  changedAt: number;
}

export interface TeamConflict {
  id: string;
  kind: TeamRecordKind;
  recordId: string;
  site: string | null;
  /** Edited on two laptops, or deleted on one while edited on another. */
  type: 'edited' | 'deleted';
  /** The version the records show first, then the others. */
  versions: TeamVersion[];
}

const clock = (epochMs: number): string => {
  const date = new Date(epochMs);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
};

const changes = (n: number): string => `${n} ${n === 1 ? 'change' : 'changes'}`;

/** "Up to date with Team North, 2 min ago", "3 changes waiting to be sent", "Server unreachable since 09:12". */
export function teamStateText(status: TeamStatus, now: number): string {
  const team = status.membership?.teamName ?? 'the team';
  if (status.membership === null)
    return status.waiting > 0 ? `Not in a team; ${changes(status.waiting)} kept here` : 'Not in a team';
  switch (status.phase) {
    case 'upToDate':
      return `Up to date with ${team}${status.syncedAt === null ? '' : `, ${agoText(status.syncedAt, now)}`}`;
    case 'sending':
      return `${changes(status.waiting)} waiting to be sent to ${team}`;
    case 'unreachable':
      return `Server unreachable since ${status.unreachableSince === null ? 'now' : clock(status.unreachableSince)}${
        status.waiting > 0 ? ` · ${changes(status.waiting)} waiting to be sent` : ''
      }`;
    case 'refused':
      return status.refusal ?? `${team}'s server refused this laptop`;
    case 'connecting':
      return `Connecting to ${team}…`;
    case 'local':
      return `Not replicating with ${team}${status.waiting > 0 ? ` · ${changes(status.waiting)} waiting` : ''}`;
  }
}

// ---- a site as one file ---------------------------------------------------------------------------

/** The largest site file FieldDesk imports (it crosses to the backend whole). */
export const SITE_FILE_MAX_BYTES = 256 * 1024 * 1024;

/** Records of a kind in a site file: new here, changed since (the file's is newer), the same, or changed here since the file's. */
export interface TransferCounts {
  new: number;
  changed: number;
  same: number;
  conflict: number;
}

export interface SiteImportPreview {
  /** Names this preview for the import that follows it. */
  token: string;
  fileName: string;
  siteName: string;
  exportedBy: string;
  exportedAt: number;
  site: keyof TransferCounts;
  visits: TransferCounts;
  calibrators: TransferCounts;
  photos: number;
}

export interface SiteImportResult {
  /** Records written. */
  imported: number;
  /** Records changed here since the file's version, kept as they are here. */
  keptHere: number;
  siteId: string;
}

// ---- who did what ---------------------------------------------------------------------------------

/** One change of a shared record, as the team's database keeps its versions. */
export interface TeamChange {
  kind: TeamRecordKind;
  recordId: string;
  /** The record as its screens name it: "Site “Mill Lane”", "Visit to Mill Lane, 30 Nov 2026, 09:12". */
  title: string;
  change: 'added' | 'changed' | 'deleted';
  changedBy: string;
  changedAt: number;
}

const named = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** A shared record named as its screens name it. */
export function teamRecordTitle(
  kind: TeamRecordKind,
  recordId: string,
  record: Record<string, unknown>,
): string {
  switch (kind) {
    case 'site':
      return `Site “${named(record['name']) ?? recordId}”`;
    case 'visit': {
      const site = named((record['site'] as { name?: unknown } | null | undefined)?.name);
      const arrived = typeof record['arrivedAt'] === 'number' ? new Date(record['arrivedAt']) : null;
      return `Visit${site === null ? '' : ` to ${site}`}${
        arrived === null
          ? ''
          : `, ${arrived.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}`
      }`;
    }
    case 'checklist':
      return `Checklist for ${recordId} instruments`;
    case 'calibrator':
      return `Calibrator ${named(record['model']) ?? ''} #${named(record['serial']) ?? recordId}`.replace(
        '  ',
        ' ',
      );
  }
}
