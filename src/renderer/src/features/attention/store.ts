/**
 * features/attention — instruments.health and instruments.knownHealth: each instrument's health
 * as known (last known first, then read gently: health-reader.ts), the list's health cells
 * (cells.ts) and the Needs attention view with its count (the rules: shared/attention.ts).
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import { useApi } from '../../api-injection';
import {
  attentionReasons,
  rankAttention,
  type AttentionItem,
  type InstrumentHealth,
} from '../../../../shared/attention';
import type { InstrumentEntry } from '../../../../shared/ipc/contract';
import type { InstrumentStatus } from '../../../../shared/service/schemas';
import { FieldDeskError } from '../../../../shared/errors';
import { asFieldDeskError } from '../../errors';
import { useNow } from '../../ui/now';
import { lastChecks, type LastChecks } from '../../../../shared/check-record';
import { useAccountsStore } from '../accounts/store';
import { useActionsStore } from '../actions/store';
import { useInstrumentsStore } from '../instruments/store';
import { useSettingsStore } from '../settings/store';
import { createHealthReader, type SweepProgress } from './health-reader';
import { healthSortValue } from './cells';
import { urgentToTell } from './urgent-notices';
import { savedPreference } from '../../ui/saved-preference';
import type { HealthKey } from '../instruments/logic';

export interface AttentionRow extends AttentionItem {
  entry: InstrumentEntry;
  /** When what the reasons come from was read (epoch ms), null when nothing was. */
  knownAt: number | null;
}

