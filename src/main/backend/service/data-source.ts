/**
 * What the cache and the sync need of the data client (`data-client.ts`): the same shape as its
 * `DataClient`, named here so the cache can be tested against a fake and does not depend on how
 * the client fetches.
 */
import type { DatasetQuery, RecordTable, SeriesChannel, TimeInterval } from '../../../shared/data';
import type { DataClient } from './data-client';

export interface DataSourceChunk {
  interval: TimeInterval;
  series: SeriesChannel[];
  records: RecordTable | null;
  /** Bytes received. */
  bytes: number;
}

export interface DataSource {
  /** Splits to the endpoint's max range, joins in time order. */
  fetchDataset(query: DatasetQuery, signal?: AbortSignal): Promise<DataSourceChunk>;
  /** The request intervals `fetchDataset` would use. */
  planRequests(query: DatasetQuery): TimeInterval[];
  /** Throws FieldDeskError('invalidInput'). */
  validate(query: DatasetQuery): void;
}

/** The real client must stay usable as a source (checked by the compiler, costs nothing at run time). */
type Fits<T extends DataSource> = T;
export type DataClientAsSource = Fits<DataClient>;
