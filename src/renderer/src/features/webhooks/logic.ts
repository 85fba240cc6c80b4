/** Webhooks in words: kinds, deliveries and their attempts, and the form's checks (pure, tested directly). */
import { webhookCreateSchema } from '../../../../shared/ipc/webhook-requests';
import { WEBHOOK_TYPE_LABELS, isWebhookType } from '../../../../shared/service/webhooks';
import type { Webhook, WebhookDelivery, WebhookDeliveryAttempt } from '../../../../shared/webhooks';
import { fieldError } from '../../ui/forms';
import type { Tone } from '../../ui/tone';
import type { AccountSummary } from '../../../../shared/accounts';
import { blockedReason } from '../accounts/scopes';

/** "Calibration finished"; a kind FieldDesk does not know is shown as the service named it. */
export function webhookTypeLabel(type: Webhook['type']): string {
  return isWebhookType(type) ? WEBHOOK_TYPE_LABELS[type] : type === '' ? 'Unknown kind' : type;
}

export interface WebhookForm {
  type: string;
  instrument: string;
  url: string;
  secret: string;
}

/** The form's problems by field, checked with the schema the backend enforces. */
export function validateWebhookForm(form: WebhookForm): Partial<Record<keyof WebhookForm, string>> {
  const shape = webhookCreateSchema.shape;
  const problems: Partial<Record<keyof WebhookForm, string>> = {};
  const type =
    form.type === '' ? 'Choose what the webhook should report.' : fieldError(shape.type, form.type);
  const instrument =
    form.instrument === '' ? 'Choose the instrument.' : fieldError(shape.instrument, form.instrument);
  const url =
    form.url.trim() === ''
      ? 'Enter the address that receives the messages.'
      : fieldError(shape.url, form.url);
  const secret = form.secret === '' ? null : fieldError(shape.secret, form.secret);
  if (type) problems.type = type;
  if (instrument) problems.instrument = instrument;
  if (url) problems.url = url;
  if (secret) problems.secret = secret;
  return problems;
}

const DELIVERY_STATE: Record<WebhookDelivery['state'], { tone: Tone; label: string }> = {
  pending: { tone: 'info', label: 'Delivering' },
  delivered: { tone: 'ok', label: 'Delivered' },
  failed: { tone: 'danger', label: 'Not delivered' },
};

export function deliveryStateView(delivery: WebhookDelivery): { tone: Tone; label: string } {
  return DELIVERY_STATE[delivery.state];
}

/** "35 ms", "5.0 s": how long a receiver took. */
export function responseTimeText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** "HTTP 200 in 35 ms" or "No answer: timed out after 5 s" — what one attempt came to. */
export function attemptOutcome(attempt: WebhookDeliveryAttempt): string {
  const took = responseTimeText(attempt.durationMs);
  if (attempt.status === null) return attempt.error ?? `No answer after ${took}`;
  const status = `HTTP ${attempt.status} in ${took}`;
  return attempt.status === 200 || attempt.error === null ? status : `${status}: ${attempt.error}`;
}

/** Whether an attempt succeeded (the receiver answered 200). */
export const attemptSucceeded = (attempt: WebhookDeliveryAttempt): boolean => attempt.status === 200;

/** "1 attempt" / "6 attempts (5 retries)". */
export function attemptsSummary(delivery: WebhookDelivery): string {
  const count = delivery.attempts.length;
  if (count === 0) return 'Not tried yet';
  const retries = count - 1;
  return `${count} ${count === 1 ? 'attempt' : 'attempts'}${retries > 0 ? ` (${retries} ${retries === 1 ? 'retry' : 'retries'})` : ''}`;
}

/** Newest first, by id: the store's deliveries of one webhook merged with a fresh answer. */
export function mergeDeliveries(
  known: readonly WebhookDelivery[],
  fresh: readonly WebhookDelivery[],
): WebhookDelivery[] {
  const byId = new Map(known.map((delivery) => [delivery.id, delivery]));
  for (const delivery of fresh) byId.set(delivery.id, delivery);
  return [...byId.values()].sort((a, b) => b.createdAt - a.createdAt);
}

/** Why nothing can be asked of the service now, or null. */
export const WEBHOOKS_OFFLINE =
  'FieldDesk is offline: webhooks are kept at the service, so they can be read and changed only with a connection.';

/** Why webhooks cannot be added or deleted now (offline, or the key lacks webhooks:write), or null. */
export function webhookWriteBlocked(account: AccountSummary | null, offline: boolean): string | null {
  return offline ? WEBHOOKS_OFFLINE : blockedReason(account, 'webhooks:write');
}
