/**
 * The historic data client: one typed call per data endpoint of the service. A query is checked
 * before it is sent (with the service's own wording), a range longer than the endpoint allows is
 * split into consecutive requests, the requests run with bounded concurrency through the shared
 * request machinery of `client.ts` (retries with backoff and jitter, Retry-After, time-outs,
 * error mapping, `onExchange`, key redaction), and the answers become typed arrays and tables
 * (see `data-parse.ts` for the conventions).
 */
import pLimit from 'p-limit';
import { z } from 'zod';
import type { Dataset, DatasetQuery, SeriesChannel, TimeInterval } from '../../../shared/data';
import { FieldDeskError } from '../../../shared/errors';
import type { InstrumentPeriods } from '../../../shared/service/limits';
import { caseInsensitiveObject, nullableNumber } from '../../../shared/service/schemas';
import type { DatasetChunk } from './data-source';
import type { MonitorCurrent } from '../../../shared/monitor';
import { ANSWER_LIMIT_DEFAULTS, answerByteLimit, type AnswerLimits } from './answer-limits';
import { createServiceRequester, type ServiceClientOptions } from './requester';
import { DEFAULT_INSTRUMENT_PERIODS, checkQuery, planIntervals, requestQuery } from './data-params';
import { DATASET_NOUNS, LeftOut } from './parse/problems';
import { parseDataset } from './parse/records';
import { parseTimeHistory, type Answer } from './parse/time-history';

export type { MonitorCurrent } from '../../../shared/monitor';

export interface DataClient {
  /**
   * One dataset for one instrument over any range: validated, split into requests within the
   * endpoint's maximum range, fetched with bounded concurrency (default 3), joined in time order.
   */
  fetchDataset(query: DatasetQuery, signal?: AbortSignal): Promise<DatasetChunk>;
  /** The consecutive request intervals `fetchDataset` would use (the sync plans with it). */
  planRequests(query: DatasetQuery): TimeInterval[];
  /**
   * Checks a query as the server would, before sending; throws FieldDeskError('invalidInput')
   * with the same message a user would get from the server.
   */
  validate(query: DatasetQuery): void;
  /** Current monitor state of Quantum instruments; an offline one is left out by the service. */
  monitorCurrent(serials: string[], signal?: AbortSignal): Promise<MonitorCurrent[]>;
  /** The time history of a noise event (`timeHistoryId` of an event): one channel per value. */
  eventTimeHistory(id: string, signal?: AbortSignal): Promise<{ series: SeriesChannel[]; notes: string[] }>;
}

export interface DataClientOptions extends ServiceClientOptions {
  /** Requests in flight at once, across every call of this client (default 3). */
  concurrency?: number;
  /**
   * The instrument settings that bound `period` (measurement period, time history period).
   * The service does not report them: default the demo instruments' 15 min and 100 ms.
   */
  instrumentPeriods?:
    Partial<InstrumentPeriods> | ((serial: string) => Partial<InstrumentPeriods> | undefined);
  /**
   * Shorter request ranges than the endpoints allow, per dataset (ms); the endpoint maximum
   * still applies. For tests and for a slow link where smaller answers are kinder.
   */
  maxRangeMs?: Partial<Record<Dataset, number>>;
}

export const DATA_CLIENT_DEFAULTS = { concurrency: 3 } as const;

const monitorCurrentSchema = z.array(
  caseInsensitiveObject({
    // The documented sample names no instrument: an answer for one serial is that serial's.
    instrument: z.string().nullish(),
    cpu: nullableNumber,
    mem: nullableNumber,
    temp: nullableNumber,
    voltage: nullableNumber,
    disk: nullableNumber,
    network: nullableNumber,
    simQuota: nullableNumber,
    simUsage: nullableNumber,
    uptime: nullableNumber,
  }),
);

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

