import type { RequestChannel } from '../../../shared/ipc/channels';
import type { BackendHandlers } from '../../../shared/ipc/contract';

/**
 * The handlers of one namespace of the contract (`HandlersOf<'sync'>` is `sync.start`, `sync.list`,
 * …): each domain folder exports exactly these, and `createBackend` merges them.
 */
export type HandlersOf<N extends string> = {
  [C in RequestChannel as C extends `${N}.${string}` ? C : never]: BackendHandlers[C];
};
