/**
 * Instruments: the fleet of the active account with each instrument's live status, one instrument
 * in detail, and renaming. Every read goes to the service (instrument lists are not cached).
 */
import pLimit from 'p-limit';
import { FieldDeskError, isUnreachable, toErrorData } from '../../../shared/errors';
import type { InstrumentEntry } from '../../../shared/ipc/contract';
import type { Instrument } from '../../../shared/service/schemas';
import type { AccountState } from '../accounts/account-state';
import type { ServiceAccess } from '../accounts/service-access';
import type { HandlersOf } from '../core/handler-types';
import type { ServiceClient } from '../service/client';

/** Status reads in flight at once for one instrument list: enough to be quick, gentle on the service. */
const STATUS_CONCURRENCY = 4;

/** Each instrument with its status; once the service is unreachable the rest are not even asked. */
async function readStatuses(client: ServiceClient, instruments: Instrument[]): Promise<InstrumentEntry[]> {
  const limit = pLimit(STATUS_CONCURRENCY);
  let unreachable: FieldDeskError | null = null;
  return Promise.all(
    instruments.map((instrument) =>
      limit(async (): Promise<InstrumentEntry> => {
        if (unreachable !== null) return { instrument, status: null, statusError: unreachable.toData() };
        try {
          const status = await client.getInstrumentStatus(instrument.serialNumber);
          return { instrument, status, statusError: null };
        } catch (error) {
          if (error instanceof FieldDeskError && isUnreachable(error)) unreachable = error;
          return { instrument, status: null, statusError: toErrorData(error) };
        }
      }),
    ),
  );
}

export function instrumentHandlers(
  accounts: AccountState,
  access: ServiceAccess,
  now: () => number,
): HandlersOf<'instruments'> {
  return {
    'instruments.list': async () => {
      const account = accounts.requireActive();
      return access.withAccount(account, async (client) => {
        const fleet = await client.readFleet();
        const entries = await readStatuses(client, fleet.instruments);
        return { accountId: account.id, entries, fetchedAt: now(), skipped: fleet.skipped };
      });
    },

    'instruments.get': async ({ serial }) => {
      const account = accounts.requireActive();
      return access.withAccount(account, async (client) => {
        const [instrument, statusRead] = await Promise.all([
          client.getInstrument(serial),
          client.getInstrumentStatus(serial).then(
            (status) => ({ status, statusError: null }),
            (error: unknown) => ({ status: null, statusError: toErrorData(error) }),
          ),
        ]);
        return { accountId: account.id, instrument, ...statusRead, fetchedAt: now() };
      });
    },

    'instruments.rename': async ({ serial, name }) =>
      access.withAccount(accounts.requireActive(), async (client) => {
        await client.renameInstrument(serial, name);
        return client.getInstrument(serial);
      }),
  };
}
