/** Instrument entries, accounts and operation snapshots for renderer tests. */
import type { InstrumentEntry } from '../../../src/shared/ipc/contract';
import type { InstrumentStatus } from '../../../src/shared/service/schemas';
import type { AccountSummary } from '../../../src/shared/accounts';
import type { SyncSnapshot } from '../../../src/shared/data';
import type { OperationSnapshot } from '../../../src/shared/operations';

export function status(overrides: Partial<InstrumentStatus> = {}): InstrumentStatus {
  return {
    online: true,
    measuring: true,
    calibrationInProgress: false,
    sicInProgress: false,
    lastCalibration: null,
    lastSic: null,
    ...overrides,
  };
}

export function entry(
  serialNumber: string,
  name: string,
  options: { type?: string; model?: string; status?: InstrumentStatus | null; subscription?: string } = {},
): InstrumentEntry {
  return {
    instrument: {
      type: options.type ?? 'Noise',
      serialNumber,
      model: options.model ?? 'CR:900 Quantum',
      name,
      image: null,
      subscription: { status: options.subscription ?? 'Active', tier: 'Track' },
      position: null,
      feature: [],
    },
    status: options.status === undefined ? status() : options.status,
    statusError: null,
  };
}

export const FLEET: InstrumentEntry[] = [
  entry('QT100001', 'Hinkley Point C – east boundary'),
  entry('QT100002', 'Sizewell C – rail siding', { status: status({ online: false }) }),
  entry('AQ200001', 'M62 J26 – receptor R1', { type: 'AirQuality', model: 'AQ:200' }),
  entry('VB300001', 'Hinkley Point C – north fence', {
    type: 'Vibration',
    model: 'VM:400',
    status: status({ measuring: false }),
  }),
  entry('QT100003', 'Glastonbury – Pilton', { status: status({ calibrationInProgress: true }) }),
  entry('QT100004', 'Glastonbury – Shangri-La', {
    status: status({ sicInProgress: true }),
    subscription: 'Cancelled',
  }),
  entry('QT100005', '', { status: null }),
];

export function account(overrides: Partial<AccountSummary> = {}): AccountSummary {
  return {
    id: 'acc-1',
    name: 'Harbour works',
    baseUrl: 'https://api.mycirrus.cloud/v1',
    kind: 'service',
    keyStorage: 'keychain',
    missingScopes: [],
    createdAt: 0,
    lastCheckedAt: null,
    ...overrides,
  };
}

/** A calibration of QT100001 on acc-1, running since 1 s on the test clock. */
export function actionSnapshot(overrides: Partial<OperationSnapshot> = {}): OperationSnapshot {
  return {
    id: 'op-1',
    kind: 'action',
    accountId: 'acc-1',
    serial: 'QT100001',
    action: 'Calibration',
    state: 'running',
    phase: 'Waiting for the instrument',
    startedAt: 1_000,
    updatedAt: 1_000,
    elapsedMs: 0,
    expectedDurationMs: 40_000,
    message: 'The instrument is calibrating.',
    result: null,
    error: null,
    ...overrides,
  };
}

/** A site sync of QT1 on acc-1, 12 of 40 requests in. */
export function syncSnapshot(overrides: Partial<SyncSnapshot> = {}): SyncSnapshot {
  return {
    id: 's1',
    kind: 'sync',
    accountId: 'acc-1',
    serials: ['QT1'],
    start: 0,
    end: 86_400_000,
    state: 'running',
    phase: 'fetching',
    startedAt: 1,
    updatedAt: 1,
    elapsedMs: 0,
    done: 12,
    fetched: 12,
    total: 40,
    bytes: 3_400_000,
    etaMs: 125_000,
    message: '',
    failures: [],
    error: null,
    ...overrides,
  };
}

/** A promise the test settles when it wants, to hold an answer back. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
