/** Limits and constants both the demo service and the client agree on. */

import { describeDuration, parseIsoDuration } from './duration';
import type { Dataset } from '../data';

/** The real service's production address (service-facts.md). */
export const PRODUCTION_BASE_URL = 'https://api.mycirrus.cloud/v1';

/**
 * The interface does not state a maximum instrument name length; the web console refuses
 * long names, and 64 characters fits every list and heading FieldDesk shows.
 */
export const INSTRUMENT_NAME_MAX_LENGTH = 64;

/** Error codes of the service's `{ error, description }` bodies (service-facts.md). */
export const SERVICE_ERROR_CODES = {
  missingParam: 'MissingParam',
  notFound: 'NotFound',
  tokenExpired: 'TokenExpired',
  accessDenied: 'AccessDenied',
  tooManyRequests: 'TooManyRequests',
  /** Not documented for the real service: the demo service's answer to a well-formed but bad value. */
  invalidParam: 'InvalidParam',
  /** Not documented for the real service: the demo service's 501 for an endpoint it does not serve yet. */
  notImplemented: 'NotImplemented',
  /** Not documented for the real service: the demo service's 416 for a byte range past the end of audio. */
  rangeNotSatisfiable: 'RangeNotSatisfiable',
} as const;

/** The header that carries the API key. */
export const API_KEY_HEADER = 'X-Api-Key';

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * A bound of the `period` parameter. Some bounds depend on the instrument's settings (its
 * measurement period, its time history period); the others are fixed durations.
 */
export type PeriodBound =
  { kind: 'fixed'; ms: number } | { kind: 'measurementPeriod' } | { kind: 'timeHistoryPeriod' };

/** The instrument settings some `period` bounds depend on (service-interface.md, Limits). */
export interface InstrumentPeriods {
  /** The instrument's measurement period: default and shortest `period` of measurements. */
  measurementPeriodMs: number;
  /** The instrument's time history period: shortest `period` of time history. */
  timeHistoryPeriodMs: number;
}

/**
 * A bound in milliseconds for an instrument with these settings. The client and the demo service
 * both resolve bounds here, so they agree on what a `period` may be.
 */
export const resolvePeriodBound = (bound: PeriodBound, periods: InstrumentPeriods): number =>
  bound.kind === 'fixed'
    ? bound.ms
    : bound.kind === 'measurementPeriod'
      ? periods.measurementPeriodMs
      : periods.timeHistoryPeriodMs;

export interface DataEndpointLimit {
  /** Path relative to `{base_url}`, as in `ENDPOINTS`. */
  path: string;
  /** Longest `end - start` one request may ask for (ms). */
  maxRangeMs: number;
  /** Null when the endpoint takes no `period`. */
  period: {
    /** What the service answers when no `period` is given. */
    default: PeriodBound;
    /** Shortest allowed `period` (inclusive). */
    min: PeriodBound;
    /** Longest allowed `period` (inclusive, ms). */
    maxMs: number;
    /** Whether periods with fractional seconds (e.g. `PT0.1S`) are allowed. */
    fractionalSeconds: boolean;
  } | null;
  /** False when the interface states no limit and the value is the demo service's choice. */
  documented: boolean;
}

const measurementLimit = (path: string): DataEndpointLimit => ({
  path,
  maxRangeMs: 31 * DAY_MS,
  period: {
    default: { kind: 'measurementPeriod' },
    min: { kind: 'measurementPeriod' },
    maxMs: DAY_MS,
    fractionalSeconds: false,
  },
  documented: true,
});

const timeHistoryLimit = (path: string, maxRangeMs: number): DataEndpointLimit => ({
  path,
  maxRangeMs,
  period: {
    default: { kind: 'fixed', ms: SECOND_MS },
    min: { kind: 'timeHistoryPeriod' },
    maxMs: MINUTE_MS,
    fractionalSeconds: true,
  },
  documented: true,
});

