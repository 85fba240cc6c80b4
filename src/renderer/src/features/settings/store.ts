/**
 * features/settings — settings.get, settings.update and settings.confirm: this store, the settings
 * screen and the checks of a typed tolerance (tolerance.ts) and refresh age (refresh-age.ts).
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import { useApi } from '../../api-injection';
import { DEFAULT_SETTINGS, type Settings, type SettingsState } from '../../../../shared/operations';
import { errorMessage } from '../../errors';

export type SettingsChange = Partial<Settings>;

/**
 * The app's own settings (calibration reference level and tolerance, the refresh age of cached
 * data), read and saved by the backend.
 */
export const useSettingsStore = defineStore('settings', () => {
  const api = useApi();
  const current = ref<Settings>({ ...DEFAULT_SETTINGS });
  /** Why the saved settings could not be used; null when all was well. */
  const notice = ref<string | null>(null);
  /** Defaults nobody chose yet: a calibration asks for them to be confirmed first. */
  const needsConfirmation = ref(false);
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

  function apply(state: SettingsState): void {
    current.value = state.settings;
    notice.value = state.notice;
    needsConfirmation.value = state.needsConfirmation;
  }

  async function reload(): Promise<void> {
    try {
      apply(await api.settings.get());
      loaded.value = true;
      loadError.value = null;
    } catch (error) {
      loadError.value = errorMessage(error);
      loading = null;
    }
  }

  /** Saves a change; returns whether it was saved (the reason is in `saveError` otherwise). */
  async function update(change: SettingsChange): Promise<boolean> {
    return saved(() => api.settings.update(change));
  }

  /** Accepts the calibration settings as they are (after saved ones could not be read). */
  async function confirm(): Promise<boolean> {
    return saved(() => api.settings.confirm());
  }

  async function saved(write: () => Promise<SettingsState>): Promise<boolean> {
    saving.value = true;
    saveError.value = null;
    try {
      apply(await write());
      loaded.value = true;
      return true;
    } catch (error) {
      saveError.value = errorMessage(error);
      return false;
    } finally {
      saving.value = false;
    }
  }

  return {
    current,
    notice,
    needsConfirmation,
    loaded,
    loadError,
    saving,
    saveError,
    load,
    reload,
    update,
    confirm,
  };
});
