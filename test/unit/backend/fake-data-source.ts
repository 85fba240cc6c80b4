/**
 * A fake data client for cache and sync tests: deterministic data for any query (a 1 s series, or
 * one record per hour for record datasets), every request recorded, faults and delays on demand.
 * Like the service, it answers samples at both ends of a request (end inclusive), so the cache's
 * "no sample twice" rule is exercised.
 */
import { setTimeout as wait } from 'node:timers/promises';
import type { DatasetQuery, RecordTable, SeriesChannel, TimeInterval } from '../../../src/shared/data';
import { FieldDeskError } from '../../../src/shared/errors';
import type { DataSource, DatasetChunk } from '../../../src/main/backend/service/data-source';
import { splitRange } from '../../../src/main/backend/service/ranges';

export const SERIES_DATASETS = new Set(['noiseTimeHistory', 'frequencyTimeHistory', 'noiseMeasurements']);
export const STEP_MS = 1000;
export const RECORD_STEP_MS = 3_600_000;

export function levelAt(t: number): number {
  return Math.fround(50 + 10 * Math.sin(t / 1e6));
}

export interface FakeOptions {
  maxRangeMs?: number;
  /** Samples of a series every this many ms (default 1 s). */
  stepMs?: number;
  /** Data exists only up to this time (default: no limit). */
  now?: () => number;
  /** A fault for one request, or null to answer it. */
  fault?: (request: DatasetQuery, index: number) => FieldDeskError | null;
  delayMs?: number;
}

export interface FakeSource extends DataSource {
  requests: DatasetQuery[];
}

/** Waits like a slow service; an abort ends the wait as the client's own cancellation would. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return wait(ms, undefined, signal === undefined ? {} : { signal }).catch(() => {
    throw new FieldDeskError('cancelled', 'Stopped.');
  });
}

export function answer(
  query: DatasetQuery,
  interval: TimeInterval,
  stepMs: number,
  limit: number,
): DatasetChunk {
  const end = Math.min(interval.end, limit);
  if (SERIES_DATASETS.has(query.dataset)) {
    const first = Math.ceil(interval.start / stepMs) * stepMs;
    const count = end >= first ? Math.floor((end - first) / stepMs) + 1 : 0; // end inclusive
    const times = new Float64Array(count);
    const values = new Float32Array(count);
    for (let i = 0; i < count; i++) {
      times[i] = first + i * stepMs;
      values[i] = levelAt(times[i]!);
    }
    const names = query.options?.values ?? ['LAeq'];
    const series: SeriesChannel[] = names.map((name) => ({ name, unit: 'dB', times, values }));
    return { interval, series, records: null, bytes: count * 12 * names.length };
  }
  const rows: RecordTable['rows'] = [];
  for (let t = Math.ceil(interval.start / RECORD_STEP_MS) * RECORD_STEP_MS; t <= end; t += RECORD_STEP_MS) {
    rows.push({ time: t, status: 'Success', level: 94 });
  }
  const records: RecordTable = {
    timeKey: 'time',
    columns: [
      { key: 'time', label: 'Time', unit: null, type: 'time' },
      { key: 'status', label: 'Status', unit: null, type: 'text' },
      { key: 'level', label: 'Level', unit: 'dB', type: 'number' },
    ],
    rows,
  };
  return { interval, series: [], records, bytes: rows.length * 40 + 10 };
}

export function fakeDataSource(options: FakeOptions = {}): FakeSource {
  const maxRangeMs = options.maxRangeMs ?? 7 * 86_400_000;
  const stepMs = options.stepMs ?? STEP_MS;
  const requests: DatasetQuery[] = [];
  const source: FakeSource = {
    requests,
    validate(query) {
      if (!(query.end > query.start))
        throw new FieldDeskError('invalidInput', 'The range is empty.', { field: 'end' });
    },
    planRequests(query) {
      return splitRange(query.start, query.end, maxRangeMs);
    },
    async fetchDataset(query, signal) {
      source.validate(query);
      const pieces = source.planRequests(query);
      const chunks: DatasetChunk[] = [];
      for (const piece of pieces) {
        const request = { ...query, start: piece.start, end: piece.end };
        const index = requests.length;
        requests.push(request);
        if (options.delayMs !== undefined) await sleep(options.delayMs, signal);
        if (signal?.aborted) throw new FieldDeskError('cancelled', 'Stopped.');
        const fault = options.fault?.(request, index) ?? null;
        if (fault !== null) throw fault;
        chunks.push(answer(query, piece, stepMs, options.now?.() ?? Infinity));
      }
      // Joined in time order, a sample on a shared boundary kept once.
      const series = (chunks[0]?.series ?? []).map((channel, c) => {
        const times: number[] = [];
        const values: number[] = [];
        for (const chunk of chunks) {
          const part = chunk.series[c]!;
          part.times.forEach((t, i) => {
            if (times.length === 0 || t > times[times.length - 1]!) {
              times.push(t);
              values.push(part.values[i]!);
            }
          });
        }
        return { ...channel, times: Float64Array.from(times), values: Float32Array.from(values) };
      });
      const records =
        chunks[0]?.records === null || chunks.length === 0
          ? null
          : {
              timeKey: chunks[0]!.records!.timeKey,
              columns: chunks[0]!.records!.columns,
              rows: [...new Map(chunks.flatMap((c) => c.records!.rows).map((r) => [r.time, r])).values()],
            };
      return {
        interval: { start: query.start, end: query.end },
        series,
        records,
        bytes: chunks.reduce((sum, c) => sum + c.bytes, 0),
      };
    },
    async eventTimeHistory() {
      throw new FieldDeskError('notFound', 'The fake source has no event time histories.');
    },
    async monitorCurrent() {
      throw new FieldDeskError('notFound', 'The fake source has no monitor states.');
    },
  };
  return source;
}

export const offlineError = () =>
  new FieldDeskError(
    'offline',
    'Cannot reach 127.0.0.1: the connection was refused. Check the address and that the service is running.',
  );
