/** The contract's webhook requests (`webhooks.*`), spread into REQUESTS by contract.ts. */
import { z } from 'zod';
import { WEBHOOK_SECRET_MAX_LENGTH, WEBHOOK_TYPES, WEBHOOK_URL_MAX_LENGTH } from '../service/webhooks';
import { webhookUrlProblem, type CreatedWebhook, type WebhookDelivery, type WebhookList } from '../webhooks';
import { noArgs, request, serialSchema } from './request-spec';

const webhookIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'That is not a webhook of this account.');

const byWebhookId = z.object({ id: webhookIdSchema }).strict();

export const webhookCreateSchema = z
  .object({
    type: z.enum(WEBHOOK_TYPES, { error: 'Choose what the webhook should report.' }),
    instrument: serialSchema,
    url: z
      .string()
      .trim()
      .max(WEBHOOK_URL_MAX_LENGTH, `Keep the address to ${WEBHOOK_URL_MAX_LENGTH} characters or fewer.`)
      .superRefine((url, ctx) => {
        // Whether this service delivers to this computer is the backend's to say (it asks the
        // service); everything else is refused here, so the form says it before sending.
        const problem = webhookUrlProblem(url, { loopback: true });
        if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
      }),
    secret: z
      .string()
      .max(WEBHOOK_SECRET_MAX_LENGTH, `Keep the secret to ${WEBHOOK_SECRET_MAX_LENGTH} characters or fewer.`)
      .regex(/^[\x21-\x7e]*$/, 'Use letters, digits and symbols in the secret, without spaces.')
      .optional(),
  })
  .strict();

export const WEBHOOK_REQUESTS = {
  /** The active account's webhooks, read from the service now. */
  'webhooks.list': request<WebhookList>()(noArgs),
  /** Adds a webhook; the answer carries its secret, which the screen shows this once. */
  'webhooks.create': request<CreatedWebhook>()(webhookCreateSchema),
  'webhooks.delete': request<{ id: string }>()(byWebhookId),
  /** The webhook's secret, read from the service when the user asks to see it. */
  'webhooks.revealSecret': request<{ id: string; secret: string }>()(byWebhookId),
  /** Demo service only: delivers a sample message now; answers the pending delivery. */
  'webhooks.sendTest': request<WebhookDelivery>()(byWebhookId),
  /** Demo service only: the webhook's recent deliveries with their attempts, newest first. */
  'webhooks.deliveries': request<WebhookDelivery[]>()(byWebhookId),
};
