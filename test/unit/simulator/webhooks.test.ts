/** Webhook management, accounts, scopes and the demo extension's endpoints. */
import { describe, expect, it } from 'vitest';
import { createDemoApp } from '../../../src/simulator';
import { DEMO_ENDPOINTS, SCOPES, type Scope } from '../../../src/shared/service/scopes';
import {
  WEBHOOK_SECRET_MAX_LENGTH,
  WEBHOOK_TYPES,
  WEBHOOK_URL_MAX_LENGTH,
  type WireWebhook,
} from '../../../src/shared/service/webhooks';
import { call, errorBody } from './helpers';
import { addWebhook, fleetOf, json, key, pick, startDemo } from './webhook-helpers';

const allBut = (excluded: readonly Scope[]): Scope[] => SCOPES.filter((scope) => !excluded.includes(scope));

async function firstSerial(app: ReturnType<typeof startDemo>['app'], apiKey = key): Promise<string> {
  return pick(await fleetOf(app, apiKey), 'instrument', () => true);
}

describe('POST /webhooks', () => {
  it('answers 201 with the record and a generated secret when none is given', async () => {
    const { app } = startDemo({ allowLoopbackWebhooks: false });
    const serial = await firstSerial(app);
    const response = await call(app, 'POST', '/webhooks', {
      key,
      body: JSON.stringify({ type: 'NewEvent', instrument: serial, url: 'https://example.com/hook' }),
    });
    expect(response.status).toBe(201);
    const webhook = await json<WireWebhook>(response);
    expect(webhook).toEqual({
      id: expect.stringMatching(/^wh_[0-9a-f]{16}$/),
      type: 'NewEvent',
      instrument: serial,
      url: 'https://example.com/hook',
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await json(call(app, 'GET', '/webhooks', { key }))).toEqual([webhook]);
    expect(await json(call(app, 'GET', `/webhooks/${webhook.id}`, { key }))).toEqual(webhook);
  });

  it('keeps a given secret exactly, generates one for a blank secret, and gives every webhook its own', async () => {
    const { app } = startDemo();
    const serial = await firstSerial(app);
    const base = { type: 'InstrumentStatus', instrument: serial, url: 'https://example.com/h' } as const;
    const kept = await addWebhook(app, { ...base, secret: ' my secret: ünïcode ok ' });
    expect(kept.secret).toBe(' my secret: ünïcode ok ');
    const blank = await addWebhook(app, { ...base, secret: '   ' });
    const nullSecret = await addWebhook(app, { ...base, secret: null });
    expect(blank.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(nullSecret.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set([kept.id, blank.id, nullSecret.id, blank.secret, nullSecret.secret]).size).toBe(5);
    const listed = await json<WireWebhook[]>(call(app, 'GET', '/webhooks', { key }));
    expect(listed.map((w) => w.id)).toEqual([kept.id, blank.id, nullSecret.id]);
  });

  it('accepts http:// on this computer only with allowLoopbackWebhooks', async () => {
    const serial = await firstSerial(startDemo().app);
    const loopback = ['http://127.0.0.1:8080/in', 'http://localhost:9/x', 'http://[::1]:4000/'];
    const strict = startDemo({ allowLoopbackWebhooks: false });
    for (const url of loopback) {
      const response = await call(strict.app, 'POST', '/webhooks', {
        key,
        body: JSON.stringify({ type: 'NewEvent', instrument: serial, url }),
      });
      expect(response.status, url).toBe(400);
      const body = await errorBody(response);
      expect(body.error).toBe('InvalidParam');
      expect(body.description).toMatch(/url .* must start with https:\/\//);
      expect(body.description).not.toMatch(/127\.0\.0\.1, localhost/);
    }
    const lenient = startDemo({ allowLoopbackWebhooks: true });
    for (const url of loopback) {
      expect((await addWebhook(lenient.app, { type: 'NewEvent', instrument: serial, url })).url).toBe(url);
    }
    const remote = await call(lenient.app, 'POST', '/webhooks', {
      key,
      body: JSON.stringify({ type: 'NewEvent', instrument: serial, url: 'http://example.com/hook' }),
    });
    expect(remote.status).toBe(400);
    expect((await errorBody(remote)).description).toMatch(
      /also accepts http:\/\/ to 127\.0\.0\.1, localhost or \[::1\]/,
    );
  });

  it('answers 400 naming the field and what is allowed', async () => {
    const { app } = startDemo({ allowLoopbackWebhooks: false });
    const serial = await firstSerial(app);
    const good = { type: 'NewEvent', instrument: serial, url: 'https://example.com/hook' };
    const cases: Array<[string, unknown, 'MissingParam' | 'InvalidParam', RegExp]> = [
      ['not JSON', 'type=NewEvent', 'MissingParam', /must be a JSON object/],
      ['a JSON array', [good], 'MissingParam', /must be a JSON object/],
      ['no type', { ...good, type: undefined }, 'MissingParam', /no type.*NewMeasurement, NewEvent/],
      [
        'an unknown type',
        { ...good, type: 'NewThing' },
        'InvalidParam',
        /"NewThing" is not a kind of message; use one of/,
      ],
      ['a type in other letters', { ...good, type: 'newevent' }, 'InvalidParam', /did you mean NewEvent\?/],
      ['no instrument', { ...good, instrument: '' }, 'MissingParam', /no instrument/],
      [
        'an unknown serial',
        { ...good, instrument: 'QT000000' },
        'InvalidParam',
        /no instrument with serial number "QT000000"/,
      ],
      ['a list of serials', { ...good, instrument: [serial] }, 'InvalidParam', /instrument must be a string/],
      ['no url', { ...good, url: undefined }, 'MissingParam', /no url: the https address/],
      [
        'an http url',
        { ...good, url: 'http://example.com/hook' },
        'InvalidParam',
        /must start with https:\/\//,
      ],
      [
        'an ftp url',
        { ...good, url: 'ftp://example.com/hook' },
        'InvalidParam',
        /must start with https:\/\//,
      ],
      ['not an address', { ...good, url: 'example.com/hook' }, 'InvalidParam', /is not a web address/],
      [
        'a url with a password',
        { ...good, url: 'https://me:pw@example.com/' },
        'InvalidParam',
        /user name or password/,
      ],
      [
        'a url too long',
        { ...good, url: `https://example.com/${'a'.repeat(WEBHOOK_URL_MAX_LENGTH)}` },
        'InvalidParam',
        new RegExp(`the limit is ${WEBHOOK_URL_MAX_LENGTH}`),
      ],
      [
        'a secret too long',
        { ...good, secret: 's'.repeat(WEBHOOK_SECRET_MAX_LENGTH + 1) },
        'InvalidParam',
        new RegExp(
          `secret is ${WEBHOOK_SECRET_MAX_LENGTH + 1} characters long; the limit is ${WEBHOOK_SECRET_MAX_LENGTH}`,
        ),
      ],
      [
        'a secret with a line break',
        { ...good, secret: 'abc\ndef' },
        'InvalidParam',
        /only printable characters/,
      ],
      ['a numeric secret', { ...good, secret: 42 }, 'InvalidParam', /secret must be a string/],
    ];
    for (const [label, body, code, description] of cases) {
      const response = await call(app, 'POST', '/webhooks', {
        key,
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      expect(response.status, label).toBe(400);
      const error = await errorBody(response);
      expect(error.error, label).toBe(code);
      expect(error.description, label).toMatch(description);
    }
    expect(await json(call(app, 'GET', '/webhooks', { key }))).toEqual([]);
    // A secret exactly at the limit is fine.
    const longest = await addWebhook(app, { ...good, secret: 's'.repeat(WEBHOOK_SECRET_MAX_LENGTH) });
    expect(longest.secret).toHaveLength(WEBHOOK_SECRET_MAX_LENGTH);
  });

  it('accepts every message kind', async () => {
    const { app } = startDemo();
    const serial = await firstSerial(app);
    for (const type of WEBHOOK_TYPES) {
      expect((await addWebhook(app, { type, instrument: serial, url: 'https://example.com/h' })).type).toBe(
        type,
      );
    }
  });
});

describe('GET and DELETE /webhooks/:webhookId', () => {
  it('answers 404 for an unknown id, and 204 then 404 when deleting', async () => {
    const { app } = startDemo();
    const serial = await firstSerial(app);
    for (const [method, path] of [
      ['GET', '/webhooks/wh_unknown'],
      ['DELETE', '/webhooks/wh_unknown'],
      ['POST', '/demo/webhooks/wh_unknown/test'],
      ['GET', '/demo/webhooks/wh_unknown/deliveries'],
    ] as const) {
      const response = await call(app, method, path, { key });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(await errorBody(response)).toEqual({
        error: 'NotFound',
        description: 'No webhook with id wh_unknown.',
      });
    }
    const webhook = await addWebhook(app, {
      type: 'NewEvent',
      instrument: serial,
      url: 'https://example.com/h',
    });
    const deleted = await call(app, 'DELETE', `/webhooks/${webhook.id}`, { key });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect((await call(app, 'GET', `/webhooks/${webhook.id}`, { key })).status).toBe(404);
    expect((await call(app, 'DELETE', `/webhooks/${webhook.id}`, { key })).status).toBe(404);
    expect(await json(call(app, 'GET', '/webhooks', { key }))).toEqual([]);
  });
});

describe('scopes and the gate', () => {
  it('needs webhooks:write to add, remove and test, and webhooks:read to list, read and see deliveries', async () => {
    const { app } = startDemo({
      keys: { all: '*', noWrite: allBut(['webhooks:write']), noRead: allBut(['webhooks:read']) },
    });
    const serial = await firstSerial(startDemo().app);
    const webhook = await addWebhook(
      app,
      { type: 'NewEvent', instrument: serial, url: 'https://example.com/h' },
      'all',
    );
    const body = JSON.stringify({ type: 'NewEvent', instrument: serial, url: 'https://example.com/h' });
    const expectations: Array<[string, string, string, Scope]> = [
      ['noWrite', 'POST', '/webhooks', 'webhooks:write'],
      ['noWrite', 'DELETE', `/webhooks/${webhook.id}`, 'webhooks:write'],
      ['noWrite', 'POST', `/demo/webhooks/${webhook.id}/test`, 'webhooks:write'],
      ['noRead', 'GET', '/webhooks', 'webhooks:read'],
      ['noRead', 'GET', `/webhooks/${webhook.id}`, 'webhooks:read'],
      ['noRead', 'GET', `/demo/webhooks/${webhook.id}/deliveries`, 'webhooks:read'],
    ];
    for (const [apiKey, method, path, scope] of expectations) {
      const response = await call(app, method, path, {
        key: apiKey,
        body: method === 'POST' ? body : undefined,
      });
      expect(response.status, `${apiKey} ${method} ${path}`).toBe(403);
      expect((await errorBody(response)).description).toBe(`The API key lacks the required scope: ${scope}.`);
    }
    // The keys hold the other scope, and all three keys are accounts of their own.
    expect(await json(call(app, 'GET', '/webhooks', { key: 'noWrite' }))).toEqual([]);
    expect((await call(app, 'GET', `/webhooks/${webhook.id}`, { key: 'all' })).status).toBe(200);
  });

  it('serves every demo endpoint behind the gate: 401 without a key, the rule’s scopes otherwise', async () => {
    const { app } = startDemo({ keys: { none: [] } });
    for (const rule of DEMO_ENDPOINTS) {
      const path = rule.path.replace(':webhookId', 'wh_x');
      expect((await call(app, rule.method, path)).status, rule.path).toBe(401);
      expect((await call(app, rule.method, path, { key: 'none' })).status, rule.path).toBe(
        rule.scopes.length === 0 ? 200 : 403,
      );
    }
  });

  it('answers GET /demo/about with the service and its extensions, rate-limited like any endpoint', async () => {
    const { app } = startDemo({ rateLimit: 1, keys: { none: [] } });
    const about = await call(app, 'GET', '/demo/about', { key: 'none' });
    expect(about.status).toBe(200);
    // This demo accepts receivers on this computer (the helpers' default), and says so.
    expect(await about.json()).toEqual({
      service: 'FieldDesk demo service',
      extensions: ['webhookTest', 'loopbackWebhooks'],
    });
    expect((await call(app, 'GET', '/demo/about', { key: 'none' })).status).toBe(429);
    const strict = startDemo({ allowLoopbackWebhooks: false, keys: { none: [] } });
    const strictAbout = await call(strict.app, 'GET', '/demo/about', { key: 'none' });
    expect(await strictAbout.json()).toEqual({
      service: 'FieldDesk demo service',
      extensions: ['webhookTest'],
    });
  });
});

describe('options', () => {
  it('refuses an unknown delivery mode and unusable timings', () => {
    expect(() => createDemoApp({ webhookDelivery: 'nowhere' as 'any' })).toThrow(/any or loopbackOnly/);
    expect(() => createDemoApp({ webhookTiming: { timeoutMs: 0 } })).toThrow(/timeoutMs/);
    expect(() => createDemoApp({ webhookTiming: { retryDelayMs: -1 } })).toThrow(/retryDelayMs/);
    expect(() => createDemoApp({ webhookTiming: { checkIntervalMs: Number.NaN } })).toThrow(
      /checkIntervalMs/,
    );
  });
});
