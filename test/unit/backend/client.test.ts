import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { inspect } from 'node:util';
import { createServiceClient } from '../../../src/main/backend/service/client';
import {
  backoffDelay,
  type ServiceClientOptions,
  type ServiceExchange,
} from '../../../src/main/backend/service/requester';
import { parseRetryAfter, SERVICE_TEXT_MAX_LENGTH } from '../../../src/main/backend/service/failures';
import { scopesInDescription } from '../../../src/main/backend/service/answers';
import {
  dropConnection,
  refusedBaseUrl,
  sendJson,
  startTestServer,
  wireInstrument,
  type TestServer,
  failureOf,
} from './helpers';

const API_KEY = 'sk-live-7d1f0c2a9b-super-secret';
/** Fast retries so the suite stays quick; Retry-After tests raise the cap where they need it. */
const FAST_RETRY = { limit: 2, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2_000 };

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer(handler);
  servers.push(server);
  return server;
}

function clientFor(baseUrl: string, extra: Partial<ServiceClientOptions> = {}) {
  return createServiceClient({ baseUrl, apiKey: API_KEY, timeoutMs: 2_000, retry: FAST_RETRY, ...extra });
}

describe('service client: requests', () => {
  it('sends the key in X-Api-Key and parses a list of instruments', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 200, [wireInstrument('QT1'), wireInstrument('QT2')]),
    );
    const instruments = await clientFor(server.baseUrl).listInstruments();
    expect(instruments.map((i) => i.serialNumber)).toEqual(['QT1', 'QT2']);
    expect(server.requests[0]?.url).toBe('/v1/control/instruments');
    expect(server.requests[0]?.headers['x-api-key']).toBe(API_KEY);
  });

  it('renames with PUT { name } and accepts 204 without a body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(204).end();
    });
    await clientFor(server.baseUrl).renameInstrument('QT 1/2', 'North fence');
    const request = server.requests[0];
    expect(request?.method).toBe('PUT');
    expect(request?.url).toBe('/v1/control/instruments/QT%201%2F2');
    expect(JSON.parse(request?.body ?? '')).toEqual({ name: 'North fence' });
    expect(request?.headers['content-type']).toContain('application/json');
  });

  it('reads case-variant field names, ignores unknown fields and treats offset-less times as UTC', async () => {
    const server = await serve((req, res) => {
      if (req.url.endsWith('/status')) {
        sendJson(res, 200, {
          Online: true,
          MEASURING: false,
          calibrationinprogress: false,
          SicInProgress: true,
          LastCalibration: { Time: '2023-06-12T10:27:41.1234567', Status: 'Success', Level: 94, Offset: 0.1 },
          lastSic: null,
          firmwareUpdate: { pending: true },
        });
      } else {
        sendJson(res, 200, {
          SerialNumber: 'QT7',
          Type: 'Noise',
          NAME: 'Gate',
          Position: { Latitude: 1, Longitude: 2 },
        });
      }
    });
    const client = clientFor(server.baseUrl);
    const instrument = await client.getInstrument('QT7');
    expect(instrument).toMatchObject({ serialNumber: 'QT7', name: 'Gate', position: { lat: 1, long: 2 } });
    const status = await client.getInstrumentStatus('QT7');
    expect(status.online).toBe(true);
    expect(status.sicInProgress).toBe(true);
    expect(status.lastCalibration?.time).toBe(Date.UTC(2023, 5, 12, 10, 27, 41, 123));
    expect(status.lastSic).toBeNull();
  });

  it('uses the injected fetch', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, []));
    let calls = 0;
    const countingFetch: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    await clientFor(server.baseUrl, { fetch: countingFetch }).listInstruments();
    expect(calls).toBe(1);
  });

  it('reports each final outcome once, with the scopes of the endpoint', async () => {
    const server = await serve((req, res, index) => {
      if (index === 0) sendJson(res, 503, {});
      else if (req.method === 'PUT') res.writeHead(204).end();
      else sendJson(res, 200, []);
    });
    const exchanges: ServiceExchange[] = [];
    const client = clientFor(server.baseUrl, { onExchange: (exchange) => exchanges.push(exchange) });
    await client.listInstruments();
    await client.renameInstrument('QT1', 'x');
    expect(exchanges.map((e) => [e.method, e.path, e.scopes, e.error])).toEqual([
      ['GET', '/control/instruments', ['instruments:read'], null],
      ['PUT', '/control/instruments/QT1', ['instruments:write'], null],
    ]);
  });
});

