/**
 * Which download runs next. Two lanes: a download someone is waiting on (an event's Play, a
 * single recording asked for) goes before everything a "Download all" queued, and it may take one
 * slot beyond the usual limit, so it starts at once even while bulk transfers fill every slot —
 * a Play never waits for a large file someone else asked for to finish.
 *
 * - `concurrency` transfers at most run for bulk work; urgent work may run one more.
 * - Asking again for a waiting download as urgent moves it to the urgent lane (once, never twice).
 * - A download already running is not asked to run again.
 */
import type { DownloadPriority } from '../../../shared/audio';

export interface DownloadQueueOptions {
  concurrency: number;
  /** Runs one download; the queue waits for it before giving its slot to the next. */
  run: (id: string) => Promise<void>;
  /** Told when a run rejects (run() is expected to handle its own failures). */
  onError?: (id: string, error: unknown) => void;
}

export interface DownloadQueue {
  /** Queues a download, or moves a waiting one to the urgent lane; starts what can start. */
  add(id: string, priority: DownloadPriority): void;
  /** Forgets every waiting download (running ones go on). */
  clear(): void;
  /** The waiting downloads in the order they will start. */
  waiting(): string[];
  /** The downloads running now. */
  running(): string[];
}

export function createDownloadQueue(options: DownloadQueueOptions): DownloadQueue {
  const urgent: string[] = [];
  const bulk: string[] = [];
  const active = new Set<string>();

  function next(): string | undefined {
    if (urgent.length > 0 && active.size < options.concurrency + 1) return urgent.shift();
    if (bulk.length > 0 && active.size < options.concurrency) return bulk.shift();
    return undefined;
  }

  function pump(): void {
    for (let id = next(); id !== undefined; id = next()) {
      const started = id;
      active.add(started);
      void options
        .run(started)
        .catch((error: unknown) => options.onError?.(started, error))
        .finally(() => {
          active.delete(started);
          pump();
        });
    }
  }

  return {
    add(id, priority) {
      if (active.has(id) || urgent.includes(id)) return;
      const inBulk = bulk.indexOf(id);
      if (inBulk >= 0) {
        if (priority === 'bulk') return;
        bulk.splice(inBulk, 1);
      }
      (priority === 'urgent' ? urgent : bulk).push(id);
      pump();
    },
    clear() {
      urgent.length = 0;
      bulk.length = 0;
    },
    waiting: () => [...urgent, ...bulk],
    running: () => [...active],
  };
}
