/**
 * Every migration of FieldDesk's data cache (`fielddesk.db`), numbered and applied in order by
 * `openDatabase` (database.ts). Never edit a released one: add the next number. The user's records
 * (action history, sites, audio library) were kept here until step 9 and now live in `records.db`
 * (records/records-migrations.ts).
 */
import type { SqliteDatabase } from './database';

export interface Migration {
  /** 1, 2, 3, … without gaps. */
  version: number;
  /** What it does, kept in `schema_migrations` for anyone reading the file. */
  name: string;
  up(db: SqliteDatabase): void;
}

/** The tables of what the user made that lived here until step 9 (now in records.db). */
export const MOVED_TABLES = [
  'action_history',
  'assessment_sites',
  'audio_downloads',
  'audio_library',
  'audio_settings',
] as const;

/** The name a moved table keeps here until records.db has imported its rows. */
export const movedName = (table: string): string => `moved_${table}`;

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
  {
    version: 5,
    name: 'last known instrument list per account',
    up(db) {
      // The answer of the last instruments.list that reached the service, so the fleet can be
      // listed (as last known) after a restart without signal.
      db.exec(`
        CREATE TABLE known_fleets (
          account_id TEXT PRIMARY KEY,
          fetched_at INTEGER NOT NULL,
          list_json  TEXT NOT NULL
        ) STRICT;
      `);
    },
  },
  {
    version: 6,
    name: 'audio downloads and library',
    up(db) {
      // The download queue survives a restart: rows still queued or downloading are resumed from
      // their `.part` file (`part_path`) at the next start. `ranges` and `validator` remember whether
      // the service said it can continue a body (Accept-Ranges: bytes) and the ETag or Last-Modified
      // to ask it with (If-Range). The library indexes every downloaded file by its key, with the
      // full path it was saved at, so files stay indexed when the downloads folder changes.
      db.exec(`
        CREATE TABLE audio_downloads (
          id             TEXT PRIMARY KEY,
          account_id     TEXT NOT NULL,
          key            TEXT NOT NULL,
          recording_json TEXT NOT NULL,
          format         TEXT NOT NULL,
          state          TEXT NOT NULL,
          bytes          INTEGER NOT NULL DEFAULT 0,
          total          INTEGER,
          part_path      TEXT,
          ranges         INTEGER NOT NULL DEFAULT 0,
          validator      TEXT,
          resumed        INTEGER NOT NULL DEFAULT 0,
          restarted      INTEGER NOT NULL DEFAULT 0,
          error_json     TEXT,
          created_at     INTEGER NOT NULL,
          updated_at     INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX audio_downloads_by_state ON audio_downloads (state, created_at);
        CREATE TABLE audio_library (
          key            TEXT PRIMARY KEY,
          account_id     TEXT NOT NULL,
          serial         TEXT NOT NULL,
          recording_json TEXT NOT NULL,
          format         TEXT NOT NULL,
          path           TEXT NOT NULL,
          bytes          INTEGER NOT NULL,
          downloaded_at  INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX audio_library_by_serial ON audio_library (serial, downloaded_at DESC);
        CREATE TABLE audio_settings (
          name  TEXT PRIMARY KEY,
          value TEXT NOT NULL
        ) STRICT;
      `);
    },
  },
  {
    version: 7,
    name: 'noise event time histories',
    up(db) {
      // An event's own time history as last read, so an opened event — and the player following
      // it — has its chart without signal too.
      db.exec(`
        CREATE TABLE event_histories (
          account_id  TEXT NOT NULL,
          id          TEXT NOT NULL,
          fetched_at  INTEGER NOT NULL,
          answer_json TEXT NOT NULL,
          PRIMARY KEY (account_id, id)
        ) STRICT;
      `);
    },
  },
  {
    version: 8,
    name: 'assessment sites',
    up(db) {
      // A site as the engineer set it up: its instruments, time zone, exclusion rules, manual
      // exclusions and limits. One JSON document per site (read back through a schema, so one
      // damaged site never hides the others); the measured data itself stays in the cache, untouched.
      db.exec(`
        CREATE TABLE assessment_sites (
          account_id TEXT NOT NULL,
          id         TEXT NOT NULL,
          updated_at INTEGER NOT NULL,
          site_json  TEXT NOT NULL,
          PRIMARY KEY (account_id, id)
        ) STRICT;
      `);
    },
  },
  {
    version: 9,
    name: "the user's records move to records.db",
    up(db) {
      // What the user made must not share a file with what can be fetched again: records.db takes
      // these tables (records-migrations.ts). An empty one is dropped; one with rows is renamed and
      // kept until records.db holds its rows (it may not open today: a read-only folder, a newer
      // records.db), then dropped (`dropImportedTables`). Nothing is ever dropped unread.
      for (const table of MOVED_TABLES) {
        const { rows } = db.prepare(`SELECT COUNT(*) AS rows FROM ${table}`).get() as { rows: number };
        if (rows === 0) db.exec(`DROP TABLE ${table}`);
        else db.exec(`ALTER TABLE ${table} RENAME TO ${movedName(table)}`);
      }
    },
  },
  {
    version: 10,
    name: 'monitor stats read again with their LTE signal quality kept',
    up(db) {
      // Until now every dB channel was checked as a sound level (0–200 dB), so the monitors' LTE
      // RSRQ and SINR, negative by nature, were stored as "no reading". The cache is disposable: its
      // monitor stats are dropped (their chunks and series go with the key) and fetched again.
      db.exec("DELETE FROM cache_keys WHERE dataset = 'monitorStats'");
    },
  },
  {
    version: 11,
    name: 'instrument health as last known',
    up(db) {
      // Each instrument's status, last contact, newest data, supply, storage and signal as last
      // read (instruments/known-health.ts), so fleet attention works offline from the last known
      // states. One JSON document per instrument, read back through a schema.
      db.exec(`
        CREATE TABLE instrument_health (
          account_id  TEXT NOT NULL,
          serial      TEXT NOT NULL,
          read_at     INTEGER NOT NULL,
          health_json TEXT NOT NULL,
          PRIMARY KEY (account_id, serial)
        ) STRICT;
      `);
    },
  },
];

/** Drops the moved tables' old copies once records.db has imported them (after migration 9). */
export function dropImportedTables(db: SqliteDatabase): void {
  for (const table of MOVED_TABLES) db.exec(`DROP TABLE IF EXISTS ${movedName(table)}`);
}

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
