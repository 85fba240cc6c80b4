/**
 * What the cache and the sync need of the data client (`data-client.ts`): the same shape as its
 * `DataClient`, named here so the cache can be tested against a fake and does not depend on how
 * the client fetches.
 */
import type { DatasetQuery, RecordTable, SeriesChannel, TimeInterval } from '../../../shared/data';
import type { DataClient } from './data-client';
import type { MonitorCurrent } from '../../../shared/monitor';

/** One dataset of one instrument over an interval, as fetched (what the cache stores). */
export interface DatasetChunk {
  /** The interval this answer covers (what was requested). */
  interval: TimeInterval;
  /** Float64Array times (epoch ms), Float32Array values, NaN = no reading. */
  series: SeriesChannel[];
  /** One row per record, carrying its time column and column types. */
  records: RecordTable | null;
  /** Bytes of the response bodies received (for progress). */
  bytes: number;
  /** What was left out of the answers and why (implausible levels); absent when nothing was. */
  notes?: string[];
}

export interface DataSource {
  /** Splits to the endpoint's max range, joins in time order. */
  fetchDataset(query: DatasetQuery, signal?: AbortSignal): Promise<DatasetChunk>;
  /** The request intervals `fetchDataset` would use. */
  planRequests(query: DatasetQuery): TimeInterval[];
  /** Throws FieldDeskError('invalidInput'). */
  validate(query: DatasetQuery): void;
  /** Current monitor state of noise monitors of the Quantum family; an offline one is left out. */
  monitorCurrent(serials: string[], signal?: AbortSignal): Promise<MonitorCurrent[]>;
  /**
   * The time history of one noise event (`/data/events/timehistory/{id}`), with notes on what of
   * it could not be read (placeholders kept as gaps).
   */
  eventTimeHistory(id: string, signal?: AbortSignal): Promise<{ series: SeriesChannel[]; notes: string[] }>;
}

/** The real client must stay usable as a source (checked by the compiler, costs nothing at run time). */
type Fits<T extends DataSource> = T;
export type DataClientAsSource = Fits<DataClient>;
