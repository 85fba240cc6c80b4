/**
 * The last instrument list of each account that reached the service (table `known_fleets`,
 * migration 5), so that without signal — even after a restart — the fleet is listed and each
 * instrument opens, as last known and said so. A stored list that cannot be read is treated as
 * none (and said in the log: core/damaged-rows.ts): the list then needs the service, as before
 * anything was stored.
 */
import type { InstrumentEntry, InstrumentList } from '../../../shared/ipc/contract';
import type { SqliteDatabase } from '../core/database';
import { reportDamaged, type DamagedRows, type StoredValue } from '../core/damaged-rows';

export interface StoredFleet {
  entries: InstrumentEntry[];
  skipped: string[];
  fetchedAt: number;
}

export interface KnownFleets {
  save(list: InstrumentList): void;
  get(accountId: string): StoredFleet | null;
  forget(accountId: string): void;
}

/** The stored list; null when it cannot be read, reported as `from` says (as is an instrument left out of it). */
function readStored(json: string, fetchedAt: number, from: StoredValue): StoredFleet | null {
  let parsed: { entries?: unknown; skipped?: unknown } | null;
  try {
    parsed = JSON.parse(json) as { entries?: unknown; skipped?: unknown } | null;
  } catch (error) {
    reportDamaged(from, error);
    return null;
  }
  if (!Array.isArray(parsed?.entries)) {
    reportDamaged(from, 'not an instrument list (its entries are missing)');
    return null;
  }
  const entries = (parsed.entries as InstrumentEntry[]).filter(
    (e) => typeof e?.instrument?.serialNumber === 'string',
  );
  if (entries.length < parsed.entries.length)
    reportDamaged(
      from,
      `entries without a serial number left out: ${parsed.entries.length - entries.length}`,
    );
  const skipped = Array.isArray(parsed.skipped)
    ? parsed.skipped.filter((s): s is string => typeof s === 'string')
    : [];
  return { entries, skipped, fetchedAt };
}

/** `damaged`: where a stored list that cannot be read (whole) is said (unsaid without it). */
export function createKnownFleets(db: SqliteDatabase, damaged?: DamagedRows): KnownFleets {
  const upsert = db.prepare(
    `INSERT INTO known_fleets (account_id, fetched_at, list_json) VALUES (?, ?, ?)
     ON CONFLICT (account_id) DO UPDATE SET fetched_at = excluded.fetched_at, list_json = excluded.list_json`,
  );
  const select = db.prepare<[string], { fetched_at: number; list_json: string }>(
    'SELECT fetched_at, list_json FROM known_fleets WHERE account_id = ?',
  );
  const remove = db.prepare('DELETE FROM known_fleets WHERE account_id = ?');
  return {
    save(list) {
      upsert.run(
        list.accountId,
        list.fetchedAt,
        JSON.stringify({ entries: list.entries, skipped: list.skipped }),
      );
    },
    get(accountId) {
      const row = select.get(accountId);
      return row === undefined
        ? null
        : readStored(row.list_json, row.fetched_at, { table: 'known_fleets', id: accountId, damaged });
    },
    forget(accountId) {
      remove.run(accountId);
    },
  };
}
