/**
 * A finished action's result is never lost to the disk: the records database, else the journal,
 * else memory (shown, said, and written when the disk allows) — with a full and a read-only disk
 * for real on a small tmpfs where this machine allows mounting one, and by injected failures
 * everywhere.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ACTION_JOURNAL_FILE_NAME,
  openActionJournal,
} from '../../../src/main/backend/actions/action-journal';
import { ACTION_NOTICE, createActionKeeper } from '../../../src/main/backend/actions/action-keeper';
import { recordOf, type ActionRecords } from '../../../src/main/backend/actions/action-records';
import { heldResultsFolder, openHeldResults } from '../../../src/main/backend/actions/held-results';
import { createEventHub } from '../../../src/main/backend/core/events';
import { createNoticeBoard } from '../../../src/main/backend/core/notices';
import { openDatabase } from '../../../src/main/backend/core/database';
import {
  openRecordsDatabase,
  RECORDS_FILE_NAME,
  type RecordsDatabase,
} from '../../../src/main/backend/records/records-database';
import { finishedCalibration, makeTempDir, memoryLogger, mountTmpfs } from './helpers';

const T0 = Date.UTC(2026, 10, 23, 9, 0, 0);
let dir: { path: string; remove(): Promise<void> };
const cleanups: Array<() => Promise<void> | void> = [];

beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  // Results a test left held in the temporary folder (by default the one of its data folder).
  rmSync(heldResultsFolder(dir.path), { recursive: true, force: true });
  await dir.remove();
});

const calibration = (id: string) => finishedCalibration({ id, serial: 'QT1' });

function keeperOn(dataDir: string, records: ActionRecords, retryEveryMs = 60_000) {
  const notices = createNoticeBoard(createEventHub(), () => T0);
  const log = memoryLogger();
  const keeper = createActionKeeper({
    records,
    journal: openActionJournal(dataDir),
    notices,
    log,
    dataDir,
    retryEveryMs,
  });
  cleanups.push(() => keeper.close());
  return { keeper, notices, log };
}

function recordsIn(dataDir: string): RecordsDatabase {
  const notices = createNoticeBoard(createEventHub(), () => T0);
  const records = openRecordsDatabase({ dataDir, notices, log: memoryLogger(), now: () => T0 });
  cleanups.push(() => records.close());
  return records;
}

/** A records.db from a newer FieldDesk: refused, so the records are unavailable. */
function writeNewerRecords(dataDir: string): void {
  const database = openDatabase(dataDir, { fileName: RECORDS_FILE_NAME, migrations: [] });
  database.db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at INTEGER); INSERT INTO schema_migrations VALUES (99, 'future', 0)",
  );
  database.close();
}

const fsError = (code: string) => Object.assign(new Error(`${code}: refused`), { code });

