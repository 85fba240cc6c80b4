/**
 * Reading what can be read from a damaged (or old) SQLite file, and merging it into the records:
 * each table row by row, so a damaged page loses only the rows on it, never the table or the file.
 * Used to bring back what a damaged records.db held beyond its newest backup, and to move the
 * records an earlier FieldDesk kept in the cache database.
 */
import type { SqliteDatabase } from '../core/database';
import { isDatabaseDamage } from '../core/database';

/** How each table of the records is keyed, and which column says which copy of a row is newer. */
export const RECORD_TABLES = {
  action_history: { key: ['id'], newer: 'finished_at', noun: ['action result', 'action results'] },
  assessment_sites: {
    key: ['account_id', 'id'],
    newer: 'updated_at',
    noun: ['site', 'sites'],
  },
  audio_library: { key: ['key'], newer: 'downloaded_at', noun: ['recording', 'recordings'] },
  audio_downloads: { key: ['id'], newer: 'updated_at', noun: ['queued download', 'queued downloads'] },
  // No time: the copy being merged is the newer (the damaged file was written after its backup).
  audio_settings: { key: ['name'], newer: null, noun: ['audio setting', 'audio settings'] },
  site_visits: { key: ['account_id', 'id'], newer: 'updated_at', noun: ['site visit', 'site visits'] },
  visit_settings: { key: ['name'], newer: null, noun: ['visit setting', 'visit settings'] },
  calibrators: { key: ['id'], newer: 'updated_at', noun: ['calibrator', 'calibrators'] },
} as const satisfies Record<
  string,
  { key: readonly string[]; newer: string | null; noun: readonly [string, string] }
>;

export type RecordTable = keyof typeof RECORD_TABLES;

export type Row = Record<string, unknown>;

export interface TableRead {
  table: RecordTable;
  rows: Row[];
  /** False when a part of the table could not be read (its rows are lost). */
  complete: boolean;
}

export interface TableMerge {
  table: RecordTable;
  /** Rows read from the source. */
  read: number;
  /** Rows that added to or replaced what the target held. */
  merged: number;
  /** Rows the target held that the source, read whole, no longer had (mirroring only). */
  removed: number;
  complete: boolean;
}

export interface SalvageReport {
  tables: TableMerge[];
  /** Why nothing at all could be read (not a database, say); null when the tables were reached. */
  problem: string | null;
}

/** Row ids probed one by one past a damaged page; records are thousands of rows, not millions. */
const MAX_PROBES = 200_000;

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function tableExists(db: SqliteDatabase, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/** Every readable row of one table; past a damaged page, the rows after it one row id at a time. */
function readTable(db: SqliteDatabase, name: string): { rows: Row[]; complete: boolean } {
  const rows: Row[] = [];
  let lastRowid = 0;
  try {
    for (const row of db.prepare(`SELECT rowid AS rowid__, * FROM "${name}" ORDER BY rowid`).iterate()) {
      const { rowid__, ...rest } = row as Row & { rowid__: number };
      lastRowid = rowid__;
      rows.push(rest);
    }
    return { rows, complete: true };
  } catch (error) {
    if (!isDatabaseDamage(error)) throw error;
  }
  let highest: number | null = null;
  try {
    highest = (db.prepare(`SELECT MAX(rowid) AS highest FROM "${name}"`).get() as { highest: number | null })
      .highest;
  } catch {
    // The table's last page is damaged too: probe a bounded stretch past the last row read.
    highest = null;
  }
  const end = Math.min(highest ?? lastRowid + 10_000, lastRowid + MAX_PROBES);
  const one = db.prepare(`SELECT * FROM "${name}" WHERE rowid = ?`);
  for (let rowid = lastRowid + 1; rowid <= end; rowid++) {
    try {
      const row = one.get(rowid) as Row | undefined;
      if (row !== undefined) rows.push(row);
    } catch {
      // This row sits on a damaged page: it is lost, and the table is reported incomplete.
    }
  }
  return { rows, complete: false };
}

/**
 * Reads the record tables from `db` (each under the first of its names that exists). Never throws
 * for damage: what could not be read is reported.
 */
export function readTables(
  db: SqliteDatabase,
  tables: ReadonlyArray<{ table: RecordTable; names: readonly string[] }>,
): { reads: TableRead[]; problem: string | null } {
  const reads: TableRead[] = [];
  for (const { table, names } of tables) {
    let name: string | undefined;
    try {
      name = names.find((candidate) => tableExists(db, candidate));
    } catch (error) {
      if (!isDatabaseDamage(error)) throw error;
      // The file's schema itself cannot be read: nothing in it can be.
      return { reads: [], problem: describe(error) };
    }
    if (name === undefined) continue;
    reads.push({ table, ...readTable(db, name) });
  }
  return { reads, problem: null };
}

/** The target's own columns, so a damaged source cannot name columns into the SQL. */
function columnsOf(db: SqliteDatabase, table: RecordTable): string[] {
  return (db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map((c) => c.name);
}

/**
 * Merges rows read elsewhere into the records, in one transaction: a row the target lacks is added,
 * one it has is replaced when the merged copy is newer (or, without a time, always). Rows that do not
 * fit the table (damaged values) are skipped. With `mirrorComplete` (the source is newer than the
 * target: a damaged file over its older backup), a table the source gave whole also loses the rows
 * the source no longer has: the user deleted them, and a restore must not bring them back.
 */
export function mergeRows(
  db: SqliteDatabase,
  read: { reads: TableRead[]; problem: string | null },
  options: { mirrorComplete?: boolean } = {},
): SalvageReport {
  const report: SalvageReport = { tables: [], problem: read.problem };
  const merge = db.transaction(() => {
    for (const { table, rows, complete } of read.reads) {
      const spec = RECORD_TABLES[table];
      const columns = columnsOf(db, table);
      const updates = columns.filter((c) => !(spec.key as readonly string[]).includes(c));
      const newerCheck =
        spec.newer === null ? '' : ` WHERE excluded."${spec.newer}" > "${table}"."${spec.newer}"`;
      const statement = db.prepare(
        `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')})
         VALUES (${columns.map((c) => `@${c}`).join(', ')})
         ON CONFLICT (${spec.key.map((c) => `"${c}"`).join(', ')}) DO UPDATE SET
           ${updates.map((c) => `"${c}" = excluded."${c}"`).join(', ')}${newerCheck}`,
      );
      let merged = 0;
      const held = new Set<string>();
      const keyText = (row: Row) => JSON.stringify(spec.key.map((column) => row[column] ?? null));
      for (const row of rows) {
        const values: Row = {};
        for (const column of columns) values[column] = row[column] ?? null;
        try {
          merged += statement.run(values).changes;
          held.add(keyText(values));
        } catch (error) {
          // A row whose values do not fit (a damaged page read as garbage) is not brought back.
          if (error instanceof Error && /constraint|datatype|cannot store/i.test(error.message)) continue;
          throw error;
        }
      }
      let removed = 0;
      if (options.mirrorComplete === true && complete) {
        const keyColumns = spec.key.map((c) => `"${c}"`).join(', ');
        const remove = db.prepare(
          `DELETE FROM "${table}" WHERE ${spec.key.map((c) => `"${c}" = ?`).join(' AND ')}`,
        );
        for (const row of db.prepare(`SELECT ${keyColumns} FROM "${table}"`).all() as Row[]) {
          if (held.has(keyText(row))) continue;
          removed += remove.run(...spec.key.map((column) => row[column])).changes;
        }
      }
      report.tables.push({ table, read: rows.length, merged, removed, complete });
    }
  });
  merge.immediate();
  return report;
}
