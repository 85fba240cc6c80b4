/**
 * The service client for webhook management (`/webhooks`) and the demo service's delivery log
 * (`/demo/...`, FieldDesk's own extension). Every answer is read tolerantly: one webhook that
 * cannot be read never hides the others.
 */
import { z } from 'zod';
import {
  demoAboutSchema,
  demoDeliverySchema,
  webhookSchema,
  type DemoDeliveryRecord,
  type WebhookRecord,
} from '../../../shared/service/webhook-schemas';
import {
  DEMO_ABOUT_PATH,
  DEMO_WEBHOOK_DELIVERIES_PATH,
  DEMO_WEBHOOK_TEST_PATH,
  type DemoExtension,
  type WireWebhookRequest,
} from '../../../shared/service/webhooks';
import { readEachItem, type Resource } from './answers';
import type { ServiceRequester } from './requester';

export interface WebhookClient {
  list(signal?: AbortSignal): Promise<{ webhooks: WebhookRecord[]; skipped: string[] }>;
  get(id: string, signal?: AbortSignal): Promise<WebhookRecord>;
  /** A POST, so never repeated: a retry could add the webhook twice. */
  create(request: WireWebhookRequest, signal?: AbortSignal): Promise<WebhookRecord>;
  remove(id: string, signal?: AbortSignal): Promise<void>;
  /** The demo service's extensions; the real service answers 404 (`notFound`). */
  demoExtensions(signal?: AbortSignal): Promise<DemoExtension[]>;
  /** Demo service only: a sample delivery, started now. */
  sendTest(id: string, signal?: AbortSignal): Promise<DemoDeliveryRecord>;
  /** Demo service only: recent deliveries with every attempt; unreadable ones are left out. */
  deliveries(id: string, signal?: AbortSignal): Promise<DemoDeliveryRecord[]>;
}

const WEBHOOK: Resource<WebhookRecord> = { schema: webhookSchema, item: 'a webhook' };
const LIST: Resource<unknown[]> = { schema: z.array(z.unknown()), item: 'a webhook' };
const DELIVERY: Resource<DemoDeliveryRecord> = { schema: demoDeliverySchema, item: 'a webhook delivery' };
const DELIVERY_LIST: Resource<unknown[]> = { schema: z.array(z.unknown()), item: 'a webhook delivery' };
const ABOUT: Resource<z.output<typeof demoAboutSchema>> = {
  schema: demoAboutSchema,
  item: 'a description of the demo service',
};

export function createWebhookClient({ call, parseJson, validate }: ServiceRequester): WebhookClient {
  const webhookPath = (id: string) => `/webhooks/${encodeURIComponent(id)}`;
  const demoPath = (template: string, id: string) => template.replace(':webhookId', encodeURIComponent(id));
  const readWebhook = (text: string) => validate(parseJson(text, 'a webhook'), WEBHOOK, false);

  return {
    list: (signal) =>
      call('GET', '/webhooks', { signal }, (text) => {
        const list = validate(parseJson(text, 'a list of webhooks', { eachItem: true }), LIST, true);
        const { items, skipped } = readEachItem(list, (item) => validate(item, WEBHOOK, false));
        return { webhooks: items, skipped };
      }),
    get: (id, signal) => call('GET', webhookPath(id), { signal }, readWebhook),
    create: (request, signal) => call('POST', '/webhooks', { json: request, signal }, readWebhook),
    // The answer is 204 without a body; any body is ignored.
    remove: (id, signal) => call('DELETE', webhookPath(id), { signal }, () => undefined),
    demoExtensions: (signal) =>
      call(
        'GET',
        DEMO_ABOUT_PATH,
        { signal },
        (text) => validate(parseJson(text, 'a description of the demo service'), ABOUT, false).extensions,
      ),
    sendTest: (id, signal) =>
      call('POST', demoPath(DEMO_WEBHOOK_TEST_PATH, id), { signal }, (text) =>
        validate(parseJson(text, 'a webhook delivery'), DELIVERY, false),
      ),
    deliveries: (id, signal) =>
      call('GET', demoPath(DEMO_WEBHOOK_DELIVERIES_PATH, id), { signal }, (text) => {
        const list = validate(
          parseJson(text, 'a list of webhook deliveries', { eachItem: true }),
          DELIVERY_LIST,
          true,
        );
        return readEachItem(list, (item) => validate(item, DELIVERY, false)).items;
      }),
  };
}
