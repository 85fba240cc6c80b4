/**
 * features/diagnostics — diagnostics.save, diagnostics.damagedRecords, app.logLevel and
 * app.setLogLevel: this store and the "Save diagnostics…" section the settings screen shows, with
 * the log's detail and the damaged records left out.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import { useApi } from '../../api-injection';
import { damagedRecordsText, type DiagnosticsResult, type LogLevel } from '../../../../shared/diagnostics';
import { errorMessage } from '../../errors';

/** Writing the diagnostics zip for support, and what came of the last attempt. */
export const useDiagnosticsStore = defineStore('diagnostics', () => {
  const api = useApi();
  const saving = ref(false);
  /** Where the zip went and how big it is; null until saved (and after a cancelled save dialog). */
  const saved = ref<Extract<DiagnosticsResult, { saved: true }> | null>(null);
  const error = ref<string | null>(null);

  /** Writes the zip where the user chooses; a cancelled choice leaves nothing said. */
  async function save(): Promise<void> {
    saving.value = true;
    saved.value = null;
    error.value = null;
    try {
      const answer = await api.diagnostics.save();
      if (answer.saved) saved.value = answer;
    } catch (failure) {
      error.value = errorMessage(failure);
    } finally {
      saving.value = false;
    }
  }

  /** How much the log says now; null until read. */
  const logLevel = ref<LogLevel | null>(null);

  async function loadLogLevel(): Promise<void> {
    try {
      logLevel.value = (await api.app.logLevel()).level;
    } catch (failure) {
      error.value = errorMessage(failure);
    }
  }

  /** Detailed (debug) or normal (info) logging, until FieldDesk restarts. */
  async function setLogLevel(level: LogLevel): Promise<void> {
    error.value = null;
    try {
      logLevel.value = (await api.app.setLogLevel({ level })).level;
    } catch (failure) {
      error.value = errorMessage(failure);
    }
  }

  /** "Damaged records left out since FieldDesk started: 2 sites …"; null when none (or not read yet). */
  const damaged = ref<string | null>(null);

  async function loadDamaged(): Promise<void> {
    try {
      damaged.value = damagedRecordsText(await api.diagnostics.damagedRecords());
    } catch (failure) {
      error.value = errorMessage(failure);
    }
  }

  return { saving, saved, error, save, logLevel, loadLogLevel, setLogLevel, damaged, loadDamaged };
});
