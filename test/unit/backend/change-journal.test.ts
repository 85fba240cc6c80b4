/**
 * The change journal of the user's records, on real files and processes: whatever damage records.db
 * meets after changes and deletions made since its newest copy, the restore loses nothing made and
 * brings nothing deleted back, and says what it replayed; a journal line cut short or garbled is
 * never applied and is said; the journal forgets what the copies hold; a process killed (SIGKILL)
 * amid changes or amid a backup leaves nothing a clean start cannot mend. Children run through tsx:
 * their time limit is generous (60 s), not a measure.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SiteVisit } from '../../../src/shared/visits';
import { recordOf } from '../../../src/main/backend/actions/action-records';
import { BACKUP_FOLDER, listCopies } from '../../../src/main/backend/core/backups';
import { CHANGE_JOURNAL_FILE_NAME } from '../../../src/main/backend/records/change-journal';
import {
  RECORDS_FILE_NAME,
  RECORDS_NOTICE,
  type RecordsDatabase,
} from '../../../src/main/backend/records/records-database';
import { damageTablePage, finishedCalibration } from './helpers';
import { useTestRecords } from './records-helpers';

const T0 = Date.UTC(2026, 10, 23, 9, 0, 0);
const testRecords = useTestRecords();
const folder = testRecords.folder;
const crash = testRecords.crash;

function openRecords(at: number = T0) {
  const opened = testRecords.open(at, 3_600_000);
  return { ...opened, notice: opened.restoreNotice };
}

const recordsPath = () => join(folder(), RECORDS_FILE_NAME);
const journalPath = () => join(folder(), CHANGE_JOURNAL_FILE_NAME);

function visit(id: string, notes: string): SiteVisit {
  return {
    id,
    accountId: 'acc',
    site: null,
    instruments: [{ serial: 'QT1', name: 'Mast', model: 'Optimus', type: 'noise' }],
    engineer: 'Sam Field',
    arrivedAt: T0,
    leftAt: null,
    checklist: [],
    notes,
    photos: [],
    createdAt: T0,
    updatedAt: T0,
  };
}

function addRecording(records: RecordsDatabase, key: string): void {
  records.use(() =>
    records
      .current()!
      .db.prepare(
        `INSERT INTO audio_library (key, account_id, serial, recording_json, format, path, bytes, downloaded_at)
         VALUES (?, 'acc', 'QT1', '{}', 'wav', ?, 10, 1)`,
      )
      .run(key, `/tmp/${key}.wav`),
  );
}

const calibrator = (serial: string) => ({
  model: 'CR:515',
  serial,
  class: '1' as const,
  levelsDb: [94],
  certificateDate: '2026-01-10',
  dueDate: '2027-01-10',
});

/** What the records hold, by name, for comparing before and after a restore. */
function holdings(records: RecordsDatabase) {
  return {
    sites: records
      .view('sites')
      .list('acc')
      .sites.map((s) => s.name)
      .sort(),
    visits: records
      .view('visits')
      .list('acc')
      .visits.map((v) => `${v.id}: ${v.notes}`)
      .sort(),
    calibrators: records
      .view('calibrators')
      .list()
      .calibrators.map((c) => c.serial)
      .sort(),
    recordings: records
      .view('audio')
      .library()
      .map((r) => r.key)
      .sort(),
    actions: records
      .view('actions')
      .list('acc', 'QT100001')
      .map((a) => a.id)
      .sort(),
  };
}

const DAMAGES: Array<[string, () => Promise<void>]> = [
  [
    'cut to half its size',
    async () => {
      const bytes = await readFile(recordsPath());
      await writeFile(recordsPath(), bytes.subarray(0, Math.floor(bytes.length / 2)));
    },
  ],
  ['zeroed', async () => writeFile(recordsPath(), Buffer.alloc((await readFile(recordsPath())).length))],
  [
    'with a garbage header',
    async () => {
      const bytes = await readFile(recordsPath());
      await writeFile(
        recordsPath(),
        Buffer.concat([Buffer.from('not a database at all!'), bytes.subarray(22)]),
      );
    },
  ],
  ["with one table's page zeroed", () => damageTablePage(recordsPath(), 'assessment_sites')],
];

