/** Historic data endpoints of the demo service (all but calibrations and SIC). */
import type { RouteTable } from '../responses';
import type { DemoState } from '../state';
import { DataContext } from './context';
import { enviroRoutes } from './enviro';
import { eventRoutes } from './events';
import { monitorRoutes } from './monitor';
import { noiseRoutes } from './noise';

export function dataRoutes(state: DemoState, seed: number): RouteTable {
  const context = new DataContext(state, seed);
  return {
    ...noiseRoutes(context),
    ...eventRoutes(context),
    ...enviroRoutes(context),
    ...monitorRoutes(context),
  };
}
