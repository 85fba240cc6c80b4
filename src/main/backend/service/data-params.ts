/**
 * The request side of the data endpoints: which endpoint serves a dataset, how a query is
 * checked before it is sent (with the same words the service uses for the same refusal), the
 * query string it becomes, and how a long range is cut into requests the service accepts.
 */
import type { Dataset, DatasetQuery, TimeInterval } from '../../../shared/data';
import { DATASETS } from '../../../shared/data';
import { FieldDeskError } from '../../../shared/errors';
import {
  DATA_ENDPOINT_LIMITS,
  DEFAULT_NOISE_VALUES,
  FREQUENCY_BAND_SETS,
  FREQUENCY_WEIGHTINGS,
  NOISE_MEASUREMENT_VALUES,
  NOISE_STATISTICAL_VALUES,
  checkPeriod,
  statisticalPeriodProblem,
  type DataEndpointLimit,
  type InstrumentPeriods,
} from '../../../shared/service/limits';
import { formatServiceTime } from '../../../shared/service/time';
import { splitRange } from './ranges';

/**
 * Used when nothing better is known: the demo instruments' settings (15-minute measurements,
 * 100 ms time history). The real service does not report an instrument's settings.
 */
export const DEFAULT_INSTRUMENT_PERIODS: InstrumentPeriods = {
  measurementPeriodMs: 15 * 60_000,
  timeHistoryPeriodMs: 100,
};

export interface DatasetEndpoint {
  /** Concrete path, e.g. `/data/vibration/PPV`. */
  path: string;
  limit: DataEndpointLimit;
  takes: { values: boolean; frequency: boolean };
}

/** Dataset → endpoint (service-interface.md, Endpoints). */
export const DATASET_ENDPOINTS: Readonly<Record<Dataset, DatasetEndpoint>> = (() => {
  const plain = (limit: DataEndpointLimit, path = limit.path): DatasetEndpoint => ({
    path,
    limit,
    takes: { values: false, frequency: false },
  });
  const L = DATA_ENDPOINT_LIMITS;
  return {
    noiseMeasurements: { ...plain(L.noiseMeasurements), takes: { values: true, frequency: false } },
    noiseTimeHistory: { ...plain(L.noiseTimeHistory), takes: { values: true, frequency: false } },
    frequencyMeasurements: { ...plain(L.frequencyMeasurements), takes: { values: false, frequency: true } },
    frequencyTimeHistory: { ...plain(L.frequencyTimeHistory), takes: { values: false, frequency: true } },
    weather: plain(L.weather),
    particulates: plain(L.particulates),
    gases: plain(L.gases),
    vibrationPPV: plain(L.vibration, '/data/vibration/PPV'),
    vibrationVDV: plain(L.vibration, '/data/vibration/VDV'),
    events: plain(L.events),
    audio: plain(L.audio),
    calibrations: plain(L.calibrations),
    calibrationLog: plain(L.calibrationLog),
    sic: plain(L.sic),
    monitorStats: plain(L.monitorStats),
    monitorEvents: plain(L.monitorEvents),
  };
})();

/**
 * Names the noise time history accepts. The interface does not list them; per-sample levels
 * exclude statistics, moving averages and the daily exposure, as on the demo service.
 */
export const NOISE_TIME_HISTORY_VALUES: readonly string[] = NOISE_MEASUREMENT_VALUES.filter(
  (name) =>
    !(NOISE_STATISTICAL_VALUES as readonly string[]).includes(name) &&
    name !== 'LEX8' &&
    !name.startsWith('LeqT'),
);

const canonicalIn = (allowed: readonly string[], name: string): string | undefined =>
  allowed.find((option) => option.toLowerCase() === name.trim().toLowerCase());

/** The query as it will be sent, after checking. */
export interface CheckedQuery {
  dataset: Dataset;
  serial: string;
  start: number;
  end: number;
  endpoint: DatasetEndpoint;
  /** Query parameters other than instruments/start/end. */
  params: Record<string, string>;
  /** The sample period the answer has (ms): given, or the endpoint default; null without `period`. */
  periodMs: number | null;
}

const refuse = (field: string, message: string): never => {
  throw new FieldDeskError('invalidInput', message, { field });
};

/** A parameter that takes one of a few names: the name in the service's spelling. */
function checkChoice(field: string, value: unknown, allowed: readonly string[]): string {
  const chosen = canonicalIn(allowed, String(value));
  if (chosen !== undefined) return chosen;
  return refuse(
    field,
    `The query parameter ${field} ("${String(value).slice(0, 40)}") must be one of ${allowed.join(', ')}.`,
  );
}

