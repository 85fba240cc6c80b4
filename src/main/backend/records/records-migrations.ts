/**
 * Every migration of the user's records (`records.db`): what the user made, kept apart from the
 * disposable data cache (`fielddesk.db`). Never edit a released one: add the next number.
 *
 * Step 1 creates the tables as the cache database had them (core/migrations.ts steps 1, 6 and 8:
 * the same columns, so rows move over unchanged); step 2 brings the rows an earlier FieldDesk kept in
 * the cache database, read tolerantly (records-salvage.ts) so a damaged old file gives what it can.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Migration, SqliteDatabase } from '../core/database';
import { MOVED_TABLES, movedName } from '../core/migrations';
import { mergeRows, readTables, type SalvageReport } from './records-salvage';

/** What step 2 found in the old cache database, for the notice and for dropping its copies. */
export interface LegacyImport {
  /** The cache database that was read; null when there was none. */
  path: string | null;
  report: SalvageReport | null;
}

function createTables(db: SqliteDatabase): void {
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
    CREATE TABLE assessment_sites (
      account_id TEXT NOT NULL,
      id         TEXT NOT NULL,
      updated_at INTEGER NOT NULL,
      site_json  TEXT NOT NULL,
      PRIMARY KEY (account_id, id)
    ) STRICT;
    CREATE TABLE records_meta (
      name  TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT;
  `);
}

/** Reads the old cache database's copies (original names, or `moved_*` after its step 9). */
function importLegacy(db: SqliteDatabase, legacyPath: string | null, outcome: LegacyImport): void {
  if (legacyPath === null || !existsSync(legacyPath)) return;
  outcome.path = legacyPath;
  let legacy: SqliteDatabase;
  try {
    legacy = new Database(legacyPath, { readonly: true, fileMustExist: true });
  } catch (error) {
    outcome.report = { tables: [], problem: error instanceof Error ? error.message : String(error) };
    return;
  }
  try {
    const read = readTables(
      legacy,
      MOVED_TABLES.map((table) => ({ table, names: [table, movedName(table)] })),
    );
    outcome.report = mergeRows(db, read);
  } finally {
    legacy.close();
  }
  const complete = outcome.report.problem === null && outcome.report.tables.every((t) => t.complete);
  db.prepare("INSERT OR REPLACE INTO records_meta (name, value) VALUES ('legacy_import', ?)").run(
    complete ? 'complete' : 'partial',
  );
}

/**
 * The records' migrations. `legacyPath` is the cache database an earlier FieldDesk kept the records
 * in; `outcome` receives what step 2 found there (when it runs).
 */
export function recordsMigrations(
  legacyPath: string | null = null,
  outcome: LegacyImport = { path: null, report: null },
): Migration[] {
  return [
    { version: 1, name: "the user's records", up: createTables },
    {
      version: 2,
      name: 'records kept in the cache database by earlier versions',
      up: (db) => importLegacy(db, legacyPath, outcome),
    },
    {
      version: 3,
      name: 'audio download final path',
      up(db) {
        // The name a finished download is given, recorded before its `.part` is renamed to it: a
        // FieldDesk stopped between the rename and the library entry finds the file whole at the
        // next start instead of fetching it again under "… (2)".
        db.exec('ALTER TABLE audio_downloads ADD COLUMN final_path TEXT');
      },
    },
    {
      version: 4,
      name: 'calibrators, and the calibrator kept with a calibration',
      up(db) {
        // One JSON document per calibrator (read back through a schema, so a damaged one is left
        // out on its own); `used_at` says which was chosen last, so the wizard offers it first.
        // `context_json` on an action result holds what the engineer said about it (the calibrator).
        db.exec(`
          CREATE TABLE calibrators (
            id              TEXT PRIMARY KEY,
            updated_at      INTEGER NOT NULL,
            used_at         INTEGER,
            calibrator_json TEXT NOT NULL
          ) STRICT;
          ALTER TABLE action_history ADD COLUMN context_json TEXT;
        `);
      },
    },
    {
      version: 5,
      name: 'site visits',
      up(db) {
        // One JSON document per visit (visits/visit-store.ts), and the checklist templates and
        // last engineer named beside them.
        db.exec(`
          CREATE TABLE site_visits (
            account_id TEXT NOT NULL,
            id         TEXT NOT NULL,
            arrived_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            visit_json TEXT NOT NULL,
            PRIMARY KEY (account_id, id)
          ) STRICT;
          CREATE INDEX site_visits_by_arrival ON site_visits (account_id, arrived_at DESC);
          CREATE TABLE visit_settings (
            name  TEXT PRIMARY KEY,
            value TEXT NOT NULL
          ) STRICT;
        `);
      },
    },
  ];
}

/** Whether every record of the old cache database was read into records.db (its copies may go). */
export function legacyImportComplete(db: SqliteDatabase): boolean {
  const row = db.prepare("SELECT value FROM records_meta WHERE name = 'legacy_import'").get() as
    { value: string } | undefined;
  // No row: there was nothing to import.
  return row === undefined || row.value === 'complete';
}
