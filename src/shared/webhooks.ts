/**
 * Webhooks as FieldDesk shows them: the records of the active account (never with their secrets,
 * which the renderer sees only once after creation or when the user asks), and the demo service's
 * delivery attempts behind "Send a test". Wire forms are in service/webhooks.ts.
 */
import type { DeliveryState, WebhookType } from './service/webhooks';

export interface Webhook {
  id: string;
  /** One of `WEBHOOK_TYPES`, or the service's own text for a kind FieldDesk does not know. */
  type: WebhookType | string;
  instrument: string;
  url: string;
  /** Whether the service holds a secret for it (shown masked; `webhooks.revealSecret` reads it). */
  hasSecret: boolean;
  /** What could not be read of this record, in plain sentences. */
  notes?: string[];
}

export interface WebhookList {
  accountId: string;
  webhooks: Webhook[];
  /** Listed items that could not be read at all, one plain sentence each (the others are shown). */
  skipped: string[];
  fetchedAt: number;
  /**
   * Whether the service can deliver a test message on request: only FieldDesk's demo service can;
   * the real service has no such endpoint.
   */
  canSendTest: boolean;
}

/** The answer to `webhooks.create`: the record and its secret, shown to the user this once. */
export interface CreatedWebhook {
  webhook: Webhook;
  secret: string;
}

export interface WebhookDeliveryAttempt {
  /** Epoch ms. */
  time: number;
  /** The receiver's HTTP status, or null when none came. */
  status: number | null;
  durationMs: number;
  error: string | null;
}

export interface WebhookDelivery {
  id: string;
  type: WebhookType | string;
  sample: boolean;
  createdAt: number;
  state: DeliveryState;
  attempts: WebhookDeliveryAttempt[];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Why an address cannot take webhooks, in words, or null when it can: https for any host; plain
 * http only for this computer (a receiver under test), which the real service refuses anyway.
 */
export function webhookUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Enter the whole address, starting with https://';
  }
  if (url.username !== '' || url.password !== '')
    return 'Leave the user name and password out of the address.';
  if (url.protocol === 'https:' && url.hostname !== '') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'The address must start with https:// (plain http only for a receiver on this computer).';
}
