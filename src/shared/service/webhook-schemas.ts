/**
 * Runtime schemas for the webhook answers (the records and the demo service's delivery log), read
 * with the rules of reading.ts: unknown fields ignored, names in any letter case, ids sent as
 * numbers accepted, a kind FieldDesk does not know kept as the service's text, long text cut.
 */
import { z } from 'zod';
import { cutForDisplay, readBoolean, readNumber } from './reading';
import { caseInsensitiveObject, serviceTime } from './schemas';
import { DEMO_EXTENSIONS, WEBHOOK_URL_MAX_LENGTH } from './webhooks';

/** An id: text, or a number sent for one. */
const idText = z.preprocess(
  (value) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : value),
  z.string().trim().min(1),
);

const text = (max: number) =>
  z
    .string()
    .nullable()
    .optional()
    .transform((value) => cutForDisplay(value ?? '', max));

export const webhookSchema = caseInsensitiveObject({
  id: idText,
  type: text(64),
  instrument: text(64),
  url: text(WEBHOOK_URL_MAX_LENGTH),
  // Kept exactly (never cut): a receiver verifies signatures with it.
  secret: z.string().nullable().optional(),
}).transform(({ secret, ...webhook }) => {
  const notes: string[] = [];
  if (webhook.type === '') notes.push('the service did not say what this webhook reports');
  if (webhook.url === '') notes.push('the service did not say where this webhook delivers');
  return { ...webhook, secret: secret ?? null, ...(notes.length > 0 ? { notes } : {}) };
});
export type WebhookRecord = z.output<typeof webhookSchema>;

const statusCode = z.preprocess((value) => {
  const read = readNumber(value);
  return read.ok ? read.value : value;
}, z.number().int().min(100).max(599).nullable());

const attemptSchema = caseInsensitiveObject({
  time: serviceTime,
  status: statusCode.optional().transform((value) => value ?? null),
  durationMs: z.preprocess(
    (value) => {
      const read = readNumber(value);
      return read.ok ? read.value : value;
    },
    z
      .number()
      .min(0)
      .nullable()
      .optional()
      .transform((value) => value ?? 0),
  ),
  error: z
    .string()
    .nullable()
    .optional()
    .transform((value) => (value === null || value === undefined ? null : cutForDisplay(value))),
});

export const demoDeliverySchema = caseInsensitiveObject({
  id: idText,
  type: text(64),
  sample: z.preprocess((value) => {
    const read = readBoolean(value);
    return read.ok ? (read.value ?? false) : value;
  }, z.boolean()),
  createdAt: serviceTime,
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.array(attemptSchema),
});
export type DemoDeliveryRecord = z.output<typeof demoDeliverySchema>;

export const demoAboutSchema = caseInsensitiveObject({
  service: z.string().optional(),
  extensions: z
    .array(z.string())
    .optional()
    .transform((names) =>
      (names ?? []).filter((name): name is (typeof DEMO_EXTENSIONS)[number] =>
        (DEMO_EXTENSIONS as readonly string[]).includes(name),
      ),
    ),
});
