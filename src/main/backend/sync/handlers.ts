/**
 * Site sync (`sync.*`, "Prepare for site visit"): the chosen instruments' datasets fetched into the
 * cache as one resumable operation (sync-manager.ts).
 */
import { availableDatasetsFor, defaultDatasetsFor, type Dataset } from '../../../shared/data';
import { FieldDeskError } from '../../../shared/errors';
import type { StoredAccount } from '../accounts/account-store';
import type { AccountState } from '../accounts/account-state';
import type { ServiceAccess } from '../accounts/service-access';
import type { HandlersOf } from '../core/handler-types';
import type { LocalData } from '../local-data';
import { UNKNOWN_SYNC } from './sync-status';

const MESSAGES = {
  syncAccountGone: 'The account this site sync belongs to no longer exists, so it cannot be resumed.',
  nothingToSync: 'None of the chosen data exists for these instruments, so there is nothing to prepare.',
  unknownSerial: (serial: string) =>
    `This account has no instrument ${serial}. It may have been removed; refresh the instrument list.`,
} as const;

export function syncHandlers(
  accounts: AccountState,
  access: ServiceAccess,
  local: LocalData,
): HandlersOf<'sync'> {
  /**
   * Datasets per serial: the user's choice, else the defaults of the instrument's type — in either
   * case only those the instrument can have, so nothing impossible is asked for or retried.
   */
  async function resolveDatasets(
    account: StoredAccount,
    serials: readonly string[],
    chosen: Readonly<Record<string, readonly Dataset[]>>,
  ): Promise<Record<string, Dataset[]>> {
    const instruments = await access.withAccount(account, (client) => client.listInstruments());
    const datasets: Record<string, Dataset[]> = {};
    for (const serial of serials) {
      const instrument = instruments.find((i) => i.serialNumber === serial);
      if (instrument === undefined)
        throw new FieldDeskError('invalidInput', MESSAGES.unknownSerial(serial), { field: 'serials' });
      const given = chosen[serial];
      const available = new Set(availableDatasetsFor(instrument));
      datasets[serial] =
        given === undefined
          ? defaultDatasetsFor(instrument)
          : [...new Set(given)].filter((d) => available.has(d));
    }
    if (Object.values(datasets).every((list) => list.length === 0))
      throw new FieldDeskError('invalidInput', MESSAGES.nothingToSync, { field: 'datasets' });
    return datasets;
  }

  return {
    'sync.start': async (request) => {
      const account = accounts.requireActive();
      const syncs = local.syncs();
      const serials = [...new Set(request.serials)];
      const datasets = await resolveDatasets(account, serials, request.datasets);
      const source = await access.dataSourceFor(account);
      return syncs.start(account.id, { serials, start: request.start, end: request.end, datasets }, source);
    },

    'sync.list': async () => local.syncs().list(),

    'sync.cancel': async ({ id }) => local.syncs().cancel(id),

    'sync.resume': async ({ id }) => {
      const syncs = local.syncs();
      const accountId = syncs.accountOf(id);
      if (accountId === undefined) throw new FieldDeskError('invalidInput', UNKNOWN_SYNC, { field: 'id' });
      const account = accounts.store.get(accountId);
      if (account === undefined) throw new FieldDeskError('invalidInput', MESSAGES.syncAccountGone);
      return syncs.resume(id, await access.dataSourceFor(account));
    },
  };
}
