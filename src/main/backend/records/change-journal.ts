/**
 * The change journal of the user's records: every change to records.db — a record added, changed or
 * deleted — as one line in `<dataDir>/records-journal.jsonl`, appended and flushed to disk inside the
 * change's own transaction, before it commits (records-database.ts). Each line holds the whole record
 * as it became (or its key and `delete`), numbered by a sequence that records.db keeps too, so:
 *
 * - a restore puts the newest sound backup copy in place and replays every change numbered after the
 *   copy's own number: nothing made after the copy is lost, and nothing deleted comes back;
 * - once a kept copy holds a change, the journal may forget it (`trim`), keeping it small;
 * - the lines are the records as documents with tombstones, the feed a team's replication reads.
 *
 * A line is `<crc32 of the JSON, 8 hex> <JSON>`: a line cut short by a crash or garbled on disk fails
 * its check and is counted as unreadable, never applied. The first line says from which number on the
 * journal is whole (`base`): a copy numbered `base` or later is covered by it.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { crc32 } from 'node:zlib';
import type { RecordTable, Row } from './records-salvage';
import { RECORD_TABLES } from './records-salvage';

export const CHANGE_JOURNAL_FILE_NAME = 'records-journal.jsonl';
const FORMAT = 1;

/** One record's change: the record as it became, or its key and a deletion (a tombstone). */
export interface RecordChange {
  /** Its number: one more than the change before it, here and in records.db. */
  seq: number;
  /** When it was made (epoch ms). */
  at: number;
  table: RecordTable;
  /** The record's key columns and their values. */
  key: Row;
  op: 'put' | 'delete';
  /** The whole record, for a put. */
  row?: Row;
}

export interface JournalRead {
  /** Whether a journal file was there to read. */
  exists: boolean;
  /** Changes numbered after this are all in the journal (when it exists). */
  base: number;
  /** The readable changes in order of their numbers, without those a failed write left void. */
  changes: RecordChange[];
  /** Whole lines that failed their check or could not be understood (garbled on disk). */
  unreadable: number;
  /** Numbers after `base` with no change and not void: changes the journal lost. */
  missing: number[];
  /** The highest number the journal has given out, void changes included. */
  lastSeq: number;
}

export interface ChangeJournal {
  readonly path: string;
  read(): JournalRead;
  /**
   * Appends changes and flushes them to disk; a journal not yet on disk starts whole from `base`.
   * Throws the file system's error when the disk refuses.
   */
  append(changes: readonly RecordChange[], base: number): void;
  /** Says that the changes numbered `from`…`to` never reached records.db (their commit failed). */
  voidChanges(from: number, to: number): void;
  /** Forgets the changes numbered `base` and before (a kept copy holds them). */
  trim(base: number): void;
  /** Starts the journal afresh, whole from `base` (records.db was rebuilt another way). */
  reset(base: number): void;
}

function encodeLine(value: unknown): string {
  const json = JSON.stringify(value);
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

/** A line's JSON when its check holds; null for a line cut short or garbled. */
function decodeLine(line: string): unknown {
  const space = line.indexOf(' ');
  if (space !== 8) return null;
  const json = line.slice(9);
  if (crc32(json).toString(16).padStart(8, '0') !== line.slice(0, 8)) return null;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null; // A matching check over text that is not JSON: written by something else.
  }
}

const isRecord = (value: unknown): value is Row =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A decoded line as a change, when it is one this FieldDesk understands. */
function changeOf(value: Row): RecordChange | null {
  const { seq, at, table, key, op, row } = value;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || typeof at !== 'number') return null;
  if (typeof table !== 'string' || !Object.hasOwn(RECORD_TABLES, table) || !isRecord(key)) return null;
  if (op === 'delete') return { seq, at, table: table as RecordTable, key, op };
  if (op === 'put' && isRecord(row)) return { seq, at, table: table as RecordTable, key, op, row };
  return null;
}

/** Writes `text` to a new file at `path` through a temporary name, flushed: whole or not there. */
function replaceFile(path: string, text: string): void {
  const part = `${path}.part`;
  const fd = openSync(part, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(part, path);
}

export function openChangeJournal(path: string): ChangeJournal {
  // A rewrite cut short by a crash: the journal it was replacing is still whole.
  rmSync(`${path}.part`, { force: true });

  function read(): JournalRead {
    if (!existsSync(path))
      return { exists: false, base: 0, changes: [], unreadable: 0, missing: [], lastSeq: 0 };
    let base: number | null = null;
    let unreadable = 0;
    let lastSeq = 0;
    const bySeq = new Map<number, RecordChange>();
    const voided: Array<[number, number]> = [];
    const lines = readFileSync(path, 'utf8').split('\n');
    // The text after the last line break is an append a crash cut short: never applied, not a loss
    // (its change never committed).
    lines.pop();
    for (const line of lines) {
      if (line === '') continue;
      const value = decodeLine(line);
      if (!isRecord(value)) {
        unreadable++;
        continue;
      }
      if (typeof value.base === 'number' && value.format === FORMAT) {
        base = value.base;
        lastSeq = Math.max(lastSeq, value.base);
        continue;
      }
      if (Array.isArray(value.void) && value.void.length === 2) {
        const [from, to] = value.void as unknown[];
        if (typeof from === 'number' && typeof to === 'number') {
          voided.push([from, to]);
          continue;
        }
      }
      const change = changeOf(value);
      if (change === null) {
        unreadable++;
        continue;
      }
      bySeq.set(change.seq, change);
      lastSeq = Math.max(lastSeq, change.seq);
    }
    const isVoid = (seq: number) => voided.some(([from, to]) => seq >= from && seq <= to);
    const changes = [...bySeq.values()].filter((c) => !isVoid(c.seq)).sort((a, b) => a.seq - b.seq);
    for (const [, to] of voided) lastSeq = Math.max(lastSeq, to);
    const missing: number[] = [];
    if (base !== null)
      for (let seq = base + 1; seq <= lastSeq; seq++) if (!bySeq.has(seq) && !isVoid(seq)) missing.push(seq);
    // Without its first line the journal cannot say where it is whole from: no copy is covered.
    return { exists: true, base: base ?? Number.POSITIVE_INFINITY, changes, unreadable, missing, lastSeq };
  }

  function appendText(text: string, base: number): void {
    const fresh = !existsSync(path);
    const fd = openSync(path, 'a', 0o600);
    try {
      writeSync(fd, fresh ? encodeLine({ format: FORMAT, base }) + text : text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  return {
    path,
    read,
    append(changes, base) {
      if (changes.length === 0) return;
      appendText(changes.map(encodeLine).join(''), base);
    },
    voidChanges(from, to) {
      appendText(encodeLine({ void: [from, to] }), from - 1);
    },
    trim(base) {
      const journal = read();
      if (!journal.exists || journal.base >= base) return;
      const kept = journal.changes.filter((change) => change.seq > base);
      replaceFile(path, [{ format: FORMAT, base }, ...kept].map(encodeLine).join(''));
    },
    reset(base) {
      replaceFile(path, encodeLine({ format: FORMAT, base }));
    },
  };
}
