/** The contract's calibrator register requests (`calibrators.*`), spread into REQUESTS by contract.ts. */
import { z } from 'zod';
import {
  CALIBRATOR_CLASSES,
  CALIBRATOR_LEVEL_MAX_DB,
  CALIBRATOR_LEVEL_MIN_DB,
  CALIBRATOR_MAX_LEVELS,
  CALIBRATOR_TEXT_MAX_LENGTH,
  CERTIFICATE_MAX_YEARS,
  dayNumber,
  type Calibrator,
  type CalibratorList,
} from '../calibrators';
import { noArgs, request } from './request-spec';

export const calibratorIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'That calibrator is not in the register.');

const LEVEL_RANGE_TEXT = `A nominal level must be between ${CALIBRATOR_LEVEL_MIN_DB} dB and ${CALIBRATOR_LEVEL_MAX_DB} dB.`;

/** A model or serial: printable, trimmed, not empty. */
const nameText = (what: string) =>
  z
    .string({ error: `Enter the calibrator's ${what}.` })
    .trim()
    .min(1, `Enter the calibrator's ${what}.`)
    .max(CALIBRATOR_TEXT_MAX_LENGTH, `Keep the ${what} to ${CALIBRATOR_TEXT_MAX_LENGTH} characters or fewer.`)
    .regex(/^[^\p{Cc}]*$/u, `The ${what} cannot hold control characters.`);

const calendarDate = (what: string) =>
  z
    .string({ error: `Enter the ${what} as a date.` })
    .refine((text) => dayNumber(text) !== null, `The ${what} must be a real date written YYYY-MM-DD.`);

/** Whether both dates of a calibrator being checked are real dates (the payload is not yet typed). */
function bothDates(payload: { value: unknown }): boolean {
  const value = payload.value as { certificateDate?: unknown; dueDate?: unknown } | null;
  return (
    typeof value?.certificateDate === 'string' &&
    typeof value.dueDate === 'string' &&
    dayNumber(value.certificateDate) !== null &&
    dayNumber(value.dueDate) !== null
  );
}

export const calibratorChangeSchema = z
  .object({
    id: calibratorIdSchema.optional(),
    model: nameText('model'),
    serial: nameText('serial number'),
    class: z.enum(CALIBRATOR_CLASSES, {
      error: 'Choose the calibrator’s class: IEC 60942 class 1, 2 or LS.',
    }),
    levelsDb: z
      .array(
        z
          .number({ error: 'A nominal level must be a number of decibels.' })
          .min(CALIBRATOR_LEVEL_MIN_DB, LEVEL_RANGE_TEXT)
          .max(CALIBRATOR_LEVEL_MAX_DB, LEVEL_RANGE_TEXT)
          .refine((level) => Math.abs(level * 10 - Math.round(level * 10)) < 1e-6, {
            message: 'Give a nominal level to a tenth of a decibel at most.',
          }),
        { error: 'Give the calibrator’s nominal levels.' },
      )
      .min(1, 'Give at least one nominal level, e.g. 94 dB.')
      .max(CALIBRATOR_MAX_LEVELS, `Give at most ${CALIBRATOR_MAX_LEVELS} nominal levels.`)
      .refine((levels) => new Set(levels.map((l) => Math.round(l * 10))).size === levels.length, {
        message: 'Give each nominal level once.',
      })
      .transform((levels) => [...levels].sort((a, b) => a - b)),
    certificateDate: calendarDate('certificate date'),
    dueDate: calendarDate('due date'),
  })
  .strict()
  // The dates are judged together once both are dates, even while another field has a problem, so
  // the form names every problem at once.
  .refine((c) => (dayNumber(c.dueDate) ?? 0) > (dayNumber(c.certificateDate) ?? 0), {
    message: 'The due date must be after the certificate date.',
    path: ['dueDate'],
    when: bothDates,
  })
  .refine(
    (c) => (dayNumber(c.dueDate) ?? 0) - (dayNumber(c.certificateDate) ?? 0) <= CERTIFICATE_MAX_YEARS * 366,
    {
      message: `The due date must be within ${CERTIFICATE_MAX_YEARS} years of the certificate date.`,
      path: ['dueDate'],
      when: bothDates,
    },
  );

const byCalibratorId = z.object({ id: calibratorIdSchema }).strict();

export const CALIBRATOR_REQUESTS = {
  /** The register: every calibrator, and the one chosen last. */
  'calibrators.list': request<CalibratorList>()(noArgs),
  /** Adds a calibrator (no id) or changes one; refuses a second entry with the same model and serial. */
  'calibrators.save': request<Calibrator>()(calibratorChangeSchema),
  /** Takes a calibrator out of use (kept listed, not offered for calibrations), or back into use. */
  'calibrators.retire': request<Calibrator>()(
    z.object({ id: calibratorIdSchema, retired: z.boolean({ error: 'Say whether to retire it.' }) }).strict(),
  ),
  /** Removes a calibrator from the register (calibrations made with it keep their own copy). */
  'calibrators.remove': request<{ id: string }>()(byCalibratorId),
};
