/**
 * features/data — data.read: this store and the data view with its chart, record table, range,
 * provenance line and options (chart.ts, records.ts, ranges.ts, provenance.ts, datasets.ts), and
 * its refreshing itself while open (auto-refresh.ts).
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef, watch } from 'vue';
import { useApi } from '../../api-injection';
import type { DataExportProgress, DataReadResult, Dataset } from '../../../../shared/data';
import type { RequestArg } from '../../../../shared/ipc/contract';
import type { FieldDeskError } from '../../../../shared/errors';
import { asFieldDeskError } from '../../errors';
import { isUsableZone, resolveZone, type SiteZone, type ZoneChoice } from '../../ui/time';
import { savedPreference } from '../../ui/saved-preference';
import type { RangeChoice } from './ranges';
import { initialChoices, type OptionChoices } from './datasets';
import { useAccountsStore } from '../accounts/store';
import { DAY_MS, readByDays, readsByDays, type DayProgress } from './day-reads';

/**
 * The data view's state: what it shows (instrument, dataset, range, options, time zone), the
 * last answer with its provenance, and whether it is on screen (the app's offline banner then
 * says how old the shown copy is). Answers to superseded reads are dropped.
 */
/** Day reads only fill the cache: their own answers are reduced to this few columns (the least allowed). */
const DAY_READ_CHART_WIDTH = 50;

function withoutEvents(query: RequestArg<'data.read'>): RequestArg<'data.read'> {
  const { withEvents: _asked, ...rest } = query;
  return rest;
}

/** What the data view shows of one instrument in one account, kept while the user looks elsewhere. */
interface ViewState {
  range: RangeChoice;
  choices: Partial<Record<Dataset, OptionChoices>>;
  compared: string[];
  carriedFrom: string | null;
}

const DEFAULT_RANGE: RangeChoice = { kind: 'preset', preset: '24h' };

const isDefaultState = (state: ViewState): boolean =>
  state.range.kind === 'preset' &&
  state.range.preset === DEFAULT_RANGE.preset &&
  Object.keys(state.choices).length === 0;

