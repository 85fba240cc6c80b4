/**
 * The data cache (`cache.*`): SQLite blocks of series and records with the intervals they cover
 * (cache-store.ts), summarised per instrument for the Offline data view, and cleared on request.
 */
import type { AccountState } from '../accounts/account-state';
import type { HandlersOf } from '../core/handler-types';
import type { CacheStore } from './cache-store';

export interface CacheHandlerDeps {
  accounts: AccountState;
  cache: CacheStore;
}

export function cacheHandlers({ accounts, cache }: CacheHandlerDeps): HandlersOf<'cache'> {
  return {
    'cache.summary': async () => cache.summary(accounts.requireActive().id),
    'cache.clear': async ({ serial }) => {
      const account = accounts.requireActive();
      cache.clear(account.id, serial);
      return cache.summary(account.id);
    },
  };
}
