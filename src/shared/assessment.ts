/**
 * Assessment: what an engineer hands over after a survey. A site groups instruments under one time
 * zone with its exclusion rules, manual exclusions and limits (assessment-site.ts, re-exported here
 * so callers import one module); an assessment computes the figures of a period with and without the
 * excluded time, compares them with the limits and lists the exceedances (this file: what a result
 * holds); a report writes it all, with the calibration evidence, as PDF, Excel or CSV. How a figure
 * is said in words is figure-text.ts.
 */
import type { CheckRecord } from './check-record';
import type { CalibratorSnapshot } from './calibrators';
import type { Dataset, DatasetOptions } from './data';
import type { SicToneJudgement } from './operations';
import type { AssessmentSettings, DinLine, ExclusionRuleId, LimitKey } from './assessment-site';

export * from './assessment-site';

// ---- figures -----------------------------------------------------------------------------------

/** One excluded period as an assessment found it (merged per cause and instrument). */
export interface ExcludedPeriod {
  start: number;
  end: number;
  /** The instrument whose figures it removes; null for all of the site's. */
  serial: string | null;
  cause: ExclusionRuleId | 'manual';
  /** In words: "Wind above 5 m/s (highest 7.2 m/s)", "Road works". */
  reason: string;
}

/** Where a figure's samples come from: enough to read them again and show them (traceability). */
export interface FigureSource {
  serial: string;
  dataset: Dataset;
  options?: DatasetOptions;
  /** The series the figure is formed from (`LAeq`, `vMaxZ`, `pM10`). */
  channel: string;
  start: number;
  end: number;
}

/**
 * Whether a figure may be stated: `ok`; `insufficient` when its kept time is below the site's
 * minimum coverage (shown as "insufficient data (41 %)", never an exceedance, counted nowhere);
 * `noData` when its period has no readings at all (never shown as zero).
 */
export type FigureState = 'ok' | 'insufficient' | 'noData';

export interface Figure {
  /** Unique within an assessment: `<serial>|<key>|<period start>`. */
  id: string;
  serial: string;
  /** The figure's name as standards write it ("LAeq,night", "PPV Z", "PM10 24-h mean"). */
  label: string;
  /** The limit that applies to it, if one can. */
  limitKey: LimitKey | null;
  /** Site-local label of the period ("Tue 24 Nov 2026, night 23:00–07:00", "whole period"). */
  period: string;
  start: number;
  end: number;
  unit: string;
  /** From every reading, exclusions ignored; null without readings. */
  all: number | null;
  /** With the excluded time removed; null when nothing remains. */
  valid: number | null;
  /** Fraction (0…1) of the period with readings that count (excluded time not counted). */
  coverage: number;
  /** Whether `valid` may be stated (see `FigureState`); only an `ok` figure can exceed its limit. */
  state: FigureState;
  /**
   * Decimals `all` and `valid` are stated at; both are rounded to them, so what is shown, exported
   * and compared with the limit is one number.
   */
  decimals: number;
  /** How it was formed, in a sentence ("energetic mean of 64 15-min LAeq values"). */
  method: string;
  /**
   * The guideline the figure is held to when it is not one of the site's limits ("DIN 4150-3 line
   * 2", its limit the guideline at the figure's frequency); absent otherwise.
   */
  guideline?: string;
  /** More to say: the dominant frequency of a PPV, the guideline value at it. */
  detail?: string;
  /** When the value was reached, for a highest value (LAFMax, PPV): the time an exceedance is said at. */
  at?: number;
  /**
   * The length of the reading `at` starts (ms): 1000 when found to the second, 900000 when only its
   * 15-min interval is known — so no output writes an interval's start as if it were the moment.
   */
  atStepMs?: number;
  limit: number | null;
  /** True when the figure is `ok` and `valid` (as stated) is above `limit`. */
  exceeds: boolean;
  source: FigureSource;
}

