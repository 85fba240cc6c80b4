/**
 * features/assessment — assessment.*: the active account's sites, the one being assessed, its last
 * result and a report being written (its progress pushed by the backend).
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type {
  AssessmentResult,
  ReportFormat,
  ReportProgress,
  ReportResult,
  Site,
} from '../../../../shared/assessment';
import type { TimeInterval } from '../../../../shared/data';
import type { FieldDeskError } from '../../../../shared/errors';
import type { RequestArg } from '../../../../shared/ipc/contract';
import { api } from '../../api';
import { asFieldDeskError } from '../../errors';

export const useAssessmentStore = defineStore('assessment', () => {
  const sites = shallowRef<Site[] | null>(null);
  const sitesError = ref<FieldDeskError | null>(null);
  /** Stored sites that could not be read (a damaged database row): left out and said. */
  const unreadableSites = ref(0);
  const result = shallowRef<AssessmentResult | null>(null);
  const computing = ref(false);
  const computeError = ref<FieldDeskError | null>(null);
  const reportProgress = shallowRef<ReportProgress | null>(null);
  /** Answers to older computes that arrive late are dropped. */
  let computeRound = 0;
  let stopProgress: (() => void) | null = null;

  async function loadSites(): Promise<void> {
    try {
      const list = await api.assessment.sites();
      sites.value = list.sites;
      unreadableSites.value = list.unreadable;
      sitesError.value = null;
    } catch (failure) {
      sitesError.value = asFieldDeskError(failure);
    }
  }

  function replace(site: Site): Site {
    const others = (sites.value ?? []).filter((s) => s.id !== site.id);
    sites.value = [...others, site].sort((a, b) => a.name.localeCompare(b.name));
    return site;
  }

  /** Creates or changes a site; throws the backend's error (the form shows it). */
  async function saveSite(change: RequestArg<'assessment.saveSite'>): Promise<Site> {
    return replace(await api.assessment.saveSite(change));
  }

  async function deleteSite(id: string): Promise<void> {
    await api.assessment.deleteSite({ id });
    sites.value = (sites.value ?? []).filter((s) => s.id !== id);
    if (result.value?.siteId === id) result.value = null;
  }

  async function addExclusion(arg: RequestArg<'assessment.addExclusion'>): Promise<Site> {
    return replace(await api.assessment.addExclusion(arg));
  }

  async function removeExclusion(siteId: string, id: string): Promise<Site> {
    return replace(await api.assessment.removeExclusion({ siteId, id }));
  }

  async function compute(siteId: string, range: TimeInterval): Promise<void> {
    const round = ++computeRound;
    computing.value = true;
    try {
      const answer = await api.assessment.compute({ siteId, ...range });
      if (round !== computeRound) return;
      result.value = answer;
      computeError.value = null;
    } catch (failure) {
      if (round !== computeRound) return;
      computeError.value = asFieldDeskError(failure);
    } finally {
      if (round === computeRound) computing.value = false;
    }
  }

  /** Writes a report; its progress shows while it runs. Throws the backend's error. */
  async function report(siteId: string, range: TimeInterval, format: ReportFormat): Promise<ReportResult> {
    stopProgress ??= api.assessment.onReportProgress((progress) => {
      if (progress.siteId === siteId) reportProgress.value = progress;
    });
    reportProgress.value = { siteId, format, stage: 'Starting', fraction: 0 };
    try {
      return await api.assessment.report({ siteId, ...range, format });
    } finally {
      reportProgress.value = null;
    }
  }

  function stop(): void {
    stopProgress?.();
    stopProgress = null;
  }

  return {
    sites,
    sitesError,
    unreadableSites,
    result,
    computing,
    computeError,
    reportProgress,
    loadSites,
    saveSite,
    deleteSite,
    addExclusion,
    removeExclusion,
    compute,
    report,
    stop,
  };
});
