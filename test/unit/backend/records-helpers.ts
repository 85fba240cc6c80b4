/**
 * The user's records on a temporary data folder, for the tests of records.db and its stores: each
 * test gets a fresh folder; records opened are closed after it, and `crash` closes one as a crash
 * would (no last backup, every change durable in the file).
 */
import { afterEach, beforeEach } from 'vitest';
import { createEventHub } from '../../../src/main/backend/core/events';
import { createNoticeBoard } from '../../../src/main/backend/core/notices';
import {
  openRecordsDatabase,
  RECORDS_NOTICE,
  type RecordsDatabase,
} from '../../../src/main/backend/records/records-database';
import { makeTempDir, memoryLogger } from './helpers';

export function useTestRecords() {
  let dir: { path: string; remove(): Promise<void> } | null = null;
  const opened: RecordsDatabase[] = [];
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((records) => records.close()));
    await dir?.remove();
  });
  const folder = (): string => {
    if (dir === null) throw new Error('useTestRecords: no test is running');
    return dir.path;
  };
  return {
    /** This test's data folder. */
    folder,
    /** Opens the records on the folder with a clock stopped at `at`; a backup waits `backupDelayMs`. */
    open(at: number, backupDelayMs = 60_000) {
      const notices = createNoticeBoard(createEventHub(), () => at);
      const log = memoryLogger();
      const records = openRecordsDatabase({
        dataDir: folder(),
        notices,
        log,
        now: () => at,
        backupDelayMs,
        backupSpacingMs: 0,
      });
      opened.push(records);
      /** The restore notice's words, or '' when there was none. */
      const restoreNotice = () => notices.list().find((n) => n.id === RECORDS_NOTICE.restored)?.message ?? '';
      return { records, notices, log, restoreNotice };
    },
    /** Closes the file as a crash would: no last backup, the data durable in the file. */
    crash(records: RecordsDatabase): void {
      records.current()!.close();
      opened.splice(opened.indexOf(records), 1);
    },
  };
}
