/**
 * The live check's state for one instrument: its newest 1 s levels, read by a live reader
 * (live-reader.ts) for as long as the scope that asked lives — a view's setup, so leaving the view
 * stops the reads. Hidden windows read less often; showing the window again reads at once.
 * It reads through `read`, the data store's `liveLevels` (effects live in stores).
 */
import { markRaw, onScopeDispose, ref, shallowRef, watch } from 'vue';
import { asFieldDeskError } from '../../errors';
import type { FieldDeskError } from '../../../../shared/errors';
import type { LiveLevels } from '../../../../shared/live';
import { createLiveReader, type LiveReader, type LiveReaderTiming } from './live-reader';

const windowHidden = (): boolean => typeof document !== 'undefined' && document.visibilityState === 'hidden';

export function useLiveLevels(
  serial: () => string,
  read: (serial: string) => Promise<LiveLevels>,
  timing?: LiveReaderTiming,
) {
  const latest = shallowRef<LiveLevels | null>(null);
  const error = shallowRef<FieldDeskError | null>(null);
  /** After a failed read: how long until the next (ms). */
  const retryInMs = ref<number | null>(null);
  const polling = ref(false);
  let reader: LiveReader | null = null;

  function begin(): void {
    reader?.stop();
    latest.value = null;
    error.value = null;
    retryInMs.value = null;
    const asked = serial();
    reader = createLiveReader({
      read: () => read(asked),
      onRead: (levels) => {
        latest.value = markRaw(levels);
        error.value = null;
        retryInMs.value = null;
      },
      onError: (caught, nextInMs) => {
        error.value = asFieldDeskError(caught);
        retryInMs.value = nextInMs;
      },
      isHidden: windowHidden,
      ...(timing === undefined ? {} : { timing }),
    });
    reader.start();
    polling.value = true;
  }

  const onVisibility = (): void => {
    if (!windowHidden()) reader?.wake();
  };
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisibility);

  watch(serial, begin, { immediate: true });

  onScopeDispose(() => {
    reader?.stop();
    reader = null;
    polling.value = false;
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisibility);
  });

  return {
    latest,
    error,
    retryInMs,
    /** Whether reads go on (false once the scope is gone). */
    polling,
    /** Starts again at once (the Try again of an error). */
    restart: begin,
    /** Reads at once, past any backoff (the connection came back). */
    retryNow: () => reader?.retryNow(),
  };
}
