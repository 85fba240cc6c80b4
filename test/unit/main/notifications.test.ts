import { describe, expect, it } from 'vitest';
import {
  createActionNotifier,
  createBackgroundNotifier,
  createSyncNotifier,
  finishedActionNotice,
  type Notice,
} from '../../../src/main/notifications';
import { instrumentsText, syncEndedNotice } from '../../../src/shared/sync-outcome';
import type { SyncSnapshot } from '../../../src/shared/data';
import type { OperationSnapshot } from '../../../src/shared/operations';

function snapshot(overrides: Partial<OperationSnapshot>): OperationSnapshot {
  return {
    id: 'op-1',
    kind: 'action',
    accountId: 'acc-1',
    serial: 'QT380979',
    action: 'Calibration',
    state: 'running',
    phase: 'Waiting for the instrument',
    startedAt: 1_000,
    updatedAt: 20_000,
    elapsedMs: 19_000,
    expectedDurationMs: 40_000,
    message: 'Measuring the calibrator tone.',
    result: null,
    error: null,
    ...overrides,
  };
}

const passedCalibration = snapshot({
  state: 'succeeded',
  result: {
    kind: 'calibration',
    time: 30_000,
    status: 'Success',
    level: 94.02,
    offset: 0.02,
    referenceDb: 94,
    toleranceDb: 0.5,
    passed: true,
    deviationDb: 0.02,
    instrumentPassed: true,
    probableCalibratorDb: null,
  },
});

describe('finishedActionNotice', () => {
  it('says PASS or FAIL with the level against the reference', () => {
    expect(finishedActionNotice(passedCalibration)).toEqual({
      title: 'Calibration PASS — QT380979',
      body: 'Level 94.02 dB (reference 94.0 dB, deviation +0.02 dB, tolerance ±0.5 dB).',
    });
    const failed = snapshot({
      state: 'failed',
      result: {
        kind: 'sic',
        time: 1,
        status: 'Failed',
        _500Hz: 80.1,
        _1KHz: 85.2,
        _8KHz: null,
        passed: false,
        instrumentPassed: false,
        tones: [],
        toleranceDb: 2,
      },
    });
    expect(finishedActionNotice(failed)).toEqual({
      title: 'SIC FAIL — QT380979',
      body: '500 Hz 80.10 dB, 1 kHz 85.20 dB, 8 kHz —.',
    });
  });

  it('is silent for running and cancelled operations, and explains time-outs', () => {
    expect(finishedActionNotice(snapshot({}))).toBeNull();
    expect(finishedActionNotice(snapshot({ state: 'cancelled' }))).toBeNull();
    expect(finishedActionNotice(snapshot({ state: 'timedOut', message: 'No result in 2 min.' }))).toEqual({
      title: 'Calibration on QT380979: no result',
      body: 'No result in 2 min.',
    });
  });
});

describe('createActionNotifier', () => {
  it('notifies once per finished operation, and only when the window is in the background', () => {
    const shown: Notice[] = [];
    let focused = true;
    const notify = createActionNotifier(
      () => focused,
      (notice) => shown.push(notice),
    );
    notify(passedCalibration);
    expect(shown).toHaveLength(0);

    focused = false;
    notify(passedCalibration); // already finished and told (while focused): not again
    notify(snapshot({ id: 'op-2' })); // still running
    notify({ ...passedCalibration, id: 'op-2' });
    notify({ ...passedCalibration, id: 'op-2' });
    expect(shown.map((notice) => notice.title)).toEqual(['Calibration PASS — QT380979']);
  });
});

function sync(overrides: Partial<SyncSnapshot>): SyncSnapshot {
  return {
    id: 'sync-1',
    kind: 'sync',
    accountId: 'acc-1',
    serials: ['QT930998', 'QT380979'],
    start: 0,
    end: 86_400_000,
    state: 'running',
    phase: 'Fetching',
    startedAt: 1_000,
    updatedAt: 20_000,
    elapsedMs: 19_000,
    done: 3,
    total: 10,
    fetched: 3,
    bytes: 1_000,
    etaMs: null,
    message: 'Fetching data for the site visit…',
    failures: [],
    error: null,
    ...overrides,
  };
}

const READY = 'Ready for the site visit: 2 instruments available offline (3.1 MB fetched).';
const GAPS =
  'Finished with gaps: fetched 8 of 10 requests; missing Noise events of QT380979. Resume to try the missing parts again.';
const FAILED =
  'Nothing could be fetched for the site visit: FieldDesk cannot reach the service. Resume to try again.';