describe('service client: retries', () => {
  it('retries a 503 and returns the answer that follows', async () => {
    const server = await serve((_req, res, index) =>
      index === 0 ? sendJson(res, 503, { error: 'Busy', description: 'Try later' }) : sendJson(res, 200, []),
    );
    await expect(clientFor(server.baseUrl).listInstruments()).resolves.toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  it('honours Retry-After (seconds) on 429 instead of the short backoff', async () => {
    const server = await serve((_req, res, index) =>
      index === 0
        ? sendJson(res, 429, { error: 'TooManyRequests', description: 'Slow down' }, { 'Retry-After': '1' })
        : sendJson(res, 200, []),
    );
    const started = performance.now();
    await clientFor(server.baseUrl).listInstruments();
    const elapsed = performance.now() - started;
    expect(server.requests).toHaveLength(2);
    // FAST_RETRY's own backoff is at most 20 ms: waiting about a second can only come from Retry-After.
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(1_900);
  });

  it('gives up at once when Retry-After asks for longer than the cap, and says how long', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 429, { error: 'TooManyRequests', description: 'Quota used' }, { 'Retry-After': '120' }),
    );
    const error = await failureOf(clientFor(server.baseUrl).listInstruments());
    expect(error.code).toBe('rateLimited');
    expect(error.message).toContain('Wait about 2 min ');
    // Said as data too, so a reader that polls (the live check) waits that long before it asks again.
    expect(error.retryAfterMs).toBe(120_000);
    expect(error.message).toContain('Quota used');
    expect(server.requests).toHaveLength(1);
  });

  it('reports rateLimited after the retries run out', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 429, { error: 'TooManyRequests', description: 'Slow down' }),
    );
    const error = await failureOf(clientFor(server.baseUrl).listInstruments());
    expect(error).toMatchObject({
      code: 'rateLimited',
      status: 429,
      serverCode: 'TooManyRequests',
      retryable: true,
    });
    expect(server.requests).toHaveLength(FAST_RETRY.limit + 1);
  });

  it('retries a dropped connection, then succeeds', async () => {
    const server = await serve((_req, res, index) =>
      index < 2 ? dropConnection(res) : sendJson(res, 200, []),
    );
    await expect(clientFor(server.baseUrl).listInstruments()).resolves.toEqual([]);
    expect(server.requests).toHaveLength(3);
  });

  it('reports offline, naming the host, when the connection keeps dropping', async () => {
    const server = await serve((_req, res) => dropConnection(res));
    const error = await failureOf(clientFor(server.baseUrl).listInstruments());
    expect(error.code).toBe('offline');
    expect(error.message).toBe(
      `Cannot reach ${server.host}: the connection was dropped before the answer arrived. Check your internet connection.`,
    );
    expect(server.requests).toHaveLength(FAST_RETRY.limit + 1);
  });

  it('never retries a POST (an action could run twice)', async () => {
    const server = await serve((_req, res) => sendJson(res, 503, { error: 'Busy', description: 'Busy' }));
    const error = await failureOf(clientFor(server.baseUrl).startAction('QT1', 'Calibration'));
    expect(error.code).toBe('serverError');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      url: '/v1/control/instruments/QT1/action?action=Calibration',
    });
  });

  it('retries Electron-style net::ERR_ failures that ky does not recognise', async () => {
    let calls = 0;
    const electronLikeFetch: typeof fetch = async () => {
      calls++;
      throw new Error('net::ERR_CONNECTION_REFUSED');
    };
    const error = await failureOf(
      clientFor('https://api.example.com/v1', { fetch: electronLikeFetch }).listInstruments(),
    );
    expect(error.code).toBe('offline');
    expect(error.message).toMatch(/^Cannot reach api\.example\.com: the connection was refused\./);
    expect(calls).toBe(FAST_RETRY.limit + 1);
  });
});