describe('a restore replays the change journal over the newest copy', () => {
  it.each(DAMAGES)(
    'loses nothing made and brings nothing deleted back when records.db is %s',
    async (_, damage) => {
      const { records } = openRecords();
      const sites = records.view('sites');
      const gone = sites.save('acc', { name: 'Deleted since', timeZone: 'UTC', serials: ['QT1'] })!;
      sites.save('acc', { name: 'Kept', timeZone: 'UTC', serials: ['QT1'] });
      const retiredCalibrator = records.view('calibrators').save(calibrator('054400'))!;
      records.view('visits').put(visit('v-deleted', 'Mast leaning'));
      addRecording(records, 'rec-deleted');
      await records.backupNow();

      // After the copy: made, changed and deleted.
      sites.save('acc', { name: 'Made since', timeZone: 'UTC', serials: ['QT1'] });
      sites.remove('acc', gone.id);
      records.view('calibrators').save(calibrator('054433'));
      records.view('calibrators').remove(retiredCalibrator.id);
      records.view('visits').put(visit('v-new', 'Windshield replaced'));
      records.view('visits').remove('acc', 'v-deleted');
      records.view('audio').removeLibraryItem('rec-deleted');
      addRecording(records, 'rec-new');
      records.view('actions').put(recordOf(finishedCalibration({ id: 'op-since', accountId: 'acc' }))!);
      const before = holdings(records);
      crash(records);
      await damage();

      const again = openRecords(T0 + 60_000);
      expect(holdings(again.records)).toEqual(before);
      expect(before).toEqual({
        sites: ['Kept', 'Made since'],
        visits: ['v-new: Windshield replaced'],
        calibrators: ['054433'],
        recordings: ['rec-new'],
        actions: ['op-since'],
      });
      const message = again.notice();
      expect(message).toContain('restored them from the backup of 2026-11-23 09:00 UTC');
      expect(message).toContain(
        'then replayed from the change journal the 9 changes (1 site saved, 1 site deleted, 1 site visit saved, 1 site visit deleted, 1 action result saved, 1 recording saved, 1 recording deleted, 1 calibrator saved and 1 calibrator deleted) you made after it.',
      );
      expect(message).not.toMatch(/could not/);
    },
  );

  it('without a sound copy, what the journal still holds is replayed over what the damaged file gives', async () => {
    const { records } = openRecords();
    records.view('sites').save('acc', { name: 'Copied, then the copy lost', timeZone: 'UTC', serials: [] });
    await records.backupNow();
    records.view('sites').save('acc', { name: 'Only in the journal', timeZone: 'UTC', serials: [] });
    crash(records);
    for (const name of await readdir(join(folder(), BACKUP_FOLDER)))
      await writeFile(join(folder(), BACKUP_FOLDER, name), 'garbage');
    await writeFile(recordsPath(), Buffer.alloc(8192));

    const again = openRecords(T0 + 60_000);
    expect(holdings(again.records).sites).toEqual(['Only in the journal']);
    expect(again.notice()).toContain(
      'There was no backup to restore from; 1 change (1 site saved) came back from the change journal. Your records now hold 1 site.',
    );
  });

  it('a damage met mid-session replays what was made since the copy, and the next change is journalled', async () => {
    const { records, notices } = openRecords();
    await records.backupNow();
    records.view('sites').save('acc', { name: 'Made since', timeZone: 'UTC', serials: [] });
    const corrupt = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    expect(() =>
      records.use(() => {
        throw corrupt;
      }),
    ).toThrow(/Try again\./);
    expect(holdings(records).sites).toEqual(['Made since']);
    expect(notices.list().find((n) => n.id === RECORDS_NOTICE.restored)?.message).toContain(
      'the 1 change (1 site saved) you made after it',
    );
    records.view('sites').save('acc', { name: 'After the restore', timeZone: 'UTC', serials: [] });
    const after = holdings(records).sites;
    crash(records);
    await writeFile(recordsPath(), 'not a database');
    expect(holdings(openRecords(T0 + 60_000).records).sites).toEqual(after);
  });
});

