/**
 * Stored rows that cannot be read (core/damaged-rows.ts), in real SQLite files: a damaged row is
 * left out on its own (or its damaged value read as none), the other rows still read; the log says
 * it once, with its table, its id and why — never its content —; and the count reaches the
 * diagnostics (`diagnostics.damagedRecords` and the zip's about.json) in one wording.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { openActionJournal } from '../../../src/main/backend/actions/action-journal';
import { createActionRecords, recordOf } from '../../../src/main/backend/actions/action-records';
import { createSiteStore } from '../../../src/main/backend/assessment/site-store';
import { itemOf } from '../../../src/main/backend/audio/library';
import { createBackend } from '../../../src/main/backend/backend';
import { createMemoryVault } from '../../../src/main/backend/accounts/vault';
import { createCacheStore } from '../../../src/main/backend/cache/cache-store';
import { createDamagedRows, damageReason } from '../../../src/main/backend/core/damaged-rows';
import { memoryLogWriter, type LogRecord } from '../../../src/main/backend/core/log';
import { createSyncManager } from '../../../src/main/backend/sync/sync-manager';
import { damagedRecordsText, DIAGNOSTICS_FILES } from '../../../src/shared/diagnostics';
import { TEST_APP_INFO } from './backend-helpers';
import { finishedCalibration, memoryLogger } from './helpers';
import { useTempDatabaseFolder } from './temp-database';

const folder = useTempDatabaseFolder();

/** The log's lines about damaged rows. */
const damagedLines = (records: readonly LogRecord[]) =>
  records.filter((record) => record.message.startsWith('a damaged stored row'));

/** What a user may have written in a record: it must never reach the log. */
const PRIVATE_NOTE = 'Mrs Patel at no. 12 complained again';