/**
 * Checks a query as the service would and returns what to send. Options that do not apply to the
 * dataset's endpoint are left out (DatasetOptions: "each dataset uses only those that apply").
 * A range longer than the endpoint allows is not an error: it is split into requests.
 */
export function checkQuery(query: DatasetQuery, periods: InstrumentPeriods): CheckedQuery {
  if (!(DATASETS as readonly string[]).includes(query.dataset)) {
    refuse('dataset', `FieldDesk has no dataset called "${String(query.dataset).slice(0, 40)}".`);
  }
  const endpoint = DATASET_ENDPOINTS[query.dataset];
  const serial = typeof query.serial === 'string' ? query.serial.trim() : '';
  if (serial === '' || serial.includes(',')) {
    refuse('serial', 'The query parameter instruments is required, e.g. instruments=QT123456.');
  }
  for (const name of ['start', 'end'] as const) {
    const value = query[name];
    if (typeof value !== 'number' || !Number.isFinite(value) || Number.isNaN(new Date(value).getTime())) {
      refuse(name, `The query parameter ${name} is not a date-time FieldDesk can send.`);
    }
  }
  if (query.start > query.end) {
    refuse(
      'start',
      `The query parameter start (${formatServiceTime(query.start)}) is after end (${formatServiceTime(query.end)}).`,
    );
  }
  if (query.start === query.end) {
    refuse(
      'end',
      `The query parameter end (${formatServiceTime(query.end)}) is the same as start: the range is empty.`,
    );
  }

  const options = query.options ?? {};
  const params: Record<string, string> = {};
  const limit = endpoint.limit;
  let periodMs: number | null = null;
  let periodGiven = false;

  if (limit.period !== null) {
    const period = checkPeriod(options.period, limit, periods);
    if (!period.ok) return refuse('period', period.message);
    periodMs = period.periodMs;
    periodGiven = period.given;
    if (period.given) params.period = (options.period as string).trim();
  }

  if (endpoint.takes.values) {
    const given = [
      ...new Set((options.values ?? []).map((name) => String(name).trim()).filter((name) => name !== '')),
    ];
    if (given.length > 0) {
      const allowed =
        query.dataset === 'noiseTimeHistory' ? NOISE_TIME_HISTORY_VALUES : NOISE_MEASUREMENT_VALUES;
      const known = given.map((name) => canonicalIn(allowed, name)).filter((name) => name !== undefined);
      if (known.length === 0) {
        refuse(
          'values',
          `None of the values (${given.join(', ')}) is available; use names such as ${DEFAULT_NOISE_VALUES.join(', ')}.`,
        );
      }
      const stats = known.filter((name) => (NOISE_STATISTICAL_VALUES as readonly string[]).includes(name));
      if (stats.length > 0 && periodGiven && periodMs !== null) {
        const problem = statisticalPeriodProblem(stats, periodMs, periods);
        if (problem !== null) refuse('values', problem);
        // A period equal to the recorded one changes nothing: leave it out, as the interface asks.
        delete params.period;
      }
      // Unknown names are sent too: the service ignores those it does not have.
      params.values = given.join(',');
    }
  }

  if (endpoint.takes.frequency) {
    if (options.bands !== undefined) params.bands = checkChoice('bands', options.bands, FREQUENCY_BAND_SETS);
    if (options.weighting !== undefined) {
      params.weighting = checkChoice('weighting', options.weighting, FREQUENCY_WEIGHTINGS);
    }
  }

  return { dataset: query.dataset, serial, start: query.start, end: query.end, endpoint, params, periodMs };
}

/**
 * Consecutive requests covering exactly [start, end), each no longer than the endpoint's maximum
 * range (or `maxRangeMs` when smaller).
 */
export function planIntervals(checked: CheckedQuery, maxRangeMs?: number): TimeInterval[] {
  const max = Math.min(checked.endpoint.limit.maxRangeMs, maxRangeMs ?? Infinity);
  return splitRange(checked.start, checked.end, max);
}

/** The query string of one request. */
export function requestQuery(checked: CheckedQuery, interval: TimeInterval): Record<string, string> {
  return {
    instruments: checked.serial,
    start: formatServiceTime(interval.start),
    end: formatServiceTime(interval.end),
    ...checked.params,
  };
}
