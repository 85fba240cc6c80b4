/**
 * Site sync (`sync.*`, "Prepare for site visit"): the chosen instruments' datasets fetched into the
 * cache as one resumable operation (sync-manager.ts).
 */
import type { SyncRequest } from '../../../shared/data';
import { DEFAULT_SYNC_CHOICES, syncItemsFor, type SyncItem } from '../../../shared/sync-choices';
import { FieldDeskError } from '../../../shared/errors';
import type { StoredAccount } from '../accounts/account-store';
import type { AccountState } from '../accounts/account-state';
import type { ServiceAccess } from '../accounts/service-access';
import type { HandlersOf } from '../core/handler-types';
import type { FleetService } from '../instruments/fleet';
import type { SyncManager } from './sync-manager';
import { UNKNOWN_SYNC } from './sync-status';
import type { SyncProfileStore } from './sync-profiles';

const MESSAGES = {
  syncAccountGone: 'The account this site sync belongs to no longer exists, so it cannot be resumed.',
  nothingToSync: 'None of the chosen data exists for these instruments, so there is nothing to prepare.',
  unknownSerial: (serial: string) =>
    `This account has no instrument ${serial}. It may have been removed; refresh the instrument list.`,
} as const;

export interface SyncHandlerDeps {
  accounts: AccountState;
  access: ServiceAccess;
  fleet: FleetService;
  syncs: SyncManager;
  profiles: SyncProfileStore;
}

export function syncHandlers(deps: SyncHandlerDeps): HandlersOf<'sync'> {
  const { accounts, access, syncs, profiles } = deps;
  /**
   * Each serial's request series: the user's datasets (else its type's choice) with the options of
   * its type's choice, and the records kept 24 months — only what the instrument can have, so
   * nothing impossible is asked for or retried.
   */
  async function resolveItems(
    account: StoredAccount,
    serials: readonly string[],
    request: SyncRequest,
  ): Promise<Record<string, SyncItem[]>> {
    const instruments = (await deps.fleet.entries(account, serials)).map((entry) => entry.instrument);
    const choices = request.choices ?? DEFAULT_SYNC_CHOICES;
    const items: Record<string, SyncItem[]> = {};
    for (const serial of serials) {
      const instrument = instruments.find((i) => i.serialNumber === serial);
      if (instrument === undefined)
        throw new FieldDeskError('invalidInput', MESSAGES.unknownSerial(serial), { field: 'serials' });
      items[serial] = syncItemsFor(instrument, choices, request.datasets[serial]);
    }
    if (Object.values(items).every((list) => list.length === 0))
      throw new FieldDeskError('invalidInput', MESSAGES.nothingToSync, { field: 'datasets' });
    return items;
  }

  return {
    'sync.start': async (request) => {
      const account = accounts.requireActive();
      const serials = [...new Set(request.serials)];
      const items = await resolveItems(account, serials, request);
      const source = await access.dataSourceFor(account);
      return syncs.start(account.id, { serials, start: request.start, end: request.end, items }, source);
    },

    'sync.list': async () => syncs.list(),

    'sync.profiles': async () => profiles.list(),
    'sync.saveProfile': async ({ name, choices }) => profiles.save(name, choices),
    'sync.deleteProfile': async ({ name }) => profiles.remove(name),

    'sync.cancel': async ({ id }) => syncs.cancel(id),

    'sync.resume': async ({ id }) => {
      const accountId = syncs.accountOf(id);
      if (accountId === undefined) throw new FieldDeskError('invalidInput', UNKNOWN_SYNC, { field: 'id' });
      const account = accounts.store.get(accountId);
      if (account === undefined) throw new FieldDeskError('invalidInput', MESSAGES.syncAccountGone);
      return syncs.resume(id, await access.dataSourceFor(account));
    },
  };
}
