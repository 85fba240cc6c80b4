/**
 * features/settings — settings.get and settings.update: this store, the settings screen and the
 * check of a typed tolerance (tolerance.ts).
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import { api } from '../../api';
import { DEFAULT_SETTINGS, type Settings } from '../../../../shared/operations';
import { errorMessage } from '../../errors';

export type SettingsChange = Partial<Settings>;

/** The app's own settings (calibration reference level and tolerance), read and saved by the backend. */
export const useSettingsStore = defineStore('settings', () => {
  const current = ref<Settings>({ ...DEFAULT_SETTINGS });
  const loaded = ref(false);
  const loadError = ref<string | null>(null);
  const saving = ref(false);
  const saveError = ref<string | null>(null);
  let loading: Promise<void> | null = null;

  /** Loads once; later calls share the first load (call `reload` to read again). */
  function load(): Promise<void> {
    loading ??= reload();
    return loading;
  }

  async function reload(): Promise<void> {
    try {
      current.value = await api.settings.get();
      loaded.value = true;
      loadError.value = null;
    } catch (error) {
      loadError.value = errorMessage(error);
      loading = null;
    }
  }

  /** Saves a change; returns whether it was saved (the reason is in `saveError` otherwise). */
  async function update(change: SettingsChange): Promise<boolean> {
    saving.value = true;
    saveError.value = null;
    try {
      current.value = await api.settings.update(change);
      loaded.value = true;
      return true;
    } catch (error) {
      saveError.value = errorMessage(error);
      return false;
    } finally {
      saving.value = false;
    }
  }

  return { current, loaded, loadError, saving, saveError, load, reload, update };
});
