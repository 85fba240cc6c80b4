/**
 * Webhook deliveries: signature, message shapes, the kept history, 'loopbackOnly', and stopping
 * (retries and removal: webhooks-retries.test.ts). Receivers listen on 127.0.0.1 only; nothing
 * here waits on a clock — tests wait for the receiver or for `webhooks.settled()`.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DELIVERIES_KEPT, NOT_SENT_ERROR, startDemoService } from '../../../src/simulator';
import {
  WEBHOOK_MAX_RETRIES,
  type WireDemoDelivery,
  type WireWebhook,
} from '../../../src/shared/service/webhooks';
import type { WireCalibrationStatus, WireSicStatus } from '../../../src/shared/service/wire';
import { call } from './helpers';
import { addWebhook, fleetOf, json, key, pick, sendTest, startDemo, startReceiver } from './webhook-helpers';

const iso = (ms: number): string => new Date(ms).toISOString();
const hmac = (secret: string, raw: Buffer): string => createHmac('sha256', secret).update(raw).digest('hex');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a delivery', () => {
  it('POSTs the JSON message with the webhook id and an HMAC-SHA256 signature of the raw body', async () => {
    const { app, webhooks, clock } = startDemo();
    const receiver = await startReceiver();
    const serial = pick(await fleetOf(app), 'online instrument', (e) => e.status.online);
    const webhook = await addWebhook(app, {
      type: 'InstrumentStatus',
      instrument: serial,
      url: receiver.url,
      secret: 'correct horse',
    });
    const pending = await sendTest(app, webhook.id);
    expect(pending).toEqual({
      id: expect.stringMatching(/^dl_[0-9a-f]{16}$/),
      webhookId: webhook.id,
      type: 'InstrumentStatus',
      sample: true,
      createdAt: iso(clock.now()),
      state: 'pending',
      attempts: [],
    } satisfies WireDemoDelivery);
    await webhooks.settled();

    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got?.headers['content-type']).toBe('application/json');
    expect(got?.headers['x-webhook-id']).toBe(webhook.id);
    const signature = got?.headers['x-webhook-signature'];
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(signature).toBe(hmac('correct horse', got!.raw));
    expect(signature).not.toBe(hmac('wrong horse', got!.raw));
    expect(signature).not.toBe(hmac('correct horse', Buffer.from(`${got!.raw.toString()} `)));
    expect(got?.json).toEqual({
      type: 'InstrumentStatus',
      instrument: serial,
      time: iso(clock.now()),
      online: true,
    });

    const recorded = await json<WireDemoDelivery[]>(
      call(app, 'GET', `/demo/webhooks/${webhook.id}/deliveries`, { key }),
    );
    expect(recorded).toEqual([
      {
        ...pending,
        state: 'delivered',
        attempts: [{ time: iso(clock.now()), status: 200, durationMs: expect.any(Number), error: null }],
      },
    ]);
    expect(webhooks.deliveries(webhook.id)).toEqual(recorded);
  });

  it('sends a realistic sample of every kind, matching what the data endpoints give', async () => {
    const { app, webhooks, clock } = startDemo();
    const fleet = await fleetOf(app);
    const noise = pick(
      fleet,
      'recording noise instrument',
      (e) => e.wire.type === 'Noise' && e.status.measuring,
    );
    const calibrated = pick(fleet, 'calibrated instrument', (e) => Boolean(e.status.lastCalibration?.time));
    const checked = pick(fleet, 'instrument with a SIC result', (e) => Boolean(e.status.lastSic?.time));
    const receiver = await startReceiver();
    const dayAgo = iso(clock.now() - 86_400_000);
    const range = `instruments=${noise}&start=${dayAgo}&end=${iso(clock.now())}`;
    const measurements = await json<Array<{ endTime: string }>>(
      call(app, 'GET', `/data/noise/measurements?${range}`, { key }),
    );
    const events = await json<Array<{ startTime: string }>>(
      call(app, 'GET', `/data/events?${range}`, { key }),
    );
    const calibration = await json<WireCalibrationStatus>(
      call(app, 'GET', `/control/instruments/${calibrated}/calibration`, { key }),
    );
    const sic = await json<WireSicStatus>(call(app, 'GET', `/control/instruments/${checked}/sic`, { key }));
    const outcome = (status: string) =>
      status === 'Success' ? { status: 'Success' } : { status: 'Failed', error: expect.any(String) };
    const time = iso(clock.now());
    const expected = [
      ['NewMeasurement', noise, { endTime: measurements.at(-1)?.endTime }],
      ['NewEvent', noise, { eventTime: events.at(-1)?.startTime }],
      ['InstrumentStatus', noise, { online: true }],
      ['CalibrationFinished', calibrated, { ...outcome(calibration.status), data: calibration }],
      ['SicFinished', checked, { ...outcome(sic.status), data: sic }],
    ] as const;
    expect(measurements.length * events.length).toBeGreaterThan(0);
    for (const [type, instrument, fields] of expected) {
      const webhook = await addWebhook(app, { type, instrument, url: receiver.url });
      await sendTest(app, webhook.id);
      await webhooks.settled();
      expect(receiver.received.at(-1)?.json, type).toEqual({ type, instrument, time, ...fields });
    }
  });

  it('keeps the last 20 deliveries of a webhook, newest first', async () => {
    const { app, webhooks } = startDemo();
    const receiver = await startReceiver();
    const webhook = await addWebhook(app, {
      type: 'InstrumentStatus',
      instrument: pick(await fleetOf(app), 'instrument', () => true),
      url: receiver.url,
    });
    const sent: string[] = [];
    for (let i = 0; i < DELIVERIES_KEPT + 2; i++) sent.push((await sendTest(app, webhook.id)).id);
    await webhooks.settled();
    const kept = await json<WireDemoDelivery[]>(
      call(app, 'GET', `/demo/webhooks/${webhook.id}/deliveries`, { key }),
    );
    expect(kept.map((d) => d.id)).toEqual(sent.reverse().slice(0, DELIVERIES_KEPT));
    expect(kept.every((d) => d.state === 'delivered' && d.attempts.length === 1)).toBe(true);
  });
});

describe("webhookDelivery: 'loopbackOnly'", () => {
  it('never sends to another host, and records each attempt as failed, unsent', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const { app, webhooks } = startDemo({ webhookDelivery: 'loopbackOnly' });
    const serial = pick(await fleetOf(app), 'instrument', () => true);
    const webhook = await addWebhook(app, {
      type: 'NewEvent',
      instrument: serial,
      url: 'https://receiver.example.com/hook',
    });
    await sendTest(app, webhook.id);
    await webhooks.settled();
    const [delivery] = webhooks.deliveries(webhook.id);
    expect(delivery?.state).toBe('failed');
    expect(delivery?.attempts).toHaveLength(1 + WEBHOOK_MAX_RETRIES);
    for (const attempt of delivery?.attempts ?? []) {
      expect(attempt).toEqual({
        time: expect.any(String),
        status: null,
        durationMs: 0,
        error: NOT_SENT_ERROR,
      });
    }
    expect(NOT_SENT_ERROR).toBe('Not sent: this demo service only delivers to this computer.');
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

describe('stopping', () => {
  it('close() ends deliveries in flight and retries that wait, at once', async () => {
    const hanging = await startReceiver(() => 'hang');
    const failing = await startReceiver(() => 500);
    const service = await startDemoService({
      allowLoopbackWebhooks: true,
      webhookDelivery: 'loopbackOnly',
      // Far beyond the test's own time-out: only stopping at once lets it pass.
      webhookTiming: { timeoutMs: 600_000, retryDelayMs: 600_000, checkIntervalMs: 0 },
    });
    const headers = { 'X-Api-Key': service.defaultKey!, 'Content-Type': 'application/json' };
    const [first] = await json<Array<{ serialNumber: string }>>(
      fetch(`${service.baseUrl}/control/instruments`, { headers }),
    );
    const ids: string[] = [];
    for (const receiver of [hanging, failing]) {
      const body = JSON.stringify({ type: 'NewEvent', instrument: first?.serialNumber, url: receiver.url });
      const webhook = await json<WireWebhook>(
        fetch(`${service.baseUrl}/webhooks`, { method: 'POST', headers, body }),
      );
      const test = await fetch(`${service.baseUrl}/demo/webhooks/${webhook.id}/test`, {
        method: 'POST',
        headers,
      });
      expect(test.status).toBe(202);
      ids.push(webhook.id);
    }
    await hanging.receivedCount(1);
    await failing.receivedCount(1);
    await service.close();
    await service.webhooks.settled();
    const [inFlight, waiting] = ids.map((id) => service.webhooks.deliveries(id)[0]);
    expect(inFlight?.state).toBe('failed');
    expect(inFlight?.attempts).toEqual([
      expect.objectContaining({
        status: null,
        error: 'The demo service stopped before the receiver answered.',
      }),
    ]);
    // Its one attempt was answered 500, or cut off by close(); either way, no retry followed.
    expect(waiting?.state).toBe('failed');
    expect(waiting?.attempts).toHaveLength(1);
    expect(failing.received).toHaveLength(1);
  });
});