export const useDataStore = defineStore('data', () => {
  const api = useApi();
  const accounts = useAccountsStore();

  /** Site, UTC or laptop time: kept between runs, site time at first. */
  const zoneChoice = savedPreference<ZoneChoice>(
    'data.zoneChoice',
    'site',
    (v): v is ZoneChoice => v === 'site' || v === 'utc' || v === 'local',
  );
  /** Zones the user chose for instruments that report no position, by serial. */
  const chosenSiteZones = savedPreference<Record<string, SiteZone>>(
    'data.chosenSiteZones',
    {},
    (v): v is Record<string, SiteZone> =>
      typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(isUsableZone),
  );
  /** The shown instrument's site zone, set by the data view; null when it has none. */
  const siteZone = ref<SiteZone | null>(null);
  /** The zone every time in the data view is shown in. */
  const zone = computed(() => resolveZone(zoneChoice.value, siteZone.value));
  const range = ref<RangeChoice>(DEFAULT_RANGE);
  /** Option choices per dataset, kept while moving between datasets. */
  const choices = ref<Partial<Record<Dataset, OptionChoices>>>({});
  /** Metrics of named chart groups the user showed or hid, by channel name (see `isShown`). */
  const shownMetrics = ref<Record<string, boolean>>({});

  /** The answer on screen; raw, so Vue never walks its typed arrays. */
  const result = shallowRef<DataReadResult | null>(null);
  const loading = ref(false);
  const error = ref<FieldDeskError | null>(null);
  const onScreen = ref(false);
  let generation = 0;
  /** A read going day by day (day-reads.ts): how far it is, while it runs. */
  const dayProgress = ref<DayProgress | null>(null);
  /** Stops the day-by-day read under way; null when none runs. */
  let dayReads: AbortController | null = null;

  /** Stops the days of a day-by-day read not yet asked for; the answer shown stays. */
  function cancelDayReads(): void {
    dayReads?.abort();
  }

  /**
   * The view's own instrument: a long spectrum time history day by day, with progress and Cancel,
   * then the whole range once more from the cache (its figures from every reading); else one read.
   */
  async function readOwn(query: RequestArg<'data.read'>, started: number): Promise<DataReadResult> {
    if (!readsByDays(query.dataset, query)) return api.data.read(query);
    dayReads?.abort();
    const controller = new AbortController();
    dayReads = controller;
    const total = Math.ceil((query.end - query.start) / DAY_MS);
    dayProgress.value = { done: 0, total };
    try {
      await readByDays(
        query,
        // Each day is stored by the backend as it comes; its answer here only counts (a narrow chart).
        (day) =>
          api.data.read({
            ...withoutEvents(query),
            ...day,
            chartWidth: DAY_READ_CHART_WIDTH,
          }),
        {
          signal: controller.signal,
          onDay: (_day, _answer, progress) => {
            if (started === generation) dayProgress.value = progress;
          },
        },
      );
      return await api.data.read({ ...query, refresh: false });
    } finally {
      if (dayReads === controller) {
        dayReads = null;
        dayProgress.value = null;
      }
    }
  }

  function choicesFor(dataset: Dataset): OptionChoices {
    return choices.value[dataset] ?? initialChoices(dataset);
  }

  function setChoices(dataset: Dataset, next: OptionChoices): void {
    choices.value = { ...choices.value, [dataset]: next };
  }

  /** Whether the shown answer is for this instrument and dataset (a new range keeps it visible while loading). */
  function shows(serial: string, dataset: Dataset): boolean {
    return result.value?.query.serial === serial && result.value.query.dataset === dataset;
  }

  /** Instruments shown on the same axes as the one the view is for (see compare.ts). */
  const compared = ref<string[]>([]);

  // ---- the view's state per account and instrument ---------------------------------------------
  /** Whose choices are on screen, or null before the data view first opens. */
  let shownView: { accountId: string | null; serial: string } | null = null;
  /** Each instrument's choices per account, by `viewKey`, kept while the user looks elsewhere. */
  const viewStates = new Map<string, ViewState>();
  const viewKey = (view: { accountId: string | null; serial: string }) =>
    `${view.accountId ?? ''}|${view.serial}`;
  /**
   * The instrument whose range and options the shown one took on arriving with none of its own
   * (said above the chart, with a way back to its defaults); null when they are its own.
   */
  const carriedFrom = ref<string | null>(null);

  /**
   * The data view opens `serial` of account `accountId`: the choices it had there come back; an
   * instrument seen for the first time keeps the range and options of the one before in the same
   * account (said, see `carriedFrom`), never its comparisons; another account starts afresh.
   */
  function enter(accountId: string | null, serial: string): void {
    const next = { accountId, serial };
    const leaving = shownView;
    if (leaving !== null && viewKey(leaving) === viewKey(next)) return;
    if (leaving !== null) viewStates.set(viewKey(leaving), currentState());
    shownView = next;
    const own = viewStates.get(viewKey(next));
    if (own) {
      applyState(own);
      return;
    }
    const carried = leaving !== null && leaving.accountId === accountId && !isDefaultState(currentState());
    applyState({
      range: carried ? range.value : DEFAULT_RANGE,
      choices: carried ? choices.value : {},
      compared: [],
      carriedFrom: carried ? leaving.serial : null,
    });
  }

  /** Back to the shown instrument's defaults: the last day, each dataset's own options. */
  function useDefaults(): void {
    applyState({ range: DEFAULT_RANGE, choices: {}, compared: compared.value, carriedFrom: null });
  }

  function currentState(): ViewState {
    return {
      range: range.value,
      choices: choices.value,
      compared: compared.value,
      carriedFrom: carriedFrom.value,
    };
  }

  function applyState(state: ViewState): void {
    range.value = state.range;
    choices.value = state.choices;
    compared.value = state.compared;
    carriedFrom.value = state.carriedFrom;
  }
  /** Their answers for the shown query, by serial; raw like `result`. */
  const comparedResults = shallowRef<Record<string, DataReadResult>>({});
  /** Why a compared instrument's answer is missing, by serial. */
  const comparedErrors = ref<Record<string, string>>({});

  async function read(query: RequestArg<'data.read'>): Promise<void> {
    const started = ++generation;
    if (!shows(query.serial, query.dataset)) result.value = null;
    loading.value = true;
    const others = compared.value.filter((serial) => serial !== query.serial);
    try {
      const [answer, ...otherAnswers] = await Promise.allSettled([
        readOwn(query, started),
        // The compared instruments' lines only: their events are not marked.
        ...others.map((serial) => api.data.read({ ...withoutEvents(query), serial })),
      ]);
      if (started !== generation) return;
      const answers: Record<string, DataReadResult> = {};
      const failures: Record<string, string> = {};
      otherAnswers.forEach((settled, index) => {
        const serial = others[index]!;
        if (settled.status === 'fulfilled') answers[serial] = markRaw(settled.value);
        else failures[serial] = asFieldDeskError(settled.reason).message;
      });
      comparedResults.value = answers;
      comparedErrors.value = failures;
      if (answer!.status === 'rejected') throw answer!.reason;
      result.value = markRaw(answer!.value);
      error.value = null;
    } catch (failure) {
      if (started !== generation) return;
      error.value = asFieldDeskError(failure);
    } finally {
      if (started === generation) loading.value = false;
    }
  }

  /** When the copy on screen was fetched, while the data view shows one that is not live. */
  const shownCopyAt = computed((): number | null => {
    const provenance = result.value?.provenance;
    if (!onScreen.value || !provenance || provenance.source === 'fresh') return null;
    return provenance.cachedAt;
  });

  function clear(): void {
    generation += 1;
    cancelDayReads();
    result.value = null;
    error.value = null;
    loading.value = false;
  }

  // Another account is another fleet: never show its data under the new one.
  watch(
    () => accounts.activeId,
    (id, previous) => {
      if (id !== previous) clear();
    },
  );

  /**
   * Writes the CSV the user asked for, telling `onProgress` after each chunk the backend writes;
   * answers the backend's result (`saved` false when the user cancelled the file dialog).
   */
  async function exportCsv(
    arg: RequestArg<'data.export'>,
    onProgress: (progress: DataExportProgress) => void,
  ): Promise<Awaited<ReturnType<typeof api.data.export>>> {
    const stop = api.data.onExportProgress(onProgress);
    try {
      return await api.data.export(arg);
    } finally {
      stop();
    }
  }

  return {
    /** One read apart from the view's own (a figure's trace): nothing in the store changes. */
    readOnce: (query: RequestArg<'data.read'>) => api.data.read(query),
    exportCsv,
    saveImage: (arg: RequestArg<'data.saveImage'>) => api.data.saveImage(arg),
    monitorCurrent: (serial: string) => api.data.monitorCurrent({ serial }),
    /** The newest 1 s levels of `serial`, for the live check (live/live-levels.ts). */
    liveLevels: (serial: string) => api.data.liveLevels({ serial }),
    eventTimeHistory: (id: string) => api.data.eventTimeHistory({ id }),
    zoneChoice,
    chosenSiteZones,
    siteZone,
    zone,
    range,
    choices,
    shownMetrics,
    result,
    loading,
    error,
    dayProgress,
    cancelDayReads,
    onScreen,
    shownCopyAt,
    compared,
    comparedResults,
    comparedErrors,
    carriedFrom,
    enter,
    useDefaults,
    choicesFor,
    setChoices,
    shows,
    read,
    clear,
  };
});
