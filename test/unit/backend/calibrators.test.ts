/**
 * The calibrator register in the user's records: kept through the contract (validated with plain
 * messages), read back after a restart and after records.db is damaged and restored; a calibration
 * that names one keeps a copy of it with its result in the action history, and the register
 * remembers it as the last one used.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RECORDS_FILE_NAME, RECORDS_NOTICE } from '../../../src/main/backend/records/records-database';
import { recordOf } from '../../../src/main/backend/actions/action-records';
import { dispatchRequest } from '../../../src/shared/ipc/contract';
import { isFinishedState, type OperationSnapshot } from '../../../src/shared/operations';
import type { CalibratorChange } from '../../../src/shared/calibrators';
import type { Backend } from '../../../src/main/backend/backend';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import { createRecordingBackend, DEMO_TEST_KEY, demoBackendOptions } from './backend-helpers';
import { damageTablePage, failureOf, finishedCalibration } from './helpers';
import { useTestRecords } from './records-helpers';

const T0 = Date.UTC(2026, 10, 23, 9, 0, 0);
const CR515: CalibratorChange = {
  model: 'CR:515',
  serial: '054433',
  class: '1',
  levelsDb: [94, 114],
  certificateDate: '2026-03-01',
  dueDate: '2027-03-01',
};

const testRecords = useTestRecords();
const folder = testRecords.folder;
const crash = testRecords.crash;
const openRecords = (at: number) => testRecords.open(at);

describe('the calibrator register in records.db', () => {
  it('keeps what was saved, changed, retired and removed across a reopen', async () => {
    const first = openRecords(T0);
    const store = first.records.view('calibrators');
    const cr515 = store.save(CR515)!;
    const other = store.save({ ...CR515, model: 'B&K 4231', serial: '2634512', levelsDb: [94] })!;
    const gone = store.save({ ...CR515, serial: '999999' })!;
    store.save({ ...CR515, id: cr515.id, dueDate: '2027-04-01' });
    store.setRetired(other.id, true);
    expect(store.remove(gone.id)).toBe(true);
    store.markUsed(cr515.id);
    // Closed whole (a last backup taken); closing it again after the test does nothing.
    await first.records.close();

    const { records } = openRecords(T0 + 1_000);
    const list = records.view('calibrators').list();
    expect(list.unreadable).toBe(0);
    // In use first, then retired.
    expect(list.calibrators.map((c) => [c.model, c.serial, c.dueDate, c.retired])).toEqual([
      ['CR:515', '054433', '2027-04-01', false],
      ['B&K 4231', '2634512', '2027-03-01', true],
    ]);
    expect(list.calibrators[0]).toMatchObject({ class: '1', levelsDb: [94, 114], lastUsedAt: T0 });
    expect(list.lastUsedId).toBe(cr515.id);
  });

  it('remembers "None / not listed" as the last choice, and a calibrator chosen after it', async () => {
    const first = openRecords(T0);
    const store = first.records.view('calibrators');
    const cr515 = store.save(CR515)!;
    store.markUsed(cr515.id);
    store.markUsed(null);
    expect(store.list().lastUsedId).toBeNull();
    // The calibrator keeps when it was last used.
    expect(store.list().calibrators[0]?.lastUsedAt).toBe(T0);
    await first.records.close();

    const later = openRecords(T0 + 60_000).records.view('calibrators');
    expect(later.list().lastUsedId).toBeNull();
    later.markUsed(cr515.id);
    expect(later.list().lastUsedId).toBe(cr515.id);
  });

  it('refuses a second entry for the same calibrator, whatever its spacing or case', () => {
    const { records } = openRecords(T0);
    const store = records.view('calibrators');
    store.save(CR515);
    expect(() => store.save({ ...CR515, model: 'cr: 515' })).toThrow(
      'CR:515 #054433 is already in the register: change that entry instead of adding another.',
    );
  });

  it('leaves out a damaged entry on its own, counting it', () => {
    const { records } = openRecords(T0);
    records.view('calibrators').save(CR515);
    records
      .current()!
      .db.prepare(
        "INSERT INTO calibrators (id, updated_at, used_at, calibrator_json) VALUES ('bad', 1, NULL, '{')",
      )
      .run();
    const list = records.view('calibrators').list();
    expect(list.calibrators.map((c) => c.serial)).toEqual(['054433']);
    expect(list.unreadable).toBe(1);
  });

  it('restores the register and the calibrator kept with a calibration when records.db is damaged', async () => {
    const first = openRecords(T0);
    const cr515 = first.records.view('calibrators').save(CR515)!;
    const calibrator = {
      id: cr515.id,
      model: cr515.model,
      serial: cr515.serial,
      class: cr515.class,
      levelDb: 94,
      nominalLevelsDb: cr515.levelsDb,
      certificateDate: cr515.certificateDate,
      dueDate: cr515.dueDate,
    };
    first.records.view('actions').put(recordOf(finishedCalibration({ id: 'op-backed-up', calibrator }))!);
    await first.records.backupNow();
    // After the backup: a second calibrator, then the file is cut short.
    first.records.view('calibrators').save({ ...CR515, model: 'CAL200', serial: '12345' });
    crash(first.records);
    const bytes = await readFile(join(folder(), RECORDS_FILE_NAME));
    await writeFile(join(folder(), RECORDS_FILE_NAME), bytes.subarray(0, Math.floor(bytes.length / 2)));

    const { records, notices } = openRecords(T0 + 60_000);
    expect(
      records
        .view('calibrators')
        .list()
        .calibrators.map((c) => c.model),
    ).toContain('CR:515');
    const [kept] = records.view('actions').list('acc', 'QT100001');
    expect(kept?.calibrator).toMatchObject({
      model: 'CR:515',
      serial: '054433',
      levelDb: 94,
      dueDate: '2027-03-01',
    });
    const message = notices.list().find((n) => n.id === RECORDS_NOTICE.restored)?.message ?? '';
    expect(message).toContain(
      '(sites, exclusions, limits, site visits, action history, audio library, calibrators)',
    );
    expect(message).toMatch(/Your records now hold 1 action result and (1 calibrator|2 calibrators)\./);
  });

  it('brings back a calibrator added after the backup from the change journal', async () => {
    const first = openRecords(T0);
    first.records.view('calibrators').save(CR515);
    await first.records.backupNow();
    first.records.view('calibrators').save({ ...CR515, model: 'CAL200', serial: '12345' });
    crash(first.records);
    // Damage one other table's page only: the calibrators' own page still reads.
    await damageTablePage(join(folder(), RECORDS_FILE_NAME), 'audio_downloads');

    const { records, notices } = openRecords(T0 + 60_000);
    expect(
      records
        .view('calibrators')
        .list()
        .calibrators.map((c) => c.model)
        .sort(),
    ).toEqual(['CAL200', 'CR:515']);
    const message = notices.list().find((n) => n.id === RECORDS_NOTICE.restored)?.message ?? '';
    expect(message).toContain(
      'then replayed from the change journal the 1 change (1 calibrator saved) you made after it',
    );
  });
});

describe('calibrators through the backend', () => {
  let service: RunningDemoService;
  const backends: Backend[] = [];
  beforeEach(async () => {
    service = await startDemoService({
      port: 0,
      keys: { [DEMO_TEST_KEY]: '*' },
      rateLimit: 10_000,
      timeScale: 0.01,
    });
  });
  afterEach(async () => {
    await Promise.all(backends.splice(0).map((backend) => backend.close()));
    await service.close();
  });

  async function makeBackend() {
    const made = await createRecordingBackend({
      ...demoBackendOptions(folder(), service),
      polling: { fastIntervalMs: 40, slowIntervalMs: 80, fastPhaseMs: 1_000 },
    });
    backends.push(made.backend);
    await made.handlers['accounts.tryDemo']({});
    return made;
  }

  async function finished(backend: Backend, id: string): Promise<OperationSnapshot> {
    for (;;) {
      const snapshot = (await backend.handlers['operations.list']({})).find((op) => op.id === id);
      if (snapshot !== undefined && isFinishedState(snapshot.state)) return snapshot;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('says what is wrong with a calibrator as entered, in words', async () => {
    const { handlers } = await makeBackend();
    const answer = await dispatchRequest(handlers, 'calibrators.save', {
      ...CR515,
      dueDate: '2026-02-01',
    });
    expect(answer).toEqual({
      ok: false,
      error: expect.objectContaining({
        code: 'invalidInput',
        message: 'The due date must be after the certificate date.',
        field: 'dueDate',
      }),
    });
    const unknown = await dispatchRequest(handlers, 'calibrators.retire', { id: 'nope', retired: true });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'notFound' } });
  });

  it('keeps the calibrator with the calibration’s result, in the history and after a restart', async () => {
    const first = await makeBackend();
    const cr515 = await first.handlers['calibrators.save'](CR515);
    const [serial, otherSerial] = (await first.handlers['instruments.list']({})).entries
      .filter((e) => e.instrument.type === 'Noise' && e.status?.online === true)
      .map((e) => e.instrument.serialNumber) as [string, string];

    // Named only for a calibration; an unknown one is refused before anything starts.
    const forSic = await dispatchRequest(first.handlers, 'actions.start', {
      serial,
      action: 'SIC',
      calibratorId: cr515.id,
    });
    expect(forSic).toMatchObject({
      ok: false,
      error: { code: 'invalidInput', message: 'A calibrator is named only for a calibration.' },
    });
    const unknown = await failureOf(
      first.handlers['actions.start']({ serial, action: 'Calibration', calibratorId: 'gone' }),
    );
    expect(unknown.message).toMatch(/no longer in the register/);

    const op = await first.handlers['actions.start']({
      serial,
      action: 'Calibration',
      calibratorId: cr515.id,
    });
    const expected = {
      id: cr515.id,
      model: 'CR:515',
      serial: '054433',
      class: '1',
      levelDb: 94,
      nominalLevelsDb: [94, 114],
      certificateDate: '2026-03-01',
      dueDate: '2027-03-01',
    };
    expect(op.calibrator).toEqual(expected);
    const done = await finished(first.backend, op.id);
    expect(done.calibrator).toEqual(expected);
    expect((await first.handlers['calibrators.list']({})).lastUsedId).toBe(cr515.id);
    // A later change of the register does not rewrite what was used.
    await first.handlers['calibrators.save']({ ...CR515, id: cr515.id, dueDate: '2028-03-01' });
    // Without one: none named. (On another instrument: the demo's compressed time would let a
    // second calibration here take the first one's result as its own.)
    const plain = await first.handlers['actions.start']({ serial: otherSerial, action: 'Calibration' });
    await finished(first.backend, plain.id);
    await first.backend.close();
    backends.splice(0);

    const second = await makeBackend();
    const history = await second.handlers['actions.history']({ serial });
    expect(history.find((r) => r.id === op.id)?.calibrator).toEqual(expected);
    const otherHistory = await second.handlers['actions.history']({ serial: otherSerial });
    expect(otherHistory.find((r) => r.id === plain.id)?.calibrator).toBeNull();
    expect((await second.handlers['calibrators.list']({})).calibrators[0]?.dueDate).toBe('2028-03-01');

    // The assessment's calibration evidence names it for the calibration FieldDesk ran, matched
    // to the service's record of it; the one without a calibrator says so.
    const site = await second.handlers['assessment.saveSite']({
      name: 'Mill Lane',
      timeZone: 'UTC',
      serials: [serial, otherSerial],
    });
    const assessed = await second.handlers['assessment.compute']({
      siteId: site.id,
      start: op.startedAt - 3_600_000,
      end: Date.now() + 60_000,
    });
    const evidenceOf = (record: (typeof history)[number] | undefined) =>
      assessed.checks.find(
        (c) =>
          c.kind === 'calibration' &&
          c.serial === record?.serial &&
          record.result?.kind === 'calibration' &&
          c.time === record.result.time,
      );
    expect(evidenceOf(history.find((r) => r.id === op.id))?.calibrator).toEqual(expected);
    expect(evidenceOf(otherHistory.find((r) => r.id === plain.id))?.calibrator).toBeNull();
  });

  it('refuses a retired calibrator for a calibration, saying how to use it again', async () => {
    const { handlers } = await makeBackend();
    const cr515 = await handlers['calibrators.save'](CR515);
    await handlers['calibrators.retire']({ id: cr515.id, retired: true });
    const serial = (await handlers['instruments.list']({})).entries[0]!.instrument.serialNumber;
    const error = await failureOf(
      handlers['actions.start']({ serial, action: 'Calibration', calibratorId: cr515.id }),
    );
    expect(error.message).toBe(
      'CR:515 #054433 is retired. Put it back into use in the calibrator register, or choose another.',
    );
  });
});
