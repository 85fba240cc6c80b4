/**
 * The noise event open in the data view, shown above the events table with its own time history:
 * opened from the table (with Play, its audio fetched and offered at once), or from a mark clicked
 * on a noise chart, which goes to the events view with `?event=<start>` in the address and opens
 * that event once the events are read. Another instrument or dataset closes it.
 */
import { nextTick, ref, watch } from 'vue';
import { useRoute, useRouter } from 'vue-router';
import type { DataReadResult, Dataset } from '../../../../shared/data';
import type { EventMark } from './event-marks';
import { eventRows, type EventRow } from './events';

export interface OpenEventView {
  serial: () => string;
  dataset: () => Dataset | null;
  /** The answer on screen; the events view's records are the events. */
  answer: () => DataReadResult | null;
}

export function useOpenEvent(view: OpenEventView) {
  const route = useRoute();
  const router = useRouter();

  /** The noise event opened; null while none is. */
  const openEvent = ref<EventRow | null>(null);
  /** The event was opened with Play: its audio is fetched and offered at once. */
  const playOpenEvent = ref(false);

  async function showEvent(event: EventRow, play = false): Promise<void> {
    openEvent.value = event;
    playOpenEvent.value = play;
    await nextTick();
    document.getElementById('event-detail-title')?.scrollIntoView({ block: 'start' });
  }

  /** A mark clicked on a noise chart: the events view with that event open. */
  function openMarkedEvent(mark: EventMark): void {
    void router.push({
      name: 'data',
      params: { serial: view.serial(), dataset: 'events' },
      query: { event: String(mark.start) },
    });
  }

  watch(
    () => [view.serial(), view.dataset()] as const,
    () => (openEvent.value = null),
  );
  // Arriving from a mark (`?event=<start>`): open that event once the events are read.
  watch(
    () => [view.answer(), route.query['event']] as const,
    ([answer, wanted]) => {
      if (view.dataset() !== 'events' || typeof wanted !== 'string' || !answer?.records) return;
      const event = eventRows(answer.records).find((row) => String(row.start) === wanted);
      if (event && openEvent.value?.start !== event.start) void showEvent(event);
    },
    { immediate: true },
  );

  return { openEvent, playOpenEvent, showEvent, openMarkedEvent };
}
