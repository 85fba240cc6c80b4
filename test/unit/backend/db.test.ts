/**
 * The databases on a temp folder: numbered migrations (fresh, re-open, upgrade, a failing step, a
 * newer file refused untouched, a damaged file) of the cache, and the action history of the records.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createActionRecords } from '../../../src/main/backend/actions/action-records';
import { judgeCalibration } from '../../../src/main/backend/actions/action-verdicts';
import { createCacheStore, type CacheKey } from '../../../src/main/backend/cache/cache-store';
import { createKnownFleets } from '../../../src/main/backend/instruments/known-fleet';
import { MOVED_TABLES } from '../../../src/main/backend/core/migrations';
import {
  DATABASE_FILE_NAME,
  MIGRATIONS,
  PAGE_SIZE,
  type Migration,
} from '../../../src/main/backend/core/database';
import { TIMES_EVEN, TIMES_RAW } from '../../../src/main/backend/cache/series-times';
import { FieldDeskError } from '../../../src/shared/errors';
import { checkCacheConsistency } from './cache-checks';
import { useTempDatabaseFolder } from './temp-database';
import { finishedCalibration } from './helpers';

const dir = useTempDatabaseFolder();

const open = (migrations?: readonly Migration[]) => dir.open(migrations === undefined ? {} : { migrations });

const fileHash = async () =>
  createHash('sha256')
    .update(await readFile(join(dir.path, DATABASE_FILE_NAME)))
    .digest('hex');

const ALL_VERSIONS = MIGRATIONS.map((m) => m.version);
const LATEST = MIGRATIONS.length;
const FUTURE = LATEST + 1;

const snapshot = finishedCalibration;

/** A last known instrument list with nothing in it, fetched at 5. */
const fleetOf = (accountId: string) => ({ accountId, entries: [], skipped: [], fetchedAt: 5 });

function appliedVersions(db: Database.Database): number[] {
  return (
    db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as Array<{ version: number }>
  ).map((row) => row.version);
}

