/**
 * Historic data (`data.read`), read through the local cache (read-through-cache.ts): what the cache
 * covers is answered without a request, the gaps come from the service, and every answer says where
 * it came from. The instrument history (history/) reads the same way.
 */
import type { AccountState } from '../accounts/account-state';
import type { HandlersOf } from '../core/handler-types';
import { forChart } from './chart-view';
import { withLabels } from './labels';
import type { ReadThroughCache } from './read-through-cache';

export function dataHandlers(accounts: AccountState, read: ReadThroughCache): HandlersOf<'data'> {
  return {
    'data.read': async (query) => {
      const result = await read(accounts.requireActive(), {
        serial: query.serial,
        dataset: query.dataset,
        start: query.start,
        end: query.end,
        ...(query.options === undefined ? {} : { options: query.options }),
      });
      const labelled = withLabels(result);
      return query.chartWidth === undefined ? labelled : forChart(labelled, query.chartWidth);
    },
  };
}
