/**
 * Instruments: the fleet of the active account with each instrument's live status, one instrument
 * in detail, and renaming. Every read goes to the service (instrument lists are not cached).
 */
import pLimit from 'p-limit';
import { FieldDeskError, isUnreachable, toErrorData } from '../../../shared/errors';
import {
  STATUS_EAGER_LIMIT,
  type InstrumentEntry,
  type InstrumentStatuses,
} from '../../../shared/ipc/contract';
import type { AccountState } from '../accounts/account-state';
import type { ServiceAccess } from '../accounts/service-access';
import type { HandlersOf } from '../core/handler-types';
import type { ServiceClient } from '../service/client';

/** Status reads in flight at once for one instrument list: enough to be quick, gentle on the service. */
const STATUS_CONCURRENCY = 4;

type StatusRead = InstrumentStatuses['entries'][number];

/** The status of each serial, a few at a time; once the service is unreachable the rest are not even asked. */
async function readStatuses(client: ServiceClient, serials: readonly string[]): Promise<StatusRead[]> {
  const limit = pLimit(STATUS_CONCURRENCY);
  let unreachable: FieldDeskError | null = null;
  return Promise.all(
    serials.map((serial) =>
      limit(async (): Promise<StatusRead> => {
        if (unreachable !== null) return { serial, status: null, statusError: unreachable.toData() };
        try {
          return { serial, status: await client.getInstrumentStatus(serial), statusError: null };
        } catch (error) {
          if (error instanceof FieldDeskError && isUnreachable(error)) unreachable = error;
          return { serial, status: null, statusError: toErrorData(error) };
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
        // A large fleet's statuses are read per screen: one request per instrument on every
        // refresh would take minutes and hold every status in memory.
        let entries: InstrumentEntry[];
        if (fleet.instruments.length <= STATUS_EAGER_LIMIT) {
          const read = await readStatuses(
            client,
            fleet.instruments.map((instrument) => instrument.serialNumber),
          );
          entries = fleet.instruments.map((instrument, i) => ({
            instrument,
            status: read[i]?.status ?? null,
            statusError: read[i]?.statusError ?? null,
          }));
        } else {
          entries = fleet.instruments.map((instrument) => ({
            instrument,
            status: null,
            statusError: null,
            statusPending: true,
          }));
        }
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

    'instruments.statuses': async ({ serials }) => {
      const account = accounts.requireActive();
      return access.withAccount(account, async (client) => {
        const entries = await readStatuses(client, [...new Set(serials)]);
        return { accountId: account.id, entries, fetchedAt: now() };
      });
    },

    'instruments.rename': async ({ serial, name }) =>
      access.withAccount(accounts.requireActive(), async (client) => {
        await client.renameInstrument(serial, name);
        return client.getInstrument(serial);
      }),
  };
}
