/**
 * The local record of finished field actions, answered by `actions.history` (table
 * `action_history` of records.db): every action that ended (succeeded, failed, timed out or
 * stopped) with its outcome, and for a calibration the calibrator fitted (`context_json`,
 * migration 4), so the engineer can see what was done on site offline.
 */
import { z } from 'zod';
import { CALIBRATOR_CLASSES, isCalendarDate, type CalibratorSnapshot } from '../../../shared/calibrators';
import { instrumentPassed } from '../../../shared/check-verdicts';
import type { FieldDeskErrorData } from '../../../shared/errors';
import { ERROR_CODES } from '../../../shared/errors';
import {
  FINISHED_OPERATION_STATES,
  isFinishedState,
  type ActionOutcome,
  type ActionRecord,
  type OperationSnapshot,
  SIC_TONES,
} from '../../../shared/operations';
import { ACTIONS } from '../../../shared/service/wire';
import type { SqliteDatabase } from '../core/database';
import { readStoredJson, reportDamaged, type DamagedRows } from '../core/damaged-rows';

/** How many records one read returns at most. */
export const ACTION_RECORDS_READ_LIMIT = 500;

export interface ActionRecords {
  /** Stores a finished operation; ignores one that has not finished. Replaces a record with the same id. */
  record(snapshot: OperationSnapshot): void;
  /** Stores a finished action as recorded (replaces one with the same id). */
  put(record: ActionRecord): void;
  /** Finished actions on one instrument of one account, newest first. */
  list(accountId: string, serial: string, limit?: number): ActionRecord[];
  /** Each instrument's newest Calibration and newest SIC with a result, of one account (any order). */
  latestResults(accountId: string): ActionRecord[];
}

interface Row {
  id: string;
  account_id: string;
  serial: string;
  action: string;
  state: string;
  started_at: number;
  finished_at: number;
  message: string;
  result_json: string | null;
  error_json: string | null;
  /** What the engineer said about the action (`{ calibrator }`); null when nothing. */
  context_json: string | null;
}

const nullableNumber = z.number().nullable();
const toneSchema = z.object({
  tone: z.enum(SIC_TONES),
  levelDb: nullableNumber,
  referenceDb: nullableNumber,
  referenceChecks: z.number(),
  toleranceDb: z.number(),
  within: z.boolean().nullable(),
});
/**
 * A kept outcome. Records kept before both verdicts were stored lack `instrumentPassed`, the
 * probable calibrator level and the SIC's tones: they read with the instrument's verdict taken from
 * its status word, no probable level and no judged tones, rather than being dropped.
 */
const outcomeSchema: z.ZodType<ActionOutcome> = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('calibration'),
      time: z.number(),
      status: z.string(),
      level: nullableNumber,
      offset: nullableNumber,
      referenceDb: z.number(),
      toleranceDb: z.number(),
      passed: z.boolean(),
      deviationDb: nullableNumber,
      instrumentPassed: z.boolean().nullable().optional(),
      probableCalibratorDb: nullableNumber.optional(),
    })
    .transform((outcome) => ({
      ...outcome,
      instrumentPassed: outcome.instrumentPassed ?? instrumentPassed(outcome.status),
      probableCalibratorDb: outcome.probableCalibratorDb ?? null,
    })),
  z
    .object({
      kind: z.literal('sic'),
      time: z.number(),
      status: z.string(),
      _500Hz: nullableNumber,
      _1KHz: nullableNumber,
      _8KHz: nullableNumber,
      passed: z.boolean(),
      instrumentPassed: z.boolean().nullable().optional(),
      tones: z.array(toneSchema).optional(),
      toleranceDb: nullableNumber.optional(),
    })
    .transform((outcome) => ({
      ...outcome,
      instrumentPassed: outcome.instrumentPassed ?? instrumentPassed(outcome.status),
      tones: outcome.tones ?? [],
      toleranceDb: outcome.toleranceDb ?? null,
    })),
  z.object({ kind: z.literal('identify') }),
]);

const errorSchema: z.ZodType<FieldDeskErrorData> = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  retryable: z.boolean(),
  status: z.number().optional(),
  serverCode: z.string().optional(),
  missingScope: z.string().optional(),
  field: z.string().optional(),
});

export const calibratorSnapshotSchema: z.ZodType<CalibratorSnapshot> = z.object({
  id: z.string(),
  model: z.string(),
  serial: z.string(),
  class: z.enum(CALIBRATOR_CLASSES),
  levelDb: z.number(),
  nominalLevelsDb: z.array(z.number()),
  certificateDate: z.string().refine(isCalendarDate),
  dueDate: z.string().refine(isCalendarDate),
});

/** `context_json`: a damaged calibrator reads as none named, never hiding the result. */
const contextSchema = z.object({ calibrator: calibratorSnapshotSchema.nullable().catch(null) });

/**
 * Reads a JSON column of a row; a damaged value becomes `null` rather than hiding the whole record,
 * and is reported to `damaged` (a row of `action_history`, the column named).
 */
