/** A clock shared by every "2 min ago" on screen, ticking while something shows one. */
import { onScopeDispose, ref, type Ref } from 'vue';

const now = ref(Date.now());
let users = 0;
let timer: ReturnType<typeof setInterval> | null = null;

export function useNow(): Ref<number> {
  users += 1;
  if (timer === null) {
    now.value = Date.now();
    timer = setInterval(() => (now.value = Date.now()), 15_000);
  }
  onScopeDispose(() => {
    users -= 1;
    if (users === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  });
  return now;
}
