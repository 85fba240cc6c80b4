/**
 * Sending webhook messages as the interface describes: a signed JSON POST that the receiver must
 * answer 200 within the time-out, retried up to `WEBHOOK_MAX_RETRIES` times with a doubling wait.
 * Every attempt is kept (the last `DELIVERIES_KEPT` deliveries per webhook) for the demo's
 * deliveries endpoint. Timers never keep the process alive, and `close()` stops everything at once.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  WEBHOOK_ID_HEADER,
  WEBHOOK_MAX_RETRIES,
  WEBHOOK_SIGNATURE_HEADER,
  type WireDeliveryAttempt,
  type WireDemoDelivery,
  type WireWebhook,
  type WireWebhookMessage,
} from '../../shared/service/webhooks';
import { formatServiceTime } from '../../shared/service/time';
import type { WebhookDeliveryMode } from '../options';
import { isLoopbackUrl } from './validate';

/** Deliveries kept per webhook, newest first. */
export const DELIVERIES_KEPT = 20;
/** Webhooks whose deliveries are kept after the webhook is gone (for `webhooks.deliveries(id)`). */
const REMOVED_HISTORIES_KEPT = 200;

export const NOT_SENT_ERROR = 'Not sent: this demo service only delivers to this computer.';

/** HMAC-SHA256 of the exact body bytes keyed with the secret, lowercase hex (`X-Webhook-Signature`). */
export function signBody(secret: string, body: Uint8Array | string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

export interface DeliveryEngineOptions {
  now: () => number;
  mode: WebhookDeliveryMode;
  timeoutMs: number;
  retryDelayMs: number;
  /** Whether the webhook still exists: a removed webhook's retries stop. */
  exists(webhookId: string): boolean;
  /** Called once when a delivery has ended: delivered, or failed after every retry. */
  onEnded(delivery: WireDemoDelivery): void;
}

const secondsText = (ms: number): string => `${Number((ms / 1000).toPrecision(3))} s`;

/** Why `fetch` failed, in plain words. */
function describeFailure(error: unknown, host: string): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  switch (code) {
    case 'ECONNREFUSED':
      return `Could not connect to ${host}: the connection was refused (is the receiver running?).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The host ${host} could not be found.`;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return `The connection to ${host} closed before the receiver answered.`;
    default:
      if (typeof code === 'string' && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) {
        return `The receiver's certificate was not accepted: ${message}`;
      }
      return `The delivery to ${host} failed: ${message}`;
  }
}

function describeStatus(status: number): string {
  if (status >= 300 && status < 400) {
    return `The receiver answered ${status} (a redirect); it must answer 200 itself, redirects are not followed.`;
  }
  return `The receiver answered ${status}; it must answer 200 to confirm receipt.`;
}

interface Pending {
  delivery: WireDemoDelivery;
  done: Promise<void>;
}

interface Kept {
  /** Order of creation: sorts deliveries created within the same millisecond. */
  seq: number;
  delivery: WireDemoDelivery;
}

export class DeliveryEngine {
  private readonly histories = new Map<string, Kept[]>();
  private seq = 0;
  private readonly pending = new Set<Pending>();
  private readonly stopping = new AbortController();

  constructor(private readonly options: DeliveryEngineOptions) {}

  /** Starts delivering `message` to the webhook; returns the delivery as it is now (pending, no attempt). */
  start(webhook: WireWebhook, message: WireWebhookMessage, sample: boolean): WireDemoDelivery {
    const delivery: WireDemoDelivery = {
      id: `dl_${randomBytes(8).toString('hex')}`,
      webhookId: webhook.id,
      type: webhook.type,
      sample,
      createdAt: formatServiceTime(this.options.now()),
      state: 'pending',
      attempts: [],
    };
    const snapshot = structuredClone(delivery);
    const history = this.histories.get(webhook.id) ?? [];
    history.unshift({ seq: this.seq++, delivery });
    history.length = Math.min(history.length, DELIVERIES_KEPT);
    this.histories.set(webhook.id, history);
    if (this.stopping.signal.aborted) {
      delivery.state = 'failed';
      return snapshot;
    }
    const entry: Pending = { delivery, done: Promise.resolve() };
    entry.done = this.run(webhook, message, delivery).finally(() => this.pending.delete(entry));
    this.pending.add(entry);
    return snapshot;
  }

