/**
 * A list row's health cells — last contact, calibration, SIC and the monitor's figures — from its
 * status (the list's, else the last known) and its health as known, judged by the user's limits
 * at the shared clock's minute.
 */
import type { InstrumentEntry } from '../../../../shared/ipc/contract';
import {
  calibrationCell,
  lastContactCell,
  monitorCell,
  sicCell,
  type HealthCell,
  type MonitorCell,
} from '../attention/cells';
import { useAttentionStore } from '../attention/store';
import { useSettingsStore } from '../settings/store';
import { useNow } from '../../ui/now';
import { useInstrumentsStore } from './store';

export interface RowHealth {
  contact: HealthCell;
  calibration: HealthCell;
  sic: HealthCell;
  monitor: MonitorCell;
}

export function useRowHealth(): (entry: InstrumentEntry) => RowHealth {
  const store = useInstrumentsStore();
  const attention = useAttentionStore();
  const settings = useSettingsStore();
  const now = useNow();
  return (entry) => {
    const health = attention.health.get(entry.instrument.serialNumber) ?? null;
    const status = attention.statusOf(entry);
    const checks = attention.checksOf(entry);
    const thresholds = settings.current;
    return {
      contact: lastContactCell(
        health,
        status,
        entry.status === null ? null : store.fetchedAt,
        thresholds,
        now.value,
      ),
      calibration: calibrationCell(checks.calibration, thresholds, now.value),
      sic: sicCell(checks.sic, now.value),
      monitor: monitorCell(health, thresholds, now.value),
    };
  };
}
