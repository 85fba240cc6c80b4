/**
 * The backend's log: one injected `Logger` (levels, a message, plain fields, an error with its
 * causes), every record passed through the redactor before it is written, and a writer — by default
 * JSON lines in `<dataDir>/logs/fielddesk.log`, private to the user (0600 in a 0700 folder), rotated
 * at about 1 MB keeping the three before it (`fielddesk.1.log` is the newest of those).
 *
 * Any backend module that needs to log takes a `Logger` (`createBackend` makes the one in use);
 * `silentLogger` stands in where nothing is wanted (tests of a single module).
 */
import { appendFile, chmod, mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { LOG_LEVELS, type LogLevel } from '../../../shared/diagnostics';
import { FieldDeskError } from '../../../shared/errors';

/** What a line says besides its message: `error` (any thrown value), `channel`, anything plain. */
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /**
   * A logger of one part of FieldDesk: its lines say which (`"logger": "visits.photos"`), and it
   * writes through the same file at the same level.
   */
  child(name: string): Logger;
  /** Resolves once everything logged so far is written (before reading the files, and at close). */
  flush(): Promise<void>;
}

/** The backend's one logger, whose least level can change while FieldDesk runs (for support). */
export interface RootLogger extends Logger {
  level(): LogLevel;
  setLevel(level: LogLevel): void;
}

/** One line as written: plain JSON values only, already redacted. */
export interface LogRecord {
  time: string;
  level: LogLevel;
  message: string;
  [field: string]: unknown;
}

/** Where records go: the rotating file, or memory in tests. */
export interface LogWriter {
  write(record: LogRecord): void;
  flush(): Promise<void>;
}

export const LOG_FOLDER_NAME = 'logs';
export const LOG_FILE_NAME = 'fielddesk.log';
/** `fielddesk.log`, `fielddesk.1.log`, … — the current file and the ones rotated out. */
export const LOG_FILE_PATTERN = /^fielddesk(\.\d+)?\.log$/;

/** The log folder of a data folder. */
export const logFolder = (dataDir: string): string => join(dataDir, LOG_FOLDER_NAME);

/** How deep fields are followed, and how long a string may be, before they are cut. */
const MAX_DEPTH = 6;
const MAX_STRING = 8_000;
const MAX_CAUSES = 5;

/** An error as plain fields: name, code, message, stack, and its causes (a few levels). */
export function describeError(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { value: plain(error, MAX_DEPTH - 1) };
  const described: Record<string, unknown> = { name: error.name, message: error.message };
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') described['code'] = code;
  if (error instanceof FieldDeskError) {
    if (error.status !== undefined) described['status'] = error.status;
    if (error.serverCode !== undefined) described['serverCode'] = error.serverCode;
  }
  if (error.stack !== undefined) described['stack'] = error.stack;
  // Only these fields: an error may hold a request, and a request holds the API key in its headers.
  if (error.cause !== undefined && depth < MAX_CAUSES)
    described['cause'] = describeError(error.cause, depth + 1);
  if (error instanceof AggregateError)
    described['errors'] = error.errors.slice(0, MAX_CAUSES).map((inner) => describeError(inner, depth + 1));
  return described;
}

