/**
 * What the data view asks the backend, and when it asks again. The question is one instrument's
 * dataset with its options, over the range chosen above the chart (a preset resolved as the clock
 * moves) or a zoomed view inside it, reduced to the chart's width. It is asked again, for the whole
 * chosen range, whenever it changes; for the view shown on Refresh, by itself once its recent
 * readings are older than the user's refresh age (auto-refresh.ts), and when the connection comes back.
 */
import { computed, ref, watch } from 'vue';
import type { DataReadResult, Dataset, TimeInterval } from '../../../../shared/data';
import { MINUTE_MS } from '../../ui/time';
import { useAccountsStore } from '../accounts/store';
import { useConnectivityStore } from '../connectivity/store';
import { useSettingsStore } from '../settings/store';
import { useAutoRefresh } from './auto-refresh';
import { queryOptions, type OptionChoices } from './datasets';
import { resolveRange } from './ranges';
import { useDataStore } from './store';
import { isWholeRange } from './zoom';

export interface DataQuestion {
  serial: () => string;
  dataset: () => Dataset | null;
  choices: () => OptionChoices | null;
  /**
   * False while nothing can be asked: the options have a problem, or the instrument's datasets are
   * not known yet (a read then would not know whether a noise chart carries event marks).
   */
  ready: () => boolean;
  /** Noise charts carry the instrument's events as marks, read with the levels in one answer. */
  withEvents: () => boolean;
  /** The answer on screen for this question; null while there is none. */
  answer: () => DataReadResult | null;
}

/**
 * Pixel columns the backend reduces the series to: the chart is about as wide as the window, and
 * one column per device pixel keeps every peak the screen can show.
 */
function chartWidth(): number {
  const pixels = Math.round(window.innerWidth * (window.devicePixelRatio || 1));
  return Math.min(4000, Math.max(200, pixels));
}

export function useDataQuestion(question: DataQuestion) {
  const store = useDataStore();
  const accounts = useAccountsStore();
  const connectivity = useConnectivityStore();
  const settings = useSettingsStore();
  // The refresh age is a setting: until it is read, its default applies.
  void settings.load();

  /** The range chosen above the chart, as last resolved (a preset moves with the clock). */
  const chosenRange = ref<TimeInterval | null>(null);
  /** The range of the answer on screen. */
  const answeredRange = computed((): TimeInterval | null => {
    const answer = question.answer();
    return answer ? { start: answer.query.start, end: answer.query.end } : null;
  });
  /** The whole chosen range the chart can zoom within (the answer's own range until one is chosen). */
  const fullRange = computed(() => chosenRange.value ?? answeredRange.value);
  /** The part of the chosen range shown after a zoom or a pan (the range menu then says "Custom"); null for all of it. */
  const zoomedView = computed(() => {
    const shown = answeredRange.value;
    const chosen = chosenRange.value;
    return shown !== null && chosen !== null && !isWholeRange(shown, chosen) ? shown : null;
  });

  /**
   * Reads the chosen range, or a zoomed `view` inside it; `refresh` asks the service for the
   * still-open recent part whatever its age (Refresh, and the view refreshing itself).
   */
  function read(view: TimeInterval | null = null, how: { refresh?: boolean } = {}): void {
    const dataset = question.dataset();
    const choices = question.choices();
    if (!dataset || !choices || !question.ready()) return;
    if (view === null) chosenRange.value = resolveRange(store.range, Date.now());
    const range = view ?? chosenRange.value;
    if (range === null) return;
    const options = queryOptions(dataset, choices);
    void store.read({
      serial: question.serial(),
      dataset,
      ...range,
      ...(options ? { options } : {}),
      ...(question.withEvents() ? { withEvents: true } : {}),
      ...(how.refresh ? { refresh: true } : {}),
      chartWidth: chartWidth(),
    });
  }

  // The range, options and comparisons are the instrument's own, per account (store.enter): set
  // synchronously, before the question below is asked, so a new instrument is read once, with its own.
  watch(
    () => [accounts.activeId, question.serial()] as const,
    ([accountId, serial]) => store.enter(accountId, serial),
    { immediate: true, flush: 'sync' },
  );
  // Anything that changes the question asks again, for the whole range chosen.
  watch(
    () =>
      [
        question.serial(),
        question.dataset(),
        store.range,
        question.choices(),
        accounts.activeId,
        store.compared,
        question.withEvents(),
        question.ready(),
      ] as const,
    () => read(),
    { immediate: true, deep: true },
  );
  // Online, recent readings older than the refresh age are read again by themselves: the whole
  // chosen range (a preset moves on to now), or the zoomed view as it is.
  useAutoRefresh({
    provenance: () => question.answer()?.provenance ?? null,
    refreshAfterMs: () => settings.current.refreshCachedAfterMinutes * MINUTE_MS,
    online: () => !connectivity.isOffline,
    busy: () => store.loading,
    reread: () => read(zoomedView.value, { refresh: true }),
  });
  // Back online: what is shown may be an offline copy; read again to get it live.
  watch(
    () => connectivity.current.state,
    (state, previous) => {
      if (state === 'online' && previous === 'offline') read(answeredRange.value);
    },
  );

  return { read, answeredRange, fullRange, zoomedView };
}
