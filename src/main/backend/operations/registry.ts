/**
 * The operations registry: every long-running piece of work the backend does for the renderer
 * (field actions now; syncs and downloads later). It holds the latest snapshot of each operation,
 * pushes every change, cancels on request, and keeps the most recent finished operations so a
 * reloaded window can re-attach with `operations.list`.
 *
 * It knows nothing about what an operation does: each one registers a handle whose `cancel()`
 * moves it to `cancelled` (synchronously, through its own state machine) and aborts its work.
 */
import { randomUUID } from 'node:crypto';
import { FieldDeskError } from '../../../shared/errors';
import { isFinishedState, type OperationSnapshot } from '../../../shared/operations';
import type { Logger } from '../core/log';

/** How many finished operations are kept for re-attaching. */
export const KEEP_FINISHED_OPERATIONS = 50;

export interface OperationHandle {
  /** Moves the operation to `cancelled` (reporting it through `update`) and stops its work. */
  cancel(): void;
}

export interface OperationRegistryOptions {
  /** Called with every new or changed snapshot (feeds `operations.progress`). */
  onChange(snapshot: OperationSnapshot): void;
  /** Called once when an operation finishes (feeds the local history). */
  onFinished?(snapshot: OperationSnapshot): void;
  keepFinished?: number;
  /** Where a failing receiver is recorded. */
  log?: Logger;
}

export interface OperationRegistry {
  /** A fresh random id (URL- and file-safe). */
  newId(): string;
  /** Registers a new running operation and reports its first snapshot. */
  begin(snapshot: OperationSnapshot, handle: OperationHandle): void;
  /** Reports a changed snapshot; ignored once the operation has finished or is unknown. */
  update(snapshot: OperationSnapshot): void;
  get(id: string): OperationSnapshot | undefined;
  /** Running operations first, then finished ones; newest first within each. */
  list(): OperationSnapshot[];
  running(): OperationSnapshot[];
  /** Cancels a running operation; a finished one is answered as it is. Unknown ids throw `invalidInput`. */
  cancel(id: string): OperationSnapshot;
  /** Cancels everything still running (backend shutdown). */
  cancelAll(): void;
}

const UNKNOWN_OPERATION =
  'FieldDesk has no record of that operation. It may have finished long ago or before FieldDesk restarted.';

export function createOperationRegistry(options: OperationRegistryOptions): OperationRegistry {
  const keepFinished = options.keepFinished ?? KEEP_FINISHED_OPERATIONS;
  const running = new Map<string, { snapshot: OperationSnapshot; handle: OperationHandle }>();
  /** Oldest first; trimmed to `keepFinished`. */
  const finished: OperationSnapshot[] = [];

  const newestFirst = (a: OperationSnapshot, b: OperationSnapshot) => b.startedAt - a.startedAt;

  function report(snapshot: OperationSnapshot): void {
    try {
      options.onChange(snapshot);
    } catch (error) {
      // A failing receiver must not stop the operation.
      options.log?.warn('operation progress not delivered', { id: snapshot.id, error });
    }
  }

  function update(snapshot: OperationSnapshot): void {
    const entry = running.get(snapshot.id);
    if (entry === undefined) return;
    if (isFinishedState(snapshot.state)) {
      running.delete(snapshot.id);
      finished.push(snapshot);
      if (finished.length > keepFinished) finished.splice(0, finished.length - keepFinished);
      try {
        options.onFinished?.(snapshot);
      } catch (error) {
        // Storing the history is best effort: the operation's outcome is still reported.
        options.log?.error('finished operation not kept', { id: snapshot.id, error });
      }
    } else {
      entry.snapshot = snapshot;
    }
    report(snapshot);
  }

  function get(id: string): OperationSnapshot | undefined {
    return running.get(id)?.snapshot ?? finished.find((s) => s.id === id);
  }

  return {
    newId: () => randomUUID(),

    begin(snapshot, handle) {
      if (get(snapshot.id) !== undefined) throw new Error(`operation ${snapshot.id} already exists`);
      running.set(snapshot.id, { snapshot, handle });
      report(snapshot);
    },

    update,
    get,

    list() {
      const active = [...running.values()].map((e) => e.snapshot).sort(newestFirst);
      return [...active, ...[...finished].sort(newestFirst)];
    },

    running() {
      return [...running.values()].map((e) => e.snapshot).sort(newestFirst);
    },

    cancel(id) {
      const entry = running.get(id);
      if (entry !== undefined) {
        entry.handle.cancel();
        // The handle reports `cancelled` through update(); if it did not, do not pretend it stopped.
        const after = get(id);
        if (after !== undefined) return after;
      }
      const done = finished.find((s) => s.id === id);
      if (done !== undefined) return done;
      throw new FieldDeskError('invalidInput', UNKNOWN_OPERATION, { field: 'id' });
    },

    cancelAll() {
      for (const { handle } of [...running.values()]) {
        try {
          handle.cancel();
        } catch (error) {
          // Keep cancelling the others.
          options.log?.warn('operation could not be cancelled', { error });
        }
      }
    },
  };
}
