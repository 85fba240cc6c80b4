/**
 * The instruments of an account, live or as last known: the one place that asks the service for the
 * fleet and keeps the last list that reached it (known-fleet.ts), so that without signal — even after
 * a restart — the fleet lists, each instrument opens, and the other domains (assessment, site sync,
 * audio) know each instrument's type, features and add-ons, said as last known.
 */
import pLimit from 'p-limit';
import { FieldDeskError, isUnreachable, toErrorData, type FieldDeskErrorData } from '../../../shared/errors';
import {
  STATUS_EAGER_LIMIT,
  type InstrumentDetail,
  type InstrumentEntry,
  type InstrumentList,
  type InstrumentStatuses,
} from '../../../shared/ipc/contract';
import type { InstrumentKind } from '../../../shared/data';
import type { Instrument } from '../../../shared/service/schemas';
import type { StoredAccount } from '../accounts/account-store';
import type { ServiceAccess } from '../accounts/service-access';
import type { ConnectivityService } from '../connectivity/connectivity';
import type { Logger } from '../core/log';
import type { ServiceClient } from '../service/client';
import type { KnownFleets, StoredFleet } from './known-fleet';

/** Status reads in flight at once for one instrument list: enough to be quick, gentle on the service. */
const STATUS_CONCURRENCY = 4;

/** How long a status read is remembered for a caller that asks to reuse one. */
const STATUS_MEMORY_MS = 60_000;

type StatusRead = InstrumentStatuses['entries'][number];

export interface FleetService {
  /** The account's instruments with their statuses (a large fleet's per screen), kept as last known. */
  list(account: StoredAccount): Promise<InstrumentList>;
  /** One instrument with its status. */
  get(account: StoredAccount, serial: string): Promise<InstrumentDetail>;
  /**
   * The statuses of the serials, from the service. With `reuseWithinMs`, a status the list's rows
   * read (or are reading) that recently is answered again rather than asked twice: the health of
   * the rows on screen follows their statuses by moments.
   */
  statuses(
    account: StoredAccount,
    serials: readonly string[],
    options?: { reuseWithinMs?: number },
  ): Promise<InstrumentStatuses>;
  /**
   * The account's instruments for work on `serials`: the last known list when it names them all (no
   * request), else the service's, else the last known one as it is; the service's error when there
   * is neither.
   */
  entries(account: StoredAccount, serials: readonly string[]): Promise<InstrumentEntry[]>;
  /**
   * The kind (type, model, features) of the account's instruments, naming at least `serials`: from
   * the list read this session, else as `entries` answers.
   */
  kinds(account: StoredAccount, serials: readonly string[]): Promise<ReadonlyMap<string, InstrumentKind>>;
  /** One instrument as last known, else from the service when it can be reached; null when neither can say. */
  instrument(account: StoredAccount, serial: string): Promise<Instrument | null>;
  /** Forgets the account's last known list (the account was removed). */
  forget(accountId: string): void;
}

export interface FleetServiceDeps {
  access: ServiceAccess;
  connectivity: ConnectivityService;
  knownFleets: KnownFleets;
  log: Logger;
  now: () => number;
}

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

