/**
 * What the user made survives a damaged disk, on real SQLite files: records.db is backed up after
 * changes, a truncated, zeroed or garbage-headed file is restored from the newest sound copy with
 * whatever it still held merged back, a damage met mid-session does the same, the notice says what
 * was restored and from when, and an earlier version's records move out of the cache file.
 */
import { describe, expect, it, vi } from 'vitest';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createEventHub } from '../../../src/main/backend/core/events';
import { DATABASE_FILE_NAME, MIGRATIONS, openDatabase } from '../../../src/main/backend/core/database';
import { MOVED_TABLES } from '../../../src/main/backend/core/migrations';
import {
  RECORDS_FILE_NAME,
  RECORDS_NOTICE,
  type RecordsDatabase,
} from '../../../src/main/backend/records/records-database';
import { CHANGE_JOURNAL_FILE_NAME } from '../../../src/main/backend/records/change-journal';
import { BACKUP_FOLDER, copiesToKeep, listCopies } from '../../../src/main/backend/core/backups';
import { openCacheDatabase } from '../../../src/main/backend/cache/cache-database';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import { createRecordingBackend, DEMO_TEST_KEY, demoBackendOptions, TEST_APP_INFO } from './backend-helpers';
import { startDemoService } from '../../../src/simulator';
import { damageTablePage, finishedCalibration } from './helpers';
import { useTestRecords } from './records-helpers';
import { recordOf } from '../../../src/main/backend/actions/action-records';

const T0 = Date.UTC(2026, 10, 23, 9, 0, 0);
const testRecords = useTestRecords();
const folder = testRecords.folder;
const crash = testRecords.crash;
const openRecords = (at: number = T0, backupDelayMs = 60_000) => testRecords.open(at, backupDelayMs);

const recordsPath = () => join(folder(), RECORDS_FILE_NAME);

/** A site with one exclusion, one action result and one library recording. */
function fill(records: RecordsDatabase, name = 'Mill Lane') {
  const sites = records.view('sites');
  const site = sites.save('acc', { name, timeZone: 'Europe/London', serials: ['QT1'] })!;
  sites.put({
    ...site,
    exclusions: [{ id: 'e1', start: 1, end: 2, reason: 'Road works', serial: null, createdAt: 1 }],
  });
  records.view('actions').put(recordOf(finishedCalibration({ id: `op-${name}`, accountId: 'acc' }))!);
  records
    .current()!
    .db.prepare(
      `INSERT INTO audio_library (key, account_id, serial, recording_json, format, path, bytes, downloaded_at)
       VALUES (?, 'acc', 'QT1', '{}', 'wav', ?, 10, 1)`,
    )
    .run(`key-${name}`, `/tmp/${name}.wav`);
  return site;
}

const DAMAGES: Array<[string, (bytes: Buffer) => Buffer]> = [
  ['cut to half its size', (bytes) => bytes.subarray(0, Math.floor(bytes.length / 2))],
  ['zeroed', (bytes) => Buffer.alloc(bytes.length)],
  [
    'with a garbage header',
    (bytes) => Buffer.concat([Buffer.from('not a database at all!'), bytes.subarray(22)]),
  ],
];

