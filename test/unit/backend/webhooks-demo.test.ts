/**
 * webhooks.* through the whole backend against the REAL demo service on a loopback port: the
 * secret reaches the window only when created or asked for, a test message arrives signed at a
 * receiver on this computer, a name that resolves inside a network is refused (when added and before
 * a test message), and a service without FieldDesk's demo extension is told apart. Names resolve
 * through a fake resolver (this machine may have no DNS); `localhost` also through the real one.
 */
import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Backend } from '../../../src/main/backend/backend';
import { dispatchRequest, parseRequestArg } from '../../../src/shared/ipc/contract';
import { WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER } from '../../../src/shared/service/webhooks';
import { startDemoService, type RunningDemoService } from '../../../src/simulator';
import type { HostLookup } from '../../../src/main/backend/webhooks/webhook-target';
import { resolvedTargetProblem, systemLookup } from '../../../src/main/backend/webhooks/webhook-target';
import { startReceiver } from '../simulator/webhook-helpers';
import { createRecordingBackend, demoBackendOptions, DEMO_TEST_KEY } from './backend-helpers';
import { makeTempDir, failureOf } from './helpers';

let service: RunningDemoService;
let dataDir: { path: string; remove(): Promise<void> };
const backends: Backend[] = [];

/** What the fake resolver answers per name (a test may re-point one); other names do not exist. */
let dns: Map<string, string[]>;
/** The names the fake resolver was asked, in order. */
let looked: string[];
const fakeLookup: HostLookup = async (hostname) => {
  looked.push(hostname);
  const addresses = dns.get(hostname);
  if (addresses === undefined)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address }));
};

beforeEach(async () => {
  service = await startDemoService({
    port: 0,
    keys: { [DEMO_TEST_KEY]: '*', 'key-webhooks-read': ['instruments:read', 'webhooks:read'] },
    rateLimit: 10_000,
    allowLoopbackWebhooks: true,
    webhookDelivery: 'loopbackOnly',
    // Triggers are checked only when a test asks, so only the test message is ever sent.
    webhookTiming: { checkIntervalMs: 0, retryDelayMs: 1 },
  });
  dataDir = await makeTempDir();
  // example.com's own address stands for any receiver on the open internet.
  dns = new Map(
    ['receiver.example.com', 'a.example'].map((name) => [
      name,
      ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    ]),
  );
  looked = [];
});

afterEach(async () => {
  await Promise.all(backends.splice(0).map((backend) => backend.close()));
  await service.close();
  await dataDir.remove();
});

async function demoBackend(fetchOverride?: typeof fetch, lookupHost: HostLookup = fakeLookup) {
  const made = await createRecordingBackend({
    ...demoBackendOptions(dataDir.path, service),
    lookupHost,
    ...(fetchOverride === undefined ? {} : { fetch: fetchOverride }),
  });
  backends.push(made.backend);
  await made.handlers['accounts.tryDemo']({});
  return made.handlers;
}

const serialOf = async (handlers: Awaited<ReturnType<typeof demoBackend>>) =>
  (await handlers['instruments.list']({})).entries[0]!.instrument.serialNumber;

