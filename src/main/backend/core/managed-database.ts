/**
 * One SQLite file and the stores built on it, kept usable for the whole session: every store call
 * goes through `use`, which answers with the open file's stores; when a call meets damage, the file
 * is replaced (set aside for a fresh one, or restored from a backup — the owner decides) and the
 * call fails with a retryable error saying so, and later calls use the new file. A file that cannot
 * be opened at all leaves the stores unavailable with that reason, the rest of FieldDesk working.
 *
 * `view(key)` gives one store as a plain object of its interface whose every method goes through
 * `use`, so the domains hold a `SiteStore` or a `CacheStore` and never see files being replaced.
 */
import { FieldDeskError } from '../../../shared/errors';
import { isDatabaseDamage, type FieldDeskDatabase } from './database';
import { diskFailure, sqliteDiskError } from './disk-errors';

export interface ManagedDatabaseOptions<P> {
  /** What the file holds, for messages: "your records", "the data cache". */
  subject: string;
  /** The data folder, for messages about the disk. */
  dataDir: string;
  /** Opens the file (throws a FieldDeskError saying why it cannot be used). */
  open(): FieldDeskDatabase;
  /** Builds the stores on an open file. */
  build(database: FieldDeskDatabase): P;
  /**
   * Replaces a file found damaged mid-session (already closed): sets it aside or restores it, and
   * returns what to tell the user. The next `open` then opens the replacement.
   */
  replaceDamaged(database: FieldDeskDatabase, cause: unknown): string;
  /** Told when the file cannot be opened (and again when it can: null). */
  onUnavailable(problem: FieldDeskError | null): void;
  /** Called after each successful use (the records take backups from it). */
  afterUse?(database: FieldDeskDatabase): void;
  /**
   * Runs each use's work on the open file (the records wrap it in a transaction that journals its
   * changes before they commit); by default the work is run as it is.
   */
  around?<T>(database: FieldDeskDatabase, work: () => T): T;
}

export interface ManagedDatabase<P> {
  /** Runs `work` on the stores; damage replaces the file and fails retryably, saying so. */
  use<T>(work: (parts: P) => T): T;
  /** One store whose every method goes through `use`. */
  view<K extends keyof P>(key: K): P[K];
  /** The open file, or null when it is unavailable. */
  current(): FieldDeskDatabase | null;
  /** Why the file cannot be used now; null when it can. */
  problem(): FieldDeskError | null;
  close(): void;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

export function manageDatabase<P extends object>(options: ManagedDatabaseOptions<P>): ManagedDatabase<P> {
  let database: FieldDeskDatabase | null = null;
  let parts: P | null = null;
  let problem: FieldDeskError | null = null;

  function open(): void {
    try {
      database = options.open();
      parts = options.build(database);
      problem = null;
      options.onUnavailable(null);
    } catch (error) {
      database?.close();
      database = null;
      parts = null;
      problem =
        error instanceof FieldDeskError
          ? error
          : new FieldDeskError('internal', `FieldDesk could not open ${options.subject}.`, { cause: error });
      options.onUnavailable(problem);
    }
  }

  /** The error a failed use reports: damage replaced and said, a refused write in words, else as is. */
  function failure(error: unknown, used: FieldDeskDatabase): unknown {
    if (isDatabaseDamage(error) && database === used) {
      used.close();
      database = null;
      parts = null;
      let message: string;
      try {
        message = options.replaceDamaged(used, error);
      } catch (replaceError) {
        problem =
          replaceError instanceof FieldDeskError
            ? replaceError
            : new FieldDeskError(
                'internal',
                `${options.subject} in ${used.path} is damaged and FieldDesk could not replace it. Move it away and restart FieldDesk.`,
                { cause: replaceError },
              );
        options.onUnavailable(problem);
        return problem;
      }
      open();
      return new FieldDeskError('internal', `${message} Try again.`, { retryable: true, cause: error });
    }
    const disk = sqliteDiskError(error);
    if (disk !== null) {
      return diskFailure(disk, { folder: options.dataDir, what: `a change to ${options.subject}` }) ?? error;
    }
    return error;
  }

  function use<T>(work: (parts: P) => T): T {
    const used = database;
    if (used === null || parts === null)
      throw problem ?? new FieldDeskError('internal', `${options.subject} is unavailable.`);
    let result: T;
    const stores = parts;
    try {
      result = options.around ? options.around(used, () => work(stores)) : work(stores);
    } catch (error) {
      throw failure(error, used);
    }
    if (isThenable(result)) {
      return Promise.resolve(result).then(
        (value) => {
          options.afterUse?.(used);
          return value;
        },
        (error: unknown) => {
          throw failure(error, used);
        },
      ) as T;
    }
    options.afterUse?.(used);
    return result;
  }

  open();

  return {
    use,
    view<K extends keyof P>(key: K): P[K] {
      // Every property of the store is a method; each call reaches the store of the file open now.
      return new Proxy({} as object, {
        get: (_target, method) =>
          // Not a thenable, whatever awaits it.
          method === 'then'
            ? undefined
            : (...args: unknown[]) =>
                use((current) => {
                  const store = current[key] as Record<PropertyKey, (...a: unknown[]) => unknown>;
                  return store[method]!(...args);
                }),
      }) as P[K];
    },
    current: () => database,
    problem: () => problem,
    close() {
      database?.close();
      database = null;
      parts = null;
    },
  };
}