describe('service client: failures become specific FieldDeskErrors', () => {
  it('connection refused → offline naming the host', async () => {
    const { baseUrl, host } = await refusedBaseUrl();
    const error = await failureOf(clientFor(baseUrl).listInstruments());
    expect(error.code).toBe('offline');
    expect(error.message).toMatch(
      new RegExp(`^Cannot reach ${host.replace('.', '\\.')}: the connection was refused\\.`),
    );
  });

  it('an unknown host name → offline saying the name was not found', async () => {
    const error = await failureOf(
      clientFor('https://fielddesk-no-such-host.invalid/v1', {
        retry: { ...FAST_RETRY, limit: 0 },
      }).listInstruments(),
    );
    expect(error.code).toBe('offline');
    expect(error.message).toContain('fielddesk-no-such-host.invalid');
  });

  it('a slow answer → timeout, not retried', async () => {
    const server = await serve((_req, res) => {
      setTimeout(() => sendJson(res, 200, []), 1_000);
    });
    const started = performance.now();
    const error = await failureOf(clientFor(server.baseUrl, { timeoutMs: 150 }).listInstruments());
    expect(error.code).toBe('timeout');
    expect(error.message).toContain(server.host);
    expect(performance.now() - started).toBeLessThan(900);
    expect(server.requests).toHaveLength(1);
  });

  it('an aborted signal → cancelled, also while waiting to retry', async () => {
    const slow = await serve((_req, res) => {
      setTimeout(() => sendJson(res, 200, []), 1_000);
    });
    const controller = new AbortController();
    const pending = clientFor(slow.baseUrl).listInstruments(controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect((await failureOf(pending)).code).toBe('cancelled');

    const limited = await serve((_req, res) => sendJson(res, 429, {}, { 'Retry-After': '1' }));
    const second = new AbortController();
    const waiting = clientFor(limited.baseUrl).listInstruments(second.signal);
    setTimeout(() => second.abort(), 100);
    const started = performance.now();
    expect((await failureOf(waiting)).code).toBe('cancelled');
    expect(performance.now() - started).toBeLessThan(800);
  });

  it('401 → unauthorized with the server description', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 401, { error: 'TokenExpired', description: 'The API key has expired.' }),
    );
    const error = await failureOf(clientFor(server.baseUrl).listInstruments());
    expect(error).toMatchObject({
      code: 'unauthorized',
      status: 401,
      serverCode: 'TokenExpired',
      retryable: false,
    });
    expect(error.message).toContain('The API key has expired.');
  });

  it('403 → forbidden with the missing scope of the endpoint, in plain words', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 403, {
        error: 'AccessDenied',
        description: 'The API key lacks the required scope: instruments:write.',
      }),
    );
    const error = await failureOf(clientFor(server.baseUrl).renameInstrument('QT1', 'Gate'));
    expect(error).toMatchObject({ code: 'forbidden', missingScope: 'instruments:write', status: 403 });
    expect(error.message).toBe('This key cannot rename instruments: it lacks instruments:write.');
    expect(server.requests).toHaveLength(1);
  });

  it('reads the scope list of a 403 description when the endpoint needs several scopes', () => {
    expect(scopesInDescription('The API key lacks the required scope: data.audio:read.')).toEqual([
      'data.audio:read',
    ]);
    expect(scopesInDescription('Missing scopes: data.events:read, data.audio:read.')).toEqual([
      'data.events:read',
      'data.audio:read',
    ]);
    expect(scopesInDescription('Access denied.')).toEqual([]);
  });

  it('404 and 400 → notFound and invalidRequest showing the server description', async () => {
    const server = await serve((req, res) =>
      req.method === 'PUT'
        ? sendJson(res, 400, { error: 'MissingParam', description: 'The name must not be empty.' })
        : sendJson(res, 404, { error: 'NotFound', description: 'No instrument with serial number QT9.' }),
    );
    const client = clientFor(server.baseUrl);
    const notFound = await failureOf(client.getInstrument('QT9'));
    expect(notFound).toMatchObject({ code: 'notFound', message: 'No instrument with serial number QT9.' });
    const invalid = await failureOf(client.renameInstrument('QT9', ' '));
    expect(invalid).toMatchObject({
      code: 'invalidRequest',
      message: 'The name must not be empty.',
      serverCode: 'MissingParam',
    });
  });

  it('5xx after retries → serverError in words, never a bare status code', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Internal Server Error');
    });
    const error = await failureOf(clientFor(server.baseUrl).listInstruments());
    expect(error.code).toBe('serverError');
    expect(error.status).toBe(500);
    expect(error.message).not.toMatch(/\b500\b/);
    expect(error.message).toContain(server.host);
    expect(server.requests).toHaveLength(FAST_RETRY.limit + 1);
  });

  it('does not follow a redirect (it would carry the key elsewhere)', async () => {
    const elsewhere = await serve((_req, res) => sendJson(res, 200, []));
    const server = await serve((_req, res) => {
      res.writeHead(302, { Location: `${elsewhere.baseUrl}/control/instruments` }).end();
    });
    const error = await failureOf(clientFor(server.baseUrl).listInstruments());
    expect(error.code).toBe('badResponse');
    expect(error.message).toContain(elsewhere.host);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it.each([
    ['a web page', '<!doctype html><title>Login</title>', /web page.*\/v1/],
    ['an empty body', '', /empty answer/],
    [
      'an object instead of a list',
      '{"items": []}',
      /sent an object where FieldDesk expected a list of instruments/,
    ],
  ])('%s → badResponse naming what was wrong', async (_what, body, message) => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
    });
    const error = await failureOf(clientFor(server.baseUrl).listInstruments());
    expect(error.code).toBe('badResponse');
    expect(error.message).toMatch(message);
    // A bad answer is not retried: asking again gives the same answer.
    expect(server.requests).toHaveLength(1);
  });

  it('asks again when an answer was cut off, and says so when every answer is', async () => {
    const cut = '[{"serialNumber": "QT1", "type": "No';
    let answers = 0;
    const flaky = await serve((_req, res) => {
      answers++;
      if (answers === 1) res.writeHead(200, { 'Content-Type': 'application/json' }).end(cut);
      else sendJson(res, 200, [wireInstrument('QT1')]);
    });
    const instruments = await clientFor(flaky.baseUrl).listInstruments();
    expect(instruments.map((i) => i.serialNumber)).toEqual(['QT1']);
    expect(flaky.requests).toHaveLength(2);

    const broken = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(cut);
    });
    const error = await failureOf(clientFor(broken.baseUrl).listInstruments());
    expect(error.code).toBe('badResponse');
    expect(error.message).toMatch(/cut off before the end/);
    expect(broken.requests).toHaveLength(FAST_RETRY.limit + 1);
  });

  it('asks again when the connection ends in the middle of an answer', async () => {
    let answers = 0;
    const server = await serve((_req, res) => {
      answers++;
      if (answers === 1) {
        // Promises more bytes than it sends, then hangs up.
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '500' });
        res.write('[{"serialNumber": "QT1"');
        setTimeout(() => res.destroy(), 20);
      } else sendJson(res, 200, [wireInstrument('QT1')]);
    });
    const instruments = await clientFor(server.baseUrl).listInstruments();
    expect(instruments.map((i) => i.serialNumber)).toEqual(['QT1']);
    expect(server.requests).toHaveLength(2);
  });

  it('asks again after an answer cut off at any byte, however the parser words it', async () => {
    const whole = JSON.stringify([wireInstrument('QT1'), wireInstrument('QT2', 'Gate “3” – north')]);
    let request = 0;
    let cutAt = 0;
    const server = await serve((_req, res) => {
      request++;
      // Odd requests are cut (and the connection closed), even ones whole: every cut is asked again.
      if (request % 2 === 1) {
        res.writeHead(200, { 'Content-Type': 'application/json', Connection: 'close' });
        res.end(Buffer.from(whole).subarray(0, cutAt));
      } else sendJson(res, 200, JSON.parse(whole));
    });
    const client = clientFor(server.baseUrl);
    for (cutAt = 1; cutAt < Buffer.byteLength(whole); cutAt++) {
      const instruments = await client.listInstruments();
      expect(instruments.map((i) => i.serialNumber)).toEqual(['QT1', 'QT2']);
    }
    expect(request).toBe(2 * (Buffer.byteLength(whole) - 1));
  });

  it('asks once more after an answer that is not JSON at all, then says so', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('[1, 2,, 3]');
    });
    const error = await failureOf(clientFor(server.baseUrl).listInstruments());
    expect(error.message).toMatch(/not valid JSON/);
    expect(server.requests).toHaveLength(2);
  });

  it('one retry layer: cut-off answers and failing statuses share one limit', async () => {
    let request = 0;
    const server = await serve((_req, res) => {
      request++;
      if (request % 2 === 1) res.writeHead(503).end();
      else res.writeHead(200, { 'Content-Type': 'application/json' }).end('[{"serialNumber": "Q');
    });
    const error = await failureOf(clientFor(server.baseUrl).listInstruments());
    expect(['serverError', 'badResponse']).toContain(error.code);
    expect(server.requests).toHaveLength(FAST_RETRY.limit + 1);
  });

  it('never asks a POST again after a cut-off answer: it could start an action twice', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status": "InPro');
    });
    const error = await failureOf(clientFor(server.baseUrl).startAction('QT1', 'Identify'));
    expect(error.message).toMatch(/cut off/);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [
      'without a serial number',
      { type: 'Noise', model: 'CR:900' },
      /^The service sent an instrument without a serialNumber\.$/,
    ],
    [
      'whose serial number is of the wrong type',
      { type: 'Noise', serialNumber: 42 },
      /^The service sent an instrument whose serialNumber is a number instead of text\.$/,
    ],
  ])('an instrument %s → badResponse naming what was wrong', async (_what, body, message) => {
    const server = await serve((_req, res) => sendJson(res, 200, body));
    const error = await failureOf(clientFor(server.baseUrl).getInstrument('QT1'));
    expect(error.code).toBe('badResponse');
    expect(error.message).toMatch(message);
  });

  it('a status whose last calibration cannot be read still answers, with a note', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 200, {
        online: true,
        measuring: true,
        calibrationInProgress: false,
        sicInProgress: false,
        lastCalibration: { time: 'yesterday', status: 'Success' },
      }),
    );
    const status = await clientFor(server.baseUrl).getInstrumentStatus('QT1');
    expect(status).toMatchObject({ online: true, lastCalibration: null });
    expect(status.notes).toEqual(['the last calibration could not be read']);
  });

  it('never puts the API key in any error message, even when the server echoes it', async () => {
    const echo = `Key ${API_KEY} is not valid here.`;
    const server = await serve((req, res) => {
      const route = req.url.split('/').pop();
      if (route === 'a') sendJson(res, 401, { error: 'TokenExpired', description: echo });
      else if (route === 'b') sendJson(res, 403, { error: 'AccessDenied', description: echo });
      else if (route === 'c') sendJson(res, 400, { error: 'MissingParam', description: echo });
      else if (route === 'd') sendJson(res, 404, { error: 'NotFound', description: echo });
      else if (route === 'e') sendJson(res, 500, { error: 'Oops', description: echo });
      else if (route === 'f') sendJson(res, 429, { error: 'TooManyRequests', description: echo });
      else if (route === 'g') sendJson(res, 200, { serialNumber: API_KEY, type: 7 });
      else dropConnection(res);
    });
    const client = clientFor(server.baseUrl);
    const refused = await refusedBaseUrl();
    const errors = await Promise.all([
      ...['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((route) => failureOf(client.getInstrument(route))),
      failureOf(clientFor(refused.baseUrl).listInstruments()),
      failureOf(clientFor(server.baseUrl, { timeoutMs: 1 }).listInstruments()),
    ]);
    expect(new Set(errors.map((e) => e.code)).size).toBeGreaterThanOrEqual(8);
    for (const error of errors) {
      expect(error.message).not.toContain(API_KEY);
      expect(JSON.stringify(error.toData())).not.toContain(API_KEY);
      expect(String(error)).not.toContain(API_KEY);
      // What console.error would print, causes included (ky's errors hold the request headers).
      expect(inspect(error, { depth: 20 })).not.toContain(API_KEY);
      expect(error.message).not.toMatch(/^\s*\d{3}\s*$/);
      expect(error.message).not.toMatch(/\n\s+at /);
    }
  });
});

