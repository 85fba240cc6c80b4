/**
 * The demo service's webhooks: the records of each account, the periodic check of the triggers
 * (running only while a webhook exists), deliveries, and the e-mails the real service sends when
 * a webhook keeps failing. Routes are in routes.ts; the wire shapes in shared/service/webhooks.ts.
 */
import { randomBytes } from 'node:crypto';
import {
  WEBHOOK_DELIVERY_TIMEOUT_MS,
  type WireDemoDelivery,
  type WireWebhook,
} from '../../shared/service/webhooks';
import type { KeyAccount } from '../auth';
import type { DataContext } from '../data/context';
import { onActionFinished, settleActions } from '../health-state';
import {
  WEBHOOK_DELIVERY_MODES,
  type DemoWebhookControl,
  type DemoWebhookTiming,
  type WebhookDeliveryMode,
} from '../options';
import { DeliveryEngine } from './delivery';
import { dueMessage, finishedMessage, sampleMessage, watchFrom, type Watch } from './triggers';
import type { WebhookRequest } from './validate';

/** Failed deliveries in a row (samples not counted) after which the webhook is removed. */
export const FAILED_DELIVERIES_BEFORE_REMOVAL = 3;

export interface WebhookServiceOptions {
  context: DataContext;
  timeScale: number;
  delivery?: WebhookDeliveryMode;
  timing?: DemoWebhookTiming;
  log?: (line: string) => void;
}

interface DemoWebhook {
  wire: WireWebhook;
  account: KeyAccount;
  watch: Watch;
  failuresInARow: number;
}

function resolveTiming(timing: DemoWebhookTiming, timeScale: number) {
  const value = (name: keyof DemoWebhookTiming, fallback: number, min: number): number => {
    const given = timing[name];
    if (given === undefined) return fallback;
    if (!Number.isFinite(given) || given < min) {
      throw new RangeError(
        `webhookTiming.${name} must be a number of milliseconds of at least ${min}, not ${given}.`,
      );
    }
    return given;
  };
  return {
    timeoutMs: value('timeoutMs', Math.max(500, WEBHOOK_DELIVERY_TIMEOUT_MS * timeScale), 1),
    retryDelayMs: value('retryDelayMs', 1000 * timeScale, 0),
    checkIntervalMs: value('checkIntervalMs', Math.max(50, 1000 * timeScale), 0),
  };
}

const describeWebhook = (webhook: WireWebhook): string =>
  `${webhook.id} (${webhook.type} of ${webhook.instrument} to ${webhook.url})`;

export class WebhookService {
  private readonly webhooks = new Map<string, DemoWebhook>();
  private readonly engine: DeliveryEngine;
  private readonly sentEmails: string[] = [];
  private readonly checkIntervalMs: number;
  private readonly stopListening: () => void;
  private readonly context: DataContext;
  private readonly log: (line: string) => void;
  private interval: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(options: WebhookServiceOptions) {
    const mode = options.delivery ?? 'any';
    if (!WEBHOOK_DELIVERY_MODES.includes(mode)) {
      throw new RangeError(
        `webhookDelivery must be ${WEBHOOK_DELIVERY_MODES.join(' or ')}, not ${String(mode)}.`,
      );
    }
    const timing = resolveTiming(options.timing ?? {}, options.timeScale);
    this.context = options.context;
    this.checkIntervalMs = timing.checkIntervalMs;
    this.log = options.log ?? (() => undefined);
    const state = this.context.state;
    this.engine = new DeliveryEngine({
      now: state.now,
      mode,
      timeoutMs: timing.timeoutMs,
      retryDelayMs: timing.retryDelayMs,
      exists: (id) => this.webhooks.has(id),
      onEnded: (delivery) => this.ended(delivery),
    });
    // Whoever settles an action (a status read, the periodic check) makes it send its message.
    this.stopListening = onActionFinished(state.health, (finished) => {
      const message = finishedMessage(finished, state.now());
      if (message === null) return;
      for (const webhook of this.webhooks.values()) {
        if (webhook.wire.instrument === finished.instrument && webhook.wire.type === message.type) {
          this.engine.start(webhook.wire, message, false);
        }
      }
    });
  }

  create(account: KeyAccount, request: WebhookRequest): WireWebhook {
    const instrument = this.instrument(request.instrument);
    const wire: WireWebhook = {
      id: `wh_${randomBytes(8).toString('hex')}`,
      type: request.type,
      instrument: request.instrument,
      url: request.url,
      secret: request.secret ?? randomBytes(32).toString('hex'),
    };
    // Actions finished before now were due to nobody; only what happens from here on counts.
    settleActions(this.context.state);
    this.webhooks.set(wire.id, {
      wire,
      account,
      watch: watchFrom(this.context, instrument),
      failuresInARow: 0,
    });
    this.startChecking();
    return { ...wire };
  }

