/**
 * FieldDesk's local database: one SQLite file, `<dataDir>/fielddesk.db`, in WAL mode. It holds the
 * history of finished field actions now and the data cache later, so `openDatabase` owns every
 * migration of every table.
 *
 * Migrations are numbered and applied in order, each in its own transaction together with its
 * row in `schema_migrations`, so a crash leaves the file at a known version. A file written by a
 * newer FieldDesk (a migration number this version does not know) is refused with a clear message
 * and left exactly as it was: an older app must never "repair" a newer schema.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { FieldDeskError } from '../../../shared/errors';

export type SqliteDatabase = Database.Database;

export const DATABASE_FILE_NAME = 'fielddesk.db';

export interface Migration {
  /** 1, 2, 3, … without gaps. */
  version: number;
  /** What it does, kept in `schema_migrations` for anyone reading the file. */
  name: string;
  up(db: SqliteDatabase): void;
}

/** Every migration FieldDesk knows, in order. Never edit a released one: add the next number. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'action history',
    up(db) {
      db.exec(`
        CREATE TABLE action_history (
          id          TEXT PRIMARY KEY,
          account_id  TEXT NOT NULL,
          serial      TEXT NOT NULL,
          action      TEXT NOT NULL,
          state       TEXT NOT NULL,
          started_at  INTEGER NOT NULL,
          finished_at INTEGER NOT NULL,
          message     TEXT NOT NULL,
          result_json TEXT,
          error_json  TEXT
        ) STRICT;
        CREATE INDEX action_history_by_instrument
          ON action_history (account_id, serial, finished_at DESC);
      `);
    },
  },
  {
    version: 2,
    name: 'data cache and site sync',
    up(db) {
      // The cache: one key per (account, instrument, dataset, canonical parameters); one chunk row
      // per stored response, whose [start_ms, end_ms) IS the coverage (no separate coverage table
      // that could disagree with the data); series as binary blocks per chunk and channel.
      db.exec(`
        CREATE TABLE cache_keys (
          id         INTEGER PRIMARY KEY,
          account_id TEXT NOT NULL,
          serial     TEXT NOT NULL,
          dataset    TEXT NOT NULL,
          params     TEXT NOT NULL,
          UNIQUE (account_id, serial, dataset, params)
        ) STRICT;
        CREATE TABLE cache_chunks (
          id           INTEGER PRIMARY KEY,
          key_id       INTEGER NOT NULL REFERENCES cache_keys (id) ON DELETE CASCADE,
          start_ms     INTEGER NOT NULL,
          end_ms       INTEGER NOT NULL CHECK (end_ms > start_ms),
          fetched_at   INTEGER NOT NULL,
          bytes        INTEGER NOT NULL,
          records_json TEXT
        ) STRICT;
        CREATE INDEX cache_chunks_by_key ON cache_chunks (key_id, start_ms);
        CREATE TABLE cache_series (
          chunk_id INTEGER NOT NULL REFERENCES cache_chunks (id) ON DELETE CASCADE,
          position INTEGER NOT NULL,
          name     TEXT NOT NULL,
          unit     TEXT,
          count    INTEGER NOT NULL,
          times    BLOB NOT NULL,
          vals     BLOB NOT NULL,
          PRIMARY KEY (chunk_id, position)
        ) STRICT;
        CREATE TABLE sync_runs (
          id           TEXT PRIMARY KEY,
          account_id   TEXT NOT NULL,
          request_json TEXT NOT NULL,
          state        TEXT NOT NULL,
          message      TEXT NOT NULL,
          started_at   INTEGER NOT NULL,
          updated_at   INTEGER NOT NULL,
          elapsed_ms   INTEGER NOT NULL DEFAULT 0,
          error_json   TEXT
        ) STRICT;
        CREATE INDEX sync_runs_by_start ON sync_runs (started_at DESC);
        CREATE TABLE sync_chunks (
          sync_id      TEXT NOT NULL REFERENCES sync_runs (id) ON DELETE CASCADE,
          seq          INTEGER NOT NULL,
          serial       TEXT NOT NULL,
          dataset      TEXT NOT NULL,
          options_json TEXT NOT NULL,
          start_ms     INTEGER NOT NULL,
          end_ms       INTEGER NOT NULL,
          state        TEXT NOT NULL DEFAULT 'pending',
          bytes        INTEGER NOT NULL DEFAULT 0,
          error_json   TEXT,
          PRIMARY KEY (sync_id, seq)
        ) STRICT;
      `);
    },
  },
  {
    version: 3,
    name: 'compact evenly spaced series times',
    up(db) {
      // How `times` is encoded (see `series-times.ts`): 0 = one Float64 per sample, as every row
      // written before this step; 1 = evenly spaced, the first time and the step. Adding a column
      // with a constant default rewrites nothing, so existing rows stay valid as codec 0. No CHECK:
      // a later codec comes with its own migration number, which older versions already refuse.
      db.exec('ALTER TABLE cache_series ADD COLUMN times_codec INTEGER NOT NULL DEFAULT 0');
    },
  },
  {
    version: 4,
    name: 'record tables carry their time column and column types',
    up(db) {
      upgradeStoredRecordTables(db);
    },
  },
];

/**
 * Migration 4's view of the record model, frozen as it was when the step was written (the parser's
 * model may change later; a migration must not): each dataset's time column, and its time columns.
 */