describe('records.db on a damaged disk', () => {
  it.each(DAMAGES)(
    'restores sites, exclusions, actions and the audio library when the file is %s',
    async (_, damage) => {
      const first = openRecords();
      fill(first.records);
      await first.records.backupNow();
      crash(first.records);
      await writeFile(recordsPath(), damage(await readFile(recordsPath())));

      const { records, notices } = openRecords(T0 + 60_000);
      const [site] = records.view('sites').list('acc').sites;
      expect(site).toMatchObject({ name: 'Mill Lane', exclusions: [{ reason: 'Road works' }] });
      expect(
        records
          .view('actions')
          .list('acc', 'QT100001')
          .map((r) => r.id),
      ).toEqual(['op-Mill Lane']);
      expect(
        records
          .view('audio')
          .library()
          .map((row) => row.key),
      ).toEqual(['key-Mill Lane']);
      const notice = notices.list().find((n) => n.id === RECORDS_NOTICE.restored);
      expect(notice?.message).toMatch(/set the file aside as records\.db\.corrupt-2026-11-23T09-01-00-000Z/);
      expect(notice?.message).toContain('restored them from the backup of 2026-11-23 09:00 UTC');
      expect(notice?.message).toContain('. Your records now hold 1 site, 1 action result and 1 recording.');
      // The damaged file is kept, never overwritten.
      expect((await readdir(folder())).filter((n) => n.startsWith('records.db.corrupt-'))).toHaveLength(1);
    },
  );

  it('without the change journal, merges back what the damaged file holds beyond the backup, and says what could not be read', async () => {
    const first = openRecords();
    fill(first.records, 'Backed up');
    await first.records.backupNow();
    // After the backup: a second site and its action; then the audio library's page is damaged,
    // and the change journal is lost too: only the damaged file can say what came after the copy.
    fill(first.records, 'After the backup');
    const { rootpage } = first.records
      .current()!
      .db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'audio_library'")
      .get() as { rootpage: number };
    crash(first.records);
    await rm(join(folder(), CHANGE_JOURNAL_FILE_NAME));
    const bytes = await readFile(recordsPath());
    bytes.fill(0x5a, (rootpage - 1) * 4096, rootpage * 4096);
    await writeFile(recordsPath(), bytes);

    const { records, notices } = openRecords(T0 + 60_000);
    expect(
      records
        .view('sites')
        .list('acc')
        .sites.map((s) => s.name),
    ).toEqual(['After the backup', 'Backed up']);
    expect(records.view('actions').list('acc', 'QT100001')).toHaveLength(2);
    // The backup's recording is there; the one on the damaged page is not, and that is said.
    expect(
      records
        .view('audio')
        .library()
        .map((row) => row.key),
    ).toEqual(['key-Backed up']);
    const message = notices.list().find((n) => n.id === RECORDS_NOTICE.restored)?.message ?? '';
    expect(message).toContain(
      ', bringing them up to date with what the damaged file still held (1 site and 1 action result). Your records now hold 2 sites, 2 action results and 1 recording.',
    );
    expect(message).toContain('Some recordings could not be read from the damaged file');
  });

  it('without the change journal, a deletion the damaged file shows stays deleted', async () => {
    const first = openRecords();
    const site = fill(first.records, 'Deleted after the backup');
    fill(first.records, 'Kept');
    await first.records.backupNow();
    first.records.view('sites').remove('acc', site.id);
    crash(first.records);
    await rm(join(folder(), CHANGE_JOURNAL_FILE_NAME));
    // The download queue's page is damaged: the sites' table still reads whole.
    await damageTablePage(recordsPath(), 'audio_downloads');

    const { records, notices } = openRecords(T0 + 60_000);
    expect(
      records
        .view('sites')
        .list('acc')
        .sites.map((s) => s.name),
    ).toEqual(['Kept']);
    const message = notices.list().find((n) => n.id === RECORDS_NOTICE.restored)?.message ?? '';
    expect(message).toContain('1 site you had deleted taken out');
  });

  it('without a backup, brings back what the damaged file still holds', async () => {
    const first = openRecords(T0, 60_000);
    fill(first.records);
    // No copy was ever taken (the first copy at start is removed to play a first-ever run).
    await first.records.backupNow();
    crash(first.records);
    for (const name of await readdir(join(folder(), BACKUP_FOLDER)))
      await writeFile(join(folder(), BACKUP_FOLDER, name), 'garbage');
    // Damage one table's page only (the download queue's): the others still read.
    await damageTablePage(recordsPath(), 'audio_downloads');

    const { records, notices } = openRecords(T0 + 60_000);
    const message = notices.list().find((n) => n.id === RECORDS_NOTICE.restored)?.message ?? '';
    expect(message).toContain('There was no backup to restore from');
    expect(records.view('sites').list('acc').sites).toHaveLength(1);
  });

  it('a damage met mid-session is restored at once, said, and the next call works', async () => {
    const { records, notices } = openRecords();
    const site = fill(records);
    await records.backupNow();
    const corrupt = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    const error = (() => {
      try {
        records.use(() => {
          throw corrupt;
        });
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toMatchObject({ code: 'internal', retryable: true });
    expect((error as Error).message).toMatch(/was found damaged \(database disk image is malformed\)/);
    expect((error as Error).message).toMatch(/Try again\.$/);
    expect(notices.list().map((n) => n.id)).toContain(RECORDS_NOTICE.restored);
    expect(records.view('sites').get('acc', site.id)?.exclusions).toHaveLength(1);
  });

  it('takes a copy a moment after a change, keeps the copies the rotation keeps, and skips an unsound one', async () => {
    const { records } = openRecords(T0, 0);
    // The first copy of the day, taken at start.
    await records.backupNow();
    const before = listCopies(join(folder(), BACKUP_FOLDER), 'records', '.db').length;
    expect(before).toBeGreaterThan(0);
    records.view('sites').save('acc', { name: 'A', timeZone: 'UTC', serials: [] });
    await vi.waitFor(() =>
      expect(listCopies(join(folder(), BACKUP_FOLDER), 'records', '.db').length).toBeGreaterThan(before),
    );
    // The newest copy turns out unsound: the one before it is used.
    records.view('sites').save('acc', { name: 'B', timeZone: 'UTC', serials: [] });
    await records.backupNow();
    const copies = listCopies(join(folder(), BACKUP_FOLDER), 'records', '.db');
    await writeFile(join(folder(), BACKUP_FOLDER, copies[0]!.name), 'garbage');
    crash(records);
    await writeFile(recordsPath(), 'not a database');
    const again = openRecords(T0 + 1_000);
    // The older copy, and B replayed over it from the change journal.
    expect(
      again.records
        .view('sites')
        .list('acc')
        .sites.map((s) => s.name),
    ).toEqual(['A', 'B']);
    expect(again.log.records.some((l) => l.message.includes('not sound'))).toBe(true);
  });

  it('keeps the newest five copies and the newest of each of the last seven days', () => {
    const day = 86_400_000;
    const now = Date.UTC(2026, 10, 26, 12);
    const copies = [
      ...Array.from({ length: 8 }, (_, i) => now - i * 60_000), // eight today
      now - day, // yesterday
      now - day - 60_000, // yesterday, older
      now - 3 * day,
      now - 10 * day, // too old
    ].map((takenAt) => ({ name: String(takenAt), takenAt }));
    const kept = [...copiesToKeep(copies, now)].map(Number).sort((a, b) => b - a);
    expect(kept).toEqual([
      now,
      now - 60_000,
      now - 120_000,
      now - 180_000,
      now - 240_000,
      now - day,
      now - 3 * day,
    ]);
  });
});

describe('the records through the backend, as the app uses them', () => {
  it('a site and its exclusion made in the app are there after records.db is zeroed, and the notice says so', async () => {
    const service = await startDemoService({ port: 0, keys: { [DEMO_TEST_KEY]: '*' }, rateLimit: 10_000 });
    try {
      const first = await createRecordingBackend(demoBackendOptions(folder(), service));
      await first.handlers['accounts.tryDemo']({});
      const serial = (await first.handlers['instruments.list']({})).entries[0]!.instrument.serialNumber;
      const site = await first.handlers['assessment.saveSite']({
        name: 'Mill Lane',
        timeZone: 'Europe/London',
        serials: [serial],
      });
      await first.handlers['assessment.addExclusion']({
        siteId: site.id,
        start: Date.UTC(2026, 10, 20, 9),
        end: Date.UTC(2026, 10, 20, 12),
        reason: 'Road works',
      });
      // Quitting takes the last backup.
      await first.backend.close();
      await writeFile(recordsPath(), Buffer.alloc((await readFile(recordsPath())).length));

      const second = await createRecordingBackend(demoBackendOptions(folder(), service));
      try {
        const { sites } = await second.handlers['assessment.sites']({});
        expect(sites.map((s) => [s.name, s.exclusions.map((e) => e.reason)])).toEqual([
          ['Mill Lane', ['Road works']],
        ]);
        const notice = (await second.handlers['app.notices']({})).find(
          (n) => n.id === RECORDS_NOTICE.restored,
        );
        expect(notice?.message).toMatch(
          /restored them from the backup of .*\. Your records now hold 1 site\./,
        );
      } finally {
        await second.backend.close();
      }
    } finally {
      await service.close();
    }
  });
});

describe('records kept by an earlier version in the cache file', () => {
  /** A cache file as FieldDesk left it before records.db: at migration 8, records inside. */
  function legacyCache(): void {
    const old = openDatabase(folder(), { migrations: MIGRATIONS.slice(0, 8) });
    old.db
      .prepare(
        "INSERT INTO action_history VALUES ('op-1','acc','QT1','Identify','succeeded',1,2,'ok',NULL,NULL)",
      )
      .run();
    old.db
      .prepare('INSERT INTO assessment_sites VALUES (?, ?, ?, ?)')
      .run('acc', 's1', 5, JSON.stringify({ id: 's1', name: 'Old site' }));
    old.db.prepare("INSERT INTO audio_settings VALUES ('folder', '/home/me/Audio')").run();
    old.close();
  }

  const tablesOf = (path: string): string[] => {
    const db = new Database(path, { readonly: true });
    try {
      return (
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
      )
        .map((row) => row.name)
        .filter((name) => MOVED_TABLES.some((moved) => name.endsWith(moved)));
    } finally {
      db.close();
    }
  };

  it('moves them into records.db, then drops the cache copies', async () => {
    legacyCache();
    const { records, notices, log } = openRecords();
    const cache = openCacheDatabase({
      dataDir: folder(),
      events: createEventHub(),
      notices,
      log,
      now: () => T0,
    });
    expect(records.legacyImported()).toBe(true);
    cache.dropImportedRecords();
    await cache.close();
    const db = records.current()!.db;
    expect(db.prepare('SELECT id FROM action_history').all()).toEqual([{ id: 'op-1' }]);
    expect(db.prepare('SELECT site_json FROM assessment_sites').all()).toHaveLength(1);
    expect(records.view('audio').setting('folder')).toBe('/home/me/Audio');
    expect(tablesOf(join(folder(), DATABASE_FILE_NAME))).toEqual([]);
    expect(notices.list()).toEqual([]);
  });

  it('keeps the cache copies while records.db cannot take them, and moves them at the next start', async () => {
    legacyCache();
    // A records.db from a newer FieldDesk: refused, so nothing moves today.
    const newer = openDatabase(folder(), { fileName: RECORDS_FILE_NAME, migrations: [] });
    newer.db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at INTEGER); INSERT INTO schema_migrations VALUES (99, 'future', 0)",
    );
    newer.close();
    const first = openRecords();
    expect(first.records.problem()?.message).toMatch(/newer version of FieldDesk/);
    const cache = openCacheDatabase({
      dataDir: folder(),
      events: createEventHub(),
      notices: first.notices,
      log: first.log,
      now: () => T0,
    });
    if (first.records.legacyImported()) cache.dropImportedRecords();
    await cache.close();
    // Migration 9 put them aside under their waiting names, rows and all.
    expect(tablesOf(join(folder(), DATABASE_FILE_NAME)).sort()).toEqual(
      ['moved_action_history', 'moved_assessment_sites', 'moved_audio_settings'].sort(),
    );

    await first.records.close();
    const { rmSync } = await import('node:fs');
    rmSync(recordsPath());
    const second = openRecords();
    expect(
      second.records
        .view('actions')
        .list('acc', 'QT1')
        .map((r) => r.id),
    ).toEqual(['op-1']);
    expect(second.records.legacyImported()).toBe(true);
  });
});

describe('the data cache on a damaged disk', () => {
  it('sets a damaged cache aside and keeps the sites, which live apart', async () => {
    const first = openRecords();
    fill(first.records);
    await first.records.close();
    await writeFile(join(folder(), DATABASE_FILE_NAME), 'SQLite format 3\0 but then nothing useful');

    const { backend, handlers } = await createRecordingBackend({
      dataDir: folder(),
      vault: createMemoryVault('tests keep keys in memory'),
      appInfo: TEST_APP_INFO,
      startDemo: () => Promise.reject(new Error('no demo in this test')),
      now: () => T0,
    });
    try {
      const notices = await handlers['app.notices']({});
      expect(notices.map((n) => n.id)).toEqual(['database-set-aside']);
      expect(notices[0]?.message).toContain(
        'your sites, exclusions, action history and audio library are kept apart',
      );
      expect(existsSync(join(folder(), 'fielddesk.db.corrupt-2026-11-23T09-00-00-000Z'))).toBe(true);
    } finally {
      await backend.close();
    }
    // The sites are all there (read without an account: straight from the records).
    const { records } = openRecords();
    expect(
      records
        .view('sites')
        .list('acc')
        .sites.map((s) => s.name),
    ).toEqual(['Mill Lane']);
  });
});