export function createFleetService(deps: FleetServiceDeps): FleetService {
  const { access, knownFleets, log, now } = deps;
  /**
   * The kind (type, model, features) of each instrument of each account's last list read this
   * session, large fleets too (whose list is not kept as last known until its statuses are all
   * read): `kinds` answers from it without listing thousands of instruments again for every few
   * serials (fleet attention asks often). Only the kinds: the whole list would stay in memory.
   */
  const listedKinds = new Map<string, Map<string, InstrumentKind>>();

  /** Each account's status reads of the last minute (or still in flight), by serial. */
  const statusReads = new Map<string, Map<string, { read: Promise<StatusRead>; at: number }>>();

  /** The account's recent status reads, those older than a minute forgotten. */
  function recentReads(
    accountId: string,
    at: number,
  ): Map<string, { read: Promise<StatusRead>; at: number }> {
    let reads = statusReads.get(accountId);
    if (reads === undefined) statusReads.set(accountId, (reads = new Map()));
    for (const [serial, known] of reads) if (at - known.at > STATUS_MEMORY_MS) reads.delete(serial);
    return reads;
  }

  /** The last known list, or null (none, or the cache cannot be read: then the service's answer stands). */
  function known(accountId: string): StoredFleet | null {
    try {
      return knownFleets.get(accountId);
    } catch (error) {
      log.warn('last known instrument list unreadable', { error });
      return null;
    }
  }

  /** The last known list, when `error` means the service cannot be reached. */
  function knownWhenUnreachable(
    accountId: string,
    error: unknown,
  ): { stored: StoredFleet; reason: FieldDeskErrorData } | null {
    if (!(error instanceof FieldDeskError) || !isUnreachable(error)) return null;
    const stored = known(accountId);
    return stored === null ? null : { stored, reason: error.toData() };
  }

  function keep(list: InstrumentList): void {
    try {
      knownFleets.save(list);
    } catch (error) {
      // Kept next time the cache can be written; the live list is answered regardless.
      log.warn('instrument list not kept as last known', { error });
    }
  }

  const service: FleetService = {
    async list(account) {
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
          const last = knownWhenUnreachable(account.id, error);
          if (last === null) throw error;
          return { accountId: account.id, ...last.stored, lastKnown: { reason: last.reason } };
        });
      if (list.lastKnown === undefined) {
        listedKinds.set(
          account.id,
          new Map(
            list.entries.map(({ instrument: { serialNumber, type, model, feature } }) => [
              serialNumber,
              { type, model, feature },
            ]),
          ),
        );
        if (list.entries.every((e) => e.statusPending !== true)) keep(list);
      }
      return list;
    },

    async get(account, serial) {
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
          const last = knownWhenUnreachable(account.id, error);
          const entry = last?.stored.entries.find((e) => e.instrument.serialNumber === serial);
          if (last === null || entry === undefined) throw error;
          return {
            accountId: account.id,
            instrument: entry.instrument,
            status: entry.status,
            statusError: entry.statusError,
            fetchedAt: last.stored.fetchedAt,
            lastKnown: { reason: last.reason },
          };
        });
    },

    async statuses(account, serials, options = {}) {
      const reuseWithinMs = Math.min(options.reuseWithinMs ?? 0, STATUS_MEMORY_MS);
      return access.withAccount(account, async (client) => {
        const at = now();
        const recent = recentReads(account.id, at);
        const unique = [...new Set(serials)];
        const reused = new Map<string, { read: Promise<StatusRead>; at: number }>();
        for (const serial of unique) {
          const known = recent.get(serial);
          if (known !== undefined && reuseWithinMs > 0 && at - known.at <= reuseWithinMs)
            reused.set(serial, known);
        }
        const asked = unique.filter((serial) => !reused.has(serial));
        const fresh = readStatuses(client, asked);
        const freshRead = (serial: string) => fresh.then((reads) => reads.find((r) => r.serial === serial)!);
        // Only a plain read (the rows') is remembered: one that reuses is a follower, and its own
        // reads must not stand in for the next, which asks to see what changed since.
        if (reuseWithinMs === 0)
          for (const serial of asked) recent.set(serial, { read: freshRead(serial), at });
        const entries = await Promise.all(
          unique.map((serial) => reused.get(serial)?.read ?? freshRead(serial)),
        );
        // A status answered again is as old as its read: the answer's time is its oldest's.
        const fetchedAt = Math.min(at, ...[...reused.values()].map((known) => known.at));
        return { accountId: account.id, entries, fetchedAt };
      });
    },

    async entries(account, serials) {
      const last = known(account.id)?.entries ?? null;
      const names = (entries: readonly InstrumentEntry[], serial: string) =>
        entries.some((e) => e.instrument.serialNumber === serial);
      if (last !== null && serials.every((serial) => names(last, serial))) return last;
      try {
        const instruments = await access.withAccount(account, (client) => client.listInstruments());
        return instruments.map((instrument) => ({ instrument, status: null, statusError: null }));
      } catch (error) {
        if (last === null) throw error;
        log.info('instrument list not read; using the last known one', { error });
        return last;
      }
    },

    async kinds(account, serials) {
      const session = listedKinds.get(account.id);
      if (session !== undefined && serials.every((serial) => session.has(serial))) return session;
      const entries = await service.entries(account, serials);
      return new Map(
        entries.map(({ instrument: { serialNumber, type, model, feature } }) => [
          serialNumber,
          { type, model, feature },
        ]),
      );
    },

    async instrument(account, serial) {
      const last = known(account.id)?.entries.find((e) => e.instrument.serialNumber === serial);
      if (last !== undefined) return last.instrument;
      if (deps.connectivity.offlineReason(account.id) !== null) return null;
      try {
        return await access.withAccount(account, (client) => client.getInstrument(serial));
      } catch (error) {
        log.info('instrument not read', { serial, error });
        return null;
      }
    },

    forget(accountId) {
      statusReads.delete(accountId);
      listedKinds.delete(accountId);
      knownFleets.forget(accountId);
    },
  };
  return service;
}
