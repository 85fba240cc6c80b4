/**
 * The reports of the sites as the report panel shows them, as pure transitions (the store applies
 * them): a report being written with its latest progress, or how the last one of a site ended.
 * Kept per site, so a report's progress shows under the site it is of, whichever site is on screen.
 */
import type { ReportFormat, ReportProgress, ReportResult } from '../../../../shared/assessment';
import { isFieldDeskError, type FieldDeskError } from '../../../../shared/errors';

export type SiteReport =
  | { state: 'writing'; progress: ReportProgress }
  | { state: 'saved'; saved: Extract<ReportResult, { saved: true }> }
  | { state: 'failed'; error: FieldDeskError };

/** By site id. */
export type SiteReports = Readonly<Record<string, SiteReport>>;

/** What shows from the moment a report is asked for until the backend says how far it is. */
export const STARTING_STAGE = 'Starting';

/** A report of `siteId` is asked for: it replaces how the site's last one ended. */
export function reportStarted(reports: SiteReports, siteId: string, format: ReportFormat): SiteReports {
  return {
    ...reports,
    [siteId]: { state: 'writing', progress: { siteId, format, stage: STARTING_STAGE, fraction: 0 } },
  };
}

/**
 * Progress of a report moves the report being written of its site in its format. An event of a
 * report that already ended (its answer can overtake its last event) or of a site with none
 * written changes nothing.
 */
export function reportProgressed(reports: SiteReports, progress: ReportProgress): SiteReports {
  const current = reports[progress.siteId];
  if (current?.state !== 'writing' || current.progress.format !== progress.format) return reports;
  return { ...reports, [progress.siteId]: { state: 'writing', progress } };
}

/**
 * A report of `siteId` ended with the backend's answer or its error. When the user chose not to
 * save (the save dialog cancelled) there is nothing to say, so the site shows no report.
 */
export function reportEnded(
  reports: SiteReports,
  siteId: string,
  outcome: ReportResult | FieldDeskError,
): SiteReports {
  const { [siteId]: _ended, ...others } = reports;
  if (isFieldDeskError(outcome)) return { ...others, [siteId]: { state: 'failed', error: outcome } };
  return outcome.saved ? { ...others, [siteId]: { state: 'saved', saved: outcome } } : others;
}

/** Whether any site's report is being written (progress events are followed only then). */
export const anyReportWriting = (reports: SiteReports): boolean =>
  Object.values(reports).some((report) => report.state === 'writing');