  /** Copies of the deliveries, newest first: of one webhook, or of every webhook. */
  deliveries(webhookId?: string): WireDemoDelivery[] {
    const lists =
      webhookId === undefined ? [...this.histories.values()] : [this.histories.get(webhookId) ?? []];
    const newestFirst = lists.flat().sort((a, b) => b.seq - a.seq);
    return structuredClone(newestFirst.map((kept) => kept.delivery));
  }

  /** Drops the histories of removed webhooks beyond the newest `REMOVED_HISTORIES_KEPT`. */
  forgetRemoved(exists: (webhookId: string) => boolean): void {
    const removed = [...this.histories.keys()].filter((id) => !exists(id));
    for (const id of removed.slice(0, Math.max(0, removed.length - REMOVED_HISTORIES_KEPT))) {
      this.histories.delete(id);
    }
  }

  /** Resolves when no delivery is pending, including those started meanwhile. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending].map((entry) => entry.done));
  }

  /** Aborts every request in flight and every wait for a retry; resolves when all have ended. */
  async close(): Promise<void> {
    this.stopping.abort();
    await this.settled();
  }

  private async run(
    webhook: WireWebhook,
    message: WireWebhookMessage,
    delivery: WireDemoDelivery,
  ): Promise<void> {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    const headers = {
      'Content-Type': 'application/json',
      [WEBHOOK_ID_HEADER]: webhook.id,
      [WEBHOOK_SIGNATURE_HEADER]: signBody(webhook.secret, body),
    };
    for (let attempt = 0; attempt <= WEBHOOK_MAX_RETRIES; attempt++) {
      if (attempt > 0) await this.wait(this.options.retryDelayMs * 2 ** (attempt - 1));
      // Stopped: the service closed, or the webhook was removed. Not an outcome of the receiver.
      if (this.stopping.signal.aborted || !this.options.exists(webhook.id)) {
        delivery.state = 'failed';
        return;
      }
      const result = await this.attempt(webhook.url, headers, body);
      delivery.attempts.push(result);
      if (result.error === null) {
        delivery.state = 'delivered';
        this.options.onEnded(delivery);
        return;
      }
    }
    delivery.state = 'failed';
    if (!this.stopping.signal.aborted) this.options.onEnded(delivery);
  }

  private async attempt(
    url: string,
    headers: Record<string, string>,
    body: Buffer,
  ): Promise<WireDeliveryAttempt> {
    const time = formatServiceTime(this.options.now());
    if (this.options.mode === 'loopbackOnly' && !isLoopbackUrl(url)) {
      return { time, status: null, durationMs: 0, error: NOT_SENT_ERROR };
    }
    const host = new URL(url).host;
    const startedMs = performance.now();
    const elapsed = () => Math.round(performance.now() - startedMs);
    // Node's timeout signals never keep the process alive.
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.any([timeout, this.stopping.signal]),
      });
      // Only the status counts; let the connection go back to the pool.
      await response.body?.cancel().catch(() => undefined);
      const error = response.status === 200 ? null : describeStatus(response.status);
      return { time, status: response.status, durationMs: elapsed(), error };
    } catch (error) {
      const text = this.stopping.signal.aborted
        ? 'The demo service stopped before the receiver answered.'
        : timeout.aborted
          ? `No answer within ${secondsText(this.options.timeoutMs)}; the receiver must answer 200 within that time.`
          : describeFailure(error, host);
      return { time, status: null, durationMs: elapsed(), error: text };
    }
  }

  /** Waits `ms` without keeping the process alive; `close()` ends the wait at once. */
  private async wait(ms: number): Promise<void> {
    try {
      await sleep(ms, undefined, { signal: this.stopping.signal, ref: false });
    } catch {
      // Aborted by close(): the caller sees `stopping` and ends the delivery.
    }
  }
}
