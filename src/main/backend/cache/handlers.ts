/**
 * The data cache (`cache.*`): SQLite blocks of series and records with the intervals they cover
 * (cache-store.ts), summarised per instrument for the Offline data view, and cleared on request.
 */
import type { AccountState } from '../accounts/account-state';
import type { HandlersOf } from '../core/handler-types';
import type { LocalData } from '../local-data';

export function cacheHandlers(accounts: AccountState, local: LocalData): HandlersOf<'cache'> {
  return {
    'cache.summary': async () => local.cache().summary(accounts.requireActive().id),
    'cache.clear': async ({ serial }) => {
      const account = accounts.requireActive();
      const cache = local.cache();
      cache.clear(account.id, serial);
      return cache.summary(account.id);
    },
  };
}
