/** A fresh data folder for each test and the databases the test opens in it, closed and removed after it. */
import { afterEach, beforeEach } from 'vitest';
import {
  openDatabase,
  type FieldDeskDatabase,
  type OpenDatabaseOptions,
} from '../../../src/main/backend/core/database';
import { recordsMigrations } from '../../../src/main/backend/records/records-migrations';
import { RECORDS_FILE_NAME } from '../../../src/main/backend/records/records-database';
import { makeTempDir } from './helpers';

export interface TempDatabaseFolder {
  /** The current test's folder. */
  readonly path: string;
  /** Opens the (cache) database in the folder; it is closed after the test if still open. */
  open(options?: OpenDatabaseOptions): FieldDeskDatabase;
  /** Opens the user's records database (records.db) in the folder, as `open` does. */
  openRecords(): FieldDeskDatabase;
  /** Closes every database opened so far, as quitting FieldDesk would. */
  closeAll(): void;
}

/** Call at the top level of a test file: registers the per-test setup and clean-up. */
export function useTempDatabaseFolder(): TempDatabaseFolder {
  let dir: { path: string; remove(): Promise<void> } | undefined;
  const opened: FieldDeskDatabase[] = [];
  const current = () => {
    if (dir === undefined) throw new Error('the temp folder exists only while a test runs');
    return dir;
  };
  const closeAll = () => {
    for (const database of opened.splice(0)) database.close();
  };

  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => {
    closeAll();
    await current().remove();
    dir = undefined;
  });

  return {
    get path() {
      return current().path;
    },
    open(options = {}) {
      const database = openDatabase(current().path, options);
      opened.push(database);
      return database;
    },
    openRecords() {
      const database = openDatabase(current().path, {
        fileName: RECORDS_FILE_NAME,
        migrations: recordsMigrations(),
        synchronous: 'FULL',
      });
      opened.push(database);
      return database;
    },
    closeAll,
  };
}
