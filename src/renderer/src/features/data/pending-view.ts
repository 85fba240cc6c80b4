/**
 * A zoom or pan asked for and not yet answered. The time charts draw it at once from the points
 * they hold (fewer per pixel for a moment) and the answer read for it at the chart's width then
 * sharpens them: a step shows in the next frame instead of after a read from the cache.
 */
import { computed, ref, watch, type ComputedRef, type Ref, type WatchSource } from 'vue';
import type { TimeInterval } from '../../../../shared/data';

export interface PendingView {
  /** The range the time charts draw: the view asked for while it waits, else the answer's. */
  shown: ComputedRef<TimeInterval>;
  /** The view waiting for its answer; null when none waits. */
  pending: Ref<TimeInterval | null>;
  /**
   * A view asked for with `read`, which starts reading it: drawn at once, until an answer or a
   * failed read ends the wait. A read that did not start (the question not ready) leaves nothing
   * waiting, so the charts never show a view nobody reads.
   */
  ask(view: TimeInterval, read: (view: TimeInterval) => void): void;
}

/**
 * `answered` is the range of the answer on screen; `answer` changes with every new answer; `loading`
 * whether a read is under way. A new answer ends the wait, and so does a read that failed (the
 * answer before then stays, drawn at its own range, as the data view says).
 */
export function usePendingView(
  answered: () => TimeInterval,
  answer: WatchSource<unknown>,
  loading: () => boolean,
): PendingView {
  const pending = ref<TimeInterval | null>(null);
  watch(answer, () => (pending.value = null));
  watch(answered, () => (pending.value = null));
  watch(loading, (busy) => {
    if (!busy) pending.value = null;
  });
  return {
    shown: computed(() => pending.value ?? answered()),
    pending,
    ask(view, read) {
      pending.value = view;
      read(view);
      if (!loading()) pending.value = null;
    },
  };
}
