/** Webhooks in the renderer: the form's checks, deliveries in words, and the store's secret handling. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebhookDelivery, WebhookList } from '../../../src/shared/webhooks';
import { createFakeBackend, fakePinia } from './fake-api';
import { useWebhooksStore, DELIVERY_POLL_MS } from '../../../src/renderer/src/features/webhooks/store';
import * as logic from '../../../src/renderer/src/features/webhooks/logic';

const backend = createFakeBackend();
const fake = backend.api;

const form = { type: 'NewEvent', instrument: 'QT100001', url: 'https://hooks.example.com/fd', secret: '' };

const list = (ids: string[]): WebhookList => ({
  accountId: 'acc-1',
  webhooks: ids.map((id) => ({
    id,
    type: 'NewEvent',
    instrument: 'QT100001',
    url: 'https://hooks.example.com/fd',
    hasSecret: true,
  })),
  skipped: [],
  fetchedAt: 1,
  canSendTest: true,
});

const delivery = (id: string, state: WebhookDelivery['state'], attempts: number[]): WebhookDelivery => ({
  id,
  type: 'NewEvent',
  sample: true,
  createdAt: 1_000 + Number(id.replace(/\D/g, '')),
  state,
  attempts: attempts.map((status, i) => ({
    time: 2_000 + i,
    status,
    durationMs: 12,
    error: status === 200 ? null : 'The receiver answered 500.',
  })),
});

describe('the add form', () => {
  it('accepts a complete form with an https address and no secret', () => {
    expect(logic.validateWebhookForm(form)).toEqual({});
  });

  it('names each missing or wrong field', () => {
    const problems = logic.validateWebhookForm({
      type: '',
      instrument: '',
      url: 'http://hooks.example.com',
      secret: 'has space',
    });
    expect(problems.type).toMatch(/Choose what/);
    expect(problems.instrument).toMatch(/Choose the instrument/);
    expect(problems.url).toMatch(/https:\/\//);
    expect(problems.secret).toMatch(/without spaces/);
  });

  it('takes plain http only for a receiver on this computer', () => {
    expect(logic.validateWebhookForm({ ...form, url: 'http://127.0.0.1:8080/hook' })).toEqual({});
    expect(logic.validateWebhookForm({ ...form, url: 'http://192.168.1.20/hook' }).url).toBeDefined();
    expect(logic.validateWebhookForm({ ...form, url: 'not an address' }).url).toMatch(/whole address/);
    expect(logic.validateWebhookForm({ ...form, url: 'https://user:pw@hooks.example.com' }).url).toMatch(
      /user name and password/,
    );
  });

  it('says before sending that an address inside a network or a metadata service cannot take webhooks', () => {
    expect(logic.validateWebhookForm({ ...form, url: 'https://0xa9fea9fe/latest' }).url).toMatch(
      /^169\.254\.169\.254 is the cloud metadata address .*FieldDesk never points a webhook there\.$/,
    );
    expect(logic.validateWebhookForm({ ...form, url: 'https://metadata.google.internal/' }).url).toMatch(
      /metadata/,
    );
    expect(logic.validateWebhookForm({ ...form, url: 'https://10.0.0.1/hook' }).url).toMatch(
      /^10\.0\.0\.1 is a private network address/,
    );
    expect(logic.validateWebhookForm({ ...form, url: 'https://[fd00::5]/hook' }).url).toMatch(/unique local/);
  });
});

describe('deliveries in words', () => {
  it('says what each attempt came to', () => {
    expect(logic.attemptOutcome({ time: 0, status: 200, durationMs: 35.4, error: null })).toBe(
      'HTTP 200 in 35 ms',
    );
    expect(
      logic.attemptOutcome({ time: 0, status: 500, durationMs: 1500, error: 'The receiver answered 500.' }),
    ).toBe('HTTP 500 in 1.5 s: The receiver answered 500.');
    expect(
      logic.attemptOutcome({ time: 0, status: null, durationMs: 5000, error: 'No answer within 5 s.' }),
    ).toBe('No answer within 5 s.');
  });

  it('counts attempts and retries', () => {
    expect(logic.attemptsSummary(delivery('d1', 'pending', []))).toBe('Not tried yet');
    expect(logic.attemptsSummary(delivery('d1', 'delivered', [200]))).toBe('1 attempt');
    expect(logic.attemptsSummary(delivery('d1', 'failed', [500, 500, 500, 500, 500, 500]))).toBe(
      '6 attempts (5 retries)',
    );
  });

  it('merges a fresh answer by id, newest first', () => {
    const merged = logic.mergeDeliveries(
      [delivery('d1', 'delivered', [200]), delivery('d2', 'pending', [])],
      [delivery('d2', 'failed', [500]), delivery('d3', 'pending', [])],
    );
    expect(merged.map((d) => [d.id, d.state])).toEqual([
      ['d3', 'pending'],
      ['d2', 'failed'],
      ['d1', 'delivered'],
    ]);
  });

  it('labels kinds in words, and keeps a kind it does not know as the service named it', () => {
    expect(logic.webhookTypeLabel('SicFinished')).toBe('SIC finished');
    expect(logic.webhookTypeLabel('FutureKind')).toBe('FutureKind');
  });
});

describe('what may be changed now', () => {
  const account = (missingScopes: string[]) =>
    ({ id: 'acc-1', name: 'Demo', baseUrl: 'http://x/v1', missingScopes }) as unknown as Parameters<
      typeof logic.webhookWriteBlocked
    >[0];

  it('says offline first, then a missing webhooks:write, else nothing', () => {
    expect(logic.webhookWriteBlocked(account([]), true)).toBe(logic.WEBHOOKS_OFFLINE);
    expect(logic.webhookWriteBlocked(account(['webhooks:write']), false)).toBe(
      'This key cannot add and remove webhooks: it lacks webhooks:write.',
    );
    expect(logic.webhookWriteBlocked(account(['webhooks:read']), false)).toBeNull();
    expect(logic.webhookWriteBlocked(null, false)).toBe('Choose an account first.');
  });
});

describe('webhooks store', () => {
  beforeEach(() => {
    fakePinia(backend);
    backend.reset();
  });
  afterEach(() => vi.useRealTimers());

  it('keeps a new webhook’s secret to show once, until closed, and reads the list again', async () => {
    fake.webhooks.create.mockResolvedValue({ webhook: list(['wh_1']).webhooks[0]!, secret: 's3cret' });
    fake.webhooks.list.mockResolvedValue(list(['wh_1']));
    const store = useWebhooksStore();
    await store.create({ type: 'NewEvent', instrument: 'QT100001', url: form.url });
    expect(store.created?.secret).toBe('s3cret');
    expect(store.list?.webhooks.map((w) => w.id)).toEqual(['wh_1']);
    store.closeCreated();
    expect(store.created).toBeNull();
  });

  it('reveals a secret only when asked, and forgets it when hidden, deleted or the page is left', async () => {
    fake.webhooks.revealSecret.mockResolvedValue({ id: 'wh_1', secret: 'abc' });
    fake.webhooks.delete.mockResolvedValue({ id: 'wh_1' });
    fake.webhooks.list.mockResolvedValue(list([]));
    const store = useWebhooksStore();
    await store.reveal('wh_1');
    expect(store.revealed.get('wh_1')).toBe('abc');
    store.hide('wh_1');
    expect(store.revealed.has('wh_1')).toBe(false);
    await store.reveal('wh_1');
    await store.remove('wh_1');
    expect(store.revealed.has('wh_1')).toBe(false);
    await store.reveal('wh_1');
    store.stop();
    expect(store.revealed.size).toBe(0);
  });

  it('follows a test delivery until it is no longer pending, then stops asking', async () => {
    vi.useFakeTimers();
    fake.webhooks.sendTest.mockResolvedValue(delivery('d1', 'pending', []));
    fake.webhooks.deliveries
      .mockResolvedValueOnce([delivery('d1', 'pending', [500])])
      .mockResolvedValueOnce([delivery('d1', 'delivered', [500, 200])]);
    const store = useWebhooksStore();
    await store.sendTest('wh_1');
    expect(store.deliveries.get('wh_1')?.[0]?.state).toBe('pending');
    await vi.advanceTimersByTimeAsync(DELIVERY_POLL_MS);
    expect(store.deliveries.get('wh_1')?.[0]?.attempts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(DELIVERY_POLL_MS);
    expect(store.deliveries.get('wh_1')?.[0]?.state).toBe('delivered');
    await vi.advanceTimersByTimeAsync(DELIVERY_POLL_MS * 5);
    expect(fake.webhooks.deliveries).toHaveBeenCalledTimes(2);
  });

  it('keeps the reason when the list cannot be read', async () => {
    const { FieldDeskError } = await import('../../../src/shared/errors');
    fake.webhooks.list.mockRejectedValue(
      new FieldDeskError('forbidden', 'This key cannot list webhooks: it lacks webhooks:read.'),
    );
    const store = useWebhooksStore();
    await store.load();
    expect(store.error?.message).toMatch(/lacks webhooks:read/);
    expect(store.list).toBeNull();
  });
});
