/**
 * What the cache and the sync need of the data client (`data-client.ts`): the same shape as its
 * `DataClient`, named here so the cache can be tested against a fake and does not depend on how
 * the client fetches.
 */
import type { DatasetQuery, RecordTable, SeriesChannel, TimeInterval } from '../../../shared/data';
import { FieldDeskError } from '../../../shared/errors';
import type { DataClient } from './data-client';
import type { UnreadableRecords } from './parse/problems';
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
  /**
   * What was left out of the answers and why (implausible levels, another instrument's records);
   * absent when nothing was. The chunk is whole all the same.
   */
  notes?: string[];
  /**
   * Records the service sent that could not be read (garbled on the way); absent when every record
   * was read. Such a chunk is NOT whole: it is never stored as covered, the read that fetched it is
   * `partial` with `incompleteAnswer` as the reason, and a sync counts its part as not fetched.
   */
  unreadable?: UnreadableRecords;
}

/** Why a chunk with records that could not be read is not whole: worth asking again. */
export function incompleteAnswer(unreadable: UnreadableRecords): FieldDeskError {
  return new FieldDeskError('badResponse', unreadable.message, { retryable: true });
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
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- exists only to be type-checked
type DataClientAsSource = Fits<DataClient>;