describe('the journal itself', () => {
  it('a line cut short by a crash is not applied; a garbled one is said', async () => {
    const { records } = openRecords();
    await records.backupNow();
    records.view('sites').save('acc', { name: 'Whole', timeZone: 'UTC', serials: [] });
    records.view('sites').save('acc', { name: 'Garbled on disk', timeZone: 'UTC', serials: [] });
    crash(records);
    const lines = (await readFile(journalPath(), 'utf8')).split('\n');
    const garbled = lines.findIndex((line) => line.includes('Garbled on disk'));
    lines[garbled] = lines[garbled]!.replace('Garbled', 'Gxrbled');
    // And half a line, as a kill in the middle of an append leaves.
    await writeFile(journalPath(), `${lines.join('\n')}${lines[garbled]!.slice(0, 40)}`);
    await writeFile(recordsPath(), 'not a database');

    const again = openRecords(T0 + 60_000);
    expect(holdings(again.records).sites).toEqual(['Whole']);
    expect(again.notice()).toContain(
      '1 change made after that backup could not be read from the change journal and may be missing.',
    );
  });

  it('forgets what the newest copies hold, and keeps what they do not', async () => {
    const { records } = openRecords();
    for (let i = 0; i < 5; i++)
      records.view('sites').save('acc', { name: `Site ${i}`, timeZone: 'UTC', serials: [] });
    const full = (await readFile(journalPath(), 'utf8')).split('\n').filter(Boolean).length;
    expect(full).toBeGreaterThanOrEqual(6); // its first line, and one per change
    await records.backupNow();
    expect((await readFile(journalPath(), 'utf8')).split('\n').filter(Boolean)).toHaveLength(1);
    records.view('sites').save('acc', { name: 'After the copy', timeZone: 'UTC', serials: [] });
    const journal = await readFile(journalPath(), 'utf8');
    expect(journal).toContain('After the copy');
    expect(journal).not.toContain('Site 0');
  });

  it('a change the journal cannot take is refused, and records.db does not hold it', async () => {
    const { records } = openRecords();
    records.view('sites').save('acc', { name: 'Before', timeZone: 'UTC', serials: [] });
    // The journal's name taken by a folder: every append fails as a refused write would.
    await rm(journalPath());
    await mkdir(journalPath());
    expect(() =>
      records.view('sites').save('acc', { name: 'Refused', timeZone: 'UTC', serials: [] }),
    ).toThrow();
    expect(holdings(records).sites).toEqual(['Before']);
  });
});

/** Runs records-child.ts; resolves with its JSON lines once `enough` says so, after a SIGKILL. */
function runChild(
  mode: 'changes' | 'backup',
  enough: (lines: Array<Record<string, unknown>>) => boolean,
): Promise<Array<Record<string, unknown>>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'records-child.ts')], {
      cwd: join(__dirname, '../../..'),
      env: { ...process.env, DATA_DIR: folder(), MODE: mode },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: Array<Record<string, unknown>> = [];
    let pending = '';
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const parts = pending.split('\n');
      pending = parts.pop()!;
      for (const part of parts) lines.push(JSON.parse(part) as Record<string, unknown>);
      if (!killed && enough(lines)) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.on('exit', (_code, signal) => {
      if (signal === 'SIGKILL') resolve(lines);
      else reject(new Error(`the child ended by itself: ${stderr}`));
    });
  });
}

describe('killed (SIGKILL), then started again', () => {
  it('amid changes: every change it was told of is there after records.db is zeroed, no deletion back', async () => {
    const lines = await runChild('changes', (said) => said.length >= 40);
    // The file and its write-ahead log lost, as a failing disk loses them.
    await writeFile(recordsPath(), Buffer.alloc((await readFile(recordsPath())).length));
    await rm(`${recordsPath()}-wal`, { force: true });
    await rm(`${recordsPath()}-shm`, { force: true });

    const { records, notice } = openRecords(Date.now());
    const names = new Set(holdings(records).sites);
    for (const line of lines) {
      if (typeof line.saved === 'string' && !lines.some((l) => l.deleted === line.saved))
        expect(names, `${line.saved} was saved`).toContain(line.saved);
      if (typeof line.deleted === 'string')
        expect(names, `${line.deleted} was deleted`).not.toContain(line.deleted);
    }
    // From the copy taken at start with the journal after it, or (killed before that copy was
    // finished) from the journal alone: either way the journal gave the changes back.
    expect(notice()).toMatch(/replayed from the change journal|came back from the change journal/);
    expect(notice()).not.toMatch(/could not be read/);
  }, 60_000);

  it('amid a backup: the unfinished copy is removed at start and a copy holding every change is taken', async () => {
    await runChild('backup', (said) => said.some((line) => line.held === true));
    const backups = join(folder(), BACKUP_FOLDER);
    const left = (await readdir(backups)).filter((name) => name.includes('.part'));
    expect(left.length).toBeGreaterThan(0);
    // SQLite's rollback journal of a copy being checked, as a kill a moment later leaves it.
    await appendFile(join(backups, `${left[0]}-journal`), 'x');
    const copiesBefore = listCopies(backups, 'records', '.db').length;

    const { records } = openRecords(Date.now());
    await records.backupNow();
    await expect
      .poll(async () => (await readdir(backups)).filter((name) => name.includes('.part')))
      .toEqual([]);
    expect(listCopies(backups, 'records', '.db').length).toBe(copiesBefore + 1);
    // The fresh copy alone restores the change made before the kill.
    crash(records);
    await writeFile(journalPath(), '');
    await writeFile(recordsPath(), 'not a database');
    expect(existsSync(recordsPath())).toBe(true);
    expect(holdings(openRecords(Date.now()).records).sites).toEqual(['Before the held backup']);
  }, 60_000);
});
