/**
 * A damaged disk loses nothing that matters: a damaged database is set aside and replaced (at
 * start-up and when a request meets the damage) with the user told what and where, and a finished
 * action the database cannot take is kept in the journal and merged later.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ACTION_JOURNAL_FILE_NAME } from '../../../src/main/backend/actions/action-journal';
import { createEventHub } from '../../../src/main/backend/core/events';
import { DATABASE_FILE_NAME, openDatabase } from '../../../src/main/backend/core/database';
import { createNoticeBoard } from '../../../src/main/backend/core/notices';
import { openLocalData, withDatabaseRecovery, type LocalData } from '../../../src/main/backend/local-data';
import type { BackendHandlers } from '../../../src/shared/ipc/contract';
import { createRecordingBackend, TEST_APP_INFO } from './backend-helpers';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import { finishedCalibration, makeTempDir } from './helpers';

const T0 = Date.UTC(2026, 10, 23, 9, 0, 0);
let dir: { path: string; remove(): Promise<void> };
const opened: LocalData[] = [];

beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((local) => local.close()));
  await dir.remove();
});

function openLocal() {
  const events = createEventHub();
  const notices = createNoticeBoard(events, () => T0);
  const local = openLocalData({ dataDir: dir.path, events, notices, now: () => T0 });
  opened.push(local);
  return { local, notices };
}

const calibration = (id: string) => finishedCalibration({ id, serial: 'QT1' });

/** A database from a newer FieldDesk: refused untouched, so this one cannot write to it. */
function writeNewerDatabase(): void {
  const database = openDatabase(dir.path);
  database.db.prepare("INSERT INTO schema_migrations VALUES (99, 'from the future', 0)").run();
  database.close();
}

describe('local data on a damaged disk', () => {
  it('a damaged database at start-up is set aside, a fresh one works, and the notice says where', async () => {
    await writeFile(join(dir.path, DATABASE_FILE_NAME), 'SQLite format 3\0 but then nothing useful');
    const { local, notices } = openLocal();
    expect(local.cache().summary('acc')).toEqual({ totalBytes: 0, instruments: [] });
    const [notice] = notices.list();
    expect(notice?.id).toBe('database-set-aside');
    expect(notice?.message).toContain(
      `set aside as fielddesk.db.corrupt-2026-11-23T09-00-00-000Z in ${dir.path}`,
    );
    expect(await readFile(join(dir.path, 'fielddesk.db.corrupt-2026-11-23T09-00-00-000Z'), 'utf8')).toContain(
      'nothing useful',
    );
  });

  it('a request that meets a damaged database gets it replaced and is told so', async () => {
    const { local, notices } = openLocal();
    local.keep(calibration('op-before'));
    const failing = {
      'cache.summary': async () => {
        throw Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
      },
    } as unknown as BackendHandlers;
    const error = await withDatabaseRecovery(failing, local)
      ['cache.summary']({})
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'internal', retryable: true });
    expect((error as Error).message).toMatch(
      /was found damaged, so during this session it was set aside as fielddesk\.db\.corrupt-/,
    );
    expect(notices.list().map((n) => n.id)).toContain('database-set-aside');
    // The fresh database answers; the old file is kept beside it.
    expect(local.cache().summary('acc').instruments).toEqual([]);
    expect((await readdir(dir.path)).filter((name) => name.startsWith('fielddesk.db.corrupt-'))).toHaveLength(
      1,
    );
    // An error that is not damage passes through untouched.
    const plain = new Error('something else');
    expect(local.recover(plain)).toBeNull();
  });

  it('keeps a result the database cannot take in the journal, shows it, and merges it later', async () => {
    writeNewerDatabase();
    const first = openLocal();
    expect(first.notices.list().map((n) => n.id)).toEqual(['database-unavailable']);
    expect(() => first.local.cache()).toThrow(/newer version of FieldDesk/);

    first.local.keep(calibration('op-1'));
    const journal = join(dir.path, ACTION_JOURNAL_FILE_NAME);
    expect((await stat(journal)).mode & 0o777).toBe(0o600);
    expect(first.local.actionHistory('acc', 'QT1').map((r) => r.id)).toEqual(['op-1']);
    expect(first.notices.list().map((n) => n.id)).toContain('actions-journal');
    await first.local.close();

    // The newer file goes away (say, FieldDesk was updated again); the next start merges the journal.
    await writeFile(join(dir.path, DATABASE_FILE_NAME), '');
    const second = openLocal();
    expect(
      second.local
        .actionRecords()
        .list('acc', 'QT1')
        .map((r) => r.id),
    ).toEqual(['op-1']);
    expect(second.local.actionRecords().list('acc', 'QT1')[0]?.result).toMatchObject({ level: 94.1 });
    expect(second.notices.list().find((n) => n.id === 'actions-journal')?.message).toMatch(
      /^1 field action result kept while the local database could not be written was added/,
    );
    await expect(stat(journal)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a journal line cut short by a crash is skipped, the others kept', async () => {
    writeNewerDatabase();
    const { local } = openLocal();
    local.keep(calibration('op-1'));
    local.keep(calibration('op-2'));
    const journal = join(dir.path, ACTION_JOURNAL_FILE_NAME);
    await writeFile(journal, `${await readFile(journal, 'utf8')}{"id": "op-3", "accou`);
    expect(
      local
        .actionHistory('acc', 'QT1')
        .map((r) => r.id)
        .sort(),
    ).toEqual(['op-1', 'op-2']);
  });
});

describe('the backend on a damaged disk', () => {
  it('starts with a half-written database set aside and lists the notice for the window', async () => {
    const first = openLocal();
    for (let i = 0; i < 300; i++) first.local.keep({ ...calibration(`op-${i}`), message: 'x'.repeat(2_000) });
    await first.local.close();
    opened.splice(0);
    const path = join(dir.path, DATABASE_FILE_NAME);
    const whole = await readFile(path);
    await writeFile(path, whole.subarray(0, whole.length >> 1));

    const { backend, handlers } = await createRecordingBackend({
      dataDir: dir.path,
      vault: createMemoryVault('tests keep keys in memory'),
      appInfo: TEST_APP_INFO,
      startDemo: () => Promise.reject(new Error('no demo in this test')),
    });
    try {
      const notices = await handlers['app.notices']({});
      expect(notices.map((n) => n.id)).toEqual(['database-set-aside']);
      expect(notices[0]?.message).toContain(dir.path);
      expect(await handlers['app.dismissNotice']({ id: 'database-set-aside' })).toEqual([]);
    } finally {
      await backend.close();
    }
  });
});
