/**
 * Shows a heavy page in steps: when `source` changes, `stage` goes back to 1 and then up by one a
 * frame until `stages`, so each part (the figures, then each chart, then the tables) is drawn in a
 * task of its own and the page answers input between them — a year's result drawn at once held
 * the page for seconds.
 */
import { onBeforeUnmount, ref, watch, type Ref, type WatchSource } from 'vue';

/** After the next frame is painted: a frame, then a task, so the step lands after the paint. */
const afterPaint = (step: () => void): (() => void) => {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const frame = requestAnimationFrame(() => (timer = setTimeout(step, 0)));
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== null) clearTimeout(timer);
  };
};

export function useStagedReveal(source: WatchSource<unknown>, stages: () => number): Ref<number> {
  const stage = ref(1);
  let cancel: (() => void) | null = null;
  const next = () => {
    cancel = null;
    if (stage.value >= stages()) return;
    stage.value += 1;
    cancel = afterPaint(next);
  };
  watch(
    source,
    () => {
      cancel?.();
      stage.value = 1;
      cancel = afterPaint(next);
    },
    { immediate: true },
  );
  onBeforeUnmount(() => cancel?.());
  return stage;
}
