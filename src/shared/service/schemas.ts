/**
 * Runtime schemas for the service's answers, following the robustness rules of
 * service-facts.md (unknown fields ignored, field names matched case-insensitively, offset-less
 * times read as UTC, `null` kept as "no reading") and the tolerance rules of reading.ts: a part of a
 * record that cannot be read, or that cannot be right, is left out with a note (`notes`) instead of
 * refusing the whole record. Output types use epoch ms.
 */
import { z } from 'zod';
import { parseServiceTime } from './time';
import {
  cutForDisplay,
  isGiven,
  isPlausible,
  isPlausiblePosition,
  PLAUSIBLE,
  quoteValue,
  readBoolean,
  readNumber,
} from './reading';

/** An object schema whose keys match the input's keys regardless of letter case. */
export function caseInsensitiveObject<Shape extends z.ZodRawShape>(shape: Shape) {
  const canonicalByLower = new Map(Object.keys(shape).map((key) => [key.toLowerCase(), key]));
  return z.preprocess((input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
    const out: Record<string, unknown> = {};
    const entries = Object.entries(input as Record<string, unknown>);
    // Exact-case keys win over case variants of the same name.
    for (const [key, value] of entries) if (key in shape) out[key] = value;
    for (const [key, value] of entries) {
      const canonical = canonicalByLower.get(key.toLowerCase());
      if (canonical !== undefined && !(canonical in out)) out[canonical] = value;
    }
    return out;
  }, z.object(shape));
}

export const serviceTime = z.string().transform((text, ctx) => {
  const epoch = parseServiceTime(text);
  if (epoch === null) {
    ctx.addIssue({ code: 'custom', message: `"${text.slice(0, 40)}" is not an ISO 8601 date-time` });
    return z.NEVER;
  }
  return epoch;
});

/** A reading that may be `null` ("no reading", never zero) or absent; numbers sent as text count. */
export const nullableNumber = z.preprocess((value) => {
  const read = readNumber(value);
  return read.ok ? read.value : value;
}, z.number().nullable());

/**
 * A field that may be unreadable without making its record unreadable: the value, or `Unreadable`
 * with why, which `withNotes` turns into the field's fallback plus a note.
 */
class Unreadable {
  constructor(readonly note: string) {}
}

type Tolerant<T> = T | Unreadable;

/** A tolerant field from a reader returning the value, or a note saying why it cannot be used. */
const tolerant = <T>(read: (input: unknown) => T | Unreadable) =>
  z
    .unknown()
    .optional()
    .transform((input): Tolerant<T> => read(input));

/** Moves each unreadable field's note into `notes` (present only when there are any) and uses its fallback. */
function withNotes<O extends Record<string, unknown>, F extends { [K in keyof O]?: unknown }>(fallbacks: F) {
  return (record: O) => {
    const notes: string[] = [];
    const out: Record<string, unknown> = { ...record };
    for (const [key, value] of Object.entries(record)) {
      if (value instanceof Unreadable) {
        notes.push(value.note);
        out[key] = (fallbacks as Record<string, unknown>)[key] ?? null;
      }
    }
    if (notes.length > 0) out['notes'] = notes;
    return out as { [K in keyof O]: Exclude<O[K], Unreadable> } & { notes?: string[] };
  };
}

const optionalText = tolerant((input) =>
  input === null || input === undefined
    ? null
    : typeof input === 'string' || typeof input === 'number'
      ? String(input)
      : new Unreadable(`a text field held ${quoteValue(input)}`),
);

/** A dB value that must lie within `range` to be shown as a fact. */
const plausibleDb = (label: string, range: { min: number; max: number }) =>
  tolerant((input) => {
    const read = readNumber(input);
    if (!read.ok) return new Unreadable(`the ${label} (${quoteValue(input)}) is not a number`);
    if (read.value !== null && !isPlausible(read.value, range))
      return new Unreadable(`the reported ${label} of ${read.value} dB cannot be right, so it is not shown`);
    return read.value;
  });

