/**
 * An assessment site as the engineer sets it up: the instruments it groups under one time zone, the
 * exclusion rules, manual exclusions and limits, the assessment settings, the report's cover and
 * conclusion, and where each instrument measured. Kept in the local database, never sent to the
 * service; callers import it through shared/assessment.ts.
 */

/** The rules an engineer switches on per site; each excludes the periods it finds. */
export interface ExclusionRules {
  /** Wind speed above `windLimit` m/s (microphone wind noise). */
  wind: boolean;
  windLimit: number;
  /**
   * With the wind rule on, time without a wind reading (a gap in the weather series, or no weather
   * read at all where the site has a weather station): excluded as unknown, or counted as calm.
   */
  windUnknown: WindUnknownRule;
  /** Any precipitation (rain noise on the microphone, wet ground). */
  precipitation: boolean;
  /** From a failed calibration or SIC until the next passed one. */
  failedCheck: boolean;
  /** The instrument sent no readings (a gap of more than two samples). */
  offline: boolean;
  /** The instrument flagged its readings as overloaded. */
  overload: boolean;
}

export type WindUnknownRule = 'exclude' | 'calm';

export const DEFAULT_EXCLUSION_RULES: ExclusionRules = {
  wind: true,
  windLimit: 5,
  windUnknown: 'exclude',
  precipitation: true,
  failedCheck: true,
  offline: true,
  overload: true,
};

/** A period drawn or typed by the engineer, with why it does not count. */
export interface ManualExclusion {
  id: string;
  start: number;
  end: number;
  reason: string;
  /** The one instrument it applies to; null for every instrument of the site. */
  serial: string | null;
  createdAt: number;
}

export type ExclusionRuleId = 'wind' | 'precipitation' | 'failedCheck' | 'offline' | 'overload';

/** The figures a limit can be set for. */
export const LIMIT_KEYS = [
  'LAeq,day',
  'LAeq,evening',
  'LAeq,night',
  'Lden',
  'LAeq,1h',
  'LA10,day',
  'LA10,night',
  'LA90,day',
  'LA90,night',
  'LAFMax,night',
  'PPV',
  'VDV,day',
  'VDV,night',
  'PM10,24h',
  'PM2.5,24h',
] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** Per figure, the value it must not exceed; absent when the site sets none. */
export type SiteLimits = Partial<Record<LimitKey, number>>;

/**
 * The limits a new site starts with: the EU's daily particulate limits (PM10 50 µg/m³, Directive
 * 2008/50/EC; PM2.5 25 µg/m³, Directive (EU) 2024/2881) and the BS 5228-2 level at which
 * complaints from residents become likely (1.0 mm/s, tolerable with prior warning). Noise limits
 * come from each site's own condition, so none are set.
 */
export const DEFAULT_LIMITS: SiteLimits = { PPV: 1, 'PM10,24h': 50, 'PM2.5,24h': 25 };

/** DIN 4150-3 (short-term vibration at the foundation), line 1 to 3 of its table 1. */
export type DinLine = 1 | 2 | 3;

export interface AssessmentSettings {
  /** How L10 and L90 of a period are formed (see `StatisticsMethod`). */
  statistics: StatisticsMethod;
  /** An event at night counts when its level is at least this (dB). */
  nightEventThreshold: number;
  dinLine: DinLine;
  /**
   * The share (0…1) of a figure's reference period that must be kept (read and not excluded) for
   * the figure to be stated; below it the figure is "insufficient data", never an exceedance.
   */
  minimumCoverage: number;
}

/**
 * `intervals`: the arithmetic mean of the instrument's own interval values (LAF10, LAF90, e.g. per
 * 15 min); `timeHistory`: ranked from the 1-second LAeq time history of the period.
 */
export type StatisticsMethod = 'intervals' | 'timeHistory';

export const DEFAULT_ASSESSMENT_SETTINGS: AssessmentSettings = {
  statistics: 'intervals',
  nightEventThreshold: 65,
  dinLine: 2,
  minimumCoverage: 0.75,
};

/**
 * What a report's cover says besides the site: who it is for, who wrote, checked and issued it, and
 * which issue it is. Each text is free, empty when not given (the cover then leaves the line out).
 */
