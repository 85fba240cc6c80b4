/**
 * The part of PouchDB 9 the team's replication uses. DefinitelyTyped's types describe PouchDB 6 and
 * declare a global `Buffer` that breaks Node's own, so these few are declared here.
 */
declare module 'pouchdb-node' {
  namespace PouchDB {
    interface Meta {
      _id: string;
      _rev: string;
      _deleted?: boolean;
      _conflicts?: string[];
      _revisions?: { start: number; ids: string[] };
      _revs_info?: Array<{ rev: string; status: 'available' | 'missing' | 'deleted' }>;
      /** Stubs (`stub: true`, digest, length) unless asked with their data. */
      _attachments?: Record<
        string,
        { stub?: boolean; content_type: string; digest?: string; length?: number }
      >;
    }
    type Existing<T> = T & Meta;
    interface GetOptions {
      rev?: string;
      revs_info?: boolean;
      revs?: boolean;
      conflicts?: boolean;
    }
    interface Written {
      ok?: boolean;
      id: string;
      rev: string;
      error?: string;
      reason?: string;
    }
    interface AllDocsOptions {
      include_docs?: boolean;
      conflicts?: boolean;
      startkey?: string;
      endkey?: string;
    }
    interface AllDocs<T> {
      rows: Array<{ id: string; value: { rev: string }; doc?: Existing<T> }>;
    }
    interface Change {
      id: string;
      seq: number | string;
      changes: Array<{ rev: string }>;
      deleted?: boolean;
    }
    interface Emitter<E> {
      on<K extends keyof E>(event: K, listener: E[K]): this;
      cancel(): void;
    }
    interface ChangesEvents {
      change: (change: Change) => void;
      error: (error: unknown) => void;
    }
    interface SyncEvents<T> {
      change: (info: { direction: 'push' | 'pull'; change: { docs: Array<Existing<T>> } }) => void;
      paused: (error?: unknown) => void;
      active: () => void;
      denied: (error: unknown) => void;
      error: (error: unknown) => void;
    }
    interface SyncOptions {
      live?: boolean;
      retry?: boolean;
      back_off_function?: (delay: number) => number;
      pull?: { filter?: string; query_params?: Record<string, string> };
    }
    interface DatabaseOptions {
      skip_setup?: boolean;
      auth?: { username: string; password: string };
    }
    interface Database<T extends object = object> {
      get(id: string, options?: GetOptions): Promise<Existing<T>>;
      get(id: string, options: { open_revs: 'all' }): Promise<Array<{ ok?: Existing<T>; missing?: string }>>;
      get<L extends object>(id: string): Promise<Existing<L>>;
      put(doc: object): Promise<Written>;
      bulkDocs(docs: readonly object[]): Promise<Written[]>;
      allDocs(options?: AllDocsOptions): Promise<AllDocs<T>>;
      changes(options: { since: 'now' | number; live: true; style?: 'all_docs' }): Emitter<ChangesEvents>;
      changes(options: { since: number; include_docs: true }): Promise<{
        results: Array<Change & { doc?: Existing<T> }>;
      }>;
      sync(remote: Database<T>, options: SyncOptions): Emitter<SyncEvents<T>>;
      replicate: { from(remote: Database<T>, options: SyncOptions['pull']): Promise<unknown> };
      getAttachment(id: string, name: string, options?: { rev?: string }): Promise<Buffer>;
      /** Of the revisions given per document, those the database does not have. */
      revsDiff(revs: Record<string, string[]>): Promise<Record<string, { missing: string[] }>>;
      info(): Promise<{ doc_count: number; update_seq: number | string }>;
      close(): Promise<void>;
    }
  }
  interface PouchDBStatic {
    new <T extends object = object>(name: string, options?: PouchDB.DatabaseOptions): PouchDB.Database<T>;
  }
  const PouchDB: PouchDBStatic;
  export = PouchDB;
}
