/**
 * Webhooks of the active account, read from the service on every request (they change in the web
 * console too, and are never cached). Secrets stay here: a list carries only whether a webhook has
 * one; the screen gets a secret once after creation and when the user asks to reveal it. A new
 * webhook's address is refused before the service is asked when it is not on the open internet
 * (shared/webhooks.ts), or on this computer for a service that does not deliver there — as written,
 * and where its name resolves (webhook-target.ts); a test delivery checks the address again first.
 */
import { FieldDeskError } from '../../../shared/errors';
import type { WebhookRecord } from '../../../shared/service/webhook-schemas';
import { classifyHost } from '../../../shared/network-address';
import type { DemoExtension } from '../../../shared/service/webhooks';
import { webhookUrlProblem, type Webhook, type WebhookDelivery } from '../../../shared/webhooks';
import type { AccountState } from '../accounts/account-state';
import type { ServiceAccess } from '../accounts/service-access';
import type { HandlersOf } from '../core/handler-types';
import type { SecretRegistry } from '../core/secrets';
import type { ServiceClient } from '../service/client';
import { resolvedTargetProblem, systemLookup, type HostLookup, type TargetProblem } from './webhook-target';

function toWebhook({ secret, notes, ...record }: WebhookRecord): Webhook {
  return { ...record, hasSecret: secret !== null && secret !== '', ...(notes ? { notes } : {}) };
}

const NO_TEST_DELIVERY =
  'This service cannot send a test message: only the FieldDesk demo service can. Check the receiving side with a real event instead.';

/**
 * Which of FieldDesk's demo extensions a service offers (the demo service lists them; the real one
 * answers their address with 404): test messages, receivers on this computer. A definite answer is
 * remembered per address for the session.
 */
function createDemoExtensionCheck() {
  const known = new Map<string, readonly DemoExtension[]>();
  return async (client: ServiceClient, extension: DemoExtension): Promise<boolean> => {
    const remembered = known.get(client.baseUrl);
    if (remembered !== undefined) return remembered.includes(extension);
    try {
      const offered = await client.webhooks.demoExtensions();
      known.set(client.baseUrl, offered);
      return offered.includes(extension);
    } catch (error) {
      if (!(error instanceof FieldDeskError)) throw error;
      // Not found or not readable: not the demo service. Anything else may pass: ask next time.
      if (error.code === 'notFound' || error.code === 'badResponse') known.set(client.baseUrl, []);
      return false;
    }
  };
}

export interface WebhookHandlerDeps {
  accounts: AccountState;
  access: ServiceAccess;
  now: () => number;
  /** Learns every secret read or given, so no event, log line or diagnostics file shows it. */
  secrets: SecretRegistry;
  /** Resolves a webhook's host name (default `dns.lookup`, all addresses); tests inject fakes. */
  lookupHost?: HostLookup;
}

export function webhookHandlers({
  accounts,
  access,
  now,
  secrets,
  lookupHost = systemLookup,
}: WebhookHandlerDeps): HandlersOf<'webhooks'> {
  const offers = createDemoExtensionCheck();
  const canSendTest = (client: ServiceClient) => offers(client, 'webhookTest');
  const known = (secret: string | null | undefined): void => {
    if (secret) secrets.add(secret, 'webhook secret');
  };
  const withActive = <T>(work: (client: ServiceClient) => Promise<T>) =>
    access.withAccount(accounts.requireActive(), work);
  const requireTestDelivery = async (client: ServiceClient) => {
    if (!(await canSendTest(client))) throw new FieldDeskError('invalidRequest', NO_TEST_DELIVERY);
  };
  /**
   * Why `url` cannot take webhooks from this service: as written (a receiver on this computer only
   * for a demo service that delivers there), then where its name resolves.
   */
  const targetProblem = async (client: ServiceClient, url: string): Promise<TargetProblem | null> => {
    // A stored address may not parse (the service's record): webhookUrlProblem says so.
    const onThisComputer = URL.canParse(url) && classifyHost(new URL(url).hostname).kind === 'loopback';
    const loopback = onThisComputer && (await offers(client, 'loopbackWebhooks'));
    const written = webhookUrlProblem(url, { loopback });
    if (written !== null) return { message: written, retryable: false };
    return resolvedTargetProblem(url, lookupHost, () => offers(client, 'loopbackWebhooks'));
  };

  return {
    'webhooks.list': async () => {
      const account = accounts.requireActive();
      return access.withAccount(account, async (client) => {
        const [{ webhooks, skipped }, testable] = await Promise.all([
          client.webhooks.list(),
          canSendTest(client),
        ]);
        for (const webhook of webhooks) known(webhook.secret);
        return {
          accountId: account.id,
          webhooks: webhooks.map(toWebhook),
          skipped,
          fetchedAt: now(),
          canSendTest: testable,
        };
      });
    },

    'webhooks.create': ({ type, instrument, url, secret }) =>
      withActive(async (client) => {
        known(secret);
        // Checked again here, now knowing the service (the form's check leaves a receiver on this
        // computer to us) and where the name resolves.
        const problem = await targetProblem(client, url);
        if (problem !== null)
          throw new FieldDeskError('invalidInput', problem.message, {
            field: 'url',
            retryable: problem.retryable,
          });
        const given = secret === undefined || secret === '' ? {} : { secret };
        const record = await client.webhooks.create({ type, instrument, url, ...given });
        if (record.secret === null || record.secret === '') {
          throw new FieldDeskError(
            'badResponse',
            'The webhook was added, but the service did not send its secret. Open it to read the secret.',
          );
        }
        known(record.secret);
        return { webhook: toWebhook(record), secret: record.secret };
      }),

    'webhooks.delete': ({ id }) =>
      withActive(async (client) => {
        await client.webhooks.remove(id);
        return { id };
      }),

    'webhooks.revealSecret': ({ id }) =>
      withActive(async (client) => {
        const { secret } = await client.webhooks.get(id);
        known(secret);
        if (secret === null || secret === '') {
          throw new FieldDeskError('badResponse', 'The service did not send the secret of this webhook.');
        }
        return { id, secret };
      }),

    'webhooks.sendTest': ({ id }) =>
      withActive(async (client) => {
        await requireTestDelivery(client);
        // The demo service delivers from this computer: where the name points now (it may have
        // changed since it was added, or been added in the web console) is checked first.
        const { url } = await client.webhooks.get(id);
        const problem = await targetProblem(client, url);
        if (problem !== null)
          throw new FieldDeskError('invalidRequest', `No test message was sent. ${problem.message}`, {
            retryable: problem.retryable,
          });
        // The demo's delivery record is already the app's shape (epoch ms, plain attempts).
        const delivery: WebhookDelivery = await client.webhooks.sendTest(id);
        return delivery;
      }),

    'webhooks.deliveries': ({ id }) =>
      withActive(async (client) => {
        await requireTestDelivery(client);
        const deliveries: WebhookDelivery[] = await client.webhooks.deliveries(id);
        return deliveries;
      }),
  };
}
