/**
 * Instrument health for fleet attention (`instruments.health`, `instruments.knownHealth`): for a
 * few serials at a time, the status, the monitor's current state (`/data/monitor/current`, one
 * request for all of them) and newest stats (`/data/monitor/stats`, signal and the newest sample)
 * where the monitor supports them, and the newest reading the cache holds; merged with what was
 * known before (an instrument gone offline keeps its last contact) and kept (known-health.ts).
 *
 * The renderer asks for a screenful or a small batch at a time, so a fleet of thousands is read
 * gently; without the service, the last known health answers, said so.
 */
import {
  newestOf,
  type InstrumentHealth,
  type SignalReading,
  type SupplyReading,
} from '../../../shared/attention';
import { availableDatasetsFor, type InstrumentKind } from '../../../shared/data';
import { FieldDeskError, isUnreachable, toErrorData, type FieldDeskErrorData } from '../../../shared/errors';
import type { InstrumentHealthRead } from '../../../shared/ipc/contract';
import type { MonitorCurrent } from '../../../shared/monitor';
import type { StoredAccount } from '../accounts/account-store';
import type { ServiceAccess } from '../accounts/service-access';
import type { Logger } from '../core/log';
import type { DataSource } from '../service/data-source';
import type { FleetService } from './fleet';
import type { KnownHealth } from './known-health';

/** With a current state the newest hour of stats gives the signal; without, two days find the last sample. */
const STATS_WINDOW_ONLINE_MS = 60 * 60_000;
const STATS_WINDOW_OFFLINE_MS = 48 * 60 * 60_000;

/** A status read this recently (for the list's rows) is the health's too, not asked again. */
const STATUS_REUSE_MS = 15_000;
export interface HealthService {
  /** Reads the serials' health from the service (the last known where it cannot be reached) and keeps it. */
  read(account: StoredAccount, serials: readonly string[]): Promise<InstrumentHealthRead>;
  /** Every instrument's health as last known, without a request. */
  known(account: StoredAccount): InstrumentHealthRead;
  forget(accountId: string): void;
}

export interface HealthServiceDeps {
  access: ServiceAccess;
  fleet: FleetService;
  knownHealth: KnownHealth;
  log: Logger;
  now: () => number;
}

const numberOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** The newest sample of a monitor's stats: its time, supply and signal. */
interface NewestStats {
  time: number;
  voltage: number | null;
  signal: SignalReading;
}

async function newestStats(
  source: DataSource,
  serial: string,
  windowMs: number,
  now: number,
): Promise<NewestStats | null> {
  const chunk = await source.fetchDataset({
    serial,
    dataset: 'monitorStats',
    start: now - windowMs,
    end: now,
  });
  const rows = chunk.records?.rows ?? [];
  const timeKey = chunk.records?.timeKey ?? 'time';
  let newest: Record<string, unknown> | null = null;
  let newestTime = -Infinity;
  for (const row of rows) {
    const time = numberOf(row[timeKey]);
    if (time !== null && time > newestTime) {
      newest = row;
      newestTime = time;
    }
  }
  if (newest === null) return null;
  return {
    time: newestTime,
    voltage: numberOf(newest['voltage']),
    signal: {
      rsrp: numberOf(newest['lteRsrp']),
      rsrq: numberOf(newest['lteRsrq']),
      sinr: numberOf(newest['lteSinr']),
      time: newestTime,
    },
  };
}

const problemText = (what: string, error: unknown): string => `${what}: ${toErrorData(error).message}`;

