/**
 * A button's work as the user sees it: busy while it runs (the button says so and waits), and the
 * reason in words when it fails — the one way every screen shows that.
 */
import { ref, type Ref } from 'vue';
import { errorMessage } from '../errors';

export interface UserAction {
  readonly busy: Ref<boolean>;
  /** Runs `work` with `busy` set; a failure becomes `error`'s message (returns undefined then). */
  run<T>(work: () => Promise<T>): Promise<T | undefined>;
}

/** One action; several that share one error line pass the same `error` ref. */
export function useUserAction(
  error: Ref<string | null> = ref(null),
): UserAction & { error: Ref<string | null> } {
  const busy = ref(false);
  return {
    busy,
    error,
    async run(work) {
      busy.value = true;
      error.value = null;
      try {
        return await work();
      } catch (caught) {
        error.value = errorMessage(caught);
        return undefined;
      } finally {
        busy.value = false;
      }
    },
  };
}
