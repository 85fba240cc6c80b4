/**
 * Retries (a receiver answering 500, one that never answers, one that recovers) and what repeated
 * failure leads to: e-mails to the owner and, after three failed deliveries in a row, removal.
 */
import { describe, expect, it } from 'vitest';
import { WEBHOOK_MAX_RETRIES } from '../../../src/shared/service/webhooks';
import { call } from './helpers';
import {
  addWebhook,
  closedPortUrl,
  fleetOf,
  json,
  key,
  pick,
  sendTest,
  startDemo,
  startReceiver,
} from './webhook-helpers';

describe('retries', () => {
  async function sampleTo(url: string, timeoutMs = 10_000) {
    const demo = startDemo({ webhookTiming: { timeoutMs } });
    const serial = pick(await fleetOf(demo.app), 'instrument', () => true);
    const webhook = await addWebhook(demo.app, { type: 'InstrumentStatus', instrument: serial, url });
    await sendTest(demo.app, webhook.id);
    await demo.webhooks.settled();
    const [delivery] = demo.webhooks.deliveries(webhook.id);
    return { ...demo, webhook, delivery: delivery! };
  }

  it('retries a receiver answering 500 exactly five times, then gives up', async () => {
    const receiver = await startReceiver(() => 500);
    const { delivery, webhooks } = await sampleTo(receiver.url);
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts).toHaveLength(1 + WEBHOOK_MAX_RETRIES);
    for (const attempt of delivery.attempts) {
      expect(attempt).toEqual({
        time: expect.any(String),
        status: 500,
        durationMs: expect.any(Number),
        error: 'The receiver answered 500; it must answer 200 to confirm receipt.',
      });
    }
    // Every retry is the same message with the same signature.
    expect(receiver.received).toHaveLength(1 + WEBHOOK_MAX_RETRIES);
    expect(new Set(receiver.received.map((r) => r.raw.toString())).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.headers['x-webhook-signature'])).size).toBe(1);
    // A sample never e-mails the owner.
    expect(webhooks.emails()).toEqual([]);
  });

  it('counts a receiver that never answers as failed after the time-out, every attempt', async () => {
    const receiver = await startReceiver(() => 'hang');
    const { delivery } = await sampleTo(receiver.url, 100);
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts).toHaveLength(1 + WEBHOOK_MAX_RETRIES);
    for (const attempt of delivery.attempts) {
      expect(attempt.status).toBeNull();
      expect(attempt.error).toBe('No answer within 0.1 s; the receiver must answer 200 within that time.');
      expect(attempt.durationMs).toBeGreaterThanOrEqual(90);
    }
    expect(receiver.received).toHaveLength(1 + WEBHOOK_MAX_RETRIES);
  });

  it('stops retrying once the receiver answers 200 (here the third attempt)', async () => {
    const receiver = await startReceiver((i) => [500, 503][i] ?? 200);
    const { delivery } = await sampleTo(receiver.url);
    expect(delivery.state).toBe('delivered');
    expect(delivery.attempts.map((a) => [a.status, a.error === null])).toEqual([
      [500, false],
      [503, false],
      [200, true],
    ]);
    expect(receiver.received).toHaveLength(3);
  });

  it('says so when nothing listens at the address', async () => {
    const { delivery } = await sampleTo(await closedPortUrl());
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts).toHaveLength(1 + WEBHOOK_MAX_RETRIES);
    expect(delivery.attempts[0]).toMatchObject({
      status: null,
      error: expect.stringMatching(/connection was refused/),
    });
  });

  it('does not follow a redirect', async () => {
    const receiver = await startReceiver(() => 302);
    const { delivery } = await sampleTo(receiver.url);
    expect(delivery.attempts[0]?.error).toMatch(/302 \(a redirect\)/);
  });
});

describe('repeated failure', () => {
  /** A demo with an InstrumentStatus webhook whose deliveries the test causes by taking the instrument off and on line. */
  async function statusWebhookTo(url: string) {
    const lines: string[] = [];
    const demo = startDemo({ log: (line) => lines.push(line) });
    const serial = pick(await fleetOf(demo.app), 'online instrument', (e) => e.status.online);
    const webhook = await addWebhook(demo.app, { type: 'InstrumentStatus', instrument: serial, url });
    let online = true;
    const change = async () => {
      online = !online;
      demo.webhooks.setOnline(serial, online);
      await demo.webhooks.tick();
      await demo.webhooks.settled();
    };
    return { ...demo, lines, webhook, change };
  }

  it('e-mails the owner after each failed delivery and removes the webhook after three in a row', async () => {
    const receiver = await startReceiver(() => 500);
    const { app, webhooks, webhook, lines, change } = await statusWebhookTo(receiver.url);
    await change();
    await change();
    expect(webhooks.emails()).toHaveLength(2);
    expect(webhooks.emails()[1]).toMatch(
      new RegExp(
        `^To the owner of the account of API key "${key}": a delivery of your webhook ${webhook.id} .*failed: 6 attempts were not confirmed \\(last: The receiver answered 500.*\\(2 so far\\)\\.$`,
      ),
    );
    expect((await call(app, 'GET', `/webhooks/${webhook.id}`, { key })).status).toBe(200);

    await change();
    const emails = webhooks.emails();
    expect(emails).toHaveLength(3);
    expect(emails[2]).toMatch(
      new RegExp(`your webhook ${webhook.id} .* has been removed: 3 deliveries in a row failed`),
    );
    expect(lines).toEqual(emails.map((text) => `E-mail (not sent by the demo service): ${text}`));
    expect((await call(app, 'GET', `/webhooks/${webhook.id}`, { key })).status).toBe(404);
    expect(await json(call(app, 'GET', '/webhooks', { key }))).toEqual([]);
    // The control still shows what happened; the gone webhook receives nothing more.
    expect(webhooks.deliveries(webhook.id).map((d) => [d.sample, d.state, d.attempts.length])).toEqual([
      [false, 'failed', 6],
      [false, 'failed', 6],
      [false, 'failed', 6],
    ]);
    await change();
    expect(receiver.received).toHaveLength(18);
  });

  it('never counts samples, and a delivered message starts the count again', async () => {
    // Requests 0–11 fail (two deliveries), 12 succeeds, then samples and deliveries fail again.
    const receiver = await startReceiver((i) => (i === 12 ? 200 : 500));
    const { app, webhooks, webhook, change } = await statusWebhookTo(receiver.url);
    await change();
    await change();
    await change();
    expect(webhooks.deliveries(webhook.id).map((d) => d.state)).toEqual(['delivered', 'failed', 'failed']);
    for (let i = 0; i < 4; i++) await sendTest(app, webhook.id);
    await webhooks.settled();
    await change();
    await change();
    expect(webhooks.deliveries(webhook.id).filter((d) => d.sample && d.state === 'failed')).toHaveLength(4);
    expect((await call(app, 'GET', `/webhooks/${webhook.id}`, { key })).status).toBe(200);
    expect(webhooks.emails()).toHaveLength(4);
    expect(webhooks.emails().every((text) => !/removed:/.test(text))).toBe(true);
  });
});
