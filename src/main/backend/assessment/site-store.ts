/**
 * Assessment sites in the local database (table `assessment_sites`, migration 8): one JSON
 * document per site, read back through a schema so a damaged row is left out on its own (counted,
 * and said in the log through core/damaged-rows.ts) instead of hiding the account's other sites. Exclusions are kept here, beside the data
 * they qualify, never written into the cached measurements.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  DEFAULT_EXCLUSION_RULES,
  DEFAULT_LIMITS,
  EMPTY_SITE_COVER,
  EMPTY_SITE_POSITIONS,
  LIMIT_KEYS,
  POSITION_KINDS,
  REPORT_STATUSES,
  type Site,
  type SitePositions,
} from '../../../shared/assessment';
import { FieldDeskError } from '../../../shared/errors';
import {
  siteConclusionSchema,
  siteCoverSchema,
  sitePositionsSchema,
} from '../../../shared/ipc/assessment-requests';
import type { SqliteDatabase } from '../core/database';
import { readStoredJson, type DamagedRows } from '../core/damaged-rows';

export const storedSiteSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  name: z.string(),
  timeZone: z.string(),
  serials: z.array(z.string()),
  rules: z.object({
    wind: z.boolean(),
    windLimit: z.number(),
    // Sites saved before the option exclude time without a wind reading, as new ones do.
    windUnknown: z.enum(['exclude', 'calm']).default(DEFAULT_EXCLUSION_RULES.windUnknown),
    precipitation: z.boolean(),
    failedCheck: z.boolean(),
    offline: z.boolean(),
    overload: z.boolean(),
  }),
  exclusions: z.array(
    z.object({
      id: z.string(),
      start: z.number(),
      end: z.number(),
      reason: z.string(),
      serial: z.string().nullable(),
      createdAt: z.number(),
    }),
  ),
  limits: z.partialRecord(z.enum(LIMIT_KEYS), z.number()),
  settings: z.object({
    statistics: z.enum(['intervals', 'timeHistory']),
    nightEventThreshold: z.number(),
    dinLine: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    // Sites saved before the coverage rule get its default.
    minimumCoverage: z.number().min(0).max(1).default(DEFAULT_ASSESSMENT_SETTINGS.minimumCoverage),
  }),
  // Sites saved before the report's cover read with an empty one; a field absent from a stored
  // cover (company, approver, revision and status came later) reads empty too.
  cover: z
    .object({
      client: z.string().default(''),
      project: z.string().default(''),
      reference: z.string().default(''),
      author: z.string().default(''),
      company: z.string().default(''),
      approver: z.string().default(''),
      revision: z.string().default(''),
      status: z.enum([...REPORT_STATUSES, '']).default(''),
    })
    .default({ ...EMPTY_SITE_COVER }),
  // Sites saved before the conclusion and the positions read with the drafted conclusion and no
  // position stated.
  conclusion: z.string().default(''),
  positions: z
    .object({
      instruments: z.record(
        z.string(),
        z.object({
          description: z.string().default(''),
          height: z.number().nullable().default(null),
          kind: z.enum(POSITION_KINDS).default('unstated'),
        }),
      ),
      weather: z.string().default(''),
    })
    .default({ ...EMPTY_SITE_POSITIONS, instruments: {} }),
  createdAt: z.number(),
  updatedAt: z.number(),
});

/** What creating or changing a site gives; what is absent keeps its value (or the default when new). */
export type SiteChange = Pick<Site, 'name' | 'timeZone' | 'serials'> &
  Partial<Pick<Site, 'id' | 'rules' | 'limits' | 'settings' | 'cover' | 'conclusion' | 'positions'>>;

export interface SiteStore {
  /** The account's sites by name, and how many stored ones could not be read. */
  list(accountId: string): { sites: Site[]; unreadable: number };
  get(accountId: string, id: string): Site | null;
  /**
   * Creates the site (no id) or changes it; null when the id names no site of the account. Throws
   * `invalidInput` for a report text or position the request schema would refuse.
   */
  save(accountId: string, change: SiteChange): Site | null;
  /** Replaces a stored site whole (its exclusions changed). */
  put(site: Site): Site;
  remove(accountId: string, id: string): boolean;
}

/**
 * The report's texts and positions of a change, checked as the request is (the store is also called
 * from inside the backend): a too-long text or an impossible height is refused with its message.
 */
