/** The contract's assessment requests (`assessment.*`): sites, exclusions, figures and reports. */
import { z } from 'zod';
import {
  DEFAULT_ASSESSMENT_SETTINGS,
  DEFAULT_EXCLUSION_RULES,
  LIMIT_KEYS,
  POSITION_KINDS,
  POSITION_MAX_HEIGHT,
  REPORT_STATUSES,
  SITE_CONCLUSION_MAX_LENGTH,
  SITE_COVER_MAX_LENGTH,
  type Figure,
  type HourlyRow,
  type ReportResult,
  type Site,
  type SiteList,
} from '../assessment';
import type { ShownAssessment } from '../assessment-shown';
import { checkTimeRange, epochMsSchema, rangeFields } from './data-requests';
import { noArgs, request, serialSchema } from './request-spec';

export const siteIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'That is not a site of this account.');

/** An IANA zone name, "Europe/London"; the backend checks the zone exists. */
const timeZoneSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z_+-]+(?:\/[A-Za-z0-9_+-]+)+$|^UTC$/, 'Choose the site’s time zone, such as Europe/London.')
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en-GB', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'That time zone is not known.');

const rulesSchema = z
  .object({
    wind: z.boolean(),
    windLimit: z
      .number({ error: 'The wind speed limit must be a number of metres per second.' })
      .min(1, 'The wind speed limit must be between 1 and 30 m/s.')
      .max(30, 'The wind speed limit must be between 1 and 30 m/s.'),
    windUnknown: z
      .enum(['exclude', 'calm'], { error: 'Choose whether time without a wind reading is excluded or calm.' })
      .default(DEFAULT_EXCLUSION_RULES.windUnknown),
    precipitation: z.boolean(),
    failedCheck: z.boolean(),
    offline: z.boolean(),
    overload: z.boolean(),
  })
  .strict();

const limitValue = z
  .number({ error: 'A limit must be a number.' })
  .finite('A limit must be a number.')
  .min(0, 'A limit cannot be negative.')
  .max(10_000, 'That limit is out of range.');

const limitsSchema = z.partialRecord(z.enum(LIMIT_KEYS), limitValue);

const settingsSchema = z
  .object({
    statistics: z.enum(['intervals', 'timeHistory']),
    nightEventThreshold: z
      .number({ error: 'The event threshold must be a number of decibels.' })
      .min(20, 'The event threshold must be between 20 and 140 dB.')
      .max(140, 'The event threshold must be between 20 and 140 dB.'),
    dinLine: z.union([z.literal(1), z.literal(2), z.literal(3)], {
      error: 'Choose line 1, 2 or 3 of DIN 4150-3.',
    }),
    minimumCoverage: z
      .number({ error: 'The minimum coverage must be a share of the period, such as 75 %.' })
      .min(0.1, 'The minimum coverage must be between 10 % and 100 % of the period.')
      .max(1, 'The minimum coverage must be between 10 % and 100 % of the period.')
      .default(DEFAULT_ASSESSMENT_SETTINGS.minimumCoverage),
  })
  .strict();

export const siteNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the site a name.')
  .max(80, 'Keep the site name to 80 characters or fewer.');

/** A cover field: free text of one line, trimmed, empty when not given. */
const coverField = (what: string) =>
  z
    .string({ error: `The ${what} must be text.` })
    .trim()
    .max(SITE_COVER_MAX_LENGTH, `Keep the ${what} to ${SITE_COVER_MAX_LENGTH} characters or fewer.`)
    .regex(/^[^\r\n\t]*$/, `Keep the ${what} on one line.`);

/** What the report's cover says about the site besides its name. */
export const siteCoverSchema = z
  .object({
    client: coverField('client'),
    project: coverField('project'),
    reference: coverField('reference'),
    author: coverField('author'),
    company: coverField('company'),
    approver: coverField('approver'),
    revision: coverField('revision'),
    status: z.enum([...REPORT_STATUSES, ''], { error: 'Choose the status: draft, for comment or final.' }),
  })
  .strict();

/** The report's conclusion as the engineer wrote it: several lines allowed, '' for the drafted one. */
export const siteConclusionSchema = z
  .string({ error: 'The conclusion must be text.' })
  .trim()
  .max(
    SITE_CONCLUSION_MAX_LENGTH,
    `Keep the conclusion to ${SITE_CONCLUSION_MAX_LENGTH} characters or fewer.`,
  );

/** One line of free text about a place, as the method prints it. */
const placeText = (what: string) => coverField(what);

/** A height above ground: a finite number of metres from 0 to `POSITION_MAX_HEIGHT`, or not stated. */
export const positionHeightSchema = z
  // Zod's number refuses NaN and ±Infinity with this message.
  .number({ error: 'The height must be a number of metres.' })
  .min(0, `The height must be between 0 and ${POSITION_MAX_HEIGHT} m above ground.`)
  .max(POSITION_MAX_HEIGHT, `The height must be between 0 and ${POSITION_MAX_HEIGHT} m above ground.`)
  .nullable();

export const measurementPositionSchema = z
  .object({
    description: placeText('position description'),
    height: positionHeightSchema,
    kind: z.enum(POSITION_KINDS, { error: 'Choose free-field, façade or not stated.' }),
  })
  .strict();

