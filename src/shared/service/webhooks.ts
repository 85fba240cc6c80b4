/**
 * Webhooks as they travel on the wire (service-interface.md "Webhook management" and "Events",
 * service-facts.md "Webhooks"), and the demo service's own extension for test deliveries. The demo
 * service produces these; the client reads them tolerantly into the app's types.
 */
import type { WireCalibrationStatus, WireSicStatus } from './wire';

/** The message kinds a webhook can deliver; one webhook delivers one kind for one instrument. */
export const WEBHOOK_TYPES = [
  'NewMeasurement',
  'NewEvent',
  'InstrumentStatus',
  'CalibrationFinished',
  'SicFinished',
] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

export function isWebhookType(value: unknown): value is WebhookType {
  return typeof value === 'string' && (WEBHOOK_TYPES as readonly string[]).includes(value);
}

/** What each kind means, in a field engineer's words (the service's own names stay on the wire). */
export const WEBHOOK_TYPE_LABELS: Record<WebhookType, string> = {
  NewMeasurement: 'New measurement',
  NewEvent: 'New noise event',
  InstrumentStatus: 'Instrument online or offline',
  CalibrationFinished: 'Calibration finished',
  SicFinished: 'SIC finished',
};

/** A webhook record: `GET /webhooks`, `GET /webhooks/{id}`, and the 201 answer of `POST /webhooks`. */
export interface WireWebhook {
  id: string;
  type: WebhookType;
  /** One serial number. */
  instrument: string;
  /** Must be https (the demo may allow http://127.0.0.1 for tests). */
  url: string;
  secret: string;
}

/** The body of `POST /webhooks`; a missing or blank secret makes the service generate one. */
export interface WireWebhookRequest {
  type: WebhookType;
  instrument: string;
  url: string;
  secret?: string;
}

/** Headers of every delivery: the webhook's id, and HMAC-SHA256 of the raw body keyed with the secret. */
export const WEBHOOK_ID_HEADER = 'X-Webhook-Id';
/** Lowercase hex in the demo service (the real service does not document the encoding). */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Webhook-Signature';

/** A receiver that has not answered 200 within this time has failed the attempt. */
export const WEBHOOK_DELIVERY_TIMEOUT_MS = 5_000;
/** Retries after the first attempt of one delivery. */
export const WEBHOOK_MAX_RETRIES = 5;
/** The longest address and secret the demo service (and FieldDesk's form) accept. */
export const WEBHOOK_URL_MAX_LENGTH = 2_048;
export const WEBHOOK_SECRET_MAX_LENGTH = 256;

interface WireMessageBase {
  instrument: string;
  /** When the message was sent (ISO 8601 UTC). */
  time: string;
}

/** The body of a delivery, one shape per kind (service-facts.md). */
export type WireWebhookMessage =
  | (WireMessageBase & { type: 'NewMeasurement'; endTime: string })
  | (WireMessageBase & { type: 'NewEvent'; eventTime: string })
  | (WireMessageBase & { type: 'InstrumentStatus'; online: boolean })
  | (WireMessageBase & {
      type: 'CalibrationFinished';
      status: 'Success' | 'Failed';
      error?: string;
      data: WireCalibrationStatus;
    })
  | (WireMessageBase & {
      type: 'SicFinished';
      status: 'Success' | 'Failed';
      error?: string;
      data: WireSicStatus;
    });

// --- The demo service's extension (never part of the real service) -----------------------------

/** `GET` answers `WireDemoAbout` on the demo service; the real service has no such path. */
export const DEMO_ABOUT_PATH = '/demo/about';
/** `POST`: deliver a sample message of the webhook's kind now; answers 202 with the pending delivery. */
export const DEMO_WEBHOOK_TEST_PATH = '/demo/webhooks/:webhookId/test';
/** `GET`: the webhook's recent deliveries with every attempt, newest first. */
export const DEMO_WEBHOOK_DELIVERIES_PATH = '/demo/webhooks/:webhookId/deliveries';

/**
 * The extensions a demo service offers, so a client offers only what it can do: `webhookTest`
 * delivers a sample message on request; `loopbackWebhooks` (only when started with
 * `--allow-loopback-webhooks`) accepts receivers on this computer.
 */
export const DEMO_EXTENSIONS = ['webhookTest', 'loopbackWebhooks'] as const;
export type DemoExtension = (typeof DEMO_EXTENSIONS)[number];

export interface WireDemoAbout {
  service: string;
  extensions: DemoExtension[];
}

/** One try at delivering a message. */
export interface WireDeliveryAttempt {
  /** When the attempt started (ISO 8601 UTC). */
  time: string;
  /** The receiver's HTTP status, or null when none came (refused, timed out, not allowed). */
  status: number | null;
  durationMs: number;
  /** Why the attempt failed, in plain words; null when the receiver answered 200. */
  error: string | null;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** One message and its attempts: the first, then up to `WEBHOOK_MAX_RETRIES` retries. */
export interface WireDemoDelivery {
  id: string;
  webhookId: string;
  type: WebhookType;
  /** True for a sample sent with "Send a test" (it never counts towards removing the webhook). */
  sample: boolean;
  createdAt: string;
  state: DeliveryState;
  attempts: WireDeliveryAttempt[];
}