export function createHealthService(deps: HealthServiceDeps): HealthService {
  const { access, fleet, knownHealth, log, now } = deps;

  /** The last known health of the serials (what the cache cannot give counts as none). */
  function lastKnown(accountId: string, serials: readonly string[]): InstrumentHealth[] {
    try {
      const wanted = new Set(serials);
      return knownHealth.all(accountId).filter((entry) => wanted.has(entry.serial));
    } catch (error) {
      log.warn('last known instrument health unreadable', { error });
      return [];
    }
  }

  function stored(accountId: string, serial: string): InstrumentHealth | null {
    try {
      return knownHealth.get(accountId, serial);
    } catch (error) {
      log.warn('last known instrument health unreadable', { error });
      return null;
    }
  }

  function cachedReading(accountId: string, serial: string): number | null {
    try {
      return knownHealth.newestCachedReading(accountId, serial);
    } catch (error) {
      // The other sources still say when the instrument was last heard from.
      log.warn('newest cached reading not read', { serial, error });
      return null;
    }
  }

  return {
    async read(account, serials) {
      const unique = [...new Set(serials)];
      let statuses;
      try {
        // The rows on screen read their statuses moments before their health: those are used again.
        statuses = await fleet.statuses(account, unique, { reuseWithinMs: STATUS_REUSE_MS });
      } catch (error) {
        if (!(error instanceof FieldDeskError) || !isUnreachable(error)) throw error;
        return {
          accountId: account.id,
          entries: lastKnown(account.id, unique),
          lastKnown: { reason: error.toData() },
        };
      }
      const readAt = statuses.fetchedAt;
      const firstUnreachable = statuses.entries
        .map((entry) => entry.statusError)
        .find((error): error is FieldDeskErrorData => error !== null && isUnreachable(error));
      if (firstUnreachable !== undefined && statuses.entries.every((entry) => entry.status === null))
        return {
          accountId: account.id,
          entries: lastKnown(account.id, unique),
          lastKnown: { reason: firstUnreachable },
        };

      // Only the monitors that support the system-monitor endpoints are asked (the others are refused).
      const kinds = await fleet.kinds(account, unique).catch((error: unknown) => {
        log.info('instrument models not known; monitor state not read', { error });
        return new Map<string, InstrumentKind>();
      });
      const monitors = new Set(
        unique.filter((serial) => {
          const kind = kinds.get(serial);
          return kind !== undefined && availableDatasetsFor(kind).includes('monitorStats');
        }),
      );
      const problems = new Map<string, string[]>();
      const problem = (serial: string, text: string) =>
        problems.set(serial, [...(problems.get(serial) ?? []), text]);

      const current = new Map<string, MonitorCurrent>();
      const stats = new Map<string, NewestStats | null>();
      if (monitors.size > 0) {
        try {
          const source = await access.dataSourceFor(account);
          try {
            for (const state of await source.monitorCurrent([...monitors]))
              if (state.instrument !== null) current.set(state.instrument, state);
          } catch (error) {
            for (const serial of monitors)
              problem(serial, problemText("The monitor's current state could not be read", error));
          }
          await Promise.all(
            [...monitors].map(async (serial) => {
              const windowMs = current.has(serial) ? STATS_WINDOW_ONLINE_MS : STATS_WINDOW_OFFLINE_MS;
              try {
                stats.set(serial, await newestStats(source, serial, windowMs, now()));
              } catch (error) {
                problem(serial, problemText("The monitor's stats could not be read", error));
              }
            }),
          );
        } catch (error) {
          for (const serial of monitors)
            problem(serial, problemText("The monitor's state could not be read", error));
        }
      }

      const entries = statuses.entries.map(({ serial, status, statusError }): InstrumentHealth => {
        const before = stored(account.id, serial);
        if (statusError !== null) problem(serial, problemText('The status could not be read', statusError));
        const state = current.get(serial) ?? null;
        const newest = stats.get(serial) ?? null;
        const supply: SupplyReading | null =
          state !== null
            ? { voltage: state.voltage, diskPercent: state.disk, time: readAt }
            : newest !== null
              ? {
                  voltage: newest.voltage,
                  diskPercent: before?.supply?.diskPercent ?? null,
                  time: newest.time,
                }
              : (before?.supply ?? null);
        const newestData = newestOf(before?.newestData, cachedReading(account.id, serial), newest?.time);
        return {
          serial,
          readAt,
          // A status that could not be read leaves the one known before, with its own time.
          status: status ?? before?.status ?? null,
          statusReadAt: status !== null ? readAt : (before?.statusReadAt ?? null),
          lastContact: newestOf(
            before?.lastContact,
            status?.online === true ? readAt : null,
            state !== null ? readAt : null,
            newestData,
          ),
          newestData,
          supply,
          signal: newest?.signal ?? before?.signal ?? null,
          problems: problems.get(serial) ?? [],
        };
      });
      try {
        knownHealth.save(account.id, entries);
      } catch (error) {
        // Kept at the next read; the health read is answered regardless.
        log.warn('instrument health not kept as last known', { error });
      }
      return { accountId: account.id, entries };
    },

    known(account) {
      try {
        return { accountId: account.id, entries: knownHealth.all(account.id) };
      } catch (error) {
        log.warn('last known instrument health unreadable', { error });
        return { accountId: account.id, entries: [] };
      }
    },

    forget(accountId) {
      knownHealth.forget(accountId);
    },
  };
}
