/**
 * Webhooks as FieldDesk shows them: the records of the active account (never with their secrets,
 * which the renderer sees only once after creation or when the user asks), and the demo service's
 * delivery attempts behind "Send a test". Wire forms are in service/webhooks.ts.
 */
import { classifyAddress, classifyHost, type HostClass } from './network-address';
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

export interface WebhookTargetRules {
  /**
   * Whether a receiver on this computer may be named: only the demo service started with
   * `--allow-loopback-webhooks` delivers there (the app's and the harness's are), for trying one out.
   */
  loopback: boolean;
}

/**
 * Why an address cannot take webhooks, in words, or null when it can: https to a host on the open
 * internet. Refused before the service is asked: an address only reachable from inside a network —
 * private, link-local, unique-local, unspecified, a cloud's metadata service, in any spelling (see
 * network-address.ts) — and this computer unless `rules.loopback`, where plain http is allowed too.
 */
export function webhookUrlProblem(text: string, rules: WebhookTargetRules): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Enter the whole address, starting with https://';
  }
  if (url.username !== '' || url.password !== '')
    return 'Leave the user name and password out of the address.';
  const httpsOnly = 'The address must start with https://';
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '')
    return rules.loopback
      ? `${httpsOnly} (plain http only for a receiver on this computer).`
      : `${httpsOnly}.`;
  const host = url.hostname;
  const place = classifyHost(host);
  // A receiver on this computer may be plain http (the demo service delivers there).
  if (place.kind === 'loopback' && rules.loopback) return null;
  const problem = placeProblem(host, place, rules);
  if (problem !== null) return problem;
  if (url.protocol !== 'https:')
    return rules.loopback
      ? `${httpsOnly} (plain http only for a receiver on this computer).`
      : `${httpsOnly}.`;
  return null;
}

/**
 * Why a place cannot take webhooks, as a sentence about `subject` (`10.0.0.1`, or `hooks.example.com
 * resolves to 10.0.0.1, which`); null for the open internet, or this computer under `rules.loopback`.
 */
function placeProblem(subject: string, place: HostClass, rules: WebhookTargetRules): string | null {
  if (place.kind === 'public') return null;
  if (place.kind === 'loopback') {
    if (rules.loopback) return null;
    return `${subject} is ${place.why}: the service cannot deliver messages to your computer. Only FieldDesk’s demo service can, for trying a receiver out; give the receiver’s public https address.`;
  }
  if (place.kind === 'metadata')
    return `${subject} is ${place.why}, where servers read their own credentials: FieldDesk never points a webhook there.`;
  return `${subject} is ${place.why}: the service sends from the internet and cannot reach it. Give the receiver’s public https address.`;
}

/**
 * Why a host name that passed `webhookUrlProblem` still cannot take webhooks once resolved: any
 * address it resolves to that is not on the open internet (a public name can point at a private or
 * metadata address), judged as a literal address is. Null when every address is public.
 */
export function resolvedAddressProblem(
  host: string,
  addresses: readonly string[],
  rules: WebhookTargetRules,
): string | null {
  for (const address of addresses) {
    const problem = placeProblem(`${host} resolves to ${address}, which`, classifyAddress(address), rules);
    if (problem !== null) return problem;
  }
  return null;
}