describe('syncEndedNotice', () => {
  it('says what synced and that it is ready, with gaps, or failed', () => {
    expect(syncEndedNotice(sync({ state: 'succeeded', message: READY }))).toEqual({
      title: 'Site sync finished — ready for the visit',
      body: `QT930998 and QT380979. ${READY}`,
    });
    expect(syncEndedNotice(sync({ state: 'withGaps', message: GAPS }))).toEqual({
      title: 'Site sync finished with gaps',
      body: `QT930998 and QT380979. ${GAPS}`,
    });
    expect(
      syncEndedNotice(
        sync({ state: 'failed', message: FAILED, error: { code: 'offline', message: 'x', retryable: true } }),
      ),
    ).toEqual({ title: 'Site sync failed', body: `QT930998 and QT380979. ${FAILED}` });
    // A success that still names failures is not called ready.
    const failure = { serial: 'QT380979', dataset: 'events' as const, missing: [], message: 'Not fetched' };
    expect(syncEndedNotice(sync({ state: 'succeeded', failures: [failure] }))?.title).toBe(
      'Site sync finished with gaps',
    );
  });

  it('is silent while a sync runs, and when the user stopped it or FieldDesk closed during it', () => {
    expect(syncEndedNotice(sync({ state: 'running' }))).toBeNull();
    expect(syncEndedNotice(sync({ state: 'cancelled' }))).toBeNull();
    expect(syncEndedNotice(sync({ state: 'interrupted' }))).toBeNull();
  });

  it('names up to three instruments, then how many more', () => {
    expect(instrumentsText(['QT1'])).toBe('QT1');
    expect(instrumentsText(['QT1', 'QT2', 'QT3'])).toBe('QT1, QT2 and QT3');
    expect(instrumentsText(['QT1', 'QT2', 'QT3', 'QT4', 'QT5'])).toBe('QT1, QT2 and 3 more');
  });
});

describe('createSyncNotifier', () => {
  it("tells each end once, in the background only, and a resumed sync's new end again", () => {
    let focused = false;
    const shown: Notice[] = [];
    const notify = createSyncNotifier(
      () => focused,
      (notice) => shown.push(notice),
    );
    notify(sync({ state: 'running' }));
    expect(shown).toEqual([]);
    notify(sync({ state: 'withGaps', message: GAPS }));
    notify(sync({ state: 'withGaps', message: GAPS, updatedAt: 30_000 }));
    expect(shown.map((notice) => notice.title)).toEqual(['Site sync finished with gaps']);
    // Resumed, it runs and ends again.
    notify(sync({ state: 'running', updatedAt: 40_000 }));
    notify(sync({ state: 'succeeded', message: READY, updatedAt: 50_000 }));
    expect(shown.map((notice) => notice.title)).toEqual([
      'Site sync finished with gaps',
      'Site sync finished — ready for the visit',
    ]);
    // While the user looks at the window, the view says it: no notice.
    focused = true;
    notify(sync({ id: 'sync-2', state: 'succeeded', message: READY }));
    expect(shown).toHaveLength(2);
  });
});

describe('createBackgroundNotifier', () => {
  it("takes both finished actions and ended syncs from the backend's events", () => {
    const shown: Notice[] = [];
    const listener = createBackgroundNotifier(
      () => false,
      (notice) => shown.push(notice),
    );
    listener('operations.progress', passedCalibration);
    listener('sync.progress', sync({ state: 'succeeded', message: READY }));
    listener('connectivity.changed', { state: 'online', accountId: null, since: 1, message: null });
    expect(shown.map((notice) => notice.title)).toEqual([
      'Calibration PASS — QT380979',
      'Site sync finished — ready for the visit',
    ]);
  });
});

describe('the desktop notice of an urgent reason', () => {
  it('is shown only while the window is in the background', () => {
    const shown: Notice[] = [];
    let focused = true;
    const notify = createBackgroundNotifier(
      () => focused,
      (notice) => shown.push(notice),
    );
    const urgent = {
      serial: 'QT1',
      name: 'Sizewell C – rail siding',
      reason: 'Battery nearly flat: 11.4 V (urgent below 11.5 V)',
    };
    notify('instruments.urgent', urgent);
    expect(shown).toEqual([]);
    focused = false;
    notify('instruments.urgent', urgent);
    expect(shown).toEqual([
      {
        title: 'Needs attention today — Sizewell C – rail siding',
        body: 'QT1: Battery nearly flat: 11.4 V (urgent below 11.5 V).',
      },
    ]);
  });
});
