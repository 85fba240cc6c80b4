/**
 * Stored rows that could not be read: a JSON column that is not JSON, or does not fit the schema it
 * is read with. Such a row is left out (or its value read as none) on its own, never hiding the
 * other records and never failing the read — and it is said: each damaged row once in the log at
 * warn level, with its table, its id and why (the schema's issue paths and messages, or "not valid
 * JSON"), never its content, which may hold the user's notes; and counted per table, for the
 * diagnostics (`diagnostics.damagedRecords`).
 *
 * One `DamagedRows` is made by the backend's foundation and given to every reader of stored rows;
 * a reader that is a plain function takes it as an argument.
 */
import type { z } from 'zod';
import { DAMAGED_ROW_SOURCES, type DamagedRecords, type DamagedRowSource } from '../../../shared/diagnostics';
import type { Logger } from './log';

export interface DamagedRows {
  /**
   * Says that a row of `table` was left out (or a value of it read as none) because of `problem`:
   * a ZodError, a JSON SyntaxError, or a reason in words. Logged the first time per (table, id).
   */
  report(table: DamagedRowSource, id: string | number, problem: unknown): void;
  /** How many damaged rows of each table were met since the backend started (tables with none left out). */
  counts(): DamagedRecords;
}

/**
 * A stored value as a reader is given it: its table, its row's id, its column when a row has several,
 * and where it is said when damaged (left out unsaid without it: a store built alone in a test).
 */
export interface StoredValue {
  table: DamagedRowSource;
  id: string | number;
  column?: string;
  damaged: DamagedRows | undefined;
}

/** Rows of one table told apart (and logged one by one) at most; past them the count is a least. */
export const DAMAGED_ROWS_KEPT = 1_000;

/** Issues of a schema named in a reason at most. */
const ISSUES_NAMED = 3;

const isZodError = (problem: unknown): problem is z.ZodError =>
  problem instanceof Error &&
  problem.name === 'ZodError' &&
  Array.isArray((problem as { issues?: unknown }).issues);

/**
 * Why a value was damaged, in words that never repeat it: the schema's issues (path and message —
 * zod's messages name types and expected values, not the value found), or "not valid JSON" with
 * where it stops (V8's own message quotes the text).
 */
export function damageReason(problem: unknown): string {
  if (isZodError(problem)) {
    const named = problem.issues
      .slice(0, ISSUES_NAMED)
      .map((issue) => `${issue.path.map(String).join('.') || '(the whole value)'}: ${issue.message}`);
    const more = problem.issues.length - ISSUES_NAMED;
    return `does not fit its schema (${named.join('; ')}${more > 0 ? `; and ${more} more` : ''})`;
  }
  if (problem instanceof SyntaxError) {
    const position = /at position (\d+)/.exec(problem.message)?.[1];
    if (position !== undefined) return `not valid JSON (at character ${position})`;
    return /end of JSON input/i.test(problem.message) ? 'not valid JSON (cut short)' : 'not valid JSON';
  }
  if (typeof problem === 'string') return problem;
  // Anything else thrown while reading: its kind only, its message may quote what was read.
  return `could not be read (${problem instanceof Error ? problem.name : typeof problem})`;
}

export function createDamagedRows(log: Logger, kept = DAMAGED_ROWS_KEPT): DamagedRows {
  const found = new Map<DamagedRowSource, { ids: Set<string>; more: boolean }>();
  return {
    report(table, id, problem) {
      let entry = found.get(table);
      if (entry === undefined) found.set(table, (entry = { ids: new Set(), more: false }));
      const key = String(id);
      if (entry.ids.has(key) || entry.more) return;
      if (entry.ids.size >= kept) {
        entry.more = true;
        log.warn('more damaged stored rows were left out; not logged one by one', { table, logged: kept });
        return;
      }
      entry.ids.add(key);
      log.warn('a damaged stored row was left out, or its damaged value read as none', {
        table,
        id: key,
        reason: damageReason(problem),
      });
    },
    counts() {
      const tables = (Object.keys(DAMAGED_ROW_SOURCES) as DamagedRowSource[]).flatMap((table) => {
        const entry = found.get(table);
        return entry === undefined ? [] : [{ table, count: entry.ids.size, more: entry.more }];
      });
      return { tables };
    },
  };
}

/**
 * A stored JSON value read through its schema; null when it is not JSON or does not fit — then
 * reported as a damaged row (its column named in the reason). Null unsaid without `from`.
 */
export function readStoredJson<S extends z.ZodType>(
  text: string,
  schema: S,
  from: StoredValue | undefined,
): z.output<S> | null {
  let problem: unknown;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    problem = parsed.error;
  } catch (error) {
    problem = error;
  }
  reportDamaged(from, problem);
  return null;
}

/** Reports a damaged value of a row (its column, when given, named before the reason). */
export function reportDamaged(from: StoredValue | undefined, problem: unknown): void {
  if (from?.damaged === undefined) return;
  from.damaged.report(
    from.table,
    from.id,
    from.column === undefined ? problem : `${from.column}: ${damageReason(problem)}`,
  );
}
