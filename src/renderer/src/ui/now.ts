/** A clock shared by every "2 min ago" on screen, ticking while something shows one. */
import { computed, onScopeDispose, ref, type ComputedRef, type Ref } from 'vue';
import { startOfDayIn, type DisplayZone } from './time';

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

/**
 * `now` for texts that give a date unless it is today (`intervalText`): the start of the current
 * day in `zone`, so what depends on it changes once a day, not at every tick.
 */
export function useToday(zone: () => DisplayZone): ComputedRef<number> {
  const now = useNow();
  return computed(() => startOfDayIn(now.value, zone()));
}
