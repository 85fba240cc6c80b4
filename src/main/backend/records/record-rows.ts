/**
 * Whole records by table, read and written as rows: a restore replays the journal's changes with
 * `replayChanges`, and the team's replication (team/team-replica.ts) reads the shared tables and
 * applies what a colleague changed through `RecordRows` — inside the records' journalled
 * transaction, so a colleague's change is journalled and backed up like the user's own.
 */
import type { SqliteDatabase } from '../core/database';
import type { RecordChange } from './change-journal';
import { RECORD_TABLES, type RecordTable, type Row } from './records-salvage';

export type RowChange = Pick<RecordChange, 'table' | 'key' | 'op' | 'row'>;

export interface RecordRows {
  /** Every record of a table. */
  all(table: RecordTable): Row[];
  /** One record by its key columns, or undefined. */
  get(table: RecordTable, key: Row): Row | undefined;
  /** Puts each record whole or deletes it, in one transaction; throws when one does not fit. */
  apply(changes: readonly RowChange[]): void;
}

export function createRecordRows(db: SqliteDatabase): RecordRows {
  return {
    all: (table) => db.prepare(`SELECT * FROM "${table}"`).all() as Row[],
    get(table, key) {
      const columns: readonly string[] = RECORD_TABLES[table].key;
      return db
        .prepare(`SELECT * FROM "${table}" WHERE ${columns.map((c) => `"${c}" = ?`).join(' AND ')}`)
        .get(...columns.map((column) => key[column] ?? null)) as Row | undefined;
    },
    apply(changes) {
      const replay = replayChanges(db, changes);
      if (replay.refused > 0)
        throw new Error(`${replay.refused} of ${changes.length} records did not fit their table.`);
    },
  };
}

export interface Replay<C extends RowChange = RowChange> {
  /** The changes applied, in order. */
  applied: C[];
  /** Changes that did not fit the table (a journal written by something else). */
  refused: number;
}

/** Applies journalled changes to a records file in one transaction: each record put whole or deleted. */
export function replayChanges<C extends RowChange>(db: SqliteDatabase, changes: readonly C[]): Replay<C> {
  const replay: Replay<C> = { applied: [], refused: 0 };
  const columns = new Map<RecordTable, string[]>();
  const columnsOf = (table: RecordTable): string[] => {
    let list = columns.get(table);
    if (list === undefined) {
      list = (db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map(
        (c) => c.name,
      );
      columns.set(table, list);
    }
    return list;
  };
  db.transaction(() => {
    for (const change of changes) {
      const key: readonly string[] = RECORD_TABLES[change.table].key;
      try {
        if (change.op === 'delete') {
          db.prepare(`DELETE FROM "${change.table}" WHERE ${key.map((c) => `"${c}" = ?`).join(' AND ')}`).run(
            ...key.map((column) => change.key[column] ?? null),
          );
        } else {
          const row: Row = change.row ?? {};
          const names = columnsOf(change.table).filter((column) => Object.hasOwn(row, column));
          db.prepare(
            `INSERT OR REPLACE INTO "${change.table}" (${names.map((c) => `"${c}"`).join(', ')})
             VALUES (${names.map(() => '?').join(', ')})`,
          ).run(...names.map((column) => row[column] ?? null));
        }
        replay.applied.push(change);
      } catch (error) {
        if (error instanceof Error && /constraint|datatype|cannot store|no such/i.test(error.message)) {
          replay.refused++;
          continue;
        }
        throw error;
      }
    }
  }).immediate();
  return replay;
}
