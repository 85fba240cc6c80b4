/** The contract's data requests (`data.*`) and the query fields they share with site sync. */
import { z } from 'zod';
import {
  DATASETS,
  type DataExportResult,
  type DataImageResult,
  type DataReadResult,
  type EventTimeHistory,
} from '../data';
import { base64TextSchema, request, serialSchema } from './request-spec';
import type { MonitorCurrentResult } from '../monitor';
import { LIVE_READ_WINDOW_MAX_MS, LIVE_READ_WINDOW_MIN_MS, type LiveLevels } from '../live';

/** The longest chart image accepted, as base64 text (about 24 MB of PNG). */
export const MAX_IMAGE_BASE64 = 32 * 1024 * 1024;

export const epochMsSchema = z
  .number({ error: 'Give the time as a number of milliseconds since 1970.' })
  .int('Give the time as a whole number of milliseconds.')
  .min(0, 'The time cannot be before 1970.')
  .max(8.64e15, 'That time is out of range.');

export const datasetSchema = z.enum(DATASETS);
export const noiseValueSchema = z.string().regex(/^[A-Za-z0-9]{1,16}$/, 'That is not a value name.');
export const isoPeriodSchema = z
  .string()
  .regex(
    /^P(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?$/,
    'The period must be an ISO 8601 duration such as PT1M.',
  );
const datasetOptionsSchema = z
  .object({
    values: z.array(noiseValueSchema).max(40).optional(),
    bands: z.enum(['Octave', 'Third']).optional(),
    weighting: z.enum(['A', 'C', 'Z']).optional(),
    period: isoPeriodSchema.optional(),
  })
  .strict();

/** Ten years: longer than any sensible view or sync, short enough to refuse nonsense. */
const MAX_QUERY_SPAN_MS = 10 * 366 * 24 * 3_600_000;
export const rangeFields = { start: epochMsSchema, end: epochMsSchema };

export function checkTimeRange(value: { start: number; end: number }, ctx: z.RefinementCtx): void {
  if (value.end <= value.start) {
    ctx.addIssue({ code: 'custom', message: 'The end must be after the start.', path: ['end'] });
  } else if (value.end - value.start > MAX_QUERY_SPAN_MS) {
    ctx.addIssue({ code: 'custom', message: 'Choose a range of at most ten years.', path: ['end'] });
  }
}

const dataQueryFields = {
  serial: serialSchema,
  dataset: datasetSchema,
  options: datasetOptionsSchema.optional(),
  ...rangeFields,
};

export const DATA_REQUESTS = {
  'data.read': request<DataReadResult>()(
    z
      .object({
        ...dataQueryFields,
        /** Also the instrument's noise events in the range, to mark on a noise chart (one answer, one drawing). */
        withEvents: z.boolean().optional(),
        /**
         * Online, fetch the still-open recent interval again whatever its age (Refresh, and a view
         * refreshing itself); otherwise only once it is older than the user's refresh age.
         */
        refresh: z.boolean().optional(),
        /** Reduce the series for a chart this many pixel columns wide; figures come from every reading. */
        chartWidth: z
          .number()
          .int('The chart width must be a whole number of pixels.')
          .min(50, 'The chart must be at least 50 pixels wide.')
          .max(10_000, 'The chart can be at most 10,000 pixels wide.')
          .optional(),
      })
      .strict()
      .superRefine(checkTimeRange),
  ),
  /** One noise event's time history, read from the service (the `timeHistoryId` of an event record). */
  'data.eventTimeHistory': request<EventTimeHistory>()(
    z
      .object({
        id: z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9_.:=+/-]{1,256}$/, 'That is not the time history id of an event.'),
      })
      .strict(),
  ),
  /** Writes what `data.read` answers, at full resolution, to a CSV file the user chooses. */
  'data.export': request<DataExportResult>()(
    z
      .object({
        ...dataQueryFields,
        /**
         * Comparing: every instrument drawn, the shown one first, with the name the user knows it
         * by; each series is written as its own column ("LAeq · North gate (QT930998) (dB)").
         */
        instruments: z
          .array(z.object({ serial: serialSchema, name: z.string().trim().min(1).max(200) }).strict())
          .min(1)
          .max(4, 'At most four instruments are compared.')
          .optional(),
      })
      .strict()
      .superRefine(checkTimeRange)
      .superRefine((value, ctx) => {
        const serials = value.instruments?.map((instrument) => instrument.serial) ?? [];
        if (serials.length > 0 && serials[0] !== value.serial)
          ctx.addIssue({
            code: 'custom',
            message: 'The shown instrument comes first.',
            path: ['instruments'],
          });
        if (new Set(serials).size !== serials.length)
          ctx.addIssue({ code: 'custom', message: 'An instrument is listed twice.', path: ['instruments'] });
      }),
  ),
  /** A noise monitor's current system state, read live (it is a now, so it is not cached). */
  'data.monitorCurrent': request<MonitorCurrentResult>()(z.object({ serial: serialSchema }).strict()),
  /**
   * A noise instrument's newest 1 s LAeq over the last `windowMs` (default `LIVE_READ_WINDOW_MS`),
   * read from the service every time: never answered from or stored in the cache, since its last
   * minute is still open.
   */
  'data.liveLevels': request<LiveLevels>()(
    z
      .object({
        serial: serialSchema,
        windowMs: z
          .number()
          .int('Give the window as a whole number of milliseconds.')
          .min(LIVE_READ_WINDOW_MIN_MS, 'Read at least the last 30 seconds.')
          .max(LIVE_READ_WINDOW_MAX_MS, 'Read at most the last 5 minutes.')
          .optional(),
      })
      .strict(),
  ),
  /** Saves a chart as drawn (a PNG the renderer made of its canvases) where the user chooses. */
  'data.saveImage': request<DataImageResult>()(
    z
      .object({
        fileName: z
          .string()
          .trim()
          .regex(
            /^[^\\/:*?"<>|\u0000-\u001f]{1,150}\.png$/,
            'The file name must be a plain name ending in .png.',
          ),
        // A 4000 × 8000 chart compresses far below this; anything bigger is not a chart.
        pngBase64: base64TextSchema(MAX_IMAGE_BASE64, {
          tooLarge: 'The image is too large to save.',
          notBase64: 'The image is not base64 text.',
        }),
      })
      .strict(),
  ),
};
