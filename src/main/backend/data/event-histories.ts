/**
 * Noise events' own time histories as last read from the service (table `event_histories`,
 * migration 7): an opened event — and the player following its audio — keeps its chart without
 * signal. A stored answer that cannot be read counts as none (said in the log: core/damaged-rows.ts).
 */
import type { SeriesChannel } from '../../../shared/data';
import type { SqliteDatabase } from '../core/database';
import { reportDamaged, type DamagedRows, type StoredValue } from '../core/damaged-rows';

export interface StoredEventHistory {
  series: SeriesChannel[];
  notes: string[];
  fetchedAt: number;
}

export interface EventHistories {
  save(accountId: string, id: string, answer: { series: SeriesChannel[]; notes: string[] }, at: number): void;
  get(accountId: string, id: string): StoredEventHistory | null;
}

interface StoredChannel extends Omit<SeriesChannel, 'times' | 'values'> {
  times: number[];
  // NaN ("no reading") is kept as null: JSON has no NaN.
  values: Array<number | null>;
}

function readStored(json: string, fetchedAt: number, from: StoredValue): StoredEventHistory | null {
  try {
    const parsed = JSON.parse(json) as { series?: StoredChannel[]; notes?: unknown } | null;
    if (!Array.isArray(parsed?.series)) {
      reportDamaged(from, 'not a time history (its series are missing)');
      return null;
    }
    const series = parsed.series.map((channel): SeriesChannel => ({
      ...channel,
      times: Float64Array.from(channel.times),
      values: Float32Array.from(channel.values, (v) => (v === null ? Number.NaN : v)),
    }));
    const notes = Array.isArray(parsed.notes)
      ? parsed.notes.filter((n): n is string => typeof n === 'string')
      : [];
    return { series, notes, fetchedAt };
  } catch (error) {
    reportDamaged(from, error);
    return null;
  }
}

/** `damaged`: where a stored answer that cannot be read is said (unsaid without it). */
export function createEventHistories(db: SqliteDatabase, damaged?: DamagedRows): EventHistories {
  const upsert = db.prepare(
    `INSERT INTO event_histories (account_id, id, fetched_at, answer_json) VALUES (?, ?, ?, ?)
     ON CONFLICT (account_id, id) DO UPDATE SET fetched_at = excluded.fetched_at, answer_json = excluded.answer_json`,
  );
  const select = db.prepare<[string, string], { fetched_at: number; answer_json: string }>(
    'SELECT fetched_at, answer_json FROM event_histories WHERE account_id = ? AND id = ?',
  );
  return {
    save(accountId, id, answer, at) {
      const series: StoredChannel[] = answer.series.map((channel) => ({
        ...channel,
        times: Array.from(channel.times),
        values: Array.from(channel.values, (v) => (Number.isNaN(v) ? null : v)),
      }));
      upsert.run(accountId, id, at, JSON.stringify({ series, notes: answer.notes }));
    },
    get(accountId, id) {
      const row = select.get(accountId, id);
      return row === undefined
        ? null
        : readStored(row.answer_json, row.fetched_at, { table: 'event_histories', id, damaged });
    },
  };
}
