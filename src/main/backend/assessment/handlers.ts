/**
 * Assessment (`assessment.*`): sites with their exclusions and limits in the local database, the
 * figures of a period computed from data read through the cache (so offline from what a site sync
 * kept), and the report written as PDF, Excel or CSV where the user chooses, with progress.
 */
import type { ActionRecord } from '../../../shared/operations';
import type { VisitOnRecord } from './evidence';
import filenamify from 'filenamify';
import { basename } from 'node:path';
import {
  DEFAULT_REPORT_APPENDICES,
  type AssessmentResult,
  type ReportFormat,
  type Site,
} from '../../../shared/assessment';
import { monthFigures, shownAssessment, type ShownAssessment } from '../../../shared/assessment-shown';
import { FieldDeskError } from '../../../shared/errors';
import type { InstrumentEntry } from '../../../shared/ipc/contract';
import type { AccountState } from '../accounts/account-state';
import type { StoredAccount } from '../accounts/account-store';
import type { EventHub } from '../core/events';
import type { HandlersOf } from '../core/handler-types';
import type { ChooseExportPath } from '../core/export-path';
import { saveFailure } from '../core/disk-errors';
import type { SaveTarget, UnfinishedFiles } from '../core/unfinished-files';
import type { ReadThroughCache } from '../data/read-through-cache';
import type { Logger } from '../core/log';
import type { FleetService } from '../instruments/fleet';
import { assessInSteps } from './assess';
import { basisDigest, type AssessmentBasis } from './assessment-basis';
import { computingProgress, maximaProgress, readingProgress, type ComputeProgress } from './compute-progress';
import { intervalMsOf, readAssessmentInputs, type AssessmentInputs, type ReadOne } from './assessment-inputs';
import { refineMaximaTimes } from './maxima-times';
import { withEventDetails } from './report/event-details';
import { appendixSuffix } from './report/report-tables';
import { reportCsvFolder, writeReportCsv } from './report/report-csv';
import type { ReportDocument } from './report/report-document';
import { writeReportPdf } from './report/report-pdf';
import { writeReportXlsx } from './report/report-xlsx';
import { newExclusionId, type SiteStore } from './site-store';
import { siteDate } from './figures/site-periods';

export interface AssessmentDeps {
  accounts: AccountState;
  read: ReadThroughCache;
  sites: SiteStore;
  fleet: FleetService;
  events: EventHub;
  log: Logger;
  chooseExportPath: ChooseExportPath;
  /** The calibration tolerance in force (settings), that drift is judged against. */
  toleranceDb: () => number;
  /** The SIC tolerance in force (settings), that each SIC tone is judged against. */
  sicToleranceDb: () => number;
  /** FieldDesk's own record of the actions run on an instrument (the calibrator of a calibration). */
  actionHistory: (accountId: string, serial: string) => ActionRecord[];
  /** The site visits to an instrument (records.db): the engineer of a calibration made during one. */
  visitHistory: (accountId: string, serial: string) => readonly VisitOnRecord[];
  now: () => number;
  /** Where a report's temporary files are listed, so what a crash left is removed at the next start. */
  unfinished: UnfinishedFiles;
}

const cancelled = () => new FieldDeskError('cancelled', 'The report was cancelled.');

const MESSAGES = {
  noSite: 'This site no longer exists. It may have been deleted in another window.',
  unknownSerial: (serial: string) =>
    `This account has no instrument ${serial}. Refresh the instrument list, or leave it out of the site.`,
} as const;