describe('webhooks against the demo service', () => {
  it('adds one with its secret answered once, lists it without the secret, reveals it on request, deletes it', async () => {
    const handlers = await demoBackend();
    const empty = await handlers['webhooks.list']({});
    expect(empty).toMatchObject({ webhooks: [], skipped: [], canSendTest: true });

    const instrument = await serialOf(handlers);
    const created = await handlers['webhooks.create']({
      type: 'CalibrationFinished',
      instrument,
      url: 'https://receiver.example.com/fielddesk',
    });
    expect(created.secret).toMatch(/^\S{16,}$/);
    expect(created.webhook).toMatchObject({ type: 'CalibrationFinished', instrument, hasSecret: true });

    const listed = await handlers['webhooks.list']({});
    expect(listed.webhooks.map((w) => w.id)).toEqual([created.webhook.id]);
    // The list never carries a secret to the window.
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    await expect(handlers['webhooks.revealSecret']({ id: created.webhook.id })).resolves.toEqual({
      id: created.webhook.id,
      secret: created.secret,
    });

    await handlers['webhooks.delete']({ id: created.webhook.id });
    expect((await handlers['webhooks.list']({})).webhooks).toEqual([]);
    expect((await failureOf(handlers['webhooks.delete']({ id: created.webhook.id }))).code).toBe('notFound');
  });

  it('keeps a secret the user chose', async () => {
    const handlers = await demoBackend();
    const created = await handlers['webhooks.create']({
      type: 'NewEvent',
      instrument: await serialOf(handlers),
      url: 'https://receiver.example.com/events',
      secret: 'our-own-secret-1234',
    });
    expect(created.secret).toBe('our-own-secret-1234');
  });

  it('sends a test message that arrives signed with the secret, and follows its attempts', async () => {
    const receiver = await startReceiver((index) => (index === 0 ? 500 : 200));
    const handlers = await demoBackend();
    const { webhook, secret } = await handlers['webhooks.create']({
      type: 'SicFinished',
      instrument: await serialOf(handlers),
      url: receiver.url,
    });
    const pending = await handlers['webhooks.sendTest']({ id: webhook.id });
    expect(pending).toMatchObject({ sample: true, type: 'SicFinished' });

    const [first, second] = await receiver.receivedCount(2);
    for (const arrival of [first!, second!]) {
      expect(arrival.headers[WEBHOOK_ID_HEADER.toLowerCase()]).toBe(webhook.id);
      const expected = createHmac('sha256', secret).update(arrival.raw).digest('hex');
      expect(arrival.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]).toBe(expected);
    }
    expect(first!.json).toMatchObject({ type: 'SicFinished', instrument: webhook.instrument });

    await service.webhooks.settled();
    const [delivery] = await handlers['webhooks.deliveries']({ id: webhook.id });
    expect(delivery).toMatchObject({ id: pending.id, state: 'delivered', sample: true });
    expect(delivery!.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
    expect(delivery!.attempts[0]!.time).toBeGreaterThan(0);
  });

  it('refuses an address that is not https before asking the service', () => {
    expect(() =>
      parseRequestArg('webhooks.create', {
        type: 'NewEvent',
        instrument: 'QT100001',
        url: 'http://receiver.example.com/hook',
      }),
    ).toThrow(/https:\/\//);
    expect(() =>
      parseRequestArg('webhooks.create', {
        type: 'Everything',
        instrument: 'QT100001',
        url: 'https://a.example',
      }),
    ).toThrow(/Choose what the webhook should report/);
  });

  it('refuses an address inside a network, in every spelling, before asking the service', async () => {
    const posted: string[] = [];
    const handlers = await demoBackend(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
      if (method === 'POST' && url.pathname.endsWith('/webhooks')) posted.push(url.pathname);
      return fetch(input, init);
    });
    const instrument = await serialOf(handlers);
    for (const url of [
      'https://169.254.169.254/latest/meta-data/',
      'https://2852039166/',
      'https://0xa9fea9fe/',
      'https://0251.0376.0251.0376/',
      'https://0xa9.0xfe.0xa9.0xfe/',
      'https://169.254.43518/',
      'https://[::ffff:169.254.169.254]/',
      'https://metadata.google.internal/',
      'https://10.0.0.1/',
      'https://[fd00::1]/',
      'https://[fe80::1]/',
      'https://0.0.0.0/',
      'https://[::]/',
    ]) {
      // As the window sends it: the shared request check says it, before the backend runs.
      const sent = await dispatchRequest(handlers, 'webhooks.create', { type: 'NewEvent', instrument, url });
      expect(sent, url).toMatchObject({ ok: false, error: { code: 'invalidInput', field: 'url' } });
      // Straight to the handler (no request check): the backend says the same.
      const direct = await failureOf(handlers['webhooks.create']({ type: 'NewEvent', instrument, url }));
      expect(direct, url).toMatchObject({ code: 'invalidInput', field: 'url' });
      expect(direct.message).toBe(sent.ok ? '' : sent.error.message);
    }
    expect(posted).toEqual([]);
    expect((await handlers['webhooks.list']({})).webhooks).toEqual([]);
  });

  it('refuses a receiver on this computer when the demo service does not deliver there', async () => {
    const strict = await startDemoService({
      port: 0,
      keys: { [DEMO_TEST_KEY]: '*' },
      rateLimit: 10_000,
      allowLoopbackWebhooks: false,
    });
    try {
      const posted: string[] = [];
      const made = await createRecordingBackend({
        ...demoBackendOptions(dataDir.path, strict),
        lookupHost: fakeLookup,
        fetch: async (input, init) => {
          const url = new URL(input instanceof Request ? input.url : String(input));
          const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
          if (method === 'POST' && url.pathname.endsWith('/webhooks')) posted.push(url.pathname);
          return fetch(input, init);
        },
      });
      backends.push(made.backend);
      await made.handlers['accounts.tryDemo']({});
      const instrument = await serialOf(made.handlers);
      // The window's check lets it through (it cannot know the service)…
      const sent = await dispatchRequest(made.handlers, 'webhooks.create', {
        type: 'NewEvent',
        instrument,
        url: 'http://127.0.0.1:9/hook',
      });
      // …the backend, asking the service what it offers, refuses it.
      expect(sent).toMatchObject({ ok: false, error: { code: 'invalidInput', field: 'url' } });
      expect(sent.ok ? '' : sent.error.message).toBe(
        '127.0.0.1 is this computer (a loopback address): the service cannot deliver messages to your computer. Only FieldDesk’s demo service can, for trying a receiver out; give the receiver’s public https address.',
      );
      // So is a public name that resolves to this computer.
      dns.set('loop.example.net', ['127.0.0.1']);
      const named = await failureOf(
        made.handlers['webhooks.create']({ type: 'NewEvent', instrument, url: 'https://loop.example.net/h' }),
      );
      expect(named).toMatchObject({ code: 'invalidInput', field: 'url' });
      expect(named.message).toBe(
        'loop.example.net resolves to 127.0.0.1, which is this computer (a loopback address): the service cannot deliver messages to your computer. Only FieldDesk’s demo service can, for trying a receiver out; give the receiver’s public https address.',
      );
      expect(posted).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  /** A fetch that records the service's webhook creations and test deliveries, then passes them on. */
  function recordingPosts(posted: string[]): typeof fetch {
    return async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
      if (method === 'POST' && /\/webhooks|\/test/.test(url.pathname)) posted.push(url.pathname);
      return fetch(input, init);
    };
  }

  it('refuses a public name that resolves inside a network (any of its addresses), before asking the service', async () => {
    const posted: string[] = [];
    const handlers = await demoBackend(recordingPosts(posted));
    const instrument = await serialOf(handlers);
    for (const [name, addresses, message] of [
      [
        'meta.attacker.example',
        ['169.254.169.254'],
        'meta.attacker.example resolves to 169.254.169.254, which is the cloud metadata address (AWS, Google Cloud, Azure, Oracle and others), where servers read their own credentials: FieldDesk never points a webhook there.',
      ],
      [
        'mixed.attacker.example',
        ['93.184.215.14', '10.0.0.5'],
        'mixed.attacker.example resolves to 10.0.0.5, which is a private network address (10.0.0.0/8): the service sends from the internet and cannot reach it. Give the receiver’s public https address.',
      ],
      [
        'v6.attacker.example',
        ['::ffff:169.254.169.254'],
        /resolves to ::ffff:169\.254\.169\.254, which is the cloud metadata address .*IPv4-mapped/,
      ],
      [
        'aws6.attacker.example',
        ['fd00:ec2::254'],
        /resolves to fd00:ec2::254, which is the AWS metadata address/,
      ],
      [
        'link.attacker.example',
        ['fe80::1%eth0'],
        /resolves to fe80::1%eth0, which is a link-local IPv6 address/,
      ],
      ['nat.attacker.example', ['100.64.1.2'], /carrier-grade NAT/],
    ] as const) {
      dns.set(name, [...addresses]);
      const url = `https://${name}/hook`;
      const sent = await dispatchRequest(handlers, 'webhooks.create', { type: 'NewEvent', instrument, url });
      expect(sent, name).toMatchObject({
        ok: false,
        error: { code: 'invalidInput', field: 'url', retryable: false },
      });
      const said = sent.ok ? '' : sent.error.message;
      if (typeof message === 'string') expect(said).toBe(message);
      else expect(said).toMatch(message);
    }
    expect(posted).toEqual([]);
    expect((await handlers['webhooks.list']({})).webhooks).toEqual([]);
    // A name on this computer is this computer, as 127.0.0.1 is: only a demo that delivers there takes it.
    dns.set('loop.example.net', ['127.0.0.1', '::1']);
    await handlers['webhooks.create']({ type: 'NewEvent', instrument, url: 'https://loop.example.net/h' });
    // A literal address is judged as written, never looked up.
    looked = [];
    await failureOf(handlers['webhooks.create']({ type: 'NewEvent', instrument, url: 'https://10.0.0.1/' }));
    await handlers['webhooks.create']({ type: 'NewEvent', instrument, url: 'https://93.184.215.14/' });
    expect(looked).toEqual([]);
  });

  it('says clearly when a name has no address, or the name server does not answer', async () => {
    const instrumentless = { type: 'NewEvent', instrument: 'QT100001' } as const;
    const handlers = await demoBackend(undefined, async (hostname) => {
      if (hostname === 'slow.example.com')
        throw Object.assign(new Error('getaddrinfo EAI_AGAIN slow.example.com'), { code: 'EAI_AGAIN' });
      return fakeLookup(hostname);
    });
    const missing = await dispatchRequest(handlers, 'webhooks.create', {
      ...instrumentless,
      url: 'https://no-such-receiver.example.com/hook',
    });
    expect(missing).toMatchObject({
      ok: false,
      error: {
        code: 'invalidInput',
        field: 'url',
        retryable: false,
        message:
          'No address was found for no-such-receiver.example.com: the name does not exist, so nothing could receive the webhook there. Check the spelling of the address.',
      },
    });
    const slow = await dispatchRequest(handlers, 'webhooks.create', {
      ...instrumentless,
      url: 'https://slow.example.com/hook',
    });
    expect(slow).toMatchObject({
      ok: false,
      error: {
        code: 'invalidInput',
        field: 'url',
        retryable: true,
        message:
          'FieldDesk could not look up slow.example.com (EAI_AGAIN), so it cannot tell where the webhook would go. Check the connection and try again.',
      },
    });
    const empty = await resolvedTargetProblem(
      'https://empty.example.com/',
      async () => [],
      async () => true,
    );
    expect(empty?.message).toMatch(/^No address was found for empty\.example\.com/);
  });

  it('checks the name again before a test message: one re-pointed inside the network gets none', async () => {
    const posted: string[] = [];
    const handlers = await demoBackend(recordingPosts(posted));
    dns.set('hooks.example.org', ['93.184.215.14']);
    const { webhook } = await handlers['webhooks.create']({
      type: 'NewEvent',
      instrument: await serialOf(handlers),
      url: 'https://hooks.example.org/in',
    });
    expect(looked).toEqual(['hooks.example.org']);
    posted.length = 0;
    // Re-pointed after it was checked (DNS rebinding): the metadata address now.
    dns.set('hooks.example.org', ['169.254.169.254']);
    const refused = await failureOf(handlers['webhooks.sendTest']({ id: webhook.id }));
    expect(refused).toMatchObject({ code: 'invalidRequest', retryable: false });
    expect(refused.message).toBe(
      'No test message was sent. hooks.example.org resolves to 169.254.169.254, which is the cloud metadata address (AWS, Google Cloud, Azure, Oracle and others), where servers read their own credentials: FieldDesk never points a webhook there.',
    );
    expect(looked).toEqual(['hooks.example.org', 'hooks.example.org']);
    expect(posted).toEqual([]);
    // A name that no longer exists: said, and nothing sent either.
    dns.delete('hooks.example.org');
    expect((await failureOf(handlers['webhooks.sendTest']({ id: webhook.id }))).message).toMatch(
      /^No test message was sent\. No address was found for hooks\.example\.org/,
    );
    expect(posted).toEqual([]);
  });

  it('resolves for real: localhost is this computer, refused unless the demo delivers there', async () => {
    const refused = await resolvedTargetProblem('https://localhost/hook', systemLookup, async () => false);
    expect(refused).toMatchObject({ retryable: false });
    expect(refused?.message).toMatch(
      /^localhost resolves to (127\.0\.0\.1|::1), which is this computer \(.*loopback address.*\): the service cannot deliver messages to your computer/,
    );
    expect(await resolvedTargetProblem('https://localhost/hook', systemLookup, async () => true)).toBeNull();
    // Through the backend with the system's resolver: the demo here delivers to this computer.
    const handlers = await demoBackend(undefined, systemLookup);
    const { webhook } = await handlers['webhooks.create']({
      type: 'NewEvent',
      instrument: await serialOf(handlers),
      url: 'http://localhost:9/hook',
    });
    expect(webhook.url).toBe('http://localhost:9/hook');
  });

  it('names the missing scope for a key that may read webhooks but not add them', async () => {
    const made = await createRecordingBackend({
      ...demoBackendOptions(dataDir.path, service),
      lookupHost: fakeLookup,
      startDemo: async () => ({
        baseUrl: service.baseUrl,
        apiKey: 'key-webhooks-read',
        close: async () => undefined,
      }),
    });
    backends.push(made.backend);
    await made.handlers['accounts.tryDemo']({});
    await expect(made.handlers['webhooks.list']({})).resolves.toMatchObject({ webhooks: [] });
    const refused = await failureOf(
      made.handlers['webhooks.create']({
        type: 'NewEvent',
        instrument: 'QT100001',
        url: 'https://a.example/h',
      }),
    );
    expect(refused.code).toBe('forbidden');
    expect(refused.message).toMatch(/lacks webhooks:write/);
  });
});

describe('webhooks on a service without the demo extension, and odd answers', () => {
  /** The demo service as the real one would answer: no `/demo/...` paths, a list rewritten by `edit`. */
  function realServiceFetch(edit: (list: unknown[]) => unknown[] = (list) => list): typeof fetch {
    return async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
      if (url.pathname.includes('/demo/')) {
        return new Response(JSON.stringify({ error: 'NotFound', description: 'No such endpoint.' }), {
          status: 404,
          headers: { 'Content-Type': 'application/json' },
        });
      }
      const answer = await fetch(input, init);
      if (url.pathname.endsWith('/webhooks') && method === 'GET' && answer.ok) {
        const list = (await answer.json()) as unknown[];
        return new Response(JSON.stringify(edit(list)), { status: 200, headers: answer.headers });
      }
      return answer;
    };
  }

  it('offers no test message, and refuses one with the reason', async () => {
    const handlers = await demoBackend(realServiceFetch());
    const { webhook } = await handlers['webhooks.create']({
      type: 'NewEvent',
      instrument: await serialOf(handlers),
      url: 'https://receiver.example.com/events',
    });
    expect((await handlers['webhooks.list']({})).canSendTest).toBe(false);
    const refused = await failureOf(handlers['webhooks.sendTest']({ id: webhook.id }));
    expect(refused.code).toBe('invalidRequest');
    expect(refused.message).toMatch(/only the FieldDesk demo service can/);
  });

  it('shows every webhook it can read and says which it could not', async () => {
    const handlers = await demoBackend(
      realServiceFetch((list) => [
        ...list,
        { type: 'NewEvent', url: 'https://no-id.example.com' },
        { id: 42, TYPE: 'NewMeasurement', instrument: 'QT9', url: 'https://x.example.com', secret: null },
        {
          id: 'wh_future',
          type: 'ThunderStruck',
          instrument: 'QT9',
          url: 'https://y.example.com',
          secret: 's',
        },
      ]),
    );
    const instrument = await serialOf(handlers);
    await handlers['webhooks.create']({
      type: 'NewEvent',
      instrument,
      url: 'https://receiver.example.com/a',
    });
    const listed = await handlers['webhooks.list']({});
    expect(listed.webhooks.map((w) => [w.id, w.type, w.hasSecret])).toEqual([
      [expect.stringMatching(/\S/), 'NewEvent', true],
      ['42', 'NewMeasurement', false],
      ['wh_future', 'ThunderStruck', true],
    ]);
    expect(listed.skipped).toEqual(['The service sent a webhook without an id (item 2 of 4).']);
  });
});
