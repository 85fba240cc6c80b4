/** Historic data endpoints of the demo service (all but calibrations and SIC). */
import type { RouteTable } from '../responses';
import type { DataContext } from './context';
import { enviroRoutes } from './enviro';
import { eventRoutes } from './events';
import { monitorRoutes } from './monitor';
import { noiseRoutes } from './noise';

/** The routes over one shared context (the webhook triggers read the same recordings). */
export function dataRoutes(context: DataContext): RouteTable {
  return {
    ...noiseRoutes(context),
    ...eventRoutes(context),
    ...enviroRoutes(context),
    ...monitorRoutes(context),
  };
}