describe('openDatabase', () => {
  it('creates fielddesk.db in WAL mode with every migration applied and recorded', () => {
    const database = open();
    expect(database.path).toBe(join(dir.path, 'fielddesk.db'));
    expect(database.version).toBe(MIGRATIONS.length);
    expect(database.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(appliedVersions(database.db)).toEqual(MIGRATIONS.map((m) => m.version));
    // What the user made is not in the cache (it is in records.db).
    const tables = (
      database.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{
        name: string;
      }>
    ).map((t) => t.name);
    expect(tables).toContain('cache_chunks');
    for (const moved of MOVED_TABLES) expect(tables.filter((t) => t.includes(moved))).toEqual([]);
  });

  it('gives a new file 16 KB pages (for the cache blocks) and leaves the pages of an existing file alone', () => {
    const fresh = open();
    expect(fresh.db.pragma('page_size', { simple: true })).toBe(PAGE_SIZE);
    fresh.close();
    // A file in WAL mode with SQLite's default 4 KB pages, as earlier FieldDesks made them: it keeps them.
    const older = new Database(join(dir.path, 'older.db'));
    older.pragma('page_size = 4096');
    older.pragma('journal_mode = WAL');
    older.close();
    const reopened = dir.open({ fileName: 'older.db' });
    expect(reopened.db.pragma('page_size', { simple: true })).toBe(4096);
    expect(reopened.version).toBe(LATEST);
  });

  it('re-opens without applying anything twice and keeps the data', () => {
    const first = open();
    first.db.prepare("INSERT INTO known_fleets VALUES ('a', 1, '{}')").run();
    first.close();
    const again = open();
    expect(appliedVersions(again.db)).toEqual(ALL_VERSIONS);
    expect(again.db.prepare('SELECT COUNT(*) AS n FROM known_fleets').get()).toEqual({ n: 1 });
  });

  it('applies only the new migrations to an older file, in order', () => {
    open().close();
    const log: string[] = [];
    const two: Migration = {
      version: LATEST + 1,
      name: 'more data',
      up: (db) => {
        log.push('next');
        db.exec('CREATE TABLE more_blocks (id INTEGER PRIMARY KEY)');
      },
    };
    const three: Migration = { version: LATEST + 2, name: 'index', up: () => log.push('after') };
    const upgraded = open([...MIGRATIONS, two, three]);
    expect(log).toEqual(['next', 'after']);
    expect(appliedVersions(upgraded.db)).toEqual([...ALL_VERSIONS, LATEST + 1, LATEST + 2]);
  });

  it('rolls a failing migration back whole and leaves the file at the previous step', () => {
    open().close();
    const broken: Migration = {
      version: LATEST + 1,
      name: 'half done',
      up: (db) => {
        db.exec('CREATE TABLE half_done (id INTEGER)');
        throw new Error('disk I/O error');
      },
    };
    let error: unknown;
    try {
      open([...MIGRATIONS, broken]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FieldDeskError);
    expect((error as Error).message).toMatch(
      new RegExp(`step ${LATEST + 1}, half done: disk I/O error.*left at step ${LATEST}`),
    );
    const check = open();
    expect(appliedVersions(check.db)).toEqual(ALL_VERSIONS);
    expect(check.db.prepare("SELECT name FROM sqlite_master WHERE name = 'half_done'").get()).toBeUndefined();
  });

  it('refuses a file from a newer FieldDesk with a clear message and leaves it untouched', async () => {
    const database = open();
    // One step past the newest this version knows, whatever that is.
    database.db.prepare("INSERT INTO schema_migrations VALUES (?, 'from the future', 0)").run(FUTURE);
    database.db.pragma('wal_checkpoint(TRUNCATE)');
    database.close();
    const before = await fileHash();
    expect(() => open()).toThrow(
      new RegExp(
        `written by a newer version of FieldDesk \\(schema ${FUTURE}; this version knows up to ${LATEST}\\)`,
      ),
    );
    expect(await fileHash()).toBe(before);
    const raw = new Database(join(dir.path, DATABASE_FILE_NAME), { readonly: true });
    expect(appliedVersions(raw)).toEqual([...ALL_VERSIONS, FUTURE]);
    raw.close();
  });

  it('sets a file that is not a database aside untouched and starts a fresh one', async () => {
    const junk = 'these are not the bytes you are looking for';
    await writeFile(join(dir.path, DATABASE_FILE_NAME), junk);
    const database = open();
    expect(database.version).toBe(LATEST);
    expect(database.setAside).toMatchObject({
      dir: dir.path,
      problem: 'is damaged or is not a FieldDesk database',
    });
    const asideName = database.setAside!.fileName;
    expect(asideName).toMatch(/^fielddesk\.db\.corrupt-\d{4}-\d\d-\d\dT/);
    expect(await readFile(join(dir.path, asideName), 'utf8')).toBe(junk);
    // The fresh database works.
    createKnownFleets(database.db).save(fleetOf('acc'));
    expect(createKnownFleets(database.db).get('acc')?.fetchedAt).toBe(5);
  });

  it('sets a database cut to half its size aside, with its WAL, and keeps the bytes', async () => {
    const first = open();
    const fleets = createKnownFleets(first.db);
    for (let i = 0; i < 400; i++) fleets.save({ ...fleetOf(`acc-${i}`), skipped: ['x'.repeat(2_000)] });
    first.db.pragma('wal_checkpoint(TRUNCATE)');
    first.close();
    const path = join(dir.path, DATABASE_FILE_NAME);
    const whole = await readFile(path);
    await writeFile(path, whole.subarray(0, Math.floor(whole.length / 2)));
    const reopened = open();
    expect(reopened.setAside?.problem).toBe('is damaged or is not a FieldDesk database');
    expect((await readFile(join(dir.path, reopened.setAside!.fileName))).length).toBe(
      Math.floor(whole.length / 2),
    );
    expect(createKnownFleets(reopened.db).get('acc-1')).toBeNull();
  });

  it('says when the database file was empty instead of quietly starting over', async () => {
    await writeFile(join(dir.path, DATABASE_FILE_NAME), '');
    const database = open();
    expect(database.setAside?.problem).toBe('was empty (0 bytes)');
    expect(database.version).toBe(LATEST);
  });

  it('keeps the database and its WAL files private to the user', async () => {
    const database = open();
    createKnownFleets(database.db).save(fleetOf('acc'));
    const path = join(dir.path, DATABASE_FILE_NAME);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) {
      expect({ file, mode: (await stat(file)).mode & 0o777 }).toEqual({ file, mode: 0o600 });
    }
  });

  it('refuses a migration list with a gap (a programming error)', () => {
    expect(() => open([{ version: 2, name: 'gap', up: () => undefined }])).toThrow(/expected 1/);
  });
});

describe('migration 3 (compact evenly spaced series times)', () => {
  const key: CacheKey = {
    accountId: 'acc',
    serial: 'QT1',
    dataset: 'noiseTimeHistory',
    params: 'values=LAeq',
  };
  const blob = (array: Float64Array | Float32Array) =>
    Buffer.from(array.buffer, array.byteOffset, array.byteLength);

  it('upgrades a database at version 2 with a stored series, which still reads back identically', () => {
    // A series as FieldDesk wrote it at version 2: one Float64 time per sample.
    const times = Float64Array.from({ length: 3600 }, (_, i) => 1_700_000_000_000 + i * 1000);
    const values = Float32Array.from(times, (_, i) => 40 + (i % 50) / 4);
    const old = open(MIGRATIONS.slice(0, 2));
    expect(old.version).toBe(2);
    old.db
      .prepare(
        "INSERT INTO cache_keys (id, account_id, serial, dataset, params) VALUES (1, 'acc', 'QT1', ?, ?)",
      )
      .run(key.dataset, key.params);
    old.db
      .prepare('INSERT INTO cache_chunks VALUES (1, 1, ?, ?, 5, ?, NULL)')
      .run(times[0]!, times[3599]! + 1000, times.byteLength + values.byteLength);
    old.db
      .prepare("INSERT INTO cache_series VALUES (1, 0, 'LAeq', 'dB', 3600, ?, ?)")
      .run(blob(times), blob(values));
    old.close();

    const upgraded = open();
    expect(upgraded.version).toBe(LATEST);
    expect(appliedVersions(upgraded.db)).toEqual(ALL_VERSIONS);
    // The old row is kept as it was, marked raw.
    expect(
      upgraded.db.prepare('SELECT times_codec AS codec, length(times) AS t FROM cache_series').get(),
    ).toEqual({ codec: TIMES_RAW, t: 3600 * 8 });
    checkCacheConsistency(upgraded.db);

    const store = createCacheStore(upgraded.db);
    const range = { start: times[0]!, end: times[3599]! + 1000 };
    const read = store.read(key, range);
    expect(read.series).toHaveLength(1);
    expect(read.series[0]).toEqual({ name: 'LAeq', unit: 'dB', times, values });
    expect(store.read(key, { start: range.start + 500, end: range.start + 10_000 }).series[0]!.times).toEqual(
      times.subarray(1, 10),
    );
    expect(store.summary('acc').totalBytes).toBe(3600 * 12);

    // New data next to it is stored compactly; both read back together.
    const later = Float64Array.from({ length: 3600 }, (_, i) => range.end + i * 1000);
    store.store(
      key,
      { start: range.end, end: range.end + 3_600_000 },
      { series: [{ name: 'LAeq', unit: 'dB', times: later, values }], records: null },
      10,
    );
    expect(
      upgraded.db.prepare('SELECT times_codec AS codec FROM cache_series ORDER BY chunk_id').all(),
    ).toEqual([{ codec: TIMES_RAW }, { codec: TIMES_EVEN }]);
    const both = store.read(key, { start: range.start, end: range.end + 3_600_000 }).series[0]!;
    expect([...both.times]).toEqual([...times, ...later]);
    expect([...both.values]).toEqual([...values, ...values]);
    checkCacheConsistency(upgraded.db);
  });
});

describe('migration 4: record tables carry their time column and column types', () => {
  it('upgrades stored tables in place and drops a chunk whose table cannot be read', () => {
    const old = open(MIGRATIONS.slice(0, 3));
    const insertKey = old.db.prepare(
      "INSERT INTO cache_keys (id, account_id, serial, dataset, params) VALUES (?, 'acc', 'QT1', ?, '')",
    );
    insertKey.run(1, 'audio');
    insertKey.run(2, 'calibrations');
    const insertChunk = old.db.prepare('INSERT INTO cache_chunks VALUES (?, ?, ?, ?, 5, 10, ?)');
    // Tables as FieldDesk wrote them up to version 3: no timeKey, no column types.
    const audio = {
      columns: [
        { key: 'id', label: 'Recording id', unit: null },
        { key: 'startTime', label: 'Start', unit: null },
        { key: 'triggerStartTime', label: 'Trigger start', unit: null },
      ],
      rows: [{ id: 'au_1', startTime: 1_000, triggerStartTime: 6_000 }],
    };
    const calibrations = {
      columns: [
        { key: 'time', label: 'Time', unit: null },
        { key: 'status', label: 'Status', unit: null },
        { key: 'level', label: 'Level', unit: 'dB' },
      ],
      rows: [{ time: 2_000, status: 'Success', level: 94.1 }],
    };
    insertChunk.run(1, 1, 0, 10_000, JSON.stringify(audio));
    insertChunk.run(2, 2, 0, 10_000, JSON.stringify(calibrations));
    insertChunk.run(3, 2, 10_000, 20_000, '{"columns": [');
    old.close();

    const upgraded = open();
    const store = createCacheStore(upgraded.db);
    const read = (dataset: CacheKey['dataset']) =>
      store.read({ accountId: 'acc', serial: 'QT1', dataset, params: '' }, { start: 0, end: 20_000 });
    expect(read('audio').records).toEqual({
      timeKey: 'triggerStartTime',
      columns: [
        { key: 'id', label: 'Recording id', unit: null, type: 'text' },
        { key: 'startTime', label: 'Start', unit: null, type: 'time' },
        { key: 'triggerStartTime', label: 'Trigger start', unit: null, type: 'time' },
      ],
      rows: audio.rows,
    });
    const calibrationRead = read('calibrations');
    expect(calibrationRead.records?.timeKey).toBe('time');
    expect(calibrationRead.records?.columns.map((c) => c.type)).toEqual(['time', 'text', 'number']);
    // The damaged chunk is gone with the coverage it claimed, so that range is fetched again.
    expect(calibrationRead.chunks.map((c) => [c.start, c.end])).toEqual([[0, 10_000]]);
    checkCacheConsistency(upgraded.db);
  });
});

describe('migration 10: monitor stats read again with their LTE signal quality kept', () => {
  it('drops the cached monitor stats (stored with RSRQ and SINR left out) and keeps every other dataset', () => {
    const old = open(MIGRATIONS.slice(0, 9));
    const insertKey = old.db.prepare(
      "INSERT INTO cache_keys (id, account_id, serial, dataset, params) VALUES (?, 'acc', 'QT1', ?, '{}')",
    );
    insertKey.run(1, 'monitorStats');
    insertKey.run(2, 'noiseMeasurements');
    const insertChunk = old.db.prepare('INSERT INTO cache_chunks VALUES (?, ?, 0, 1000, 5, 8, NULL)');
    insertChunk.run(1, 1);
    insertChunk.run(2, 2);
    old.close();

    const upgraded = open();
    expect(upgraded.version).toBe(LATEST);
    const datasets = upgraded.db.prepare('SELECT dataset FROM cache_keys').all();
    expect(datasets).toEqual([{ dataset: 'noiseMeasurements' }]);
    // Its chunks went with it: what is left is covered by a key.
    expect(upgraded.db.prepare('SELECT key_id FROM cache_chunks').all()).toEqual([{ key_id: 2 }]);
    checkCacheConsistency(upgraded.db);
  });
});

describe('action history', () => {
  it('stores finished actions, lists them newest first per account and instrument, and survives a re-open', () => {
    const history = createActionRecords(dir.openRecords().db);
    history.record(snapshot({ id: 'a', updatedAt: 10_000 }));
    history.record(
      snapshot({
        id: 'b',
        updatedAt: 20_000,
        state: 'failed',
        result: null,
        error: { code: 'invalidRequest', message: 'offline', retryable: false, status: 400 },
      }),
    );
    history.record(snapshot({ id: 'other-serial', serial: 'QT2' }));
    history.record(snapshot({ id: 'other-account', accountId: 'acc2' }));
    history.record(snapshot({ id: 'still-running', state: 'running' }));
    dir.closeAll();

    const records = createActionRecords(dir.openRecords().db).list('acc', 'QT100001');
    expect(records.map((r) => r.id)).toEqual(['b', 'a']);
    expect(records[0]).toMatchObject({
      state: 'failed',
      finishedAt: 20_000,
      result: null,
      error: { code: 'invalidRequest', status: 400 },
    });
    expect(records[1]).toEqual({
      id: 'a',
      accountId: 'acc',
      serial: 'QT100001',
      action: 'Calibration',
      state: 'succeeded',
      startedAt: 1_000,
      finishedAt: 10_000,
      message: 'Calibration passed.',
      result: snapshot({}).result,
      error: null,
      calibrator: null,
    });
  });

  it('keeps FieldDesk’s verdict and the instrument’s side by side, and reads them back after a re-open', () => {
    // 114 dB chosen, 94.32 dB read: FieldDesk fails it, the instrument said Success.
    const judged = judgeCalibration(
      { time: 40_000, status: 'Success', level: 94.32, offset: 0.32 },
      { calibrationReferenceDb: 114, calibrationToleranceDb: 0.5 },
    );
    const history = createActionRecords(dir.openRecords().db);
    history.record(
      snapshot({ id: 'mismatch', state: 'failed', result: judged.outcome, message: judged.message }),
    );
    dir.closeAll();
    const [record] = createActionRecords(dir.openRecords().db).list('acc', 'QT100001');
    expect(record?.result).toEqual({
      kind: 'calibration',
      time: 40_000,
      status: 'Success',
      level: 94.32,
      offset: 0.32,
      referenceDb: 114,
      toleranceDb: 0.5,
      passed: false,
      deviationDb: -19.68,
      instrumentPassed: true,
      probableCalibratorDb: 94,
    });
    expect(record?.message).toContain('the calibrator is probably set to 94.0 dB, not 114.0 dB');
  });

  it('reads records kept before both verdicts were stored: the instrument’s from its status word', () => {
    const database = dir.openRecords();
    const insert = database.db.prepare(
      "INSERT INTO action_history VALUES (?,'acc','QT100001',?,'failed',1,?,'old',?,NULL,NULL)",
    );
    insert.run(
      'old-cal',
      'Calibration',
      2,
      JSON.stringify({
        kind: 'calibration',
        time: 1,
        status: 'Success',
        level: 94.32,
        offset: 0.32,
        referenceDb: 114,
        toleranceDb: 0.5,
        passed: false,
        deviationDb: -19.68,
      }),
    );
    insert.run(
      'old-sic',
      'SIC',
      3,
      JSON.stringify({
        kind: 'sic',
        time: 1,
        status: 'Error',
        _500Hz: 80,
        _1KHz: 84,
        _8KHz: null,
        passed: false,
      }),
    );
    const records = createActionRecords(database.db).list('acc', 'QT100001');
    expect(records.map((r) => r.result)).toEqual([
      {
        kind: 'sic',
        time: 1,
        status: 'Error',
        _500Hz: 80,
        _1KHz: 84,
        _8KHz: null,
        passed: false,
        instrumentPassed: false,
        tones: [],
        toleranceDb: null,
      },
      expect.objectContaining({
        kind: 'calibration',
        passed: false,
        instrumentPassed: true,
        probableCalibratorDb: null,
      }),
    ]);
  });

  it('keeps a record whose stored result is damaged, and skips rows it cannot understand', () => {
    const database = dir.openRecords();
    const history = createActionRecords(database.db);
    history.record(snapshot({ id: 'a' }));
    database.db.prepare("UPDATE action_history SET result_json = '{not json' WHERE id = 'a'").run();
    database.db
      .prepare(
        "INSERT INTO action_history VALUES ('z','acc','QT100001','Reboot','succeeded',1,99999,'?',NULL,NULL,NULL)",
      )
      .run();
    const records = history.list('acc', 'QT100001');
    expect(records.map((r) => [r.id, r.result])).toEqual([['a', null]]);
  });

  it('keeps the calibrator with a calibration, and reads a damaged one as none named without losing the result', () => {
    const database = dir.openRecords();
    const history = createActionRecords(database.db);
    const calibrator = {
      id: 'c1',
      model: 'CR:515',
      serial: '054433',
      class: '1',
      levelDb: 94,
      nominalLevelsDb: [94, 114],
      certificateDate: '2026-03-01',
      dueDate: '2027-03-01',
    } as const;
    history.record(snapshot({ id: 'with', calibrator: { ...calibrator, nominalLevelsDb: [94, 114] } }));
    history.record(
      snapshot({ id: 'damaged', updatedAt: 50_000, calibrator: { ...calibrator, nominalLevelsDb: [94] } }),
    );
    database.db
      .prepare(`UPDATE action_history SET context_json = '{"calibrator":{"model":1}}' WHERE id = 'damaged'`)
      .run();
    const records = history.list('acc', 'QT100001');
    expect(records.map((r) => [r.id, r.calibrator?.model ?? null, r.result?.kind])).toEqual([
      ['damaged', null, 'calibration'],
      ['with', 'CR:515', 'calibration'],
    ]);
    expect(records[1]?.calibrator).toEqual({ ...calibrator, nominalLevelsDb: [94, 114] });
  });
});
