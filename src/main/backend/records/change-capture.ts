/**
 * Which records a transaction changed, noted by SQLite itself: temporary triggers — this connection's
 * only, never written into records.db or its copies — note each changed record's table and key in a
 * temporary table, whatever statement changed it; `collect` reads those records as they now are, just
 * before the commit, for the change journal (change-journal.ts).
 */
import type { SqliteDatabase } from '../core/database';
import type { RecordChange } from './change-journal';
import { RECORD_TABLES, type RecordTable, type Row } from './records-salvage';

export type CapturedChange = Pick<RecordChange, 'table' | 'key' | 'op' | 'row'>;

export interface ChangeCapture {
  /** The records changed since the last collect, each once: the whole record, or its deletion. */
  collect(): CapturedChange[];
}

const sqlString = (text: string): string => `'${text.replaceAll("'", "''")}'`;

export function captureChanges(db: SqliteDatabase): ChangeCapture {
  db.exec(
    'CREATE TEMP TABLE IF NOT EXISTS changed_records (id INTEGER PRIMARY KEY, tbl TEXT NOT NULL, key TEXT NOT NULL)',
  );
  const tables = (Object.keys(RECORD_TABLES) as RecordTable[]).filter(
    (table) =>
      db.prepare("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?").get(table) !==
      undefined,
  );
  const readers = new Map<RecordTable, (key: Row) => Row | undefined>();
  for (const table of tables) {
    const key: readonly string[] = RECORD_TABLES[table].key;
    const keyOf = (side: 'NEW' | 'OLD') =>
      `json_object(${key.map((column) => `${sqlString(column)}, ${side}."${column}"`).join(', ')})`;
    const note = (side: 'NEW' | 'OLD') =>
      `INSERT INTO temp.changed_records (tbl, key) VALUES (${sqlString(table)}, ${keyOf(side)});`;
    db.exec(`
      CREATE TEMP TRIGGER IF NOT EXISTS "journal_${table}_insert" AFTER INSERT ON main."${table}"
        BEGIN ${note('NEW')} END;
      CREATE TEMP TRIGGER IF NOT EXISTS "journal_${table}_update" AFTER UPDATE ON main."${table}"
        BEGIN ${note('OLD')} ${note('NEW')} END;
      CREATE TEMP TRIGGER IF NOT EXISTS "journal_${table}_delete" AFTER DELETE ON main."${table}"
        BEGIN ${note('OLD')} END;
    `);
    const select = db.prepare(
      `SELECT * FROM main."${table}" WHERE ${key.map((column) => `"${column}" = ?`).join(' AND ')}`,
    );
    readers.set(table, (values) => select.get(...key.map((column) => values[column])) as Row | undefined);
  }
  const noted = db.prepare('SELECT tbl, key FROM temp.changed_records ORDER BY id');
  const clear = db.prepare('DELETE FROM temp.changed_records');

  return {
    collect() {
      const rows = noted.all() as Array<{ tbl: RecordTable; key: string }>;
      if (rows.length === 0) return [];
      clear.run();
      // Each record once, in the order of its last change.
      const last = new Map<string, { tbl: RecordTable; key: string }>();
      for (const row of rows) {
        const id = `${row.tbl}\u0000${row.key}`;
        last.delete(id);
        last.set(id, row);
      }
      return [...last.values()].map(({ tbl, key }) => {
        const keyValues = JSON.parse(key) as Row;
        const row = readers.get(tbl)!(keyValues);
        return row === undefined
          ? { table: tbl, key: keyValues, op: 'delete' as const }
          : { table: tbl, key: keyValues, op: 'put' as const, row };
      });
    },
  };
}
