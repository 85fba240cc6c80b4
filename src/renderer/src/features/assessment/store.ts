/**
 * features/assessment — assessment.*: the active account's sites, the one being assessed with its
 * progress (pushed by the backend while it reads and computes; Cancel keeps the last result), its last
 * result, and the reports of the sites (each one's progress pushed by the backend while it is
 * written, then how it ended: report-state.ts).
 */
import { defineStore } from 'pinia';
import { ref, shallowRef, watch } from 'vue';
import type { ShownAssessment } from '../../../../shared/assessment-shown';
import type { Figure, HourlyRow } from '../../../../shared/assessment';
import {
  DEFAULT_REPORT_APPENDICES,
  type AssessmentProgress,
  type ReportAppendices,
  type ReportFormat,
  type Site,
} from '../../../../shared/assessment';
import type { TimeInterval } from '../../../../shared/data';
import type { FieldDeskError } from '../../../../shared/errors';
import type { RequestArg } from '../../../../shared/ipc/contract';
import { useApi } from '../../api-injection';
import { asFieldDeskError } from '../../errors';
import { useAccountsStore } from '../accounts/store';
import {
  anyReportWriting,
  reportEnded,
  reportProgressed,
  reportStarted,
  type SiteReport,
  type SiteReports,
} from './report-state';

export const useAssessmentStore = defineStore('assessment', () => {
  const api = useApi();
  const accounts = useAccountsStore();
  const sites = shallowRef<Site[] | null>(null);
  const sitesError = ref<FieldDeskError | null>(null);
  /** Stored sites that could not be read (a damaged database row): left out and said. */
  const unreadableSites = ref(0);
  const result = shallowRef<ShownAssessment | null>(null);
  const computing = ref(false);
  const computeError = ref<FieldDeskError | null>(null);
  /** How far the assessment being computed is; null when none is. */
  const computeProgress = shallowRef<AssessmentProgress | null>(null);
  /** The last assessment was cancelled by the user (the result before it, if any, stays). */
  const computeCancelled = ref(false);
  const reports = shallowRef<SiteReports>({});
  /** Answers to older reads and computes that arrive late are dropped. */
  let sitesRound = 0;
  let computeRound = 0;
  /** Follows report progress while any report is written, and only then. */
  let stopProgress: (() => void) | null = null;

  async function loadSites(): Promise<void> {
    const round = ++sitesRound;
    try {
      const list = await api.assessment.sites();
      if (round !== sitesRound) return;
      sites.value = list.sites;
      unreadableSites.value = list.unreadable;
      sitesError.value = null;
    } catch (failure) {
      if (round === sitesRound) sitesError.value = asFieldDeskError(failure);
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

  /**
   * Assesses a period of a site, following its progress. A new assessment clears how the last one
   * ended (its error banner, "Cancelled"); a cancelled one keeps the result shown before it.
   */
  async function compute(siteId: string, range: TimeInterval): Promise<void> {
    const round = ++computeRound;
    computing.value = true;
    computeError.value = null;
    computeCancelled.value = false;
    computeProgress.value = { siteId, ...range, stage: 'Starting', detail: '', fraction: 0 };
    // Subscribed before asking, so no event is missed; only this period's events count.
    const stop = api.assessment.onProgress((progress) => {
      if (round !== computeRound) return;
      if (progress.siteId !== siteId || progress.start !== range.start || progress.end !== range.end) return;
      computeProgress.value = progress;
    });
    try {
      const answer = await api.assessment.compute({ siteId, ...range });
      if (round !== computeRound) return;
      result.value = answer;
    } catch (failure) {
      if (round !== computeRound) return;
      const error = asFieldDeskError(failure);
      if (error.code === 'cancelled') computeCancelled.value = true;
      else computeError.value = error;
    } finally {
      stop();
      if (round === computeRound) {
        computing.value = false;
        computeProgress.value = null;
      }
    }
  }

  /** Stops the site's assessment; it then ends as cancelled, the result shown before it kept. */
  async function cancelCompute(siteId: string): Promise<void> {
    await api.assessment.cancelCompute({ siteId });
  }

  /**
   * The hourly rows of the result shown, read when its hourly table is opened (the result comes
   * without them); fails with `notFound` once a newer assessment of the site replaced it.
   */
  async function readHourly(shown: Pick<ShownAssessment, 'siteId' | 'computedAt'>): Promise<HourlyRow[]> {
    return api.assessment.hourly({ siteId: shown.siteId, computedAt: shown.computedAt });
  }

  /**
   * The figures of an instrument's days in one month of the result shown, read when that month is
   * opened (a long period's result comes by month); fails with `notFound` as `readHourly` does.
   */
  async function readMonthDays(
    shown: Pick<ShownAssessment, 'siteId' | 'computedAt'>,
    serial: string,
    month: string,
  ): Promise<Figure[]> {
    return api.assessment.days({ siteId: shown.siteId, computedAt: shown.computedAt, serial, month });
  }

  /** The report of a site being written (with its progress), or how its last one ended. */
  function reportOf(siteId: string): SiteReport | null {
    return reports.value[siteId] ?? null;
  }

  /**
   * Writes a report of a site; `reportOf(siteId)` shows its progress, then how it ended (a failure
   * too: this never throws). One report of a site at a time: the panel's buttons wait for it.
   */
  async function report(
    siteId: string,
    range: TimeInterval,
    format: ReportFormat,
    appendices: ReportAppendices = DEFAULT_REPORT_APPENDICES,
  ): Promise<void> {
    if (reports.value[siteId]?.state === 'writing') return;
    // Subscribed before asking, so no event is missed; one listener serves every site's report.
    stopProgress ??= api.assessment.onReportProgress((progress) => {
      reports.value = reportProgressed(reports.value, progress);
    });
    reports.value = reportStarted(reports.value, siteId, format);
    try {
      const answer = await api.assessment.report({ siteId, ...range, format, appendices });
      reports.value = reportEnded(reports.value, siteId, answer);
    } catch (failure) {
      reports.value = reportEnded(reports.value, siteId, asFieldDeskError(failure));
    } finally {
      if (!anyReportWriting(reports.value)) {
        stopProgress?.();
        stopProgress = null;
      }
    }
  }

  /** Stops the site's report being written; it then ends as not saved (nothing to show). */
  async function cancelReport(siteId: string): Promise<void> {
    await api.assessment.cancelReport({ siteId });
  }

  // Another account has other sites: never assess, or shade its data, with one account's sites.
  watch(
    () => accounts.activeId,
    (id, previous) => {
      if (id === previous) return;
      computeRound += 1;
      result.value = null;
      computeError.value = null;
      computeCancelled.value = false;
      computeProgress.value = null;
      computing.value = false;
      // Read the new account's sites if this account's were read (or tried).
      if (sites.value === null && sitesError.value === null) return;
      sites.value = null;
      sitesError.value = null;
      unreadableSites.value = 0;
      void loadSites();
    },
  );

  return {
    sites,
    sitesError,
    unreadableSites,
    result,
    computing,
    computeError,
    computeProgress,
    computeCancelled,
    reports,
    reportOf,
    loadSites,
    saveSite,
    deleteSite,
    addExclusion,
    removeExclusion,
    compute,
    cancelCompute,
    readHourly,
    readMonthDays,
    report,
    cancelReport,
  };
});
