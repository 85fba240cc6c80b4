/**
 * features/history — history.calibrations, .calibrationLog and .sic: this store and an instrument's
 * history section with its charts (charts.ts) and tables (the local action record via actions/store).
 */
import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import { useApi } from '../../api-injection';
import type { HistoryRead, Provenance } from '../../../../shared/data';
import type { FieldDeskError } from '../../../../shared/errors';
import type {
  ActionRecord,
  CalibrationLogEntry,
  CalibrationRecord,
  SicRecord,
} from '../../../../shared/operations';
import { asFieldDeskError } from '../../errors';
import { DEFAULT_HISTORY_MONTHS, historyRange, type HistoryRangeMonths } from './logic';
import { newestFirst } from '../../ui/table-slice';
import { useActionsStore } from '../actions/store';

export interface HistoryPart<T> {
  /** Newest first. */
  rows: T[];
  loading: boolean;
  error: FieldDeskError | null;
  /** When the rows were read (epoch ms); null until the first answer. */
  loadedAt: number | null;
  /**
   * Where the shown rows came from (live, the cache and its age, or partly missing and why);
   * null until the first answer, and always for the local record of actions.
   */
  provenance: Provenance | null;
}

export interface InstrumentHistory {
  serial: string;
  months: HistoryRangeMonths;
  calibrations: HistoryPart<CalibrationRecord>;
  calibrationLog: HistoryPart<CalibrationLogEntry>;
  sic: HistoryPart<SicRecord>;
  actions: HistoryPart<ActionRecord>;
}

type PartName = 'calibrations' | 'calibrationLog' | 'sic' | 'actions';

const emptyPart = <T>(): HistoryPart<T> => ({
  rows: [],
  loading: false,
  error: null,
  loadedAt: null,
  provenance: null,
});

/**
 * One instrument's history: calibrations, the calibration log and SIC results for a range of
 * months, read through the cache (so offline they show what a site sync or an earlier read
 * stored, with where it came from), and the local record of actions run from FieldDesk.
 * Each part loads and fails on its own, so a missing scope for one does not hide the others.
 */
export const useHistoryStore = defineStore('history', () => {
  const api = useApi();
  const actions = useActionsStore();
  // Shallow: rows are replaced whole, and hundreds of SIC records need not be reactive one by one.
  const bySerial = shallowRef<Record<string, InstrumentHistory>>({});
  /** Bumped per serial on each load, so an answer for an older range is dropped. */
  const generations = new Map<string, number>();

  function historyFor(serial: string): InstrumentHistory {
    return (
      bySerial.value[serial] ?? {
        serial,
        months: DEFAULT_HISTORY_MONTHS,
        calibrations: emptyPart(),
        calibrationLog: emptyPart(),
        sic: emptyPart(),
        actions: emptyPart(),
      }
    );
  }

  function setPart<K extends PartName>(serial: string, part: K, value: InstrumentHistory[K]): void {
    bySerial.value = { ...bySerial.value, [serial]: { ...historyFor(serial), [part]: value } };
  }

  async function loadPart<K extends PartName>(
    serial: string,
    part: K,
    generation: number,
    read: () => Promise<{ rows: InstrumentHistory[K]['rows']; provenance: Provenance | null }>,
  ): Promise<void> {
    const before = historyFor(serial)[part];
    setPart(serial, part, { ...before, loading: true } as InstrumentHistory[K]);
    try {
      const { rows, provenance } = await read();
      if (generations.get(serial) !== generation) return;
      setPart(serial, part, {
        rows,
        loading: false,
        error: null,
        loadedAt: Date.now(),
        provenance,
      } as InstrumentHistory[K]);
    } catch (error) {
      if (generations.get(serial) !== generation) return;
      const failure = asFieldDeskError(error);
      // Keep what was shown: an older table with its error beats an empty one.
      setPart(serial, part, {
        ...historyFor(serial)[part],
        loading: false,
        error: failure,
      } as InstrumentHistory[K]);
    }
  }

  /** Reads everything for `serial` over the last `months` (default: the range already chosen). */
  async function load(serial: string, months?: HistoryRangeMonths): Promise<void> {
    const chosen = months ?? historyFor(serial).months;
    const generation = (generations.get(serial) ?? 0) + 1;
    generations.set(serial, generation);
    const current = historyFor(serial);
    if (current.months !== chosen || bySerial.value[serial] === undefined) {
      bySerial.value = { ...bySerial.value, [serial]: { ...current, months: chosen } };
    }
    const range = { serial, ...historyRange(chosen, Date.now()) };
    const byTime = <T extends { time: number }>({ records, provenance }: HistoryRead<T>) => ({
      rows: newestFirst(records, (r) => r.time),
      provenance,
    });
    await Promise.all([
      loadPart(serial, 'calibrations', generation, async () => byTime(await api.history.calibrations(range))),
      loadPart(serial, 'calibrationLog', generation, async () =>
        byTime(await api.history.calibrationLog(range)),
      ),
      loadPart(serial, 'sic', generation, async () => byTime(await api.history.sic(range))),
      loadPart(serial, 'actions', generation, async () => ({
        rows: await actions.record(serial),
        provenance: null,
      })),
    ]);
  }

  return { bySerial, historyFor, load };
});
