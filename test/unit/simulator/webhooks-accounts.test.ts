/** Accounts: the keys of one account share their webhooks; no other account sees or hears them. */
import { describe, expect, it } from 'vitest';
import { createDemoApp } from '../../../src/simulator';
import type { WireDemoDelivery } from '../../../src/shared/service/webhooks';
import { call, errorBody } from './helpers';
import { addWebhook, fleetOf, json, pick, sendTest, startDemo, startReceiver } from './webhook-helpers';

describe('accounts', () => {
  const keys = { alice: '*', alan: '*', bob: '*' } as const;
  const keyAccounts = { alice: 'site-a', alan: 'site-a', bob: 'site-b' };

  it('shares webhooks between the keys of an account and hides them from every other account', async () => {
    const { app, webhooks } = startDemo({ keys, keyAccounts });
    const serial = pick(await fleetOf(app, 'alice'), 'online instrument', (entry) => entry.status.online);
    const aliceReceiver = await startReceiver();
    const bobReceiver = await startReceiver();
    const mine = await addWebhook(
      app,
      { type: 'InstrumentStatus', instrument: serial, url: aliceReceiver.url },
      'alice',
    );
    const bobs = await addWebhook(app, { type: 'NewEvent', instrument: serial, url: bobReceiver.url }, 'bob');

    expect(await json(call(app, 'GET', '/webhooks', { key: 'alan' }))).toEqual([mine]);
    expect(await json(call(app, 'GET', '/webhooks', { key: 'bob' }))).toEqual([bobs]);
    for (const [method, path] of [
      ['GET', `/webhooks/${mine.id}`],
      ['DELETE', `/webhooks/${mine.id}`],
      ['POST', `/demo/webhooks/${mine.id}/test`],
      ['GET', `/demo/webhooks/${mine.id}/deliveries`],
    ] as const) {
      const response = await call(app, method, path, { key: 'bob' });
      expect(response.status, `bob ${method} ${path}`).toBe(404);
      expect((await errorBody(response)).description).toBe(`No webhook with id ${mine.id}.`);
    }
    expect((await call(app, 'GET', `/webhooks/${mine.id}`, { key: 'alice' })).status).toBe(200);

    // A test by the other key of the account, and a real status change: only Alice's receiver hears.
    await sendTest(app, mine.id, 'alan');
    webhooks.setOnline(serial, false);
    await webhooks.tick();
    await webhooks.settled();
    expect(aliceReceiver.received).toHaveLength(2);
    expect(bobReceiver.received).toHaveLength(0);
    const seen = await json<WireDemoDelivery[]>(
      call(app, 'GET', `/demo/webhooks/${mine.id}/deliveries`, { key: 'alice' }),
    );
    expect(seen.map((d) => [d.sample, d.state])).toEqual([
      [false, 'delivered'],
      [true, 'delivered'],
    ]);

    expect((await call(app, 'DELETE', `/webhooks/${mine.id}`, { key: 'alan' })).status).toBe(204);
    expect(await json(call(app, 'GET', '/webhooks', { key: 'alice' }))).toEqual([]);
  });

  it('makes every key an account of its own by default', async () => {
    const { app } = startDemo({ keys: { one: '*', two: '*' } });
    const webhook = await addWebhook(
      app,
      {
        type: 'NewEvent',
        instrument: pick(await fleetOf(app, 'one'), 'instrument', () => true),
        url: 'https://example.com/h',
      },
      'one',
    );
    expect(await json(call(app, 'GET', '/webhooks', { key: 'two' }))).toEqual([]);
    expect((await call(app, 'GET', `/webhooks/${webhook.id}`, { key: 'two' })).status).toBe(404);
  });

  it('refuses keyAccounts naming an unknown key or an empty account', () => {
    expect(() => createDemoApp({ keys: { a: '*' }, keyAccounts: { b: 'x' } })).toThrow(
      /API key "b".*does not accept/,
    );
    expect(() => createDemoApp({ keys: { a: '*' }, keyAccounts: { a: ' ' } })).toThrow(/non-empty/);
    expect(() => createDemoApp({ keyAccounts: { 'demo-key-all-scopes': 'me' } })).not.toThrow();
  });
});
