/**
 * The shared records as CouchDB documents and back: a site, a visit, a calibrator or a checklist
 * template (per kind of instrument) is one document
 * `<kind>:<id>` holding the record as FieldDesk keeps it (without the laptop's own account id: an
 * account is each laptop's own key to the service), the site it belongs to (so a laptop can follow
 * some sites only), and who changed it last and when. A deletion is a tombstone that keeps `kind` and
 * `site`, so it replicates to exactly the laptops that follow its site.
 */
import type { RecordTable, Row } from '../records/records-salvage';

export const TEAM_KINDS = ['site', 'visit', 'calibrator', 'checklist'] as const;
export type TeamKind = (typeof TEAM_KINDS)[number];

/** The records tables replicated with the team, by kind. */
export const TEAM_TABLES: Record<TeamKind, RecordTable> = {
  site: 'assessment_sites',
  visit: 'site_visits',
  calibrator: 'calibrators',
  // Only the `checklist:<kind of instrument>` rows: the templates (the last engineer named stays here).
  checklist: 'visit_settings',
};

const CHECKLIST_PREFIX = 'checklist:';

export type JsonRecord = Record<string, unknown>;

/** A shared record as the team's database holds it. */
export interface TeamDocument {
  _id: string;
  _rev?: string;
  _deleted?: boolean;
  kind: TeamKind;
  /** The site it belongs to (the site's own id for a site); null for calibrators and visits to no site. */
  site: string | null;
  /** The record (null in a tombstone). */
  record: JsonRecord | null;
  /** The engineer's name from Settings on the laptop that made this version. */
  changedBy: string;
  changedAt: number;
  /**
   * Revisions of deletions a user chose to keep this record over (see team-conflicts.ts): a
   * deletion made on one laptop while another edited the record is a conflict until resolved.
   */
  keptOver?: string[];
}

export const documentId = (kind: TeamKind, id: string): string => `${kind}:${id}`;

export function kindOfTable(table: RecordTable): TeamKind | null {
  for (const kind of TEAM_KINDS) if (TEAM_TABLES[kind] === table) return kind;
  return null;
}

function parseObject(text: unknown): JsonRecord {
  const value: unknown = JSON.parse(String(text));
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('a stored record is not an object');
  return value as JsonRecord;
}

function withoutAccount(record: JsonRecord): JsonRecord {
  const { accountId: _accountId, ...rest } = record;
  return rest;
}

/** The record's id, site and shared content of a row of a shared table; null for another account's. */
export function recordOfRow(
  kind: TeamKind,
  row: Row,
  accountId: string,
): { id: string; site: string | null; record: JsonRecord } | null {
  switch (kind) {
    case 'site': {
      if (row['account_id'] !== accountId) return null;
      const site = withoutAccount(parseObject(row['site_json']));
      return { id: String(row['id']), site: String(row['id']), record: site };
    }
    case 'visit': {
      if (row['account_id'] !== accountId) return null;
      const visit = withoutAccount(parseObject(row['visit_json']));
      const site = visit['site'] as { id?: unknown } | null | undefined;
      return { id: String(row['id']), site: typeof site?.id === 'string' ? site.id : null, record: visit };
    }
    case 'calibrator':
      // When it was last chosen stays each laptop's own (it orders the wizard's list).
      return { id: String(row['id']), site: null, record: parseObject(row['calibrator_json']) };
    case 'checklist': {
      const name = String(row['name']);
      if (!name.startsWith(CHECKLIST_PREFIX)) return null;
      return {
        id: name.slice(CHECKLIST_PREFIX.length),
        site: null,
        record: { items: JSON.parse(String(row['value'])) },
      };
    }
  }
}

const timeOf = (record: JsonRecord, field: string): number => {
  const value = record[field];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`the record has no ${field}`);
  return value;
};

/** The row a received record is kept as on this laptop, under its account (`current`: the row it replaces). */
export function rowOfRecord(
  kind: TeamKind,
  id: string,
  record: JsonRecord,
  accountId: string,
  current?: Row,
): Row {
  switch (kind) {
    case 'site':
      return {
        account_id: accountId,
        id,
        updated_at: timeOf(record, 'updatedAt'),
        site_json: JSON.stringify({ ...record, id, accountId }),
      };
    case 'visit':
      return {
        account_id: accountId,
        id,
        arrived_at: timeOf(record, 'arrivedAt'),
        updated_at: timeOf(record, 'updatedAt'),
        visit_json: JSON.stringify({ ...record, id, accountId }),
      };
    case 'checklist':
      return { name: `${CHECKLIST_PREFIX}${id}`, value: JSON.stringify(record['items'] ?? []) };
    case 'calibrator':
      return {
        id,
        updated_at: timeOf(record, 'updatedAt'),
        used_at: current?.['used_at'] ?? null,
        calibrator_json: JSON.stringify({ ...record, id }),
      };
  }
}

/** The key columns of a shared record's row on this laptop. */
export function rowKey(kind: TeamKind, id: string, accountId: string): Row {
  if (kind === 'checklist') return { name: `${CHECKLIST_PREFIX}${id}` };
  return kind === 'calibrator' ? { id } : { account_id: accountId, id };
}

/** The shared record a row's key names, or null for another account's row or one not shared. */
export function recordIdOfKey(kind: TeamKind, key: Row, accountId: string): string | null {
  switch (kind) {
    case 'checklist': {
      const name = String(key['name']);
      return name.startsWith(CHECKLIST_PREFIX) ? name.slice(CHECKLIST_PREFIX.length) : null;
    }
    case 'calibrator':
      return String(key['id']);
    default:
      return key['account_id'] === accountId ? String(key['id']) : null;
  }
}

/**
 * When a record was last changed, by its own clock; a checklist template keeps none (0: the team's
 * version is taken over one changed before joining).
 */
export const changedAtOf = (record: JsonRecord): number =>
  typeof record['updatedAt'] === 'number' ? record['updatedAt'] : 0;