/** One row of the hourly table (site time). */
export interface HourlyRow {
  serial: string;
  start: number;
  end: number;
  /** "24 Nov 13:00", site time. */
  label: string;
  laeq: number | null;
  laeqValid: number | null;
  lafmax: number | null;
  la10: number | null;
  la90: number | null;
  /** Minutes of the hour excluded. */
  excludedMinutes: number;
  /** Fraction (0…1) of the hour whose LAeq counts (read and not excluded). */
  coverage: number;
  /** Whether `laeqValid` meets the site's minimum coverage: only then can it exceed LAeq,1h. */
  sufficient: boolean;
}

export interface Exceedance {
  figureId: string;
  /** When the exceeding value was reached, when the figure is a highest value (PPV, LAFMax). */
  at?: number;
  serial: string;
  label: string;
  period: string;
  start: number;
  end: number;
  value: number;
  limit: number;
  unit: string;
  /** Decimals the value is stated (and was compared) at. */
  decimals: number;
}

/**
 * A calibration or SIC as evidence: when, what it read, how it is judged, pass or fail. Also the
 * row that stands for a calibration not on record before or after the period (`missing`), so the
 * gap is flagged where the evidence is read. Fields marked optional are absent in older results.
 */
export interface CheckEvidence
  extends
    Omit<CheckRecord, 'instrumentPassed' | 'fieldDesk' | 'deviation' | 'referenceDb'>,
    Partial<Pick<CheckRecord, 'instrumentPassed' | 'fieldDesk' | 'deviation' | 'referenceDb'>> {
  serial: string;
  /** When the check was recorded; for a `missing` row, the period's start or end it is missing at. */
  time: number;
  /**
   * The verdict that counts (see `CheckRecord.passed`): FieldDesk's where it ran the check, else the
   * instrument's status: Success (true), Failed/Error (false), another word (null).
   */
  passed: boolean | null;
  /**
   * Calibration: the change of its deviation since the last passing calibration before it (dB; a
   * failed check is never the base), null without one and for a failed check (a failure is said as
   * such, never as a drift). SIC: null (its tones are judged in `tones`).
   */
  drift: number | null;
  /** The time of the passing calibration the drift is measured from; null without one. */
  driftFrom?: number | null;
  /** Before the period, within it, or after it. */
  when: 'before' | 'during' | 'after';
  /** The tolerance judged against (dB): the calibration tolerance, or for a SIC the SIC tolerance. */
  tolerance: number;
  /** Calibration: the drift within `tolerance`; SIC: every judged tone within its band; null when nothing was judged. */
  driftWithinTolerance: boolean | null;
  /** SIC: each tone against its reference, the median of the instrument's last passing checks before it. */
  tones?: SicToneJudgement[];
  /** True for the row standing for a calibration not on record before (or after) the period. */
  missing?: boolean;
  /**
   * What a reviewer must not miss about this row, in words (a failed check, drift or a tone outside
   * tolerance, a missing calibration); null when nothing.
   */
  flag?: string | null;
  /**
   * Calibration: the calibrator fitted, from FieldDesk's own record of a calibration it ran (matched
   * to this one by instrument and time); null when not recorded (run elsewhere, or none named).
   */
  calibrator?: CalibratorSnapshot | null;
  /**
   * Calibration: the engineer of the FieldDesk site visit to the instrument open when it was made;
   * null when no visit covers it.
   */
  engineer?: string | null;
}

export interface AssessedInstrument {
  serial: string;
  name: string;
  type: string;
  model: string;
  position: { lat: number; long: number } | null;
}

export interface NoiseEventRef {
  serial: string;
  start: number;
  end: number | null;
  level: number | null;
  trigger: string;
  /** The recording the service keeps of it, if any (an opaque id: never printed). */
  audioId: string | null;
  /** When its recording starts (pre-trigger included), for the recording's file name; absent: `start`. */
  audioStart?: number;
  /**
   * The levels the instrument measured over the event (dB), as it reports them (the service's
   * `overall`, whose meaning it does not document); absent or empty when it sent none.
   */
  measured?: number[];
  atNight: boolean;
  excluded: boolean;
}

/** A chart's data for the report: a series over the period with the limits and excluded time. */
export interface AssessmentChart {
  serial: string;
  title: string;
  unit: string;
  /** Starts of the readings drawn (reduced to the chart's columns: each a reading's own start). */
  times: number[];
  values: Array<number | null>;
  /**
   * The length of one reading of the series in ms (its logging interval), so a span drawn on the
   * chart snaps to the readings' boundaries; absent in charts made without it.
   */
  step?: number;
  limits: Array<{ label: string; value: number }>;
}

