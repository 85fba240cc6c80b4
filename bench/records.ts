/**
 * What the change journal costs a change to the user's records: saving a site through the records as
 * the app does (a transaction whose changed record is journalled and flushed before it commits),
 * against the same site's row written straight to a records.db of the same settings (durable commit,
 * no journal). Both write to real files in a temporary folder; the ratio is the journal's price.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventHub } from '../src/main/backend/core/events';
import { openDatabase } from '../src/main/backend/core/database';
import { silentLogger } from '../src/main/backend/core/log';
import { createNoticeBoard } from '../src/main/backend/core/notices';
import { openRecordsDatabase } from '../src/main/backend/records/records-database';
import { recordsMigrations } from '../src/main/backend/records/records-migrations';
import { medianMs } from './timing';

export async function benchRecords(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'fielddesk-bench-records-'));
  try {
    const plainDir = join(dir, 'plain');
    const plain = openDatabase(plainDir, {
      fileName: 'records.db',
      migrations: recordsMigrations(),
      synchronous: 'FULL',
      pageSize: 4_096,
    });
    const insert = plain.db.prepare(
      'INSERT OR REPLACE INTO assessment_sites (account_id, id, updated_at, site_json) VALUES (?, ?, ?, ?)',
    );
    let n = 0;
    const siteJson = JSON.stringify({ name: 'Mill Lane', timeZone: 'Europe/London', serials: ['QT100001'] });
    const baseline = await medianMs(
      () => insert.run('acc', `site-${n++ % 50}`, Date.now(), siteJson),
      60,
      10,
    );
    plain.close();

    const records = openRecordsDatabase({
      dataDir: join(dir, 'journalled'),
      notices: createNoticeBoard(createEventHub(), Date.now),
      log: silentLogger,
      now: Date.now,
      backupDelayMs: 3_600_000,
    });
    const sites = records.view('sites');
    const site = sites.save('acc', { name: 'Mill Lane', timeZone: 'Europe/London', serials: ['QT100001'] })!;
    let round = 0;
    const subject = await medianMs(() => sites.put({ ...site, name: `Mill Lane ${round++}` }), 60, 10);
    await records.close();

    console.log('\nA change to the records (saving one site; 60 runs after 10)');
    console.log('  baseline  the row written straight to records.db (durable commit): 1.00x');
    console.log(
      `  subject   the site saved through the records, journalled: ${(subject / baseline).toFixed(2)}x the baseline's time`,
    );
    console.log(
      '  The change journal flushes each change to disk before its commit: about one more flush per change.',
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