  /** The account's webhooks in creation order. */
  list(account: KeyAccount): WireWebhook[] {
    return [...this.webhooks.values()].filter((w) => w.account.id === account.id).map((w) => ({ ...w.wire }));
  }

  /** The webhook if it exists and belongs to the account (another account's is "not found"). */
  get(account: KeyAccount, id: string): WireWebhook | null {
    const webhook = this.webhooks.get(id);
    return webhook !== undefined && webhook.account.id === account.id ? { ...webhook.wire } : null;
  }

  remove(account: KeyAccount, id: string): boolean {
    if (this.get(account, id) === null) return false;
    this.drop(id);
    return true;
  }

  /** Delivers a sample message of the webhook's kind now; null when the account has no such webhook. */
  test(account: KeyAccount, id: string): WireDemoDelivery | null {
    const webhook = this.webhooks.get(id);
    if (webhook === undefined || webhook.account.id !== account.id) return null;
    const instrument = this.instrument(webhook.wire.instrument);
    settleActions(this.context.state);
    const message = sampleMessage(this.context, webhook.wire, instrument, this.context.state.health.finished);
    return this.engine.start(webhook.wire, message, true);
  }

  deliveries(account: KeyAccount, id: string): WireDemoDelivery[] | null {
    return this.get(account, id) === null ? null : this.engine.deliveries(id);
  }

  /** Checks every trigger once and starts the deliveries due. */
  check(): void {
    if (this.closed) return;
    // Finishing actions send CalibrationFinished / SicFinished through the listener.
    settleActions(this.context.state);
    for (const webhook of [...this.webhooks.values()]) {
      const message = dueMessage(
        this.context,
        webhook.wire,
        this.instrument(webhook.wire.instrument),
        webhook.watch,
      );
      if (message !== null) this.engine.start(webhook.wire, message, false);
    }
  }

  readonly control: DemoWebhookControl = {
    tick: async () => this.check(),
    deliveries: (webhookId) => this.engine.deliveries(webhookId),
    emails: () => [...this.sentEmails],
    setOnline: (serial, online) => {
      const { condition } = this.instrument(serial);
      condition.online = online;
      this.context.setRecording(serial, online && condition.measuring);
      // Resumed recording may store a stretch at once: look again at the next check.
      for (const webhook of this.webhooks.values()) {
        if (webhook.wire.instrument === serial) webhook.watch.checkedGrid = null;
      }
    },
    settled: () => this.engine.settled(),
  };

  /** Stops the periodic check, every delivery and every pending retry. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopChecking();
    this.stopListening();
    await this.engine.close();
  }

  private instrument(serial: string) {
    const instrument = this.context.state.instruments.get(serial);
    if (instrument === undefined) throw new RangeError(`There is no instrument ${serial} in the demo fleet.`);
    return instrument;
  }

  private drop(id: string): void {
    this.webhooks.delete(id);
    this.engine.forgetRemoved((webhookId) => this.webhooks.has(webhookId));
    if (this.webhooks.size === 0) this.stopChecking();
  }

  private startChecking(): void {
    if (this.interval !== null || this.closed || this.checkIntervalMs === 0) return;
    this.interval = setInterval(() => {
      try {
        this.check();
      } catch (error) {
        this.log(`Webhook check failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }, this.checkIntervalMs);
    this.interval.unref();
  }

  private stopChecking(): void {
    if (this.interval !== null) clearInterval(this.interval);
    this.interval = null;
  }

  /** Counts failed deliveries in a row (never samples), e-mails the owner, removes a webhook that keeps failing. */
  private ended(delivery: WireDemoDelivery): void {
    const webhook = this.webhooks.get(delivery.webhookId);
    if (delivery.sample || webhook === undefined) return;
    if (delivery.state === 'delivered') {
      webhook.failuresInARow = 0;
      return;
    }
    webhook.failuresInARow++;
    const last = delivery.attempts.at(-1);
    const to = `To the owner of ${webhook.account.label}`;
    const what = describeWebhook(webhook.wire);
    const why = `${delivery.attempts.length} attempts were not confirmed (last: ${last?.error ?? 'no answer'})`;
    if (webhook.failuresInARow >= FAILED_DELIVERIES_BEFORE_REMOVAL) {
      this.drop(webhook.wire.id);
      this.email(
        `${to}: your webhook ${what} has been removed: ${webhook.failuresInARow} deliveries in a row failed; ` +
          `for the last one ${why}. Add the webhook again once the receiver answers 200.`,
      );
    } else {
      this.email(
        `${to}: a delivery of your webhook ${what} failed: ${why}. The webhook is removed after ` +
          `${FAILED_DELIVERIES_BEFORE_REMOVAL} failed deliveries in a row (${webhook.failuresInARow} so far).`,
      );
    }
  }

  private email(text: string): void {
    this.sentEmails.push(text);
    this.log(`E-mail (not sent by the demo service): ${text}`);
  }
}
