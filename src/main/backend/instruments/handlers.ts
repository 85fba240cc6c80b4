/**
 * Instruments: the fleet of the active account with each instrument's live status, one instrument
 * in detail, and renaming. Every read goes to the service; the last list that reached it is kept
 * (known-fleet.ts), and answers — as last known, with the reason — when the service cannot be
 * reached, so the fleet lists and each instrument opens without signal, after a restart too.
 */
import pLimit from 'p-limit';
import { FieldDeskError, isUnreachable, toErrorData, type FieldDeskErrorData } from '../../../shared/errors';
import {
  STATUS_EAGER_LIMIT,
  type InstrumentEntry,
  type InstrumentList,
  type InstrumentStatuses,
} from '../../../shared/ipc/contract';
import type { AccountState } from '../accounts/account-state';
import type { ServiceAccess } from '../accounts/service-access';
import type { HandlersOf } from '../core/handler-types';
import type { ServiceClient } from '../service/client';
import type { LocalData } from '../local-data';
import type { StoredFleet } from './known-fleet';

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
  local: LocalData,
): HandlersOf<'instruments'> {
  /** The account's last known list, when the error means the service cannot be reached. */
  function knownFor(
    accountId: string,
    error: unknown,
  ): { stored: StoredFleet; reason: FieldDeskErrorData } | null {
    if (!(error instanceof FieldDeskError) || !isUnreachable(error)) return null;
    try {
      const stored = local.knownFleets().get(accountId);
      return stored === null ? null : { stored, reason: error.toData() };
    } catch {
      return null; // No local database: the error stands.
    }
  }

  return {
    'instruments.list': async () => {
      const account = accounts.requireActive();
      const list = await access
        .withAccount(account, async (client): Promise<InstrumentList> => {
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
        })
        .catch((error: unknown) => {
          const known = knownFor(account.id, error);
          if (known === null) throw error;
          return { accountId: account.id, ...known.stored, lastKnown: { reason: known.reason } };
        });
      if (list.lastKnown === undefined && list.entries.every((e) => e.statusPending !== true)) {
        try {
          local.knownFleets().save(list);
        } catch {
          // Kept next time the database can be written; the live list is answered regardless.
        }
      }
      return list;
    },

    'instruments.get': async ({ serial }) => {
      const account = accounts.requireActive();
      return access
        .withAccount(account, async (client) => {
          const [instrument, statusRead] = await Promise.all([
            client.getInstrument(serial),
            client.getInstrumentStatus(serial).then(
              (status) => ({ status, statusError: null }),
              (error: unknown) => ({ status: null, statusError: toErrorData(error) }),
            ),
          ]);
          return { accountId: account.id, instrument, ...statusRead, fetchedAt: now() };
        })
        .catch((error: unknown) => {
          const known = knownFor(account.id, error);
          const entry = known?.stored.entries.find((e) => e.instrument.serialNumber === serial);
          if (known === null || entry === undefined) throw error;
          return {
            accountId: account.id,
            instrument: entry.instrument,
            status: entry.status,
            statusError: entry.statusError,
            fetchedAt: known.stored.fetchedAt,
            lastKnown: { reason: known.reason },
          };
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