/** The site's measurement positions: per instrument (by serial) and the weather sensor's place. */
export const sitePositionsSchema = z
  .object({
    instruments: z
      .record(serialSchema, measurementPositionSchema)
      .refine((positions) => Object.keys(positions).length <= 20, 'A site can hold at most 20 instruments.'),
    weather: placeText('weather sensor’s place'),
  })
  .strict();

/** Creating a site (no `id`) or changing one; what is left out keeps its value (defaults when new). */
export const siteSaveSchema = z
  .object({
    id: siteIdSchema.optional(),
    name: siteNameSchema,
    timeZone: timeZoneSchema,
    serials: z
      .array(serialSchema)
      .min(1, 'Choose at least one instrument for the site.')
      .max(20, 'A site can hold at most 20 instruments.'),
    rules: rulesSchema.optional(),
    limits: limitsSchema.optional(),
    settings: settingsSchema.optional(),
    cover: siteCoverSchema.optional(),
    conclusion: siteConclusionSchema.optional(),
    positions: sitePositionsSchema.optional(),
  })
  .strict();

export const exclusionReasonSchema = z
  .string()
  .trim()
  .min(1, 'Say why this period does not count.')
  .max(200, 'Keep the reason to 200 characters or fewer.');

const exclusionSchema = z
  .object({
    siteId: siteIdSchema,
    ...rangeFields,
    reason: exclusionReasonSchema,
    /** The one instrument it applies to; left out for all of the site's. */
    serial: serialSchema.optional(),
  })
  .strict()
  .superRefine(checkTimeRange);

/** An assessment is at most a year: long enough for any survey, short enough to compute at once. */
export const ASSESSMENT_MAX_SPAN_MS = 366 * 86_400_000;

/** A period of a site as an assessment and its report both take it: at most `ASSESSMENT_MAX_SPAN_MS`. */
const assessmentPeriodFields = { siteId: siteIdSchema, start: epochMsSchema, end: epochMsSchema };

function checkAssessmentSpan(value: { start: number; end: number }, ctx: z.RefinementCtx): void {
  checkTimeRange(value, ctx);
  if (value.end - value.start > ASSESSMENT_MAX_SPAN_MS)
    ctx.addIssue({ code: 'custom', message: 'Assess at most a year at a time.', path: ['end'] });
}

const assessmentQuerySchema = z.object(assessmentPeriodFields).strict().superRefine(checkAssessmentSpan);

const appendicesSchema = z
  .object({ exclusions: z.boolean(), events: z.boolean(), hourly: z.boolean() })
  .strict();

/** A report: the assessment's period (the same span limit), its format and the appendices ticked. */
export const reportRequestSchema = z
  .object({
    ...assessmentPeriodFields,
    format: z.enum(['pdf', 'xlsx', 'csv'], { error: 'Choose PDF, Excel or CSV.' }),
    /** Left out: the default appendices (`DEFAULT_REPORT_APPENDICES`). */
    appendices: appendicesSchema.optional(),
  })
  .strict()
  .superRefine(checkAssessmentSpan);

export const ASSESSMENT_REQUESTS = {
  /** The active account's sites, as kept in the local database. */
  'assessment.sites': request<SiteList>()(noArgs),
  'assessment.saveSite': request<Site>()(siteSaveSchema),
  'assessment.deleteSite': request<{ id: string }>()(z.object({ id: siteIdSchema }).strict()),
  /** Adds a manual exclusion (a period drawn on a chart or typed, with its reason). */
  'assessment.addExclusion': request<Site>()(exclusionSchema),
  'assessment.removeExclusion': request<Site>()(
    z
      .object({ siteId: siteIdSchema, id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Unknown exclusion.') })
      .strict(),
  ),
  /** The figures of a period, with and without exclusions, against the site's limits (offline from the cache). */
  'assessment.compute': request<ShownAssessment>()(assessmentQuerySchema),
  /**
   * The hourly rows of the site's newest assessment (`computedAt` as `assessment.compute` answered
   * it), read when the hourly table is opened; `notFound` once a newer assessment replaced it.
   */
  'assessment.hourly': request<HourlyRow[]>()(
    z.object({ siteId: siteIdSchema, computedAt: z.number().int().nonnegative() }).strict(),
  ),
  /**
   * The figures of an instrument's days in one month ("2026-01", on the site's clock) of the site's
   * newest assessment, read when the screen opens that month of a long period; `notFound` once a
   * newer assessment replaced it.
   */
  'assessment.days': request<Figure[]>()(
    z
      .object({
        siteId: siteIdSchema,
        computedAt: z.number().int().nonnegative(),
        serial: serialSchema,
        month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'A month is written as 2026-01.'),
      })
      .strict(),
  ),
  /**
   * Stops the site's assessment being computed (progress pushed as `assessment.progress`): its
   * reads and computing end, and `assessment.compute` fails with `cancelled`. Answers whether one
   * was running.
   */
  'assessment.cancelCompute': request<{ cancelled: boolean }>()(z.object({ siteId: siteIdSchema }).strict()),
  /** Writes the report of a period as PDF, Excel or CSV where the user chooses. */
  'assessment.report': request<ReportResult>()(reportRequestSchema),
  /**
   * Stops the site's report being written: its reads and writing end, nothing is saved, and the
   * report answers `{ saved: false }`. Answers whether a report was being written.
   */
  'assessment.cancelReport': request<{ cancelled: boolean }>()(z.object({ siteId: siteIdSchema }).strict()),
};
