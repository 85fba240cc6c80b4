/**
 * Site visits in the user's records (records.db, tables `site_visits` and `visit_settings`): one
 * JSON document per visit, read back through a schema so a damaged row is left out on its own
 * (counted, and said in the log through core/damaged-rows.ts) instead of hiding the account's other
 * visits. The checklist templates per kind of
 * instrument and the last engineer named are kept beside them.
 */
import { z } from 'zod';
import {
  CHECK_STATES,
  DEFAULT_CHECKLISTS,
  INSTRUMENT_KINDS,
  summariseVisit,
  type SiteVisit,
  type VisitInstrumentKind,
  type VisitList,
} from '../../../shared/visits';
import type { ChecklistTemplates } from '../../../shared/ipc/visit-requests';
import type { SqliteDatabase } from '../core/database';
import { readStoredJson, type DamagedRows } from '../core/damaged-rows';

export const storedVisitSchema: z.ZodType<SiteVisit> = z.object({
  id: z.string(),
  accountId: z.string(),
  site: z.object({ id: z.string(), name: z.string() }).nullable(),
  instruments: z.array(
    z.object({ serial: z.string(), name: z.string(), model: z.string(), type: z.string() }),
  ),
  engineer: z.string(),
  arrivedAt: z.number(),
  leftAt: z.number().nullable(),
  keptLeftAt: z.number().nullable().optional(),
  checklist: z.array(
    z.object({
      id: z.string(),
      serial: z.string(),
      label: z.string(),
      state: z.enum(CHECK_STATES).nullable(),
      note: z.string(),
    }),
  ),
  notes: z.string(),
  photos: z.array(
    z.object({
      id: z.string(),
      fileName: z.string(),
      caption: z.string(),
      storedName: z.string(),
      bytes: z.number(),
      addedAt: z.number(),
    }),
  ),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export interface VisitStore {
  /** The account's visits newest first (those that included `serial`, when given). */
  list(accountId: string, serial?: string): { visits: SiteVisit[]; unreadable: number };
  get(accountId: string, id: string): SiteVisit | null;
  /** Stores the visit as given (replaces one with the same id). */
  put(visit: SiteVisit): void;
  remove(accountId: string, id: string): boolean;
  templates(): ChecklistTemplates;
  setTemplate(kind: VisitInstrumentKind, items: readonly string[]): void;
  lastEngineer(): string;
  setLastEngineer(name: string): void;
}

interface VisitRow {
  id: string;
  visit_json: string;
}

/** `damaged`: where a visit or checklist template that cannot be read is said (unsaid without it). */
export function createVisitStore(db: SqliteDatabase, damaged?: DamagedRows): VisitStore {
  const listRows = db.prepare<[string], VisitRow>(
    'SELECT id, visit_json FROM site_visits WHERE account_id = ? ORDER BY arrived_at DESC',
  );
  const getRow = db.prepare<[string, string], VisitRow>(
    'SELECT id, visit_json FROM site_visits WHERE account_id = ? AND id = ?',
  );
  const putRow = db.prepare(
    `INSERT INTO site_visits (account_id, id, arrived_at, updated_at, visit_json) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (account_id, id) DO UPDATE SET arrived_at = excluded.arrived_at,
       updated_at = excluded.updated_at, visit_json = excluded.visit_json`,
  );
  const removeRow = db.prepare('DELETE FROM site_visits WHERE account_id = ? AND id = ?');
  const getSetting = db.prepare('SELECT value FROM visit_settings WHERE name = ?');
  const putSetting = db.prepare(
    'INSERT INTO visit_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
  );

  function setting(name: string): string | null {
    const row = getSetting.get(name) as { value: string } | undefined;
    return row?.value ?? null;
  }

  const itemsSchema = z.array(z.string().min(1)).min(1);

  /** A visit, or null (counted as unreadable by the caller, not thrown) when its row is damaged. */
  const parseVisit = (row: VisitRow): SiteVisit | null =>
    readStoredJson(row.visit_json, storedVisitSchema, { table: 'site_visits', id: row.id, damaged });

  return {
    list(accountId, serial) {
      const visits: SiteVisit[] = [];
      let unreadable = 0;
      for (const row of listRows.all(accountId)) {
        const visit = parseVisit(row);
        if (visit === null) unreadable += 1;
        else if (serial === undefined || visit.instruments.some((i) => i.serial === serial))
          visits.push(visit);
      }
      return { visits, unreadable };
    },
    get(accountId, id) {
      const row = getRow.get(accountId, id);
      return row === undefined ? null : parseVisit(row);
    },
    put(visit) {
      putRow.run(visit.accountId, visit.id, visit.arrivedAt, visit.updatedAt, JSON.stringify(visit));
    },
    remove(accountId, id) {
      return removeRow.run(accountId, id).changes > 0;
    },
    templates() {
      const templates = {} as ChecklistTemplates;
      for (const kind of INSTRUMENT_KINDS) {
        const name = `checklist:${kind}`;
        const stored = setting(name);
        // A damaged template reads as the default list rather than an empty checklist.
        const items =
          stored === null
            ? null
            : readStoredJson(stored, itemsSchema, { table: 'visit_settings', id: name, damaged });
        templates[kind] = items ?? [...DEFAULT_CHECKLISTS[kind]];
      }
      return templates;
    },
    setTemplate(kind, items) {
      putSetting.run(`checklist:${kind}`, JSON.stringify(items));
    },
    lastEngineer() {
      return setting('lastEngineer') ?? '';
    },
    setLastEngineer(name) {
      putSetting.run('lastEngineer', name);
    },
  };
}

/** The list answer: summaries, newest first. */
export function visitList(read: { visits: SiteVisit[]; unreadable: number }): VisitList {
  return { visits: read.visits.map(summariseVisit), unreadable: read.unreadable };
}