export function assessmentHandlers(deps: AssessmentDeps): HandlersOf<'assessment'> {
  const { accounts, sites } = deps;

  function siteOf(account: StoredAccount, id: string): Site {
    const site = sites.get(account.id, id);
    if (site === null) throw new FieldDeskError('notFound', MESSAGES.noSite);
    return site;
  }

  /** The instruments of the account (fleet.ts); null when neither the service nor the last list answers. */
  async function fleetOf(
    account: StoredAccount,
    serials: readonly string[],
  ): Promise<InstrumentEntry[] | null> {
    try {
      return await deps.fleet.entries(account, serials);
    } catch (error) {
      deps.log.info('assessing without the instrument list', { error });
      return null;
    }
  }

  /** The inputs of an assessment: the site's data over the period, read through the cache, and its basis. */
  interface ReadForAssessment {
    account: StoredAccount;
    site: Site;
    inputs: AssessmentInputs;
    read: ReadOne;
    evidence: AssessmentBasis['evidence'];
    /** The tolerances in force when it was read: the ones it is assessed with. */
    toleranceDb: number;
    sicToleranceDb: number;
    /** The digest of everything the assessment is computed from (assessment-basis.ts). */
    digest: string;
  }

  /** Reads `read` for one serial, or nothing when the records cannot be read (the rest stands). */
  function recordsOr<T>(what: string, serial: string, read: () => readonly T[]): readonly T[] {
    try {
      return read();
    } catch (error) {
      // Records unavailable: the evidence says the calibrator or engineer is not recorded.
      deps.log.warn(`${what} not read for the calibration evidence`, { serial, error });
      return [];
    }
  }

  /**
   * Reads the site's data over the period, saying how far it is; stops with `cancelled` once
   * `signal` is aborted (between reads).
   */
  async function readForAssessment(
    siteId: string,
    start: number,
    end: number,
    onProgress: (progress: ComputeProgress) => void,
    signal?: AbortSignal,
  ): Promise<ReadForAssessment> {
    const account = accounts.requireActive();
    const site = siteOf(account, siteId);
    const fleet = (await fleetOf(account, site.serials)) ?? [];
    const read: ReadOne = (serial, dataset, range, options) => {
      if (signal?.aborted === true) throw cancelled();
      return deps.read(
        account,
        { serial, dataset, ...range, ...(options === undefined ? {} : { options }) },
        signal === undefined ? {} : { signal },
      );
    };
    const inputs = await readAssessmentInputs(
      site,
      { start, end },
      fleet,
      read,
      deps.now(),
      (progress) => onProgress(readingProgress(progress)),
      signal,
    );
    if (signal?.aborted === true) throw cancelled();
    const evidence = site.serials.map((serial) => ({
      serial,
      actions: recordsOr('action history', serial, () => deps.actionHistory(account.id, serial)),
      visits: recordsOr('site visits', serial, () => deps.visitHistory(account.id, serial)),
    }));
    const toleranceDb = deps.toleranceDb();
    const sicToleranceDb = deps.sicToleranceDb();
    const digest = basisDigest({ site, start, end, toleranceDb, sicToleranceDb, inputs, evidence });
    return { account, site, inputs, read, evidence, toleranceDb, sicToleranceDb, digest };
  }

  /**
   * Assesses what was read, saying how far it is; stops with `cancelled` once `signal` is aborted
   * (between pieces and instruments).
   */
  async function assessRead(
    basis: ReadForAssessment,
    onProgress: (progress: ComputeProgress) => void,
    signal?: AbortSignal,
  ): Promise<{ result: AssessmentResult; refined: boolean }> {
    const { site, inputs, read, evidence } = basis;
    const evidenceOf = (serial: string) => evidence.find((e) => e.serial === serial);
    const result = await assessInSteps(
      site,
      inputs,
      {
        toleranceDb: basis.toleranceDb,
        sicToleranceDb: basis.sicToleranceDb,
        computedAt: deps.now(),
        actionRecords: (serial) => [...(evidenceOf(serial)?.actions ?? [])],
        visitRecords: (serial) => evidenceOf(serial)?.visits ?? [],
      },
      { ...(signal === undefined ? {} : { signal }), onStep: (step) => onProgress(computingProgress(step)) },
    );
    const refined = await refineMaximaTimes(
      result,
      (serial) => intervalMsOf(inputs, serial),
      read,
      (done, total) => onProgress(maximaProgress(done, total)),
    );
    // A cancel during the look-ups ends them quietly (as offline would): the assessment still ends.
    if (signal?.aborted === true) throw cancelled();
    return { result, refined };
  }

  /**
   * The newest assessment shown, kept until the next one: the screen is sent it without its hourly
   * rows and a long period's days, and reads them when it opens the hourly table or a month. One
   * only, so a year is held once, however many sites are looked at. A report of the same site,
   * period and basis (its digest) writes this one rather than computing it again.
   */
  let shown: {
    siteId: string;
    digest: string;
    result: AssessmentResult;
    /** Whether every night's LAFMax was found to the second (offline the look-ups stop). */
    refined: boolean;
  } | null = null;

  /** The newest assessment shown if it is the one the screen asks of; else `notFound`. */
  function shownResult(siteId: string, computedAt: number, what: string): AssessmentResult {
    if (shown === null || shown.siteId !== siteId || shown.result.computedAt !== computedAt)
      throw new FieldDeskError(
        'notFound',
        `These ${what} belong to an earlier assessment of this site. Assess the period again to see them.`,
      );
    return shown.result;
  }

  /** The assessments being computed, by site: what `assessment.cancelCompute` aborts. */
  const assessing = new Map<string, AbortController>();

  /**
   * Assesses a period of a site with its progress pushed. A newer assessment of the same site
   * (another period, rules changed) stops the older one: only the newest is waited for.
   */
  async function compute(siteId: string, start: number, end: number): Promise<ShownAssessment> {
    assessing.get(siteId)?.abort();
    const abort = new AbortController();
    assessing.set(siteId, abort);
    try {
      const onProgress = (progress: ComputeProgress) =>
        deps.events.emit('assessment.progress', { siteId, start, end, ...progress });
      const basis = await readForAssessment(siteId, start, end, onProgress, abort.signal);
      const { result, refined } = await assessRead(basis, onProgress, abort.signal);
      shown = { siteId, digest: basis.digest, result, refined };
      return shownAssessment(result);
    } catch (error) {
      // However the abort surfaced (a read, a step), a cancelled assessment is said as one.
      if (abort.signal.aborted) throw new FieldDeskError('cancelled', 'The assessment was cancelled.');
      throw error;
    } finally {
      if (assessing.get(siteId) === abort) assessing.delete(siteId);
    }
  }

  /** The reports being written, by site: what `assessment.cancelReport` aborts. */
  const writing = new Map<string, AbortController>();

  const WRITERS: Record<
    ReportFormat,
    (
      target: SaveTarget,
      report: ReportDocument,
      onProgress: (stage: string, fraction: number) => void,
    ) => Promise<{
      paths: string[];
      bytes: number;
    }>
  > = {
    pdf: async (target, report, onProgress) => ({
      paths: [target.path],
      bytes: (await writeReportPdf(target, report, onProgress)).bytes,
    }),
    xlsx: async (target, report, onProgress) => ({
      paths: [target.path],
      bytes: (await writeReportXlsx(target, report, onProgress)).bytes,
    }),
    csv: (target, report, onProgress) => writeReportCsv(target, report, onProgress),
  };

  /** How the user knows the report being saved: its file, or for CSV the folder of its tables. */
  const reportWhat = (path: string, format: ReportFormat): string =>
    format === 'csv'
      ? `the CSV report “${basename(reportCsvFolder(path))}”`
      : `the report “${basename(path)}”`;

  return {
    'assessment.sites': async () => {
      const account = accounts.requireActive();
      return sites.list(account.id);
    },

    'assessment.saveSite': async (change) => {
      const account = accounts.requireActive();
      const fleet = await fleetOf(account, change.serials);
      if (fleet !== null) {
        const unknown = change.serials.find((s) => !fleet.some((e) => e.instrument.serialNumber === s));
        if (unknown !== undefined)
          throw new FieldDeskError('invalidInput', MESSAGES.unknownSerial(unknown), { field: 'serials' });
      }
      const saved = sites.save(account.id, change);
      if (saved === null) throw new FieldDeskError('notFound', MESSAGES.noSite);
      return saved;
    },

    'assessment.deleteSite': async ({ id }) => {
      const account = accounts.requireActive();
      if (!sites.remove(account.id, id)) throw new FieldDeskError('notFound', MESSAGES.noSite);
      return { id };
    },

    'assessment.addExclusion': async ({ siteId, start, end, reason, serial }) => {
      const account = accounts.requireActive();
      const site = siteOf(account, siteId);
      if (serial !== undefined && !site.serials.includes(serial))
        throw new FieldDeskError('invalidInput', `${serial} is not one of this site’s instruments.`, {
          field: 'serial',
        });
      const exclusion = {
        id: newExclusionId(),
        start,
        end,
        reason,
        serial: serial ?? null,
        createdAt: deps.now(),
      };
      const exclusions = [...site.exclusions, exclusion].sort((a, b) => a.start - b.start);
      return sites.put({ ...site, exclusions });
    },

    'assessment.removeExclusion': async ({ siteId, id }) => {
      const account = accounts.requireActive();
      const site = siteOf(account, siteId);
      if (!site.exclusions.some((e) => e.id === id))
        throw new FieldDeskError('notFound', 'That exclusion was already removed.');
      return sites.put({ ...site, exclusions: site.exclusions.filter((e) => e.id !== id) });
    },

    'assessment.compute': ({ siteId, start, end }) => compute(siteId, start, end),

    'assessment.hourly': async ({ siteId, computedAt }) =>
      shownResult(siteId, computedAt, 'hourly levels').hourly,

    'assessment.days': async ({ siteId, computedAt, serial, month }) =>
      monthFigures(shownResult(siteId, computedAt, 'days'), serial, month),

    'assessment.cancelCompute': async ({ siteId }) => {
      const abort = assessing.get(siteId);
      abort?.abort();
      return { cancelled: abort !== undefined };
    },

    'assessment.report': async ({ siteId, start, end, format, appendices }) => {
      const account = accounts.requireActive();
      const site = siteOf(account, siteId);
      if (writing.has(siteId))
        throw new FieldDeskError(
          'invalidInput',
          'A report of this site is being written: wait for it, or cancel it.',
        );
      const emit = (stage: string, fraction: number) =>
        deps.events.emit('assessment.reportProgress', { siteId, format, stage, fraction });
      const extension = format === 'csv' ? 'csv' : format;
      // Named by what it holds, so a report with appendices never overwrites one without them.
      const suggested = `${filenamify(site.name, { replacement: '-' })} assessment ${siteDate(start, site.timeZone)} to ${siteDate(end - 1, site.timeZone)}${appendixSuffix(appendices ?? DEFAULT_REPORT_APPENDICES)}.${extension}`;
      const path = await deps.chooseExportPath(suggested, format);
      if (path === null) return { saved: false };
      const abort = new AbortController();
      writing.set(siteId, abort);
      try {
        emit('Reading the data', 0);
        const onProgress = (progress: ComputeProgress) => emit(progress.stage, progress.fraction * 0.5);
        const basis = await readForAssessment(siteId, start, end, onProgress, abort.signal);
        // Nothing changed since the assessment on screen (site, period, settings, readings, records),
        // and its nights' maxima were all found to the second: the report is of that one, figure for
        // figure and with its computed time. (One whose look-ups stopped offline is assessed again.)
        const kept =
          shown?.siteId === siteId && shown.digest === basis.digest && shown.refined ? shown : null;
        if (kept !== null) deps.log.info('report of the assessment on screen', { siteId });
        const result = kept?.result ?? (await assessRead(basis, onProgress, abort.signal)).result;
        const report: ReportDocument = {
          result: withEventDetails(result, basis.inputs),
          cover: basis.site.cover,
          conclusion: basis.site.conclusion,
          positions: basis.site.positions,
          rules: basis.site.rules,
          appendices: appendices ?? DEFAULT_REPORT_APPENDICES,
          signal: abort.signal,
        };
        const target: SaveTarget = { path, what: reportWhat(path, format), unfinished: deps.unfinished };
        try {
          const written = await WRITERS[format](target, report, (stage, fraction) =>
            emit(stage, 0.5 + fraction * 0.5),
          );
          emit('Saved', 1);
          return { saved: true, format, paths: written.paths, bytes: written.bytes };
        } catch (error) {
          if (abort.signal.aborted) throw error;
          throw saveFailure(error, target);
        }
      } catch (error) {
        // Cancelled by the user: nothing was saved (the writers write through a temporary file), and
        // that is all there is to say.
        if (abort.signal.aborted) return { saved: false };
        throw error;
      } finally {
        writing.delete(siteId);
      }
    },

    'assessment.cancelReport': async ({ siteId }) => {
      const abort = writing.get(siteId);
      abort?.abort();
      return { cancelled: abort !== undefined };
    },
  };
}
