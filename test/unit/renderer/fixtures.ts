/** Instrument entries and accounts for renderer tests. */
import type { InstrumentEntry } from '../../../src/shared/ipc/contract';
import type { InstrumentStatus } from '../../../src/shared/service/schemas';
import type { AccountSummary } from '../../../src/shared/accounts';

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
