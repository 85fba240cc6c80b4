/**
 * What a report is written from: the assessment, what the site's cover says (client, project,
 * reference, author, company, approver, revision, status), the site's conclusion and measurement
 * positions, the exclusion rules that were on, and the appendices the user ticked. Also
 * what the report is of, in words: its title follows what the site measures ("Noise assessment",
 * "Air quality assessment", "Noise and vibration assessment" only when it measures both).
 */
import {
  DEFAULT_EXCLUSION_RULES,
  DEFAULT_REPORT_APPENDICES,
  EMPTY_SITE_COVER,
  EMPTY_SITE_POSITIONS,
  type AssessmentResult,
  type ExclusionRules,
  type ReportAppendices,
  type SiteCover,
  type SitePositions,
} from '../../../../shared/assessment';
import type { Dataset } from '../../../../shared/data';
import { FieldDeskError } from '../../../../shared/errors';
import { syncTypeOf } from '../../../../shared/sync-choices';

export interface ReportDocument {
  result: AssessmentResult;
  cover: SiteCover;
  /** The site's conclusion as written; '' for the one drafted from the results. */
  conclusion: string;
  /** Where each instrument and the weather sensor measured (method and instruments table). */
  positions: SitePositions;
  /** The site's exclusion rules as the assessment applied them (said in the method). */
  rules: ExclusionRules;
  appendices: ReportAppendices;
  /** Aborted when the user cancels the report: the writers stop at their next step. */
  signal?: AbortSignal;
}

/** A report of `result` with what a test or caller does not give left at its default. */
export const reportDocument = (
  result: AssessmentResult,
  over: Partial<Omit<ReportDocument, 'result'>> = {},
): ReportDocument => ({
  result,
  cover: { ...EMPTY_SITE_COVER },
  conclusion: '',
  positions: { ...EMPTY_SITE_POSITIONS, instruments: {} },
  rules: { ...DEFAULT_EXCLUSION_RULES },
  appendices: { ...DEFAULT_REPORT_APPENDICES },
  ...over,
});

/** Throws `cancelled` once the report's signal is aborted; the writers call it between steps. */
export function throwIfCancelled(report: Pick<ReportDocument, 'signal'>): void {
  if (report.signal?.aborted) throw new FieldDeskError('cancelled', 'The report was cancelled.');
}

/** What a site measures, as its report names it. */
export type Measured = 'noise' | 'vibration' | 'airquality';

const DATASET_MEASURES: Partial<Record<Dataset, Measured>> = {
  noiseMeasurements: 'noise',
  noiseTimeHistory: 'noise',
  events: 'noise',
  vibrationPPV: 'vibration',
  vibrationVDV: 'vibration',
  particulates: 'airquality',
};

/**
 * What the site measures, from its instruments' types and, for an instrument the list did not
 * name, from the data its figures were formed from; in the order noise, vibration, air quality.
 */
export function measuredBy(result: AssessmentResult): Measured[] {
  const found = new Set<Measured>();
  for (const instrument of result.instruments) {
    const type = syncTypeOf(instrument);
    if (type === 'noise' || type === 'vibration' || type === 'airquality') found.add(type);
  }
  for (const figure of result.figures) {
    const measured = DATASET_MEASURES[figure.source.dataset];
    if (measured) found.add(measured);
  }
  return (['noise', 'vibration', 'airquality'] as const).filter((m) => found.has(m));
}

const MEASURED_WORDS: Readonly<Record<Measured, string>> = {
  noise: 'noise',
  vibration: 'vibration',
  airquality: 'air quality',
};

/** "Noise assessment", "Noise and vibration assessment", "Noise, vibration and air quality assessment". */
export function reportKind(result: AssessmentResult): string {
  const words = measuredBy(result).map((m) => MEASURED_WORDS[m]);
  if (words.length === 0) return 'Environmental monitoring assessment';
  const list = words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`;
  return `${list.charAt(0).toUpperCase()}${list.slice(1)} assessment`;
}

/** "Noise assessment — Riverside Close" */
export const reportTitle = (result: AssessmentResult): string => `${reportKind(result)} — ${result.siteName}`;