const environmentalLimit = (path: string): DataEndpointLimit => ({
  path,
  maxRangeMs: 31 * DAY_MS,
  period: {
    default: { kind: 'fixed', ms: MINUTE_MS },
    min: { kind: 'fixed', ms: MINUTE_MS },
    maxMs: DAY_MS,
    fractionalSeconds: false,
  },
  documented: true,
});

const rangeOnlyLimit = (path: string, maxRangeMs: number, documented = true): DataEndpointLimit => ({
  path,
  maxRangeMs,
  period: null,
  documented,
});

/**
 * Range and `period` limits of the data endpoints (service-interface.md, Limits). "1 year" is
 * taken as 365 days; "31 days" as 31 × 24 h. The audio list has no documented range limit: the
 * demo service applies 31 days (`documented: false`).
 */
export const DATA_ENDPOINT_LIMITS = {
  noiseMeasurements: measurementLimit('/data/noise/measurements'),
  noiseTimeHistory: timeHistoryLimit('/data/noise/timehistory', 7 * DAY_MS),
  frequencyMeasurements: measurementLimit('/data/frequency/measurements'),
  frequencyTimeHistory: timeHistoryLimit('/data/frequency/timehistory', DAY_MS),
  weather: environmentalLimit('/data/weather'),
  particulates: environmentalLimit('/data/particulates'),
  gases: environmentalLimit('/data/gases'),
  vibration: environmentalLimit('/data/vibration/:type'),
  events: rangeOnlyLimit('/data/events', 31 * DAY_MS),
  audio: rangeOnlyLimit('/data/audio', 31 * DAY_MS, false),
  calibrations: rangeOnlyLimit('/data/calibrations', 365 * DAY_MS),
  calibrationLog: rangeOnlyLimit('/data/calibrations/log', 365 * DAY_MS),
  sic: rangeOnlyLimit('/data/sic', 365 * DAY_MS),
  monitorStats: rangeOnlyLimit('/data/monitor/stats', 31 * DAY_MS),
  monitorEvents: rangeOnlyLimit('/data/monitor/events', 31 * DAY_MS),
} as const satisfies Record<string, DataEndpointLimit>;

/** The limits of a dataset's endpoint (both vibration datasets share `/data/vibration/{type}`). */
export function endpointLimitOf(dataset: Dataset): DataEndpointLimit {
  if (dataset === 'vibrationPPV' || dataset === 'vibrationVDV') return DATA_ENDPOINT_LIMITS.vibration;
  return DATA_ENDPOINT_LIMITS[dataset];
}

/** Statistical levels cannot be requested together with `period` (service-interface.md, Limits). */
export const NOISE_STATISTICAL_VALUES = [
  'LAF1',
  'LAF5',
  'LAF10',
  'LAF50',
  'LAF90',
  'LAF95',
  'LAF99',
] as const;

/** Value names accepted by `values` on noise measurements (service-interface.md). */
export const NOISE_MEASUREMENT_VALUES = [
  'LAeq',
  'LCeq',
  'LZeq',
  'LAE',
  'LCE',
  'LZE',
  'LEX8',
  'LAPeak',
  'LCPeak',
  'LZPeak',
  'LAFMax',
  'LASMax',
  'LAIMax',
  'LCFMax',
  'LCSMax',
  'LCIMax',
  'LZFMax',
  'LZSMax',
  'LZIMax',
  ...NOISE_STATISTICAL_VALUES,
  'LeqT1Max',
  'LeqT2Max',
] as const;
export type NoiseValueName = (typeof NOISE_MEASUREMENT_VALUES)[number];

/** What noise endpoints return when `values` is not given. */
export const DEFAULT_NOISE_VALUES: readonly NoiseValueName[] = ['LAeq', 'LCPeak', 'LAFMax'];

export const FREQUENCY_BAND_SETS = ['Octave', 'Third'] as const;
export type FrequencyBandSet = (typeof FREQUENCY_BAND_SETS)[number];
export const FREQUENCY_WEIGHTINGS = ['A', 'C', 'Z'] as const;
export type FrequencyWeighting = (typeof FREQUENCY_WEIGHTINGS)[number];
export const DEFAULT_FREQUENCY_BANDS: FrequencyBandSet = 'Octave';
export const DEFAULT_FREQUENCY_WEIGHTING: FrequencyWeighting = 'Z';