describe('a damaged stored row', () => {
  it('is left out of the sites, said once with its table, id and reason, never its content, and counted', () => {
    const log = memoryLogger();
    const damaged = createDamagedRows(log);
    const database = folder.openRecords();
    const store = createSiteStore(database.db, () => 1, damaged);
    store.save('acc', { name: 'Good', timeZone: 'UTC', serials: ['A1'] });
    const insert = database.db.prepare(
      'INSERT INTO assessment_sites (account_id, id, updated_at, site_json) VALUES (?, ?, ?, ?)',
    );
    // JSON cut short (V8's own message would quote it), and JSON that fails the schema.
    insert.run('acc', 'broken', 1, `{"id": "broken", "conclusion": "${PRIVATE_NOTE}`);
    insert.run('acc', 'odd', 1, JSON.stringify({ id: 'odd', name: 'Odd', conclusion: PRIVATE_NOTE }));

    const { sites, unreadable } = store.list('acc');
    expect(sites.map((site) => site.name)).toEqual(['Good']);
    expect(unreadable).toBe(2);

    const lines = damagedLines(log.records);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        table: 'assessment_sites',
        id: 'broken',
        reason: expect.stringMatching(/^not valid JSON \(at character \d+\)$/),
      }),
      expect.objectContaining({
        level: 'warn',
        table: 'assessment_sites',
        id: 'odd',
        reason: expect.stringMatching(/^does not fit its schema \(accountId: Invalid input: expected string/),
      }),
    ]);
    expect(JSON.stringify(log.records)).not.toContain('Mrs Patel');

    // Read again (the list, one site, a change of it): left out again, not said again.
    expect(store.list('acc').sites).toHaveLength(1);
    expect(store.get('acc', 'broken')).toBeNull();
    expect(store.save('acc', { id: 'odd', name: 'Odd', timeZone: 'UTC', serials: [] })).toBeNull();
    expect(damagedLines(log.records)).toHaveLength(2);
    expect(damaged.counts()).toEqual({ tables: [{ table: 'assessment_sites', count: 2, more: false }] });
  });

  it('of the action history is left out, or its damaged result read as none, and said once per row', () => {
    const log = memoryLogger();
    const damaged = createDamagedRows(log);
    const database = folder.openRecords();
    const history = createActionRecords(database.db, damaged);
    history.put(recordOf(finishedCalibration({ id: 'op-good', updatedAt: 50_000 }))!);
    const insert = database.db.prepare(
      `INSERT INTO action_history
         (id, account_id, serial, action, state, started_at, finished_at, message, result_json, error_json, context_json)
       VALUES (?, 'acc', 'QT100001', ?, 'succeeded', 1000, ?, 'Calibration passed.', ?, NULL, NULL)`,
    );
    // The result cut short: the record stays, without its result.
    insert.run('op-cut', 'Calibration', 40_000, '{"kind": "calibration", "time": 40');
    // An action this version does not know: the record is left out.
    insert.run('op-newer', 'Levitation', 30_000, null);

    const read = history.list('acc', 'QT100001');
    expect(read.map((record) => [record.id, record.result === null])).toEqual([
      ['op-good', false],
      ['op-cut', true],
    ]);
    expect(damagedLines(log.records)).toEqual([
      expect.objectContaining({
        table: 'action_history',
        id: 'op-cut',
        reason: expect.stringMatching(/^result_json: not valid JSON/),
      }),
      expect.objectContaining({
        table: 'action_history',
        id: 'op-newer',
        reason: 'an action this version does not know',
      }),
    ]);

    history.list('acc', 'QT100001');
    history.latestResults('acc');
    expect(damagedLines(log.records)).toHaveLength(2);
    expect(damaged.counts()).toEqual({ tables: [{ table: 'action_history', count: 2, more: false }] });
  });

  it('of the action journal (a line cut short by a crash) is skipped and said by its line', async () => {
    const log = memoryLogger();
    const damaged = createDamagedRows(log);
    const journal = openActionJournal(folder.path, { damaged });
    journal.append(recordOf(finishedCalibration({ id: 'op-kept' }))!);
    appendFileSync(join(folder.path, 'action-journal.jsonl'), '{"id": "op-half", "accountId": "a');
    expect(journal.read().map((record) => record.id)).toEqual(['op-kept']);
    expect(damagedLines(log.records)).toEqual([
      expect.objectContaining({
        table: 'action_journal',
        id: 'line 2',
        reason: expect.stringMatching(/^not valid JSON/),
      }),
    ]);
  });

  it('of the audio library is left out, while an entry kept without its trigger reads with none', () => {
    const log = memoryLogger();
    const damaged = createDamagedRows(log);
    const row = (key: string, recording: unknown) => ({
      key,
      account_id: 'acc',
      serial: 'QT1',
      recording_json: JSON.stringify(recording),
      format: 'WAV',
      path: `/audio/${key}.wav`,
      bytes: 10,
      downloaded_at: 1,
    });
    const old = itemOf(row('old', { id: 'r1', source: 'event', serial: 'QT1', start: 0, end: 5 }), damaged);
    expect(old?.recording).toEqual({
      id: 'r1',
      source: 'event',
      serial: 'QT1',
      start: 0,
      end: 5,
      triggerStart: null,
      triggerEnd: null,
      triggerName: '',
    });
    expect(itemOf(row('odd', { id: 'r2', source: 'event', start: 0, end: 5 }), damaged)).toBeNull();
    expect(damagedLines(log.records)).toEqual([
      expect.objectContaining({
        table: 'audio_library',
        id: 'odd',
        reason: expect.stringMatching(/^recording_json: does not fit its schema \(serial: /),
      }),
    ]);
  });

  it('of the cache (a stored table that is not one) is left out of the read, the series kept', () => {
    const log = memoryLogger();
    const damaged = createDamagedRows(log);
    const database = folder.open();
    const cache = createCacheStore(database.db, damaged);
    const key = { accountId: 'acc', serial: 'QT1', dataset: 'noiseTimeHistory' as const, params: '' };
    const times = Float64Array.from([1_000, 2_000]);
    cache.store(
      key,
      { start: 0, end: 10_000 },
      {
        series: [{ name: 'LAeq', unit: 'dB', times, values: Float32Array.from([50, 51]) }],
        records: { timeKey: 't', columns: [], rows: [] },
      },
      10_000,
    );
    database.db.prepare('UPDATE cache_chunks SET records_json = ?').run('{"rows": 3}');
    const read = cache.read(key, { start: 0, end: 10_000 });
    expect(read.series.map((channel) => channel.name)).toEqual(['LAeq']);
    expect(read.records).toBeNull();
    expect(damagedLines(log.records)).toEqual([
      expect.objectContaining({
        table: 'cache_chunks',
        reason: 'not a stored table (its time column, columns or rows are missing)',
      }),
    ]);
  });

  it('reaches the diagnostics: left out of sync.list, said once, answered by diagnostics.damagedRecords and in about.json', async () => {
    // A finished site sync and one whose request is damaged, in the cache FieldDesk opens.
    const cache = folder.open();
    const insert = cache.db.prepare(
      `INSERT INTO sync_runs (id, account_id, request_json, state, message, started_at, updated_at)
       VALUES (?, 'acc', ?, 'succeeded', 'Done.', ?, ?)`,
    );
    insert.run('sync-good', JSON.stringify({ serials: ['QT1'], start: 0, end: 1_000 }), 2_000, 2_000);
    insert.run('sync-broken', '{"serials": ["QT1"], "start": 0, "end', 3_000, 3_000);
    folder.closeAll();

    const writer = memoryLogWriter();
    const zipPath = join(folder.path, 'diagnostics.zip');
    const backend = await createBackend({
      dataDir: folder.path,
      vault: createMemoryVault('tests keep keys in memory'),
      appInfo: TEST_APP_INFO,
      startDemo: async () => {
        throw new Error('no demo in this test');
      },
      log: writer,
      chooseExportPath: async () => zipPath,
    });
    try {
      expect((await backend.handlers['sync.list']({})).map((sync) => sync.id)).toEqual(['sync-good']);
      expect((await backend.handlers['sync.list']({})).map((sync) => sync.id)).toEqual(['sync-good']);
      expect(damagedLines(writer.records)).toEqual([
        expect.objectContaining({
          level: 'warn',
          logger: 'damaged-rows',
          table: 'sync_runs',
          id: 'sync-broken',
          reason: expect.stringMatching(/^request_json: not valid JSON/),
        }),
      ]);

      const answer = await backend.handlers['diagnostics.damagedRecords']({});
      expect(answer).toEqual({ tables: [{ table: 'sync_runs', count: 1, more: false }] });
      expect(damagedRecordsText(answer)).toBe(
        'Damaged records left out since FieldDesk started: 1 site sync — the log names each one.',
      );

      expect(await backend.handlers['diagnostics.save']({})).toMatchObject({ saved: true });
      const files = unzipSync(new Uint8Array(await readFile(zipPath)));
      const about = JSON.parse(strFromU8(files[DIAGNOSTICS_FILES.about]!)) as Record<string, unknown>;
      expect(about['damagedRecords']).toEqual({
        said: damagedRecordsText(answer),
        tables: [{ table: 'sync_runs', count: 1, more: false }],
      });
    } finally {
      await backend.close();
    }
  });

  it('is said in words by table, in the order records are named, and as a least past the rows told apart', () => {
    const log = memoryLogger();
    const damaged = createDamagedRows(log, 2);
    expect(damagedRecordsText(damaged.counts())).toBeNull();
    damaged.report('action_history', 'op-1', 'an action this version does not know');
    damaged.report('assessment_sites', 's-1', 'not valid JSON');
    damaged.report('assessment_sites', 's-2', 'not valid JSON');
    damaged.report('assessment_sites', 's-2', 'not valid JSON');
    expect(damagedRecordsText(damaged.counts())).toBe(
      'Damaged records left out since FieldDesk started: 2 sites and 1 action result — the log names each one.',
    );
    // Past the rows told apart: counted as a least, said once.
    damaged.report('assessment_sites', 's-3', 'not valid JSON');
    damaged.report('assessment_sites', 's-4', 'not valid JSON');
    expect(damaged.counts().tables[0]).toEqual({ table: 'assessment_sites', count: 2, more: true });
    expect(damagedRecordsText(damaged.counts())).toBe(
      'Damaged records left out since FieldDesk started: 2 or more sites and 1 action result — the log names each one.',
    );
    expect(log.records.filter((record) => record.level === 'warn')).toHaveLength(4);
  });

  it('is given a reason that never quotes the value', () => {
    let syntax: unknown;
    try {
      // V8 quotes the text it could not read in its message.
      JSON.parse(PRIVATE_NOTE);
    } catch (error) {
      syntax = error;
    }
    expect(String(syntax)).toContain('Mrs Patel');
    expect(damageReason(syntax)).toBe('not valid JSON');
    expect(damageReason(new TypeError(`cannot read ${PRIVATE_NOTE}`))).toBe('could not be read (TypeError)');
  });
});

describe('a site sync', () => {
  it('logs a receiver of its progress that fails, once, and goes on', async () => {
    const log = memoryLogger();
    const database = folder.open();
    database.db
      .prepare(
        `INSERT INTO sync_runs (id, account_id, request_json, state, message, started_at, updated_at)
         VALUES ('sync-1', 'acc', ?, 'interrupted', 'Interrupted.', 1, 1)`,
      )
      .run(JSON.stringify({ serials: ['QT1'], start: 0, end: 1_000 }));
    const manager = createSyncManager({
      db: database.db,
      store: createCacheStore(database.db),
      now: () => 5_000,
      emit: () => {
        throw new Error('the window is closed');
      },
      log,
    });
    expect(manager.cancel('sync-1').state).toBe('cancelled');
    expect(log.records).toEqual([
      expect.objectContaining({
        level: 'warn',
        message: 'a receiver of site-sync progress failed',
        id: 'sync-1',
        error: expect.objectContaining({ message: 'the window is closed' }),
      }),
    ]);
    await manager.stopAll();
  });
});
