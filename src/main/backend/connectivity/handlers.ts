import type { HandlersOf } from '../core/handler-types';
import type { ConnectivityService } from './connectivity';

export function connectivityHandlers({
  connectivity,
}: {
  connectivity: ConnectivityService;
}): HandlersOf<'connectivity'> {
  return { 'connectivity.get': async () => connectivity.current() };
}