describe('keeping action results', () => {
  it('keeps a result the records cannot take in the journal, shows it, and merges it later', async () => {
    writeNewerRecords(dir.path);
    const first = keeperOn(dir.path, recordsIn(dir.path).view('actions'));
    first.keeper.keep(calibration('op-1'));
    const journal = join(dir.path, ACTION_JOURNAL_FILE_NAME);
    expect((await stat(journal)).mode & 0o777).toBe(0o600);
    expect(first.keeper.history('acc', 'QT1').map((r) => r.id)).toEqual(['op-1']);
    expect(first.notices.list().map((n) => n.id)).toEqual([ACTION_NOTICE.journal]);

    // The newer file goes away (say, FieldDesk was updated again); the next start merges the journal.
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    rmSync(join(dir.path, RECORDS_FILE_NAME));
    const records = recordsIn(dir.path);
    const second = keeperOn(dir.path, records.view('actions'));
    second.keeper.mergeJournal();
    expect(records.view('actions').list('acc', 'QT1')[0]).toMatchObject({
      id: 'op-1',
      result: { level: 94.1 },
    });
    expect(second.notices.list()[0]?.message).toMatch(
      /^1 field action result kept while the local database could not be written was added/,
    );
    await expect(stat(journal)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('skips a journal line cut short by a crash and keeps the others', async () => {
    writeNewerRecords(dir.path);
    const { keeper } = keeperOn(dir.path, recordsIn(dir.path).view('actions'));
    keeper.keep(calibration('op-1'));
    keeper.keep(calibration('op-2'));
    const journal = join(dir.path, ACTION_JOURNAL_FILE_NAME);
    await writeFile(journal, `${await readFile(journal, 'utf8')}{"id": "op-3", "accou`);
    expect(
      keeper
        .history('acc', 'QT1')
        .map((r) => r.id)
        .sort(),
    ).toEqual(['op-1', 'op-2']);
  });

  it.each([
    ['EROFS', /is on a read-only disk/],
    ['ENOSPC', /The disk holding .* is full/],
    ['EACCES', /is not allowed to write to/],
  ])(
    'holds a result in memory when neither file takes it (%s), says why, and writes it when the disk allows',
    async (code, wording) => {
      let refuse = true;
      const written: string[] = [];
      const records: ActionRecords = {
        put: (record) => {
          if (refuse)
            throw Object.assign(new Error('attempt to write a readonly database'), {
              code: 'SQLITE_READONLY',
            });
          written.push(record.id);
        },
        record: () => undefined,
        list: () => [],
        latestResults: () => [],
      };
      const journalDir = join(dir.path, 'journal');
      mkdirSync(journalDir);
      const journal = openActionJournal(journalDir);
      const notices = createNoticeBoard(createEventHub(), () => T0);
      const log = memoryLogger();
      const keeper = createActionKeeper({
        records,
        journal: {
          ...journal,
          append: (record) => {
            if (refuse) throw fsError(code);
            journal.append(record);
          },
        },
        notices,
        log,
        dataDir: dir.path,
        retryEveryMs: 5,
      });
      cleanups.push(() => keeper.close());

      keeper.keep(calibration('op-1'));
      expect(keeper.history('acc', 'QT1').map((r) => r.id)).toEqual(['op-1']);
      const notice = notices.list().find((n) => n.id === ACTION_NOTICE.memory);
      expect(notice?.message).toMatch(/could not write a field action result to disk/);
      expect(notice?.message).toMatch(wording);
      expect(notice?.message).toContain(dir.path);
      expect(notice?.message).toContain(`a copy is kept in ${heldResultsFolder(dir.path)}`);
      expect(notice?.message).toMatch(/added at the next start if you quit FieldDesk first/);
      expect(log.records.some((l) => l.level === 'error' && l['id'] === 'op-1')).toBe(true);

      refuse = false;
      await vi.waitFor(() => expect(written).toEqual(['op-1']));
      expect(notices.list().find((n) => n.id === ACTION_NOTICE.memory)).toBeUndefined();
      // Written, so its copy is gone, and the folder with it.
      expect(existsSync(heldResultsFolder(dir.path))).toBe(false);
    },
  );
});

describe('keeping action results on a real full or read-only disk', () => {
  it('a full disk: the result is held, said as a full disk, and written once space is freed', async (ctx) => {
    const disk = await mountTmpfs(1_024);
    if (disk.path === null)
      return ctx.skip(`skipped: ${disk.why}; the injected ENOSPC test above covers the logic`);
    const records = recordsIn(disk.path);
    const { keeper, notices } = keeperOn(disk.path, records.view('actions'), 5);
    keeper.keep(calibration('op-0'));
    // Fill the disk to the last byte.
    const filler = join(disk.path, 'filler');
    const block = Buffer.alloc(4_096, 1);
    writeFileSync(filler, '');
    try {
      for (;;) writeFileSync(filler, block, { flag: 'a' });
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    }
    // A result big enough not to fit in any page SQLite has free.
    keeper.keep({ ...calibration('op-1'), message: 'x'.repeat(200_000) });
    expect(keeper.history('acc', 'QT1').map((r) => r.id)).toEqual(['op-1', 'op-0']);
    // The refused append left no empty journal behind.
    expect(existsSync(join(disk.path, ACTION_JOURNAL_FILE_NAME))).toBe(false);
    expect(notices.list().find((n) => n.id === ACTION_NOTICE.memory)?.message).toMatch(
      new RegExp(`The disk holding ${disk.path} is full`),
    );
    rmSync(filler);
    await vi.waitFor(() => expect(notices.list().find((n) => n.id === ACTION_NOTICE.memory)).toBeUndefined());
    expect(
      records
        .view('actions')
        .list('acc', 'QT1')
        .map((r) => r.id)
        .sort(),
    ).toEqual(['op-0', 'op-1']);
    expect(statSync(join(disk.path, RECORDS_FILE_NAME)).size).toBeGreaterThan(0);
  });

  it('a read-only disk: the result is held, said as read-only, and written once it is writable', async (ctx) => {
    const disk = await mountTmpfs(4_096);
    if (disk.path === null)
      return ctx.skip(`skipped: ${disk.why}; the injected EROFS test above covers the logic`);
    // The data folder as a disk remounted read-only finds it: records written before, nothing open.
    const before = recordsIn(disk.path);
    before.view('actions').put(recordOf(calibration('op-0'))!);
    await before.close();
    execFileSync('mount', ['-o', 'remount,ro', disk.path]);
    const records = recordsIn(disk.path);
    expect(records.problem()?.message).toMatch(/read-only/);
    const { keeper, notices } = keeperOn(disk.path, records.view('actions'), 5);
    keeper.keep(calibration('op-1'));
    expect(keeper.history('acc', 'QT1').map((r) => r.id)).toEqual(['op-1']);
    expect(notices.list().find((n) => n.id === ACTION_NOTICE.memory)?.message).toMatch(
      new RegExp(`${disk.path} is on a read-only disk`),
    );
    execFileSync('mount', ['-o', 'remount,rw', disk.path]);
    await vi.waitFor(() => expect(notices.list().find((n) => n.id === ACTION_NOTICE.memory)).toBeUndefined());
    // Written to the journal (the records stay closed until the next start), and read back from the file.
    expect(readFileSync(join(disk.path, ACTION_JOURNAL_FILE_NAME), 'utf8')).toContain('"id":"op-1"');
    expect(keeper.history('acc', 'QT1').map((r) => r.id)).toEqual(['op-1']);
  });
});

describe('the journal never left empty or cut short by a refused append', () => {
  const record = (id: string, size = 0) => ({
    ...recordOf(calibration(id))!,
    ...(size > 0 ? { message: 'x'.repeat(size) } : {}),
  });
  /** Writes part of the text, then refuses the rest, as a disk that fills up part-way does. */
  const partThenFull = (part: number) => (fd: number, text: string) => {
    writeFileSync(fd, text.slice(0, part));
    throw fsError('ENOSPC');
  };

  it('a refused first append leaves no file; a refused later one leaves the journal as it was', () => {
    const path = join(dir.path, ACTION_JOURNAL_FILE_NAME);
    for (const part of [0, 40]) {
      const refusing = openActionJournal(dir.path, { writeText: partThenFull(part) });
      expect(() => refusing.append(record('op-1'))).toThrow(/ENOSPC/);
      expect(existsSync(path), `part ${part}`).toBe(false);
    }
    const journal = openActionJournal(dir.path);
    journal.append(record('op-1'));
    const before = readFileSync(path, 'utf8');
    const refusing = openActionJournal(dir.path, { writeText: partThenFull(40) });
    expect(() => refusing.append(record('op-2'))).toThrow(/ENOSPC/);
    expect(readFileSync(path, 'utf8')).toBe(before);
    // So the next append is a line of its own, and both are read back.
    journal.append(record('op-3'));
    expect(
      journal
        .read()
        .map((r) => r.id)
        .sort(),
    ).toEqual(['op-1', 'op-3']);
  });

  it('an empty journal an earlier run left is swept at start', async () => {
    const path = join(dir.path, ACTION_JOURNAL_FILE_NAME);
    writeFileSync(path, '');
    const { keeper } = keeperOn(dir.path, recordsIn(dir.path).view('actions'));
    expect(existsSync(path)).toBe(false);
    keeper.mergeJournal();
    expect(keeper.history('acc', 'QT1')).toEqual([]);
    // A journal with content is never swept.
    writeFileSync(path, `${JSON.stringify(record('op-1'))}\n`);
    openActionJournal(dir.path);
    expect(existsSync(path)).toBe(true);
  });

  it('on a real disk filled to the last byte, and to a few kilobytes: no empty or half-written journal', async (ctx) => {
    const disk = await mountTmpfs(1_024);
    if (disk.path === null)
      return ctx.skip(`skipped: ${disk.why}; the injected ENOSPC tests above cover the logic`);
    const path = join(disk.path, ACTION_JOURNAL_FILE_NAME);
    const filler = join(disk.path, 'filler');
    writeFileSync(filler, '');
    try {
      for (;;) writeFileSync(filler, Buffer.alloc(4_096, 1), { flag: 'a' });
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    }
    const journal = openActionJournal(disk.path);
    expect(() => journal.append(record('op-1', 100_000))).toThrow(/ENOSPC/);
    expect(existsSync(path)).toBe(false);
    // Room for part of the line only: the kernel takes 8 KB of it, then refuses the rest.
    truncateSync(filler, statSync(filler).size - 8_192);
    expect(() => journal.append(record('op-1', 100_000))).toThrow(/ENOSPC/);
    expect(existsSync(path)).toBe(false);
    rmSync(filler);
    journal.append(record('op-1', 100_000));
    journal.append(record('op-2', 100_000));
    expect(
      journal
        .read()
        .map((r) => r.id)
        .sort(),
    ).toEqual(['op-1', 'op-2']);
  });
});

describe('results held when FieldDesk quits', () => {
  /** Records and a journal that refuse as a read-only disk does, until `writable` is set. */
  function refusingKeeper(dataDir: string) {
    const state = { writable: false };
    const notices = createNoticeBoard(createEventHub(), () => T0);
    const log = memoryLogger();
    const journal = openActionJournal(dataDir);
    const keeper = createActionKeeper({
      records: {
        put: () => {
          throw Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
        },
        record: () => undefined,
        list: () => [],
        latestResults: () => [],
      },
      journal: {
        ...journal,
        append: () => {
          throw fsError('EROFS');
        },
      },
      notices,
      log,
      dataDir,
      retryEveryMs: 60_000,
    });
    return { keeper, notices, log, state };
  }

  it('two results held (EROFS) survive a quit: merged at the next start, the copies removed', async () => {
    const first = refusingKeeper(dir.path);
    first.keeper.keep(calibration('op-1'));
    first.keeper.keep({ ...calibration('op-2'), startedAt: 50_000, updatedAt: 90_000 });
    expect(first.keeper.history('acc', 'QT1').map((r) => r.id)).toEqual(['op-2', 'op-1']);
    const folder = heldResultsFolder(dir.path);
    expect(first.notices.list().find((n) => n.id === ACTION_NOTICE.memory)?.message).toMatch(
      /^FieldDesk could not write 2 field action results to disk: .*is on a read-only disk.* a copy is kept in /,
    );
    // The second place is the user's alone.
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const files = readdirSync(folder);
    expect(files).toHaveLength(2);
    for (const name of files) expect(statSync(join(folder, name)).mode & 0o777).toBe(0o600);
    first.keeper.close();
    expect(
      first.log.records.find((l) => l.level === 'warn' && l.message.includes('next start')),
    ).toMatchObject({
      ids: ['op-1', 'op-2'],
      folder,
    });
    expect(first.log.records.some((l) => l.message.includes('lost'))).toBe(false);

    // The next start, on a writable data folder.
    const records = recordsIn(dir.path);
    const second = keeperOn(dir.path, records.view('actions'));
    second.keeper.mergeJournal();
    second.keeper.recoverHeld();
    expect(
      records
        .view('actions')
        .list('acc', 'QT1')
        .map((r) => r.id),
    ).toEqual(['op-2', 'op-1']);
    expect(second.keeper.history('acc', 'QT1').map((r) => r.id)).toEqual(['op-2', 'op-1']);
    expect(second.notices.list().find((n) => n.id === ACTION_NOTICE.held)?.message).toBe(
      '2 field action results FieldDesk held when it was last closed (the data folder could not take them) were added to the action history.',
    );
    expect(existsSync(folder)).toBe(false);
  });

  it('a start on a disk that still refuses holds them again, copies kept, until it takes them', async () => {
    const first = refusingKeeper(dir.path);
    first.keeper.keep(calibration('op-1'));
    first.keeper.close();
    const second = refusingKeeper(dir.path);
    second.keeper.recoverHeld();
    expect(second.keeper.history('acc', 'QT1').map((r) => r.id)).toEqual(['op-1']);
    expect(second.notices.list().map((n) => n.id)).toEqual([ACTION_NOTICE.memory]);
    second.keeper.close();
    expect(readdirSync(heldResultsFolder(dir.path))).toHaveLength(1);
    const records = recordsIn(dir.path);
    const third = keeperOn(dir.path, records.view('actions'));
    third.keeper.recoverHeld();
    expect(
      records
        .view('actions')
        .list('acc', 'QT1')
        .map((r) => r.id),
    ).toEqual(['op-1']);
    expect(existsSync(heldResultsFolder(dir.path))).toBe(false);
  });

  it.skipIf(process.platform === 'win32')(
    'a second place others could reach is not used (a link, a folder open to others): then quitting is said to lose it',
    async () => {
      const elsewhere = join(dir.path, 'elsewhere');
      mkdirSync(elsewhere, { mode: 0o700 });
      const open = join(dir.path, 'open');
      mkdirSync(open);
      // chmod, as mkdir's mode is cut by the umask.
      execFileSync('chmod', ['0755', open]);
      const link = join(dir.path, 'link');
      symlinkSync(elsewhere, link);
      for (const folder of [open, link]) {
        const notices = createNoticeBoard(createEventHub(), () => T0);
        const log = memoryLogger();
        const keeper = createActionKeeper({
          records: {
            put: () => {
              throw fsError('EROFS');
            },
            record: () => undefined,
            list: () => [],
            latestResults: () => [],
          },
          journal: {
            ...openActionJournal(dir.path),
            append: () => {
              throw fsError('EROFS');
            },
          },
          notices,
          log,
          dataDir: dir.path,
          held: openHeldResults(folder, log),
        });
        cleanups.push(() => keeper.close());
        keeper.keep(calibration('op-1'));
        expect(notices.list()[0]?.message, folder).toMatch(
          /do not quit FieldDesk while this notice is shown/,
        );
        expect(log.records.some((l) => l.level === 'error' && l.message.includes('not copied'))).toBe(true);
        expect(readdirSync(folder)).toEqual([]);
        // Nor is anything read from one at start.
        writeFileSync(join(elsewhere, 'planted.json'), JSON.stringify(recordOf(calibration('op-9'))));
        keeper.recoverHeld();
        expect(keeper.history('acc', 'QT1').map((r) => r.id)).toEqual(['op-1']);
        rmSync(join(elsewhere, 'planted.json'));
      }
    },
  );

  it('a real read-only disk: two results held, FieldDesk closed, the disk writable again: both in the history', async (ctx) => {
    const disk = await mountTmpfs(4_096);
    if (disk.path === null)
      return ctx.skip(`skipped: ${disk.why}; the injected EROFS test above covers the logic`);
    cleanups.push(() => rmSync(heldResultsFolder(disk.path), { recursive: true, force: true }));
    const before = recordsIn(disk.path);
    before.view('actions').put(recordOf(calibration('op-0'))!);
    await before.close();
    execFileSync('mount', ['-o', 'remount,ro', disk.path]);
    const records = recordsIn(disk.path);
    const first = keeperOn(disk.path, records.view('actions'));
    first.keeper.keep({ ...calibration('op-1'), startedAt: 50_000, updatedAt: 90_000 });
    first.keeper.keep({ ...calibration('op-2'), startedAt: 100_000, updatedAt: 140_000 });
    expect(first.keeper.history('acc', 'QT1').map((r) => r.id)).toEqual(['op-2', 'op-1']);
    // Closed as the backend closes: the keeper, then the records.
    first.keeper.close();
    await records.close();
    execFileSync('mount', ['-o', 'remount,rw', disk.path]);
    const again = recordsIn(disk.path);
    const second = keeperOn(disk.path, again.view('actions'));
    second.keeper.mergeJournal();
    second.keeper.recoverHeld();
    expect(second.keeper.history('acc', 'QT1').map((r) => r.id)).toEqual(['op-2', 'op-1', 'op-0']);
    expect(existsSync(heldResultsFolder(disk.path))).toBe(false);
  });

  it('a nearly full disk: a refused append’s part no longer swallows the next line (1 of 2 was kept)', async (ctx) => {
    const disk = await mountTmpfs(1_024);
    if (disk.path === null)
      return ctx.skip(`skipped: ${disk.why}; the injected part-way refusal above covers the logic`);
    cleanups.push(() => rmSync(heldResultsFolder(disk.path), { recursive: true, force: true }));
    // Records that cannot be written (from a newer FieldDesk): every result goes to the journal.
    writeNewerRecords(disk.path);
    const records = recordsIn(disk.path);
    const { keeper, notices } = keeperOn(disk.path, records.view('actions'), 5);
    const filler = join(disk.path, 'filler');
    writeFileSync(filler, '');
    try {
      for (;;) writeFileSync(filler, Buffer.alloc(4_096, 1), { flag: 'a' });
    } catch {
      // Full to the last block.
    }
    truncateSync(filler, statSync(filler).size - 8_192);
    keeper.keep({ ...calibration('op-1'), message: 'x'.repeat(100_000) });
    keeper.keep({
      ...calibration('op-2'),
      startedAt: 50_000,
      updatedAt: 90_000,
      message: 'y'.repeat(100_000),
    });
    expect(notices.list().find((n) => n.id === ACTION_NOTICE.memory)?.message).toMatch(
      /2 field action results/,
    );
    rmSync(filler);
    // Space freed: the retry writes both to the journal, each on a line of its own.
    await vi.waitFor(() => expect(notices.list().find((n) => n.id === ACTION_NOTICE.memory)).toBeUndefined());
    keeper.close();
    await records.close();
    rmSync(join(disk.path, RECORDS_FILE_NAME));
    const again = recordsIn(disk.path);
    const next = keeperOn(disk.path, again.view('actions'));
    next.keeper.mergeJournal();
    expect(
      again
        .view('actions')
        .list('acc', 'QT1')
        .map((r) => r.id),
    ).toEqual(['op-2', 'op-1']);
  });
});