/** A value as plain JSON (strings cut, typed arrays summarised, cycles and depth stopped). */
function plain(value: unknown, depth: number, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string')
    return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} characters)` : value;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (typeof value === 'bigint') return value.toString();
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value instanceof Error) return describeError(value);
  if (ArrayBuffer.isView(value)) return `[${value.constructor.name} of ${value.byteLength} bytes]`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (seen.has(value)) return '[circular]';
  if (depth <= 0) return '[…]';
  seen.add(value);
  if (Array.isArray(value)) return value.slice(0, 100).map((item) => plain(item, depth - 1, seen) ?? null);
  const result: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const converted = plain(item, depth - 1, seen);
    if (converted !== undefined) result[name] = converted;
  }
  return result;
}

export interface LoggerOptions {
  /** Applied to each record before it is written: the backend's secrets redactor. */
  redact: <T>(value: T) => T;
  /** The least level written (default `info`). */
  level?: LogLevel;
  now?: () => number;
}

export function createLogger(writer: LogWriter, options: LoggerOptions): RootLogger {
  let least = LOG_LEVELS.indexOf(options.level ?? 'info');
  const now = options.now ?? Date.now;
  const write = (name: string | null, level: LogLevel, message: string, fields: LogFields = {}) => {
    if (LOG_LEVELS.indexOf(level) < least) return;
    const { error, ...rest } = fields;
    const record: LogRecord = {
      time: new Date(now()).toISOString(),
      level,
      ...(name === null ? {} : { logger: name }),
      message,
      ...(plain(rest, MAX_DEPTH) as Record<string, unknown>),
      ...(error === undefined ? {} : { error: describeError(error) }),
    };
    writer.write(options.redact(record));
  };
  const named = (name: string | null): Logger => ({
    debug: (message, fields) => write(name, 'debug', message, fields),
    info: (message, fields) => write(name, 'info', message, fields),
    warn: (message, fields) => write(name, 'warn', message, fields),
    error: (message, fields) => write(name, 'error', message, fields),
    child: (part) => named(name === null ? part : `${name}.${part}`),
    flush: () => writer.flush(),
  });
  return {
    ...named(null),
    level: () => LOG_LEVELS[least] ?? 'info',
    setLevel: (level) => {
      least = LOG_LEVELS.indexOf(level);
    },
  };
}

/** A logger that writes nothing, for modules used without a backend. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
  flush: async () => undefined,
};

/** Records kept in memory (tests inject it as `BackendOptions.log`). */
export function memoryLogWriter(): LogWriter & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  return { records, write: (record) => void records.push(record), flush: async () => undefined };
}

export interface LogFileOptions {
  /** The size at which the file is rotated (default 1 MB). */
  maxBytes?: number;
  /** How many rotated files are kept besides the current one (default 3). */
  keep?: number;
}

const rotatedName = (index: number) => (index === 0 ? LOG_FILE_NAME : `fielddesk.${index}.log`);

/**
 * JSON lines in `folder/fielddesk.log`, appended in order. A write that fails (a full disk) loses
 * that line only: it is said once on stderr, since the log itself is what failed, and the next line
 * tries again.
 */
export function openLogFile(folder: string, options: LogFileOptions = {}): LogWriter {
  const maxBytes = options.maxBytes ?? 1_000_000;
  const keep = options.keep ?? 3;
  const path = join(folder, LOG_FILE_NAME);
  /** The current file's size, once known; null until the folder is ready (again). */
  let size: number | null = null;
  let queue: Promise<void> = Promise.resolve();
  let complained = false;

  async function prepare(): Promise<number> {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    // Files of an earlier run, or made by hand, become private too.
    for (const name of await readdir(folder)) {
      if (LOG_FILE_PATTERN.test(name)) await chmod(join(folder, name), 0o600);
    }
    try {
      return (await stat(path)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
  }

  async function rotate(): Promise<void> {
    await unlink(join(folder, rotatedName(keep))).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    for (let index = keep - 1; index >= 0; index--) {
      await rename(join(folder, rotatedName(index)), join(folder, rotatedName(index + 1))).catch(
        (error: NodeJS.ErrnoException) => {
          // A gap in the series (never rotated that far) is fine.
          if (error.code !== 'ENOENT') throw error;
        },
      );
    }
  }

  return {
    write(record) {
      const line = `${JSON.stringify(record)}\n`;
      queue = queue.then(async () => {
        try {
          size ??= await prepare();
          const bytes = Buffer.byteLength(line);
          if (size > 0 && size + bytes > maxBytes) {
            await rotate();
            size = 0;
          }
          await appendFile(path, line, { mode: 0o600 });
          size += bytes;
        } catch (error) {
          size = null;
          if (!complained) {
            complained = true;
            console.error(`FieldDesk could not write its log in ${folder}: ${String(error)}`);
          }
        }
      });
    },
    flush: () => queue,
  };
}

/** The log files of a data folder, newest first (the current one, then 1, 2, …). */
export async function logFiles(dataDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(logFolder(dataDir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const index = (name: string) => Number(/\.(\d+)\.log$/.exec(name)?.[1] ?? 0);
  return names
    .filter((name) => LOG_FILE_PATTERN.test(name))
    .sort((a, b) => index(a) - index(b))
    .map((name) => join(logFolder(dataDir), name));
}
