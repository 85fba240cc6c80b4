/**
 * Instruments: the fleet of the active account with each instrument's live status, one instrument
 * in detail, and renaming. Reads go through the fleet service (fleet.ts), which answers as last
 * known, with the reason, when the service cannot be reached.
 */
import type { AccountState } from '../accounts/account-state';
import type { ServiceAccess } from '../accounts/service-access';
import type { HandlersOf } from '../core/handler-types';
import type { FleetService } from './fleet';

export interface InstrumentHandlerDeps {
  accounts: AccountState;
  access: ServiceAccess;
  fleet: FleetService;
}

export function instrumentHandlers(deps: InstrumentHandlerDeps): HandlersOf<'instruments'> {
  const { accounts, access, fleet } = deps;
  return {
    'instruments.list': async () => fleet.list(accounts.requireActive()),
    'instruments.get': async ({ serial }) => fleet.get(accounts.requireActive(), serial),
    'instruments.statuses': async ({ serials }) => fleet.statuses(accounts.requireActive(), serials),
    'instruments.rename': async ({ serial, name }) =>
      access.withAccount(accounts.requireActive(), async (client) => {
        await client.renameInstrument(serial, name);
        return client.getInstrument(serial);
      }),
  };
}
