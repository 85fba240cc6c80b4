/**
 * Webhooks of the active account, read from the service on every request (they change in the web
 * console too, and are never cached). Secrets stay here: a list carries only whether a webhook has
 * one; the screen gets a secret once after creation and when the user asks to reveal it.
 */
import { FieldDeskError } from '../../../shared/errors';
import type { WebhookRecord } from '../../../shared/service/webhook-schemas';
import type { Webhook, WebhookDelivery } from '../../../shared/webhooks';
import type { AccountState } from '../accounts/account-state';
import type { ServiceAccess } from '../accounts/service-access';
import type { HandlersOf } from '../core/handler-types';
import type { SecretRegistry } from '../core/secrets';
import type { ServiceClient } from '../service/client';

function toWebhook({ secret, notes, ...record }: WebhookRecord): Webhook {
  return { ...record, hasSecret: secret !== null && secret !== '', ...(notes ? { notes } : {}) };
}

const NO_TEST_DELIVERY =
  'This service cannot send a test message: only the FieldDesk demo service can. Check the receiving side with a real event instead.';

/**
 * Whether a service delivers test messages (FieldDesk's demo service does; the real one answers its
 * extension's address with 404). A definite answer is remembered per address for the session.
 */
function createTestDeliveryCheck() {
  const known = new Map<string, boolean>();
  return async (client: ServiceClient): Promise<boolean> => {
    const remembered = known.get(client.baseUrl);
    if (remembered !== undefined) return remembered;
    try {
      const can = (await client.webhooks.demoExtensions()).includes('webhookTest');
      known.set(client.baseUrl, can);
      return can;
    } catch (error) {
      if (!(error instanceof FieldDeskError)) throw error;
      // Not found or not readable: not the demo service. Anything else may pass: ask next time.
      if (error.code === 'notFound' || error.code === 'badResponse') known.set(client.baseUrl, false);
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
}

export function webhookHandlers({
  accounts,
  access,
  now,
  secrets,
}: WebhookHandlerDeps): HandlersOf<'webhooks'> {
  const canSendTest = createTestDeliveryCheck();
  const known = (secret: string | null | undefined): void => {
    if (secret) secrets.add(secret, 'webhook secret');
  };
  const withActive = <T>(work: (client: ServiceClient) => Promise<T>) =>
    access.withAccount(accounts.requireActive(), work);
  const requireTestDelivery = async (client: ServiceClient) => {
    if (!(await canSendTest(client))) throw new FieldDeskError('invalidRequest', NO_TEST_DELIVERY);
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