export const useAttentionStore = defineStore('attention', () => {
  const api = useApi();
  const accounts = useAccountsStore();
  const instruments = useInstrumentsStore();
  const settings = useSettingsStore();
  const actions = useActionsStore();
  const now = useNow();

  const health = shallowRef<ReadonlyMap<string, InstrumentHealth>>(new Map());
  const knownLoaded = ref(false);
  const progress = ref<SweepProgress>({ done: 0, total: 0, running: false });
  /** Why the health shown is the last known, not live (the service cannot be reached, a read failed). */
  const error = ref<FieldDeskError | null>(null);

  function merge(entries: readonly InstrumentHealth[]): void {
    const next = new Map(health.value);
    for (const entry of entries) {
      const known = next.get(entry.serial);
      if (known === undefined || known.readAt <= entry.readAt) next.set(entry.serial, entry);
    }
    health.value = next;
  }

  const reader = createHealthReader({
    read: (serials) => api.instruments.health({ serials }),
    onRead: (read) => {
      merge(read.entries);
      error.value = read.lastKnown === undefined ? null : FieldDeskError.fromData(read.lastKnown.reason);
    },
    onError: (failure) => (error.value = asFieldDeskError(failure)),
    onProgress: (next) => (progress.value = next),
    readAt: (serial) => health.value.get(serial)?.readAt,
  });

  let loadingKnown: Promise<void> | null = null;
  /** The last known health of the whole fleet, once per account (no request to the service). */
  function loadKnown(): Promise<void> {
    loadingKnown ??= (async () => {
      try {
        merge((await api.instruments.knownHealth()).entries);
      } catch (failure) {
        // Nothing known is shown as such; the reads that follow fill it in.
        error.value = asFieldDeskError(failure);
      } finally {
        knownLoaded.value = true;
      }
    })();
    return loadingKnown;
  }

  /**
   * The status to judge: the list's (or, in a large fleet, its row's) when read, else the one kept
   * with the health. By map look-ups only: thousands of entries are judged at every change.
   */
  function statusOf(entry: InstrumentEntry): InstrumentStatus | null {
    const serial = entry.instrument.serialNumber;
    return (
      entry.status ?? instruments.rowStatuses.get(serial)?.status ?? health.value.get(serial)?.status ?? null
    );
  }

  /**
   * The instrument's last calibration and SIC as records (shared/check-record.ts): the service's,
   * with FieldDesk's verdict beside the instrument's word where FieldDesk ran that very check.
   */
  function checksOf(entry: InstrumentEntry): LastChecks {
    return lastChecks(statusOf(entry), actions.lastResultsFor(entry.instrument.serialNumber));
  }

  /** A health column's sort value for the list (cells.ts `healthSortValue`), from what is known now. */
  function healthSortValueOf(entry: InstrumentEntry, key: HealthKey): number | null {
    return healthSortValue(key, {
      health: health.value.get(entry.instrument.serialNumber) ?? null,
      status: statusOf(entry),
      listReadAt: entry.status === null ? null : instruments.fetchedAt,
      checks: checksOf(entry),
      thresholds: settings.current,
      now: now.value,
    });
  }

  /** Every instrument that needs attention, most urgent first, from what is known now. */
  const rows = computed((): AttentionRow[] => {
    const thresholds = settings.current;
    const byItem = new Map<string, InstrumentEntry>();
    const items: AttentionItem[] = [];
    for (const entry of instruments.entries) {
      const serial = entry.instrument.serialNumber;
      const reasons = attentionReasons(
        health.value.get(serial) ?? null,
        statusOf(entry),
        thresholds,
        now.value,
        checksOf(entry),
        entry.instrument.subscription ?? null,
      );
      if (reasons.length === 0) continue;
      byItem.set(serial, entry);
      items.push({ serial, reasons });
    }
    return rankAttention(items).map((item) => {
      const known = health.value.get(item.serial);
      return {
        ...item,
        entry: byItem.get(item.serial) as InstrumentEntry,
        knownAt: known?.readAt ?? instruments.fetchedAt ?? null,
      };
    });
  });
  const count = computed(() => rows.value.length);
  /** The oldest health the view relies on (epoch ms), for "as known 3 h ago". */
  const oldestKnownAt = computed(() => {
    let oldest: number | null = null;
    for (const entry of health.value.values())
      if (oldest === null || entry.readAt < oldest) oldest = entry.readAt;
    return oldest;
  });

  // ---- desktop notices of new urgent reasons (opt-in) ----
  /** Whether a new urgent reason is told on the desktop while FieldDesk is in the background. */
  const notifyUrgent = savedPreference('notifyUrgent', false, (v): v is boolean => typeof v === 'boolean');
  /** The urgent reasons already told (or current when the user opted in): "serial:kind". */
  const toldUrgent = savedPreference<string[]>(
    'urgentTold',
    [],
    (v): v is string[] => Array.isArray(v) && v.every((k) => typeof k === 'string'),
  );
  watch(rows, (current) => {
    // Judged against the user's own limits and what is known of the fleet, never the defaults
    // before they load (a reason that is not one would be told).
    if (!settings.loaded || !knownLoaded.value) {
      void settings.load();
      return;
    }
    const { tell, told } = urgentToTell(
      current.map((row) => ({ serial: row.serial, name: row.entry.instrument.name, reasons: row.reasons })),
      new Set(health.value.keys()),
      new Set(toldUrgent.value),
    );
    if (told.join('\n') !== toldUrgent.value.join('\n')) toldUrgent.value = told;
    // Off, what is urgent is only noted: turning it on never tells what was urgent before.
    if (!notifyUrgent.value) return;
    for (const urgent of tell)
      api.instruments.tellUrgent(urgent).catch(() => {
        // A notice not shown is not worth an error on screen: the reason is on the list.
      });
  });

  /** The list's rows on screen: their health is read first. */
  function showRows(serials: readonly string[]): void {
    void loadKnown().then(() => reader.show(serials));
  }

  /** Reads the health of the whole fleet, gently, while the Needs attention view is open. */
  function sweep(): () => void {
    void loadKnown().then(() => reader.sweep(instruments.entries.map((e) => e.instrument.serialNumber)));
    return () => reader.stopSweep();
  }

  function clear(): void {
    reader.reset();
    health.value = new Map();
    knownLoaded.value = false;
    loadingKnown = null;
    error.value = null;
  }

  watch(
    () => accounts.activeId,
    (id, previousId) => {
      if (id !== previousId) clear();
    },
  );

  return {
    health,
    knownLoaded,
    progress,
    error,
    rows,
    count,
    oldestKnownAt,
    statusOf,
    checksOf,
    healthSortValueOf,
    notifyUrgent,
    loadKnown,
    showRows,
    sweep,
    clear,
  };
});
