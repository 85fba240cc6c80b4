/**
 * The calibrator register in the user's records (table `calibrators`, records.db migration 4): one
 * JSON document per calibrator, read back through a schema so a damaged row is left out on its own
 * (counted, and said in the log through core/damaged-rows.ts) instead of hiding the others. Which one was chosen last is its `used_at`, so a
 * restored or salvaged file keeps it with the calibrator it belongs to.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  CALIBRATOR_CLASSES,
  calibratorName,
  isCalendarDate,
  type Calibrator,
  type CalibratorChange,
  type CalibratorList,
} from '../../../shared/calibrators';
import { FieldDeskError } from '../../../shared/errors';
import type { SqliteDatabase } from '../core/database';
import { readStoredJson, type DamagedRows } from '../core/damaged-rows';

const calendarDate = z.string().refine(isCalendarDate);

/** What is kept in `calibrator_json` (`lastUsedAt` lives in its own column). */
export const storedCalibratorSchema = z.object({
  id: z.string(),
  model: z.string(),
  serial: z.string(),
  class: z.enum(CALIBRATOR_CLASSES),
  levelsDb: z.array(z.number()).min(1),
  certificateDate: calendarDate,
  dueDate: calendarDate,
  retired: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export interface CalibratorStore {
  list(): CalibratorList;
  get(id: string): Calibrator | null;
  /** Creates (no id) or changes a calibrator; null when the id names none. */
  save(change: CalibratorChange): Calibrator | null;
  /** Null when the id names none. */
  setRetired(id: string, retired: boolean): Calibrator | null;
  remove(id: string): boolean;
  /**
   * Notes that it was chosen for a calibration now (the wizard offers it first next time); null:
   * none of the register's ("None / not listed"), which is then offered first.
   */
  markUsed(id: string | null): void;
}

/** When "None / not listed" was last chosen, in the records' small settings table. */
const NONE_USED_SETTING = 'calibrator:noneUsedAt';

interface Row {
  id: string;
  calibrator_json: string;
  used_at: number | null;
}

/** The same calibrator whatever the case or spacing of its model and serial. */
const identity = (c: Pick<Calibrator, 'model' | 'serial'>) =>
  `${c.model.replace(/\s+/g, '').toLowerCase()}#${c.serial.replace(/\s+/g, '').toLowerCase()}`;

/** `damaged`: where a calibrator that cannot be read is said (left out unsaid without it). */
export function createCalibratorStore(
  db: SqliteDatabase,
  now: () => number,
  damaged?: DamagedRows,
): CalibratorStore {
  const selectAll = db.prepare<[], Row>('SELECT id, calibrator_json, used_at FROM calibrators');
  const selectOne = db.prepare<[string], Row>(
    'SELECT id, calibrator_json, used_at FROM calibrators WHERE id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO calibrators (id, updated_at, used_at, calibrator_json) VALUES (@id, @updated_at, @used_at, @json)
     ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at, used_at = excluded.used_at,
       calibrator_json = excluded.calibrator_json`,
  );
  const deleteOne = db.prepare('DELETE FROM calibrators WHERE id = ?');
  // The row changes too (updated_at), so a restore merges the newer choice back.
  const touchUsed = db.prepare('UPDATE calibrators SET used_at = ?, updated_at = ? WHERE id = ?');
  // The records' name/value table (created with the visits): one value, no table of its own.
  const getNoneUsed = db.prepare<[string], { value: string }>(
    'SELECT value FROM visit_settings WHERE name = ?',
  );
  const putNoneUsed = db.prepare(
    'INSERT INTO visit_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
  );
  const noneUsedAt = (): number => Number(getNoneUsed.get(NONE_USED_SETTING)?.value ?? 0) || 0;

  function parse(row: Row): Calibrator | null {
    const stored = readStoredJson(row.calibrator_json, storedCalibratorSchema, {
      table: 'calibrators',
      id: row.id,
      damaged,
    });
    return stored === null ? null : { ...stored, lastUsedAt: row.used_at };
  }

  function get(id: string): Calibrator | null {
    const row = selectOne.get(id);
    return row === undefined ? null : parse(row);
  }

  function put(calibrator: Calibrator): Calibrator {
    const { lastUsedAt, ...stored } = calibrator;
    upsert.run({
      id: stored.id,
      updated_at: stored.updatedAt,
      used_at: lastUsedAt,
      json: JSON.stringify(stored),
    });
    return calibrator;
  }

  function readAll(): { calibrators: Calibrator[]; unreadable: number } {
    let unreadable = 0;
    const calibrators: Calibrator[] = [];
    for (const row of selectAll.all()) {
      const calibrator = parse(row);
      if (calibrator === null) unreadable++;
      else calibrators.push(calibrator);
    }
    return { calibrators, unreadable };
  }

  return {
    list() {
      const { calibrators, unreadable } = readAll();
      calibrators.sort(
        (a, b) =>
          Number(a.retired) - Number(b.retired) ||
          a.model.localeCompare(b.model) ||
          a.serial.localeCompare(b.serial),
      );
      const lastUsed = calibrators
        .filter((c) => !c.retired && c.lastUsedAt !== null)
        .reduce<Calibrator | null>((a, b) => (a === null || b.lastUsedAt! > a.lastUsedAt! ? b : a), null);
      // "None / not listed" chosen since is the last choice: it is offered first.
      const noneSince = lastUsed !== null && noneUsedAt() >= lastUsed.lastUsedAt!;
      return { calibrators, lastUsedId: noneSince ? null : (lastUsed?.id ?? null), unreadable };
    },

    get,

    save(change) {
      const existing = change.id === undefined ? null : get(change.id);
      if (change.id !== undefined && existing === null) return null;
      const same = readAll().calibrators.find((c) => c.id !== change.id && identity(c) === identity(change));
      if (same !== undefined)
        throw new FieldDeskError(
          'conflict',
          `${calibratorName(same)} is already in the register${same.retired ? ' (retired)' : ''}: change that entry instead of adding another.`,
          { field: 'serial' },
        );
      const at = now();
      return put({
        id: existing?.id ?? randomUUID().replace(/-/g, '').slice(0, 16),
        model: change.model,
        serial: change.serial,
        class: change.class,
        levelsDb: [...change.levelsDb],
        certificateDate: change.certificateDate,
        dueDate: change.dueDate,
        retired: existing?.retired ?? false,
        createdAt: existing?.createdAt ?? at,
        updatedAt: at,
        lastUsedAt: existing?.lastUsedAt ?? null,
      });
    },

    setRetired(id, retired) {
      const existing = get(id);
      if (existing === null) return null;
      return put({ ...existing, retired, updatedAt: now() });
    },

    remove(id) {
      return deleteOne.run(id).changes > 0;
    },

    markUsed(id) {
      const at = now();
      if (id === null) putNoneUsed.run(NONE_USED_SETTING, String(at));
      else touchUsed.run(at, at, id);
    },
  };
}