const position = tolerant((input) => {
  if (!isGiven(input)) return null;
  if (typeof input !== 'object' || Array.isArray(input))
    return new Unreadable('the position could not be read');
  const fields = new Map(Object.entries(input as object).map(([k, v]) => [k.toLowerCase(), v]));
  const lat = readNumber(fields.get('lat') ?? fields.get('latitude'));
  const long = readNumber(fields.get('long') ?? fields.get('longitude'));
  if (!lat.ok || !long.ok) return new Unreadable('the position could not be read');
  if (lat.value === null || long.value === null) return null;
  if (!isPlausiblePosition(lat.value, long.value))
    return new Unreadable(
      `the reported position ${lat.value}, ${long.value} is not on the globe (or unset), so it is not shown`,
    );
  return { lat: lat.value, long: long.value };
});

const subscription = caseInsensitiveObject({
  status: z.string().optional(),
  tier: z.string().optional(),
  addons: z.array(z.string()).optional(),
});

/** Text shown as a name: cut for display, so a megabyte of it cannot slow the app. */
const displayName = z
  .string()
  .nullable()
  .optional()
  .transform((name) => cutForDisplay(name ?? ''));

export const instrumentSchema = caseInsensitiveObject({
  type: z.string(),
  serialNumber: z.string().min(1),
  model: z.string().optional().default(''),
  name: displayName,
  image: optionalText,
  subscription: tolerant((input) => {
    if (!isGiven(input)) return null;
    const parsed = subscription.safeParse(input);
    return parsed.success ? parsed.data : new Unreadable('the subscription could not be read');
  }),
  position,
  feature: tolerant((input) => {
    if (input === null || input === undefined) return [];
    if (Array.isArray(input)) return input.filter((f): f is string => typeof f === 'string');
    return new Unreadable('the feature list could not be read');
  }),
}).transform(withNotes({ feature: [] }));
export type Instrument = z.output<typeof instrumentSchema>;

/** A result that may be `{}` (never run): required fields then, but tolerant values. */
const resultShape = {
  time: serviceTime,
  status: z.string(),
};

export const calibrationStatusSchema = caseInsensitiveObject({
  ...resultShape,
  level: plausibleDb('calibration level', PLAUSIBLE.soundLevelDb),
  offset: plausibleDb('calibration offset', PLAUSIBLE.calibrationOffsetDb),
}).transform(withNotes({}));
export type CalibrationStatus = z.output<typeof calibrationStatusSchema>;

export const sicStatusSchema = caseInsensitiveObject({
  ...resultShape,
  _500Hz: plausibleDb('500 Hz level', PLAUSIBLE.soundLevelDb),
  _1KHz: plausibleDb('1 kHz level', PLAUSIBLE.soundLevelDb),
  _8KHz: plausibleDb('8 kHz level', PLAUSIBLE.soundLevelDb),
}).transform(withNotes({}));
export type SicStatus = z.output<typeof sicStatusSchema>;

/** A flag of the status: true/false (or as text); unreadable or absent counts as false, noted. */
const flag = (label: string) =>
  tolerant((input) => {
    const read = readBoolean(input);
    return read.ok && read.value !== null ? read.value : new Unreadable(`whether ${label} could not be read`);
  });

/** The latest result inside a status: `{}` or absent is "never"; an unreadable one is noted, not fatal. */
const latest = <T>(schema: z.ZodType<T>, label: string) =>
  tolerant((input): T | null | Unreadable => {
    if (!isGiven(input)) return null;
    const parsed = schema.safeParse(input);
    return parsed.success ? parsed.data : new Unreadable(`the last ${label} could not be read`);
  });

export const instrumentStatusSchema = caseInsensitiveObject({
  online: z.preprocess((v) => {
    const read = readBoolean(v);
    return read.ok ? read.value : v;
  }, z.boolean()),
  measuring: flag('it is measuring'),
  calibrationInProgress: flag('a calibration is running'),
  sicInProgress: flag('a SIC is running'),
  lastCalibration: latest(calibrationStatusSchema, 'calibration'),
  lastSic: latest(sicStatusSchema, 'SIC'),
}).transform(withNotes({ measuring: false, calibrationInProgress: false, sicInProgress: false }));
export type InstrumentStatus = z.output<typeof instrumentStatusSchema>;

export const actionResultSchema = caseInsensitiveObject({
  action: z.string(),
  status: z.string(),
});
export type ActionResult = z.output<typeof actionResultSchema>;

export const errorBodySchema = caseInsensitiveObject({
  error: z.string().optional(),
  description: z.string().optional(),
});
