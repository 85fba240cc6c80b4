/**
 * A manual exclusion being added, typed below the charts or drawn on one: its fields as typed on
 * the site's clock, their problems (said once Save is asked for), and adding it through the store.
 * One set of rules for both forms.
 */
import { computed, reactive, ref } from 'vue';
import type { Site } from '../../../../shared/assessment';
import { exclusionReasonSchema } from '../../../../shared/ipc/assessment-requests';
import { errorMessage } from '../../errors';
import { fieldError } from '../../ui/forms';
import type { DisplayZone } from '../../ui/time';
import { parseSiteTime, siteTimeText } from './logic';
import { useAssessmentStore } from './store';

export interface ExclusionFields {
  from: string;
  to: string;
  reason: string;
  /** The one instrument it applies to; '' for all of the site's. */
  serial: string;
}

export function useExclusionForm(site: () => Site, zone: () => DisplayZone) {
  const assessment = useAssessmentStore();
  const form = reactive<ExclusionFields>({ from: '', to: '', reason: '', serial: '' });
  const submitted = ref(false);
  const busy = ref(false);
  const failure = ref<string | null>(null);

  const start = computed(() => parseSiteTime(form.from, zone()));
  const end = computed(() => parseSiteTime(form.to, zone()));
  const example = () => siteTimeText(Math.floor(Date.now() / 60_000) * 60_000, zone());
  const fromError = computed(() =>
    submitted.value && start.value === null ? `Type the start as ${example()}.` : null,
  );
  const toError = computed(() => {
    if (!submitted.value) return null;
    if (end.value === null) return `Type the end as ${example()}.`;
    return start.value !== null && end.value <= start.value ? 'The end must be after the start.' : null;
  });
  const reasonError = computed(() =>
    submitted.value ? fieldError(exclusionReasonSchema, form.reason) : null,
  );

  /** Fills the fields anew (nothing said about them until Save). */
  function reset(fields: Partial<ExclusionFields> = {}): void {
    Object.assign(form, { from: '', to: '', reason: '', serial: '', ...fields });
    submitted.value = false;
    failure.value = null;
  }

  /**
   * Adds the exclusion when the fields are right: the site as saved, or null when a field is
   * wrong or the backend refused it (each said in the form, nothing typed is lost).
   */
  async function submit(): Promise<Site | null> {
    submitted.value = true;
    if (fromError.value || toError.value || reasonError.value || start.value === null || end.value === null)
      return null;
    busy.value = true;
    failure.value = null;
    try {
      return await assessment.addExclusion({
        siteId: site().id,
        start: start.value,
        end: end.value,
        reason: form.reason,
        ...(form.serial === '' ? {} : { serial: form.serial }),
      });
    } catch (error) {
      failure.value = errorMessage(error);
      return null;
    } finally {
      busy.value = false;
    }
  }

  return { form, busy, failure, fromError, toError, reasonError, reset, submit };
}
