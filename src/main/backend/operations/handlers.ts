/**
 * Operations (`operations.*`): long-running work (field actions now) with progress pushed as events,
 * cancel, and a list a reloaded window re-attaches to (registry.ts).
 */
import type { HandlersOf } from '../core/handler-types';
import type { OperationRegistry } from './registry';

export function operationHandlers({
  operations,
}: {
  operations: OperationRegistry;
}): HandlersOf<'operations'> {
  return {
    'operations.list': async () => operations.list(),
    'operations.cancel': async ({ id }) => operations.cancel(id),
  };
}