function readJson<T>(
  row: Row,
  column: 'result_json' | 'error_json' | 'context_json',
  schema: z.ZodType<T>,
  damaged: DamagedRows | undefined,
): T | null {
  const text = row[column];
  if (text === null) return null;
  return readStoredJson(text, schema, { table: 'action_history', id: row.id, column, damaged });
}

/** A finished action as it is kept, from its operation's final snapshot; null while still running. */
export function recordOf(snapshot: OperationSnapshot): ActionRecord | null {
  if (!isFinishedState(snapshot.state)) return null;
  return {
    id: snapshot.id,
    accountId: snapshot.accountId,
    serial: snapshot.serial,
    action: snapshot.action,
    state: snapshot.state,
    startedAt: snapshot.startedAt,
    finishedAt: snapshot.updatedAt,
    message: snapshot.message,
    result: snapshot.result,
    error: snapshot.error,
    calibrator: snapshot.calibrator ?? null,
  };
}

/** A kept record read back from outside the database (the journal): checked field by field. */
export const actionRecordSchema: z.ZodType<ActionRecord> = z.object({
  id: z.string().min(1),
  accountId: z.string(),
  serial: z.string(),
  action: z.enum(ACTIONS),
  state: z.enum(FINISHED_OPERATION_STATES),
  startedAt: z.number(),
  finishedAt: z.number(),
  message: z.string(),
  result: outcomeSchema.nullable(),
  error: errorSchema.nullable(),
  // Journal lines written before calibrators were recorded have none.
  calibrator: calibratorSnapshotSchema.nullable().default(null),
});

function toRecord(row: Row, damaged: DamagedRows | undefined): ActionRecord | null {
  const action = ACTIONS.find((a) => a === row.action);
  const state = FINISHED_OPERATION_STATES.find((s) => s === row.state);
  // A row this version cannot understand (e.g. a newer action) is skipped, not shown wrongly.
  if (action === undefined || state === undefined) {
    reportDamaged(
      { table: 'action_history', id: row.id, damaged },
      action === undefined ? 'an action this version does not know' : 'a state this version does not know',
    );
    return null;
  }
  return {
    id: row.id,
    accountId: row.account_id,
    serial: row.serial,
    action,
    state,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    message: row.message,
    result: readJson(row, 'result_json', outcomeSchema, damaged),
    error: readJson(row, 'error_json', errorSchema, damaged),
    calibrator: readJson(row, 'context_json', contextSchema, damaged)?.calibrator ?? null,
  };
}

/** `damaged`: where a record that cannot be read whole is said (unsaid without it). */
export function createActionRecords(db: SqliteDatabase, damaged?: DamagedRows): ActionRecords {
  const insert = db.prepare(`
    INSERT OR REPLACE INTO action_history
      (id, account_id, serial, action, state, started_at, finished_at, message, result_json, error_json, context_json)
    VALUES
      (@id, @account_id, @serial, @action, @state, @started_at, @finished_at, @message, @result_json, @error_json, @context_json)
  `);
  const select = db.prepare(`
    SELECT * FROM action_history
    WHERE account_id = ? AND serial = ?
    ORDER BY finished_at DESC, started_at DESC
    LIMIT ?
  `);

  // Per instrument and action, the record with a result no later one with a result follows.
  const selectLatest = db.prepare(`
    SELECT * FROM action_history AS h
    WHERE h.account_id = ? AND h.action IN ('Calibration', 'SIC') AND h.result_json IS NOT NULL
      AND NOT EXISTS (
        SELECT 1 FROM action_history AS n
        WHERE n.account_id = h.account_id AND n.serial = h.serial AND n.action = h.action
          AND n.result_json IS NOT NULL
          AND (n.finished_at > h.finished_at OR (n.finished_at = h.finished_at AND n.started_at > h.started_at))
      )
  `);

  function put(record: ActionRecord): void {
    insert.run({
      id: record.id,
      account_id: record.accountId,
      serial: record.serial,
      action: record.action,
      state: record.state,
      started_at: record.startedAt,
      finished_at: record.finishedAt,
      message: record.message,
      result_json: record.result === null ? null : JSON.stringify(record.result),
      error_json: record.error === null ? null : JSON.stringify(record.error),
      context_json: record.calibrator === null ? null : JSON.stringify({ calibrator: record.calibrator }),
    });
  }

  const readRows = (rows: readonly Row[]): ActionRecord[] =>
    rows.map((row) => toRecord(row, damaged)).filter((record): record is ActionRecord => record !== null);

  return {
    record(snapshot) {
      const record = recordOf(snapshot);
      if (record !== null) put(record);
    },
    put,
    list(accountId, serial, limit = ACTION_RECORDS_READ_LIMIT) {
      const rows = select.all(
        accountId,
        serial,
        Math.max(1, Math.min(limit, ACTION_RECORDS_READ_LIMIT)),
      ) as Row[];
      return readRows(rows);
    },
    latestResults(accountId) {
      return readRows(selectLatest.all(accountId) as Row[]);
    },
  };
}
