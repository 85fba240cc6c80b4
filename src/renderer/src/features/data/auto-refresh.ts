/**
 * An open data view keeps its recent readings current by itself: online, once the still-open part
 * of the answer shown (where the service may still add readings) was fetched longer ago than the
 * user's "Refresh cached data older than N minutes", it is read again. One timer per view, cleared
 * when the view closes; none while offline or while a read is under way, so requests never pile up;
 * and never more often than once per refresh age, even when a read brings nothing newer.
 */
import { onScopeDispose, watch } from 'vue';
import type { Provenance } from '../../../../shared/data';

/**
 * When the shown answer is due to be read again (epoch ms), or null when it has nothing that can
 * change: a settled range, an answer with parts missing (its warning and Refresh stand), or none.
 * `lastTriedAt` is when the view last read again by itself, so a read that brought nothing newer
 * (the service failed, the clock moved) waits a whole refresh age before the next.
 */
export function refreshDueAt(
  provenance: Provenance,
  refreshAfterMs: number,
  lastTriedAt: number | null,
): number | null {
  if (provenance.source === 'partial' || provenance.openFetchedAt === undefined) return null;
  return Math.max(provenance.openFetchedAt, lastTriedAt ?? Number.NEGATIVE_INFINITY) + refreshAfterMs;
}

export interface AutoRefreshOptions {
  /** The answer on screen; null while there is none. */
  provenance: () => Provenance | null;
  /** The user's refresh age (ms). */
  refreshAfterMs: () => number;
  /** False while FieldDesk knows it is offline: nothing is read then. */
  online: () => boolean;
  /** A read is under way: its answer decides what comes next. */
  busy: () => boolean;
  /** Reads the view again, asking the service for its open part whatever its age. */
  reread: () => void;
}

/** Keeps the view's timer in step with its answer, the setting and the connection (see above). */
export function useAutoRefresh(options: AutoRefreshOptions): void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastTriedAt: number | null = null;

  const cancel = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  const schedule = (): void => {
    cancel();
    const provenance = options.provenance();
    if (provenance === null || !options.online() || options.busy()) return;
    const due = refreshDueAt(provenance, options.refreshAfterMs(), lastTriedAt);
    if (due === null) return;
    timer = setTimeout(
      () => {
        timer = null;
        // A change not yet seen by the watcher below: it schedules again once it is.
        if (!options.online() || options.busy()) return;
        lastTriedAt = Date.now();
        options.reread();
      },
      Math.max(0, due - Date.now()),
    );
  };

  watch([options.provenance, options.refreshAfterMs, options.online, options.busy], schedule, {
    immediate: true,
  });
  onScopeDispose(cancel);
}
