/**
 * About how much a site sync will download, shown before it starts. A model of the service's
 * answers, measured on the demo service's JSON (bytes per record and per value, records per day):
 * the real service's answers are the same records, so the figure is right to within a factor, not
 * to the byte. A test holds it against the bytes a real sync of the demo service receives.
 */
import { endpointLimitOf, OCTAVE_BAND_NAMES, THIRD_OCTAVE_BAND_NAMES } from './service/limits';
import { parseIsoDuration } from './service/duration';
import type { Dataset, TimeInterval } from './data';
import { recordsStart, type SyncItem } from './sync-choices';

const MINUTE = 60_000;
const DAY = 86_400_000;
const YEAR = 365 * DAY;

/** Measurements as recorded: most instruments measure in 15-minute periods. */
const ASSUMED_MEASUREMENT_PERIOD_MS = 15 * MINUTE;

/** A measurement record: its times and instrument, then each value. */
const MEASUREMENT_RECORD_BYTES = 145;
const MEASUREMENT_VALUE_BYTES = 30;
/** A time history sends bare numbers: bytes per value per sample. */
const TIME_HISTORY_VALUE_BYTES = 4.8;

/** Environmental records at their default 1-minute period, bytes per record. */
const ENVIRONMENT_RECORD_BYTES: Partial<Record<Dataset, number>> = {
  weather: 163,
  particulates: 124,
  gases: 158,
  vibrationPPV: 159,
  vibrationVDV: 120,
};

/** Datasets whose size follows their events, not a period: bytes per day, or per year for the records. */
const PER_DAY_BYTES: Partial<Record<Dataset, number>> = {
  events: 9_000,
  audio: 2_000,
  monitorStats: 40_000,
  monitorEvents: 300,
};
const PER_YEAR_BYTES: Partial<Record<Dataset, number>> = {
  calibrations: 5_500,
  calibrationLog: 13_000,
  sic: 44_000,
};

/** The range a sync item covers. */
export function itemRange(item: SyncItem, range: TimeInterval): TimeInterval {
  return item.span === 'records' ? { start: recordsStart(range.end), end: range.end } : range;
}

function periodMsOf(item: SyncItem, fallbackMs: number): number {
  const given = item.options?.period === undefined ? null : parseIsoDuration(item.options.period);
  return given !== null && given > 0 ? given : fallbackMs;
}

/** About how many bytes the service sends for one item over `range`. */
export function estimateItemBytes(item: SyncItem, range: TimeInterval): number {
  const { start, end } = itemRange(item, range);
  const span = Math.max(0, end - start);
  const { dataset, options = {} } = item;
  switch (dataset) {
    case 'noiseMeasurements': {
      const values = options.values?.length ?? 3;
      const rows = span / periodMsOf(item, ASSUMED_MEASUREMENT_PERIOD_MS);
      return rows * (MEASUREMENT_RECORD_BYTES + MEASUREMENT_VALUE_BYTES * values);
    }
    case 'frequencyMeasurements': {
      const bands = options.bands === 'Third' ? THIRD_OCTAVE_BAND_NAMES.length : OCTAVE_BAND_NAMES.length;
      const rows = span / periodMsOf(item, ASSUMED_MEASUREMENT_PERIOD_MS);
      return rows * (MEASUREMENT_RECORD_BYTES + MEASUREMENT_VALUE_BYTES * bands);
    }
    case 'noiseTimeHistory':
      return (span / periodMsOf(item, 1000)) * TIME_HISTORY_VALUE_BYTES * (options.values?.length ?? 3);
    case 'frequencyTimeHistory': {
      const bands = options.bands === 'Third' ? THIRD_OCTAVE_BAND_NAMES.length : OCTAVE_BAND_NAMES.length;
      return (span / periodMsOf(item, 1000)) * TIME_HISTORY_VALUE_BYTES * bands;
    }
    default: {
      const perRecord = ENVIRONMENT_RECORD_BYTES[dataset];
      if (perRecord !== undefined) return (span / periodMsOf(item, MINUTE)) * perRecord;
      const perYear = PER_YEAR_BYTES[dataset];
      if (perYear !== undefined) return (span / YEAR) * perYear;
      return (span / DAY) * (PER_DAY_BYTES[dataset] ?? 0);
    }
  }
}

/** The requests one item takes: its range split at the endpoint's longest range per request. */
export function itemRequests(item: SyncItem, range: TimeInterval): number {
  const { start, end } = itemRange(item, range);
  if (end <= start) return 0;
  return Math.ceil((end - start) / endpointLimitOf(item.dataset).maxRangeMs);
}

export interface SyncSizeEstimate {
  requests: number;
  bytes: number;
}

/** The requests and about how many bytes a sync of these items makes. */
export function estimateSync(items: readonly SyncItem[], range: TimeInterval): SyncSizeEstimate {
  let requests = 0;
  let bytes = 0;
  for (const item of items) {
    requests += itemRequests(item, range);
    bytes += estimateItemBytes(item, range);
  }
  return { requests, bytes: Math.round(bytes) };
}
