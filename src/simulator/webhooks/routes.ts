/**
 * Webhook management (`/webhooks`) and the demo service's own extension (`/demo/…`): every
 * webhook belongs to the account of the key that created it, and another account's webhook is
 * answered exactly like one that does not exist.
 */
import type { Context } from 'hono';
import { API_KEY_HEADER, SERVICE_ERROR_CODES } from '../../shared/service/limits';
import { DEMO_EXTENSIONS, type WireDemoAbout } from '../../shared/service/webhooks';
import type { KeyAccount } from '../auth';
import { errorResponse, type RouteTable } from '../responses';
import type { WebhookService } from './service';
import { parseWebhookRequest } from './validate';

export const DEMO_SERVICE_NAME = 'FieldDesk demo service';

export interface WebhookRouteOptions {
  /** The account of every accepted key (the gate has already refused any other key). */
  accounts: ReadonlyMap<string, KeyAccount>;
  isKnownSerial(serial: string): boolean;
  allowLoopback: boolean;
}

export function webhookRoutes(service: WebhookService, options: WebhookRouteOptions): RouteTable {
  const accountOf = (c: Context): KeyAccount => {
    const account = options.accounts.get(c.req.header(API_KEY_HEADER) ?? '');
    // Unreachable behind the gate; a clear failure beats acting for the wrong account.
    if (account === undefined) throw new Error('The request reached a webhook route without a known key.');
    return account;
  };
  const notFound = (c: Context): Response => {
    const id = (c.req.param('webhookId') ?? '').slice(0, 80);
    return errorResponse(c, 404, SERVICE_ERROR_CODES.notFound, `No webhook with id ${id}.`);
  };

  return {
    'POST /webhooks': async (c) => {
      const account = accountOf(c);
      const parsed = parseWebhookRequest(await c.req.text(), {
        isKnownSerial: options.isKnownSerial,
        allowLoopback: options.allowLoopback,
      });
      if (!parsed.ok) return errorResponse(c, 400, parsed.code, parsed.description);
      return c.json(service.create(account, parsed.value), 201);
    },

    'GET /webhooks': (c) => c.json(service.list(accountOf(c))),

    'GET /webhooks/:webhookId': (c) => {
      const webhook = service.get(accountOf(c), c.req.param('webhookId') ?? '');
      return webhook === null ? notFound(c) : c.json(webhook);
    },

    'DELETE /webhooks/:webhookId': (c) =>
      service.remove(accountOf(c), c.req.param('webhookId') ?? '') ? c.body(null, 204) : notFound(c),

    'GET /demo/about': (c) =>
      c.json({
        service: DEMO_SERVICE_NAME,
        // Receivers on this computer only when the demo was started to accept them.
        extensions: DEMO_EXTENSIONS.filter((name) => name !== 'loopbackWebhooks' || options.allowLoopback),
      } satisfies WireDemoAbout),

    'POST /demo/webhooks/:webhookId/test': (c) => {
      const delivery = service.test(accountOf(c), c.req.param('webhookId') ?? '');
      return delivery === null ? notFound(c) : c.json(delivery, 202);
    },

    'GET /demo/webhooks/:webhookId/deliveries': (c) => {
      const deliveries = service.deliveries(accountOf(c), c.req.param('webhookId') ?? '');
      return deliveries === null ? notFound(c) : c.json(deliveries);
    },
  };
}