/** Every run of five or more of the key's characters `text` holds (none: at most its last four show). */
const keyPiecesIn = (text: string) =>
  Array.from({ length: API_KEY.length - 4 }, (_, i) => API_KEY.slice(i, i + 5)).filter((piece) =>
    text.includes(piece),
  );

describe("service client: the service's words in a message", () => {
  it('a 429 that names the first 12 characters of the key shows none of them, nor any piece of it', async () => {
    const descriptions = [
      `Too many requests with key ${API_KEY.slice(0, 12)}…; try again in 1 s.`,
      `Too many requests with key …${API_KEY.slice(-12)}; try again in 1 s.`,
      `Too many requests with key ${API_KEY.slice(4, 10)}; try again in 1 s.`,
      `Too many requests with key ${encodeURIComponent(API_KEY).slice(0, 20)}; try again in 1 s.`,
    ];
    let index = 0;
    const server = await serve((_req, res) =>
      sendJson(res, 429, {
        error: 'TooManyRequests',
        description: descriptions[index++ % descriptions.length],
      }),
    );
    for (const description of descriptions) {
      const error = await failureOf(clientFor(server.baseUrl, { retry: { limit: 0 } }).listInstruments());
      expect(error.code).toBe('rateLimited');
      expect(error.message).toContain(description.slice(0, 'Too many requests with key '.length));
      expect(error.message).toContain('[API key]');
      expect(error.message).toContain('try again in 1 s.');
      expect(keyPiecesIn(JSON.stringify(error.toData()))).toEqual([]);
    }
  });

  it("keeps the key's last four characters, which say which key without giving it away", async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 429, {
        error: 'TooManyRequests',
        description: `Key …${API_KEY.slice(-4)} is over its quota.`,
      }),
    );
    const error = await failureOf(clientFor(server.baseUrl, { retry: { limit: 0 } }).listInstruments());
    expect(error.message).toContain(`“Key …${API_KEY.slice(-4)} is over its quota.”`);
  });

  it(`shows at most ${SERVICE_TEXT_MAX_LENGTH} characters of a description, redacted first, and a short error code`, async () => {
    const long = `${'The service explains at length. '.repeat(40)}${API_KEY}`;
    const server = await serve((req, res) => {
      if (req.url.endsWith('/a')) sendJson(res, 400, { error: 'Invalid', description: long });
      else
        sendJson(res, 429, { error: `Limit${'x'.repeat(300)}${API_KEY}`, description: `${API_KEY} ${long}` });
    });
    const client = clientFor(server.baseUrl, { retry: { limit: 0 } });
    const invalid = await failureOf(client.getInstrument('a'));
    expect(invalid.code).toBe('invalidRequest');
    expect(invalid.message).toHaveLength(SERVICE_TEXT_MAX_LENGTH);
    expect(invalid.message).toBe(`${long.slice(0, SERVICE_TEXT_MAX_LENGTH - 1).trimEnd()}…`);
    const limited = await failureOf(client.getInstrument('b'));
    expect(limited.message).toContain(
      `“[API key] ${long.slice(0, SERVICE_TEXT_MAX_LENGTH - 11).trimEnd()}…”`,
    );
    expect(limited.serverCode!.length).toBeLessThanOrEqual(100);
    expect(limited.serverCode).toMatch(/^Limitx+…$/);
    expect(keyPiecesIn(JSON.stringify([invalid.toData(), limited.toData()]))).toEqual([]);
  });

  it('says nothing of a description of only spaces: its own words stand', async () => {
    const server = await serve((_req, res) => sendJson(res, 404, { error: 'NotFound', description: '   ' }));
    const error = await failureOf(clientFor(server.baseUrl).getInstrument('QT1'));
    expect(error.code).toBe('notFound');
    expect(error.message).toMatch(/does not know/);
  });
});

describe('backoff and Retry-After (properties)', () => {
  it('backoff stays within [cap/2, cap] where cap = min(max, base·2^(n-1))', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 120_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, base, max, random) => {
          const delay = backoffDelay(attempt, base, max, () => random);
          const cap = Math.min(max, base * 2 ** (attempt - 1));
          return delay >= cap / 2 && delay <= cap && delay <= max;
        },
      ),
    );
  });

  it('the lower bound of the backoff never shrinks from one attempt to the next', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 5_000 }), (attempt, base) => {
        const max = 60_000;
        return backoffDelay(attempt + 1, base, max, () => 0) >= backoffDelay(attempt, base, max, () => 0);
      }),
    );
  });

  it('reads Retry-After seconds and HTTP dates, and ignores anything else', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 86_400 }), (seconds) => {
        const asSeconds = parseRetryAfter(String(seconds), now);
        const asDate = parseRetryAfter(new Date(now + seconds * 1000).toUTCString(), now);
        return asSeconds === seconds * 1000 && asDate === seconds * 1000;
      }),
    );
    expect(parseRetryAfter(new Date(now - 60_000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter('1.5', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});