export interface SiteCover {
  /** "Thames Water Utilities Ltd" */
  client: string;
  /** "Mogden sewage works, sludge dryer" */
  project: string;
  /** The consultant's reference: "AC-2026-114/R01". */
  reference: string;
  /** "J. Smith MIOA" */
  author: string;
  /** The consultancy issuing the report: "Acme Acoustics Ltd". */
  company: string;
  /** Who checked and approved it: "A. Patel MIOA". */
  approver: string;
  /** The issue: "R01", "P02". */
  revision: string;
  /** Where the issue stands; '' when not stated. */
  status: ReportStatus;
}

/** A report's issue status, as consultancies mark theirs; '' when the site does not state one. */
export const REPORT_STATUSES = ['draft', 'for comment', 'final'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number] | '';

/** "Draft", "For comment", "Final", "" as the cover writes a status. */
export const reportStatusText = (status: ReportStatus): string =>
  status === '' ? '' : `${status.charAt(0).toUpperCase()}${status.slice(1)}`;

export const EMPTY_SITE_COVER: SiteCover = {
  client: '',
  project: '',
  reference: '',
  author: '',
  company: '',
  approver: '',
  revision: '',
  status: '',
};

/** The most a cover field may hold (characters), so it fits the cover page. */
export const SITE_COVER_MAX_LENGTH = 120;

/** The most a site's conclusion may hold (characters): about a page of the report. */
export const SITE_CONCLUSION_MAX_LENGTH = 6000;

/**
 * Where an instrument measured from: `freeField` away from reflecting surfaces, `facade` 1 m in
 * front of one (its level includes the reflection, about +3 dB), `unstated` when not said.
 */
export const POSITION_KINDS = ['freeField', 'facade', 'unstated'] as const;
export type PositionKind = (typeof POSITION_KINDS)[number];

/** "free-field", "façade", "not stated": a position's kind in words. */
export const POSITION_KIND_WORDS: Readonly<Record<PositionKind, string>> = {
  freeField: 'free-field',
  facade: 'façade',
  unstated: 'not stated',
};

/** An instrument's measurement position as the report's method and instruments table say it. */
export interface MeasurementPosition {
  /** "Rear garden of 14 Mill Lane, 3 m from the boundary fence" */
  description: string;
  /** Height of the microphone or sensor above ground (m); null when not stated. */
  height: number | null;
  kind: PositionKind;
}

export const UNSTATED_POSITION: MeasurementPosition = { description: '', height: null, kind: 'unstated' };

/** The highest measurement position the site form takes (m above ground). */
export const POSITION_MAX_HEIGHT = 100;

/** The measurement positions of a site: per instrument (by serial) and the weather sensor's place. */
export interface SitePositions {
  /** Only the site's own instruments; one without an entry is `UNSTATED_POSITION`. */
  instruments: Record<string, MeasurementPosition>;
  /** "On the site office roof, 4 m above ground"; '' when not said. */
  weather: string;
}

export const EMPTY_SITE_POSITIONS: SitePositions = { instruments: {}, weather: '' };

/** An instrument's position on the site, `UNSTATED_POSITION` when none was given. */
export const positionOf = (positions: SitePositions, serial: string): MeasurementPosition =>
  positions.instruments[serial] ?? UNSTATED_POSITION;

export interface Site {
  id: string;
  accountId: string;
  name: string;
  /** IANA zone the standard periods (day, night, Lden) are counted in. */
  timeZone: string;
  serials: string[];
  rules: ExclusionRules;
  exclusions: ManualExclusion[];
  limits: SiteLimits;
  settings: AssessmentSettings;
  /** What the report's cover says (sites saved before it have it empty). */
  cover: SiteCover;
  /**
   * The report's conclusion as the engineer wrote it; '' for the one drafted from the results
   * (`draftConclusion`). Sites saved before it have it empty.
   */
  conclusion: string;
  /** Where each instrument and the weather sensor measured (sites saved before it: none stated). */
  positions: SitePositions;
  createdAt: number;
  updatedAt: number;
}

/** The account's sites, and how many stored ones could not be read (left out, said on screen). */
export interface SiteList {
  sites: Site[];
  unreadable: number;
}