function checkedReportFields(change: SiteChange): Pick<SiteChange, 'cover' | 'conclusion' | 'positions'> {
  const checks = [
    ['cover', siteCoverSchema.optional().safeParse(change.cover)],
    ['conclusion', siteConclusionSchema.optional().safeParse(change.conclusion)],
    ['positions', sitePositionsSchema.optional().safeParse(change.positions)],
  ] as const;
  for (const [field, parsed] of checks) {
    if (!parsed.success) throw new FieldDeskError('invalidInput', parsed.error.issues[0]!.message, { field });
  }
  return { cover: checks[0][1].data, conclusion: checks[1][1].data, positions: checks[2][1].data };
}

/** The positions of the site's own instruments only (an instrument taken off the site takes its position along). */
function positionsFor(positions: SitePositions, serials: readonly string[]): SitePositions {
  return {
    instruments: Object.fromEntries(
      Object.entries(positions.instruments).filter(([serial]) => serials.includes(serial)),
    ),
    weather: positions.weather,
  };
}

interface SiteRow {
  id: string;
  site_json: string;
}

export function newExclusionId(): string {
  return randomUUID().replace(/-/g, '').slice(0, 16);
}

/** `damaged`: where a site that cannot be read is said (left out unsaid without it). */
export function createSiteStore(db: SqliteDatabase, now: () => number, damaged?: DamagedRows): SiteStore {
  const selectAll = db.prepare<[string], SiteRow>(
    'SELECT id, site_json FROM assessment_sites WHERE account_id = ?',
  );
  const selectOne = db.prepare<[string, string], SiteRow>(
    'SELECT id, site_json FROM assessment_sites WHERE account_id = ? AND id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO assessment_sites (account_id, id, updated_at, site_json) VALUES (?, ?, ?, ?)
     ON CONFLICT (account_id, id) DO UPDATE SET updated_at = excluded.updated_at, site_json = excluded.site_json`,
  );
  const remove = db.prepare('DELETE FROM assessment_sites WHERE account_id = ? AND id = ?');

  const parse = (row: SiteRow): Site | null =>
    readStoredJson(row.site_json, storedSiteSchema, { table: 'assessment_sites', id: row.id, damaged });

  const put = (site: Site): Site => {
    const stored = { ...site, updatedAt: now() };
    upsert.run(stored.accountId, stored.id, stored.updatedAt, JSON.stringify(stored));
    return stored;
  };

  return {
    list(accountId) {
      let unreadable = 0;
      const sites: Site[] = [];
      for (const row of selectAll.all(accountId)) {
        const site = parse(row);
        if (site === null) unreadable++;
        else sites.push(site);
      }
      sites.sort((a, b) => a.name.localeCompare(b.name));
      return { sites, unreadable };
    },
    get(accountId, id) {
      const row = selectOne.get(accountId, id);
      return row === undefined ? null : parse(row);
    },
    save(accountId, change) {
      const { cover, conclusion, positions } = checkedReportFields(change);
      const serials = [...new Set(change.serials)];
      if (change.id !== undefined) {
        const row = selectOne.get(accountId, change.id);
        const existing = row === undefined ? null : parse(row);
        if (existing === null) return null;
        return put({
          ...existing,
          name: change.name,
          timeZone: change.timeZone,
          serials,
          rules: change.rules ?? existing.rules,
          limits: change.limits ?? existing.limits,
          settings: change.settings ?? existing.settings,
          cover: cover ?? existing.cover,
          conclusion: conclusion ?? existing.conclusion,
          positions: positionsFor(positions ?? existing.positions, serials),
        });
      }
      const created = now();
      return put({
        id: randomUUID(),
        accountId,
        name: change.name,
        timeZone: change.timeZone,
        serials,
        rules: change.rules ?? { ...DEFAULT_EXCLUSION_RULES },
        exclusions: [],
        limits: change.limits ?? { ...DEFAULT_LIMITS },
        settings: change.settings ?? { ...DEFAULT_ASSESSMENT_SETTINGS },
        cover: cover ?? { ...EMPTY_SITE_COVER },
        conclusion: conclusion ?? '',
        positions: positionsFor(positions ?? EMPTY_SITE_POSITIONS, serials),
        createdAt: created,
        updatedAt: created,
      });
    },
    put,
    remove(accountId, id) {
      return remove.run(accountId, id).changes > 0;
    },
  };
}