const V4_TIME_KEY: Readonly<Record<string, string>> = {
  weather: 'time',
  calibrations: 'time',
  calibrationLog: 'time',
  sic: 'time',
  monitorStats: 'time',
  monitorEvents: 'time',
  audio: 'triggerStartTime',
};
const V4_TIME_COLUMNS = new Set([
  'time',
  'startTime',
  'endTime',
  'audioTime',
  'triggerStartTime',
  'triggerEndTime',
]);
const V4_LIST_COLUMNS = new Set(['overall', 'octave', 'thirdOctave']);

/**
 * Stored tables were `{ columns: [{ key, label, unit }], rows }`; now they carry `timeKey` and a
 * `type` per column. The types are read off the values stored (times were always epoch ms numbers
 * under the known time columns). A table that cannot be read drops its chunk and the coverage it
 * claimed, so that range is fetched again rather than shown without its records.
 */
function upgradeStoredRecordTables(db: SqliteDatabase): void {
  const chunks = db
    .prepare(
      `SELECT c.id, k.dataset, c.records_json FROM cache_chunks c JOIN cache_keys k ON k.id = c.key_id
       WHERE c.records_json IS NOT NULL`,
    )
    .all() as Array<{ id: number; dataset: string; records_json: string }>;
  const write = db.prepare('UPDATE cache_chunks SET records_json = ? WHERE id = ?');
  const drop = db.prepare('DELETE FROM cache_chunks WHERE id = ?');
  for (const chunk of chunks) {
    let table: { columns?: unknown; rows?: unknown } | null = null;
    try {
      table = JSON.parse(chunk.records_json) as { columns?: unknown; rows?: unknown };
    } catch {
      table = null;
    }
    if (table === null || !Array.isArray(table.columns) || !Array.isArray(table.rows)) {
      drop.run(chunk.id);
      continue;
    }
    const rows = table.rows as Array<Record<string, unknown>>;
    const typeOf = (key: string): string => {
      if (V4_TIME_COLUMNS.has(key)) return 'time';
      if (V4_LIST_COLUMNS.has(key)) return 'list';
      const kinds = new Set(
        rows
          .map((row) => row[key])
          .filter((v) => v !== null && v !== undefined)
          .map((v) => typeof v),
      );
      if (kinds.size === 1 && kinds.has('number')) return 'number';
      if (kinds.size === 1 && kinds.has('boolean')) return 'boolean';
      return 'text';
    };
    const columns = (table.columns as Array<{ key: string; label: string; unit: string | null }>).map(
      (column) => ({ ...column, type: typeOf(column.key) }),
    );
    const timeKey = V4_TIME_KEY[chunk.dataset] ?? 'startTime';
    write.run(JSON.stringify({ timeKey, columns, rows }), chunk.id);
  }
}

export interface OpenDatabaseOptions {
  /** Tests supply their own list to exercise upgrades and failures. */
  migrations?: readonly Migration[];
  /** Default `fielddesk.db`. */
  fileName?: string;
}

export interface FieldDeskDatabase {
  readonly db: SqliteDatabase;
  readonly path: string;
  /** The highest migration applied. */
  readonly version: number;
  close(): void;
}

function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`Migration ${migration.name} has number ${migration.version}, expected ${index + 1}.`);
    }
  });
}

function appliedVersion(db: SqliteDatabase): number {
  const table = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (table === undefined) return 0;
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as {
    version: number | null;
  };
  return row.version ?? 0;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Opens (creating if needed) the database in `dataDir` and brings it to the latest schema. */
export function openDatabase(dataDir: string, options: OpenDatabaseOptions = {}): FieldDeskDatabase {
  const migrations = options.migrations ?? MIGRATIONS;
  checkMigrationList(migrations);
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, options.fileName ?? DATABASE_FILE_NAME);

  let db: SqliteDatabase;
  try {
    db = new Database(path);
  } catch (error) {
    throw new FieldDeskError(
      'internal',
      `FieldDesk could not open its local database ${path} (${describe(error)}). Check that the folder can be written to.`,
      { cause: error },
    );
  }

  try {
    // Read the version before changing anything, so a newer or damaged file stays untouched.
    let current: number;
    try {
      current = appliedVersion(db);
    } catch (error) {
      throw new FieldDeskError(
        'internal',
        `FieldDesk's local database ${path} is damaged or is not a FieldDesk database (${describe(error)}). ` +
          'Action history is unavailable until the file is moved away; FieldDesk will then start a new one.',
        { cause: error },
      );
    }
    const latest = migrations.length;
    if (current > latest) {
      throw new FieldDeskError(
        'internal',
        `FieldDesk's local database ${path} was written by a newer version of FieldDesk ` +
          `(schema ${current}; this version knows up to ${latest}). Update FieldDesk to use it; ` +
          'the file has been left untouched.',
      );
    }

    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');

    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at INTEGER NOT NULL
    ) STRICT`);
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of migrations.slice(current)) {
      try {
        db.transaction(() => {
          migration.up(db);
          record.run(migration.version, migration.name, Date.now());
        }).immediate();
      } catch (error) {
        throw new FieldDeskError(
          'internal',
          `FieldDesk could not update its local database ${path} (step ${migration.version}, ${migration.name}: ` +
            `${describe(error)}). The file was left at step ${migration.version - 1}.`,
          { cause: error },
        );
      }
    }
    return {
      db,
      path,
      version: latest,
      close: () => {
        if (db.open) db.close();
      },
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
