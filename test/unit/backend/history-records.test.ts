/** The history's typed records from cached record tables, and when a read answered nothing. */
import { describe, expect, it } from 'vitest';
import {
  calibrationLogEntriesOf,
  calibrationRecordsOf,
  nothingAnswered,
  sicRecordsOf,
} from '../../../src/main/backend/history/history-records';
import type { DatasetQuery, Provenance, RecordTable } from '../../../src/shared/data';
import { FieldDeskError } from '../../../src/shared/errors';

const T0 = Date.UTC(2025, 5, 1);
const table = (rows: RecordTable['rows']): RecordTable => ({ timeKey: 'time', columns: [], rows });

describe('history records from the cache', () => {
  it('turns calibration rows (times in epoch ms) into records, oldest first, for the serial read', () => {
    const records = calibrationRecordsOf(
      'QT1',
      table([
        { time: T0 + 2000, status: 'Pass', level: 94.02, offset: -0.1 },
        { time: T0, status: 'Fail', level: null, offset: null },
      ]),
    );
    expect(records).toEqual([
      { instrument: 'QT1', time: T0, status: 'Fail', level: null, offset: null },
      { instrument: 'QT1', time: T0 + 2000, status: 'Pass', level: 94.02, offset: -0.1 },
    ]);
  });

  it('trusts nothing read from disk: untimed rows are dropped, texts default to empty, odd numbers to null', () => {
    const rows = table([
      { time: null, status: 'Pass', level: 1, offset: 1 },
      { time: 'yesterday', status: 'Pass', level: 1, offset: 1 },
      { time: T0, status: null, level: 'loud', offset: Number.NaN },
    ]);
    expect(calibrationRecordsOf('QT1', rows)).toEqual([
      { instrument: 'QT1', time: T0, status: '', level: null, offset: null },
    ]);
    expect(calibrationRecordsOf('QT1', null)).toEqual([]);
  });

  it('reads calibration log entries and SIC records', () => {
    expect(
      calibrationLogEntriesOf('QT1', table([{ time: T0, user: 'ana', message: 'Started', extra: 1 }])),
    ).toEqual([{ instrument: 'QT1', time: T0, user: 'ana', message: 'Started' }]);
    expect(calibrationLogEntriesOf('QT1', table([{ time: T0, user: null }]))).toEqual([
      { instrument: 'QT1', time: T0, user: '', message: '' },
    ]);
    expect(
      sicRecordsOf('QT1', table([{ time: T0, status: 'Pass', _500Hz: 90.1, _1KHz: null, _8KHz: 85 }])),
    ).toEqual([{ instrument: 'QT1', time: T0, status: 'Pass', _500Hz: 90.1, _1KHz: null, _8KHz: 85 }]);
  });
});

describe('nothingAnswered', () => {
  const query: DatasetQuery = { serial: 'QT1', dataset: 'calibrations', start: T0, end: T0 + 10_000 };
  const forbidden = {
    code: 'forbidden' as const,
    message: 'This key lacks data.system:read.',
    retryable: false,
    missingScope: 'data.system:read',
  };
  const partial = (missing: Array<{ start: number; end: number }>, cachedAt: number | null): Provenance => ({
    source: 'partial',
    cachedAt,
    missing,
    reason: forbidden,
  });

  it('is the reason when the whole range that has happened is missing and nothing is cached', () => {
    const failure = nothingAnswered(
      { query, provenance: partial([{ start: T0, end: T0 + 5_000 }], null) },
      T0 + 5_000,
    );
    expect(failure).toBeInstanceOf(FieldDeskError);
    expect(failure).toMatchObject({ code: 'forbidden', missingScope: 'data.system:read' });
  });

  it('is null when anything was answered', () => {
    expect(
      nothingAnswered({ query, provenance: { source: 'fresh', fetchedAt: T0 } }, T0 + 20_000),
    ).toBeNull();
    expect(
      nothingAnswered({ query, provenance: { source: 'cached', cachedAt: T0 } }, T0 + 20_000),
    ).toBeNull();
    // Part of the range was fetched just now.
    expect(
      nothingAnswered({ query, provenance: partial([{ start: T0, end: T0 + 4_000 }], null) }, T0 + 20_000),
    ).toBeNull();
    // Part comes from the cache.
    expect(
      nothingAnswered({ query, provenance: partial([{ start: T0, end: T0 + 10_000 }], T0) }, T0 + 20_000),
    ).toBeNull();
  });
});