/**
 * A vibration monitor's readings as DIN 4150-3 draws them: PPV against dominant frequency per axis
 * (excluded readings left out; the readings nearest the guideline kept when there are many), the
 * guideline line of the chosen building class through its corner frequencies, and the constant
 * human-response limit.
 */
export interface PpvScatter {
  serial: string;
  line: DinLine;
  lineLabel: string;
  /** [frequency Hz, PPV mm/s] at the line's corners, from 1 to 100 Hz. */
  guideline: Array<[number, number]>;
  /** The site's PPV limit (BS 5228-2), if set. */
  limit: number | null;
  axes: Array<{ axis: 'X' | 'Y' | 'Z'; points: Array<[number, number]>; total: number }>;
}

export interface AssessmentResult {
  siteId: string;
  siteName: string;
  timeZone: string;
  start: number;
  end: number;
  computedAt: number;
  settings: AssessmentSettings;
  instruments: AssessedInstrument[];
  exclusions: ExcludedPeriod[];
  figures: Figure[];
  hourly: HourlyRow[];
  exceedances: Exceedance[];
  checks: CheckEvidence[];
  events: NoiseEventRef[];
  charts: AssessmentChart[];
  /** Each vibration monitor's PPV against frequency with the DIN 4150-3 line (absent in older results). */
  ppvScatter?: PpvScatter[];
  /** What could not be read or computed, and why (offline parts, missing datasets). */
  notes: string[];
  /**
   * Exclusion rules that are on but could not be judged, in a sentence each ("The wind rule could
   * not be judged: no instrument of the site measures weather, so no time was excluded for wind.");
   * said in the method and the summary. Absent in older results.
   */
  unjudgedRules?: string[];
  /** True when some of the data was answered by the local cache rather than fetched for this assessment. */
  fromCache: boolean;
  /** When the oldest data used was fetched from the service (null without any data). */
  dataFetchedAt: number | null;
  /** Which part of the data was read for this assessment and which from the local copy (absent in older results). */
  dataOrigin?: DataOrigin;
}

/**
 * Where an assessment's readings came from: read from the service while it was made, or answered by
 * the copy FieldDesk keeps on this computer from an earlier read.
 */
export interface DataOrigin {
  /** When the newest read from the service for this assessment was made; null when none was. */
  readAt: number | null;
  /** The parts of the period for which some dataset came from the copy (merged, in time order). */
  fromCopy: Array<{ start: number; end: number }>;
  /** When the oldest part taken from the copy had been read from the service; null when none was. */
  copyReadAt: number | null;
}

export type ReportFormat = 'pdf' | 'xlsx' | 'csv';

/** The parts a report adds after its results when the user ticks them (the report dialog). */
export interface ReportAppendices {
  /** Every excluded period with its cause and reason. */
  exclusions: boolean;
  /** The noise events with their recording's file name and measured levels. */
  events: boolean;
  /** The hourly noise levels. */
  hourly: boolean;
}

export const DEFAULT_REPORT_APPENDICES: ReportAppendices = { exclusions: true, events: false, hourly: false };

export type ReportResult =
  { saved: false } | { saved: true; format: ReportFormat; paths: string[]; bytes: number };

/**
 * Pushed while a period is assessed (`assessment.progress`): reading the data, instrument by
 * instrument and day by day, then computing each instrument's figures.
 */
export interface AssessmentProgress {
  siteId: string;
  /** The period being assessed, so an answer to an earlier period is told apart. */
  start: number;
  end: number;
  /** "Reading the data" or "Computing the figures". */
  stage: string;
  /** What is being done, in words: "QT930998 (1 of 3): 45 of 365 days read". */
  detail: string;
  /** How far the whole assessment is, 0…1. */
  fraction: number;
}

/** Pushed while a report is written: its stage and how far (0…1). */
export interface ReportProgress {
  siteId: string;
  format: ReportFormat;
  stage: string;
  fraction: number;
}
