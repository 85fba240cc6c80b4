/**
 * Runtime schemas for the service's answers, following the robustness rules of
 * service-facts.md: unknown fields ignored, field names matched case-insensitively,
 * offset-less times read as UTC, `null` kept as "no reading". Output types use epoch ms.
 */
import { z } from 'zod';
import { parseServiceTime } from './time';

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

/** A reading that may be `null` ("no reading", never zero) or absent. */
export const nullableNumber = z
  .number()
  .nullable()
  .optional()
  .transform((value) => value ?? null);

const position = caseInsensitiveObject({
  lat: z.number().optional(),
  long: z.number().optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
}).transform((p) => {
  const lat = p.lat ?? p.latitude;
  const long = p.long ?? p.longitude;
  return lat === undefined || long === undefined ? null : { lat, long };
});

const subscription = caseInsensitiveObject({
  status: z.string().optional(),
  tier: z.string().optional(),
  addons: z.array(z.string()).optional(),
});

export const instrumentSchema = caseInsensitiveObject({
  type: z.string(),
  serialNumber: z.string().min(1),
  model: z.string().optional().default(''),
  name: z
    .string()
    .nullable()
    .optional()
    .transform((name) => name ?? ''),
  image: z
    .string()
    .nullable()
    .optional()
    .transform((image) => image ?? null),
  subscription: subscription
    .nullable()
    .optional()
    .transform((s) => s ?? null),
  position: position
    .nullable()
    .optional()
    .transform((p) => p ?? null),
  feature: z
    .array(z.string())
    .nullable()
    .optional()
    .transform((f) => f ?? []),
});
export type Instrument = z.output<typeof instrumentSchema>;

export const calibrationStatusSchema = caseInsensitiveObject({
  time: serviceTime,
  status: z.string(),
  level: nullableNumber,
  offset: nullableNumber,
});
export type CalibrationStatus = z.output<typeof calibrationStatusSchema>;

export const sicStatusSchema = caseInsensitiveObject({
  time: serviceTime,
  status: z.string(),
  _500Hz: nullableNumber,
  _1KHz: nullableNumber,
  _8KHz: nullableNumber,
});
export type SicStatus = z.output<typeof sicStatusSchema>;

export const instrumentStatusSchema = caseInsensitiveObject({
  online: z.boolean(),
  measuring: z.boolean(),
  calibrationInProgress: z.boolean(),
  sicInProgress: z.boolean(),
  lastCalibration: calibrationStatusSchema
    .nullable()
    .optional()
    .transform((c) => c ?? null),
  lastSic: sicStatusSchema
    .nullable()
    .optional()
    .transform((s) => s ?? null),
});
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
