/**
 * What FieldDesk last knew of each instrument's health (table `instrument_health`, migration 11):
 * the status, last contact, newest data, supply, storage and signal as last read, so the list's
 * columns and the Needs attention view work offline — even after a restart — from the last known
 * states, saying how old they are. It is in the cache: it can be read again, and a damaged cache
 * costs only that.
 *
 * Also the newest reading the cache holds of an instrument (`newestCachedReading`): one of the
 * three sources of its last contact.
 */
import { z } from 'zod';
import type { InstrumentHealth } from '../../../shared/attention';
import type { SqliteDatabase } from '../core/database';
import { readStoredJson, type DamagedRows, type StoredValue } from '../core/damaged-rows';
import { decodeTimes } from '../cache/series-times';

export interface KnownHealth {
  save(accountId: string, entries: readonly InstrumentHealth[]): void;
  /** Every instrument's health as last known for the account; an unreadable row is left out. */
  all(accountId: string): InstrumentHealth[];
  get(accountId: string, serial: string): InstrumentHealth | null;
  forget(accountId: string): void;
  /** The time of the newest reading (not a gap) the cache holds of the instrument, or null. */
  newestCachedReading(accountId: string, serial: string): number | null;
}

const time = z.number().finite();
const storedSchema = z.object({
  serial: z.string().min(1),
  readAt: time,
  // The status as it was parsed from the service's answer when read (kept whole, notes and all).
  status: z.object({ online: z.boolean() }).passthrough().nullable(),
  statusReadAt: time.nullable(),
  lastContact: time.nullable(),
  newestData: time.nullable(),
  supply: z.object({ voltage: z.number().nullable(), diskPercent: z.number().nullable(), time }).nullable(),
  signal: z
    .object({ rsrp: z.number().nullable(), rsrq: z.number().nullable(), sinr: z.number().nullable(), time })
    .nullable(),
  problems: z.array(z.string()),
});

/**
 * A stored health; null when it cannot be read — as good as no row: the health is read again when
 * the service answers. Reported as `from` says.
 */
function readStored(json: string, from: StoredValue): InstrumentHealth | null {
  // The status was written from a parsed InstrumentStatus: its shape is the one kept.
  return readStoredJson(json, storedSchema, from) as InstrumentHealth | null;
}

interface HealthRow {
  account_id: string;
  serial: string;
  health_json: string;
}

/** `damaged`: where a stored health that cannot be read is said (unsaid without it). */
export function createKnownHealth(db: SqliteDatabase, damaged?: DamagedRows): KnownHealth {
  const upsert = db.prepare(
    `INSERT INTO instrument_health (account_id, serial, read_at, health_json) VALUES (?, ?, ?, ?)
     ON CONFLICT (account_id, serial) DO UPDATE SET read_at = excluded.read_at, health_json = excluded.health_json`,
  );
  const selectAll = db.prepare<[string], HealthRow>(
    'SELECT account_id, serial, health_json FROM instrument_health WHERE account_id = ?',
  );
  const selectOne = db.prepare<[string, string], HealthRow>(
    'SELECT account_id, serial, health_json FROM instrument_health WHERE account_id = ? AND serial = ?',
  );
  /** A row's health; its id in the log is `<account>/<serial>`. */
  const healthOf = (row: HealthRow): InstrumentHealth | null =>
    readStored(row.health_json, {
      table: 'instrument_health',
      id: `${row.account_id}/${row.serial}`,
      damaged,
    });
  const remove = db.prepare('DELETE FROM instrument_health WHERE account_id = ?');
  // The newest chunks first; the first series with a reading in them answers.
  const newestSeries = db.prepare<
    [string, string],
    { times: Buffer; times_codec: number; count: number; vals: Buffer }
  >(
    `SELECT s.times, s.times_codec, s.count, s.vals
       FROM cache_series s
       JOIN cache_chunks c ON c.id = s.chunk_id
       JOIN cache_keys k ON k.id = c.key_id
      WHERE k.account_id = ? AND k.serial = ? AND s.count > 0
      ORDER BY c.end_ms DESC
      LIMIT 8`,
  );
  const saveAll = db.transaction((accountId: string, entries: readonly InstrumentHealth[]) => {
    for (const entry of entries) upsert.run(accountId, entry.serial, entry.readAt, JSON.stringify(entry));
  });

  return {
    save(accountId, entries) {
      saveAll(accountId, entries);
    },
    all(accountId) {
      return selectAll.all(accountId).flatMap((row) => healthOf(row) ?? []);
    },
    get(accountId, serial) {
      const row = selectOne.get(accountId, serial);
      return row === undefined ? null : healthOf(row);
    },
    forget(accountId) {
      remove.run(accountId);
    },
    newestCachedReading(accountId, serial) {
      let newest: number | null = null;
      for (const row of newestSeries.all(accountId, serial)) {
        const times = decodeTimes(row.times_codec, row.times, row.count);
        // NaN is "no reading": the newest reading is the last value that is not.
        for (let i = Math.min(row.count, row.vals.byteLength / 4) - 1; i >= 0; i--) {
          if (Number.isNaN(row.vals.readFloatLE(i * 4))) continue;
          const at = times[i];
          if (at !== undefined && (newest === null || at > newest)) newest = at;
          break;
        }
      }
      return newest;
    },
  };
}