/** Band names of the frequency endpoints (service-facts.md; third octaves without the `3` suffix). */
export const OCTAVE_BAND_NAMES = [
  '31.5Hz',
  '63Hz',
  '125Hz',
  '250Hz',
  '500Hz',
  '1KHz',
  '2KHz',
  '4KHz',
  '8KHz',
  '16KHz',
] as const;
export const THIRD_OCTAVE_BAND_NAMES = [
  '6.3Hz',
  '8Hz',
  '10Hz',
  '12.5Hz',
  '16Hz',
  '20Hz',
  '25Hz',
  '31.5Hz',
  '40Hz',
  '50Hz',
  '63Hz',
  '80Hz',
  '100Hz',
  '125Hz',
  '160Hz',
  '200Hz',
  '250Hz',
  '315Hz',
  '400Hz',
  '500Hz',
  '630Hz',
  '800Hz',
  '1KHz',
  '1.25KHz',
  '1.6KHz',
  '2KHz',
  '2.5KHz',
  '3.15KHz',
  '4KHz',
  '5KHz',
  '6.3KHz',
  '8KHz',
  '10KHz',
  '12.5KHz',
  '16KHz',
  '20KHz',
] as const;

/** Vibration datasets of `/data/vibration/{type}`. */
export const VIBRATION_TYPES = ['PPV', 'VDV'] as const;

/** A `period` checked against an endpoint's rule: its length, or the message the service gives. */
export type PeriodCheck = { ok: true; periodMs: number; given: boolean } | { ok: false; message: string };

/**
 * The `period` rule of a data endpoint, shared by the demo service (which answers 400 with the
 * message) and the client (which refuses before sending with the same words): absent means the
 * endpoint default; otherwise an ISO 8601 duration within the bounds, in whole seconds unless the
 * endpoint allows fractions, and a whole multiple of the shortest period (samples are
 * recalculated from whole finer samples).
 */
export function checkPeriod(
  text: string | undefined,
  limit: DataEndpointLimit,
  periods: InstrumentPeriods,
): PeriodCheck {
  const rule = limit.period;
  if (rule === null) throw new Error(`${limit.path} takes no period.`);
  const given = text?.trim() ?? '';
  if (given === '') return { ok: true, periodMs: resolvePeriodBound(rule.default, periods), given: false };
  const ms = parseIsoDuration(given);
  if (ms === null) {
    return {
      ok: false,
      message: `The query parameter period ("${given.slice(0, 40)}") is not an ISO 8601 duration such as PT1M or PT15M.`,
    };
  }
  const minMs = resolvePeriodBound(rule.min, periods);
  const refuse = (rest: string): PeriodCheck => ({
    ok: false,
    message: `The query parameter period (${given}) must be ${rest} on ${limit.path}.`,
  });
  if (ms < minMs || ms > rule.maxMs) {
    return refuse(`from ${describeDuration(minMs)} to ${describeDuration(rule.maxMs)}`);
  }
  if (!rule.fractionalSeconds && ms % 1000 !== 0) return refuse('whole seconds');
  if (ms % minMs !== 0) return refuse(`a whole multiple of ${describeDuration(minMs)}`);
  return { ok: true, periodMs: ms, given: true };
}

/**
 * Statistical levels (LAF10, LAF90…) exist only at the recorded measurement period: the message
 * the service gives when another `period` is asked for with them, or null when the request is fine.
 */
export function statisticalPeriodProblem(
  statisticalNames: readonly string[],
  periodMs: number,
  periods: InstrumentPeriods,
): string | null {
  if (statisticalNames.length === 0 || periodMs === periods.measurementPeriodMs) return null;
  return `Statistical levels (${statisticalNames.join(', ')}) come only from measurements as recorded: leave out period or those values.`;
}
