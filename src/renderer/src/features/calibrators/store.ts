/**
 * features/calibrators — calibrators.*: the engineer's calibrator register (kept in the user's
 * records), read by the register page and the calibration wizard.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import { useApi } from '../../api-injection';
import type { Calibrator, CalibratorChange, CalibratorList } from '../../../../shared/calibrators';
import type { FieldDeskError } from '../../../../shared/errors';
import { asFieldDeskError } from '../../errors';

export const useCalibratorsStore = defineStore('calibrators', () => {
  const api = useApi();
  const list = shallowRef<CalibratorList | null>(null);
  const loading = ref(false);
  const error = ref<FieldDeskError | null>(null);

  async function load(): Promise<void> {
    loading.value = true;
    try {
      list.value = await api.calibrators.list();
      error.value = null;
    } catch (failure) {
      error.value = asFieldDeskError(failure);
    } finally {
      loading.value = false;
    }
  }

  /** Adds or changes a calibrator; throws the backend's error (the form shows it by its field). */
  async function save(change: CalibratorChange): Promise<Calibrator> {
    const saved = await api.calibrators.save(change);
    await load();
    return saved;
  }

  async function setRetired(id: string, retired: boolean): Promise<void> {
    await api.calibrators.retire({ id, retired });
    await load();
  }

  async function remove(id: string): Promise<void> {
    await api.calibrators.remove({ id });
    await load();
  }

  /** The calibrators a calibration may name: those in use. */
  const inUse = computed(() => list.value?.calibrators.filter((c) => !c.retired) ?? []);

  return { list, loading, error, inUse, load, save, setRetired, remove };
});