export function createDataClient(options: DataClientOptions): DataClient {
  const requester = createServiceRequester(options);
  const limits: AnswerLimits = { ...ANSWER_LIMIT_DEFAULTS, ...options.answerLimits };
  const concurrency = options.concurrency ?? DATA_CLIENT_DEFAULTS.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError('concurrency must be a whole number of at least 1');
  }
  // One limit for the whole client: several datasets fetched at once still share it.
  const limit = pLimit(concurrency);

  const periodsFor = (serial: string): InstrumentPeriods => {
    const given =
      typeof options.instrumentPeriods === 'function'
        ? options.instrumentPeriods(serial)
        : options.instrumentPeriods;
    return { ...DEFAULT_INSTRUMENT_PERIODS, ...given };
  };
  const check = (query: DatasetQuery) =>
    checkQuery(query, periodsFor(typeof query.serial === 'string' ? query.serial.trim() : ''));
  const plan = (query: DatasetQuery) => {
    const checked = check(query);
    return { checked, intervals: planIntervals(checked, options.maxRangeMs?.[checked.dataset]) };
  };

  async function fetchDataset(query: DatasetQuery, signal?: AbortSignal): Promise<DatasetChunk> {
    const { checked, intervals } = plan(query);
    // The first failure stops the requests that have not started and cancels those in flight.
    const stop = new AbortController();
    const combined = AbortSignal.any([stop.signal, ...(signal === undefined ? [] : [signal])]);
    let bytes = 0;
    let firstError: unknown;
    const answers = await Promise.all(
      intervals.map((interval) =>
        limit(async (): Promise<Answer> => {
          if (combined.aborted) throw new FieldDeskError('cancelled', 'The request was cancelled.');
          try {
            const data = await requester.call(
              'GET',
              checked.endpoint.path,
              {
                query: requestQuery(checked, interval),
                signal: combined,
                maxBytes: answerByteLimit(limits, checked, interval),
              },
              (text) => {
                bytes += utf8Bytes(text);
                return requester.parseJson(text, `a list of ${DATASET_NOUNS[checked.dataset]}`, {
                  eachItem: true,
                });
              },
            );
            return { interval, data };
          } catch (error) {
            firstError ??= error;
            stop.abort();
            throw error;
          }
        }),
      ),
    ).catch((error: unknown) => {
      // Report what went wrong first, not the cancellations it caused.
      throw signal?.aborted === true
        ? new FieldDeskError('cancelled', 'The request was cancelled.')
        : (firstError ?? error);
    });
    const { series, records, notes, unreadable } = parseDataset(checked.dataset, answers, {
      serial: checked.serial,
      periodMs: checked.periodMs,
      redact: requester.redact,
    });
    return {
      interval: { start: checked.start, end: checked.end },
      series,
      records,
      bytes,
      ...(notes.length === 0 ? {} : { notes }),
      ...(unreadable === null ? {} : { unreadable }),
    };
  }

  return {
    fetchDataset,
    planRequests: (query) => plan(query).intervals,
    validate: (query) => void check(query),
    monitorCurrent: async (serials, signal) => {
      const list = serials.map((serial) => serial.trim()).filter((serial) => serial !== '');
      if (list.length === 0) {
        throw new FieldDeskError(
          'invalidInput',
          'The query parameter instruments is required, e.g. instruments=QT123456.',
          { field: 'serials' },
        );
      }
      return limit(() =>
        requester.call(
          'GET',
          '/data/monitor/current',
          { query: { instruments: [...new Set(list)].join(',') }, signal },
          (text) =>
            requester
              .validate(
                requester.parseJson(text, 'a list of current monitor states'),
                { schema: monitorCurrentSchema, item: 'a current monitor state' },
                true,
              )
              .map((state) => ({
                ...state,
                instrument: state.instrument ?? (list.length === 1 ? list[0]! : null),
              })),
        ),
      );
    },
    eventTimeHistory: async (id, signal) => {
      if (id.trim() === '') {
        throw new FieldDeskError('invalidInput', 'This event has no time history id.', { field: 'id' });
      }
      const path = `/data/events/timehistory/${encodeURIComponent(id.trim())}`;
      return limit(() =>
        requester.call('GET', path, { signal }, (text) => {
          const notes: string[] = [];
          const noun = 'event time history';
          const leftOut = new LeftOut(null);
          const series = parseTimeHistory(
            [
              {
                interval: { start: -Infinity, end: Infinity },
                data: requester.parseJson(text, 'an event time history', { eachItem: true }),
              },
            ],
            { noun, serial: null, frequency: false, range: null, notes, leftOut },
            requester.redact,
          );
          // Notes make an event's history partial (EventTimeHistory.notes): records left out too.
          const unreadable = leftOut.unreadable(noun, requester.redact);
          if (unreadable !== null) notes.push(unreadable.message);
          return { series, notes };
        }),
      );
    },
  };
}
