/** The history store: rows newest first with where they came from, per part, offline too. */
import { beforeEach, describe, expect, it } from 'vitest';
import { createFakeBackend, expectCalledWith, fakePinia } from './fake-api';
import type { Provenance } from '../../../src/shared/data';
import { FieldDeskError } from '../../../src/shared/errors';
import type { CalibrationRecord } from '../../../src/shared/operations';
import { useHistoryStore } from '../../../src/renderer/src/features/history/store';

/** The fake backend the stores talk to instead of `window.fielddesk`, typed from the contract. */
const backend = createFakeBackend();
const fake = backend.api;

const T0 = Date.UTC(2025, 5, 1);
const cached: Provenance = { source: 'cached', cachedAt: T0 - 3_600_000 };
const calibration = (time: number): CalibrationRecord => ({
  instrument: 'QT1',
  time,
  status: 'Pass',
  level: 94,
  offset: 0,
});

beforeEach(() => {
  fakePinia(backend);
  backend.reset();
  fake.history.calibrations.mockResolvedValue({
    records: [calibration(T0), calibration(T0 + 1000)],
    provenance: cached,
  });
  fake.history.calibrationLog.mockResolvedValue({ records: [], provenance: cached });
  fake.history.sic.mockResolvedValue({
    records: [],
    provenance: {
      source: 'partial',
      cachedAt: T0,
      missing: [{ start: T0, end: T0 + 1 }],
      reason: { code: 'offline', message: 'The service cannot be reached.', retryable: true },
    },
  });
  fake.actions.history.mockResolvedValue([]);
});

describe('history store', () => {
  it('keeps each part newest first with its provenance; the local record has none', async () => {
    const store = useHistoryStore();
    await store.load('QT1');
    const history = store.historyFor('QT1');
    expect(history.calibrations.rows.map((r) => r.time)).toEqual([T0 + 1000, T0]);
    expect(history.calibrations.provenance).toEqual(cached);
    expect(history.calibrationLog.provenance).toEqual(cached);
    expect(history.sic.provenance).toMatchObject({ source: 'partial', reason: { code: 'offline' } });
    expect(history.actions).toMatchObject({ provenance: null, error: null });
    expect(history.calibrations.loadedAt).not.toBeNull();
    expectCalledWith(fake.history.calibrations, expect.objectContaining({ serial: 'QT1' }));
  });

  it('keeps the earlier rows and provenance when a later read fails', async () => {
    const store = useHistoryStore();
    await store.load('QT1');
    fake.history.calibrations.mockRejectedValue(
      new FieldDeskError('serverError', 'The service had a problem.'),
    );
    await store.load('QT1');
    const part = store.historyFor('QT1').calibrations;
    expect(part.rows).toHaveLength(2);
    expect(part.provenance).toEqual(cached);
    expect(part.error).toMatchObject({ code: 'serverError' });
  });
});
