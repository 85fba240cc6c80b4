/**
 * The browser harness: the same backend the Electron app builds, exposed over HTTP on loopback
 * so the renderer's browser build (and Playwright) can drive the real product in Chromium.
 *
 *   POST /api/invoke/:channel  → the request's envelope (always 200; 400 only for a non-JSON body,
 *                                413 for a body past `maxRequestBytes`: answered at once, the rest
 *                                of the body read and dropped, never kept, the connection kept)
 *   GET  /api/events           → Server-Sent Events, one named event per backend event
 *   GET  /audio-library/:key   → a library recording, with HTTP ranges (what `fielddesk-audio:` is in the app)
 *   GET  /*                    → the web build (`web.html` at `/`)
 *
 * Only the test or the developer who started it can drive it, as Jupyter does it: a random token
 * per run (or `token`), printed in the page's URL (`/?token=…`); every `/api` request must carry
 * it as `Authorization: Bearer …` or is refused with 401, whatever its Origin. The web build itself
 * holds nothing secret and is served to anyone on loopback.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Hono, type Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { createBackend, createKeyVault } from '../main/backend/index';
import { startDemoService, type DemoActionControl, type RunningDemoService } from '../simulator/index';
import { dispatchRequest, type Envelope } from '../shared/ipc/contract';
import type { EventChannel } from '../shared/ipc/channels';
import type { FieldDeskErrorData } from '../shared/errors';
import { bytesText } from '../shared/format';
import { MAX_IMAGE_BASE64 } from '../shared/ipc/data-requests';
import { PHOTO_MAX_BYTES, THUMBNAIL_MAX_BYTES } from '../shared/visits';
import { encodeAnswer, FRAME_CONTENT_TYPE } from '../shared/ipc/binary-frame';
import { HARNESS_AUDIO_PATH, PLAYER_STYLE_HASH } from '../shared/audio';
import { createBackgroundNotifier, type Notice } from '../main/notifications';
import { version } from '../../package.json';

export interface HarnessOptions {
  /** 0 or absent: any free port. */
  port?: number;
  /** Where the backend keeps accounts and its cache. */
  dataDir: string;
  /** The web build to serve (`npm run build:web` writes it to `out/web`). */
  staticDir: string;
  /** keytar service name (default `FieldDesk-dev`), so test runs do not touch a developer's real keys. */
  keychainService?: string;
  /**
   * Further origins allowed to POST (the Vite dev server of `npm run dev:web`, which proxies
   * `/api` here). The harness's own origin is always allowed.
   */
  allowedOrigins?: readonly string[];
  /** The token every `/api` request must carry; default a fresh random one. */
  token?: string;
  /** The largest request body taken (default `MAX_REQUEST_BYTES`); a larger one is refused with 413. */
  maxRequestBytes?: number;
  /**
   * How long one service request may take before it counts as unanswered (default the app's own,
   * 15 s). End-to-end tests give it longer: there the demo service shares two busy cores with the
   * backend and the browser, so a slow answer is the machine's load, not a link to report.
   */
  serviceTimeoutMs?: number;
  /** How the in-app demo service ("Try the demo") runs. */
  demo?: {
    /**
     * Multiplies every simulated duration of the demo service (default 1). End-to-end tests use
     * e.g. 0.05 so a ~40 s calibration takes ~2 s: long enough to watch, short enough to wait for.
     */
    timeScale?: number;
    /** Hold Calibrations and SICs until `demoActions.release()` (tests that need one "still running"). */
    holdActions?: boolean;
  };
}

export interface RunningHarness {
  /** The page to open: the origin with the token (`http://127.0.0.1:PORT/?token=…`). */
  url: string;
  /** `http://127.0.0.1:PORT/`, for API calls (which send the token as a header). */
  origin: string;
  token: string;
  port: number;
  /** The in-app demo service's actions, for tests (a no-op until the demo has started). */
  demoActions: DemoActionControl;
  /**
   * The desktop notifications the app would have shown (finished actions, ended syncs), oldest
   * first: the browser has no desktop, so the harness keeps them for tests to read.
   */
  notifications(): Notice[];
  /**
   * Whether the app's window counts as focused, as the notices ask (default true: nothing is
   * notified while the user is looking). A test sets false to play a window in the background.
   */
  setWindowFocused(focused: boolean): void;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
/** The keychain entry name the harness uses unless told otherwise: never the app's own. */
export const DEV_KEYCHAIN_SERVICE = 'FieldDesk-dev';
/** The length of `bytes` bytes as base64 text. */
const base64Length = (bytes: number): number => Math.ceil(bytes / 3) * 4;
/**
 * The largest request body the harness takes: the contract's largest requests are a site photo
 * with its thumbnail (`visits.addPhoto`: `PHOTO_MAX_BYTES` and `THUMBNAIL_MAX_BYTES` as base64, some
 * 35 MiB) and a chart image (`data.saveImage`, at most `MAX_IMAGE_BASE64`); a MiB more holds the
 * names, caption and JSON around them. A body past it is refused, never buffered whole.
 */
export const MAX_REQUEST_BYTES =
  Math.max(MAX_IMAGE_BASE64, base64Length(PHOTO_MAX_BYTES) + base64Length(THUMBNAIL_MAX_BYTES)) + 1024 * 1024;

/** A comment line now and then keeps idle SSE connections from being cut by proxies. */
const SSE_KEEPALIVE_MS = 15_000;

/**
 * Same policy as the page's meta CSP, plus what only a header can say: framing, and media from the
 * audio library's route only (a path needs the host spelled out, which the page's meta cannot know).
 */
function pageCsp(hosts: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' ${PLAYER_STYLE_HASH}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    `media-src ${hosts.map((host) => `http://${host}${HARNESS_AUDIO_PATH}`).join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Events go as JSON text over Server-Sent Events, and none carries a typed array (EventPayloads):
 * one that did would arrive as an object of indexed keys, so it is refused here instead.
 */
function refuseTypedArrays(key: string, value: unknown): unknown {
  if (ArrayBuffer.isView(value)) {
    throw new TypeError(`An event carries a typed array (${key}): send it in an answer, not an event.`);
  }
  return value;
}

function refusal(message: string, code: FieldDeskErrorData['code'] = 'forbidden'): Envelope<never> {
  const error: FieldDeskErrorData = { code, message, retryable: false };
  return { ok: false, error };
}

/**
 * A request's body, up to `max` bytes; null when it is larger (declared so, or once past `max`).
 * The rest of a larger body is then read and dropped, never kept, and the connection stays open:
 * a server that closes it while the client is still sending makes the client's system reset it,
 * and a browser then reports a dropped connection instead of the 413 answer. (Node's request
 * timeout still ends a body that never ends.)
 */
function readBodyWithin(incoming: IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    function finish(body: Buffer | null): void {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      if (body === null && !incoming.readableEnded) {
        // The client may stop sending or go away: nothing is left to answer either way.
        incoming.on('error', () => undefined);
        incoming.resume();
      }
      resolve(body);
    }
    function onData(chunk: Buffer): void {
      size += chunk.length;
      if (size > max) finish(null);
      else chunks.push(chunk);
    }
    const onEnd = (): void => finish(Buffer.concat(chunks, size));
    function onError(error: Error): void {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      reject(error);
    }
    const declared = Number(incoming.headers['content-length']);
    if (incoming.headers['transfer-encoding'] === undefined && declared > max) return finish(null);
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
  });
}

/** Whether a request carries the token, compared in constant time. */
function carriesToken(header: string | undefined, token: Buffer): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  return given.length === token.length && timingSafeEqual(given, token);
}

export async function startHarness(options: HarnessOptions): Promise<RunningHarness> {
  const requestedPort = options.port ?? 0;
  if (!Number.isInteger(requestedPort) || requestedPort < 0 || requestedPort > 65535) {
    throw new RangeError(`The port must be an integer from 0 to 65535, not ${requestedPort}.`);
  }
  const staticDir = resolve(options.staticDir);
  const timeScale = options.demo?.timeScale;
  if (timeScale !== undefined && !(Number.isFinite(timeScale) && timeScale > 0)) {
    throw new RangeError(`The demo time scale must be a number greater than 0, not ${timeScale}.`);
  }

  // A keychain name of its own by default, so driving the harness never touches the app's keys.
  const vault = createKeyVault({ serviceName: options.keychainService ?? DEV_KEYCHAIN_SERVICE });
  const vaultStatus = await vault.check();
  if (vaultStatus.reason !== null) console.error(`FieldDesk harness: ${vaultStatus.reason}`);
  const token = options.token ?? randomBytes(24).toString('base64url');
  if (!/^[\w-]{16,200}$/.test(token)) {
    throw new RangeError('The harness token must be 16 to 200 letters, digits, "-" or "_".');
  }
  const tokenBytes = Buffer.from(token);
  let demoService: RunningDemoService | null = null;
  let holdActions = options.demo?.holdActions === true;
  const demoActions: DemoActionControl = {
    hold(on) {
      holdActions = on;
      demoService?.actions.hold(on);
    },
    held: () => demoService?.actions.held() ?? [],
    release: (serial) => demoService?.actions.release(serial) ?? 0,
  };

  const backend = await createBackend({
    dataDir: options.dataDir,
    vault,
    appInfo: { version, shell: 'harness' },
    ...(options.serviceTimeoutMs === undefined
      ? {}
      : { clientOptions: { timeoutMs: options.serviceTimeoutMs } }),
    startDemo: async () => {
      const service = await startDemoService({
        port: 0,
        holdActions,
        // The harness drives tests and development: webhooks may point at a receiver on this
        // computer, and the demo never posts anywhere else (our build machines have no network).
        allowLoopbackWebhooks: true,
        webhookDelivery: 'loopbackOnly',
        ...(timeScale === undefined ? {} : { timeScale }),
      });
      if (service.defaultKey === null) {
        await service.close();
        throw new Error('The demo service started without a default key.');
      }
      demoService = service;
      return { baseUrl: service.baseUrl, apiKey: service.defaultKey, close: service.close };
    },
  });

  // The same rules as the app's (src/main/index.ts), with a focus the test sets instead of a window's.
  const notices: Notice[] = [];
  let windowFocused = true;
  const unsubscribeNotices = backend.subscribe(
    createBackgroundNotifier(
      () => windowFocused,
      (notice) => notices.push(notice),
    ),
  );

  // Filled in once listening: the checks below need the real port.
  let port = requestedPort;
  const allowedHosts = (): string[] => [`${HOST}:${port}`, `localhost:${port}`];
  const allowedOrigins = (): string[] => [
    ...allowedHosts().map((host) => `http://${host}`),
    ...(options.allowedOrigins ?? []),
  ];

  /** Open event streams, ended by `close()` so the server can stop at once. */
  const streams = new Set<{ stream: SSEStreamingApi; end: () => void }>();

  const app = new Hono<{ Bindings: HttpBindings }>();

  // A DNS-rebinding page reaches us under its own host name: answer only to our own.
  app.use('*', async (c, next) => {
    const host = c.req.header('host') ?? '';
    if (!allowedHosts().includes(host)) return c.text('Unknown host.', 421);
    await next();
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
  });

  // Only whoever holds the token drives the backend: not another page, not another local process.
  app.use('/api/*', async (c, next) => {
    if (!carriesToken(c.req.header('authorization'), tokenBytes)) {
      return c.json(
        refusal(
          'This FieldDesk harness needs the token it printed when it started (send it as Authorization: Bearer …).',
          'unauthorized',
        ),
        401,
      );
    }
    await next();
  });

  // A page on another origin (another localhost port included) must not drive the backend.
  const originAllowed = (c: Context): boolean => {
    const origin = c.req.header('origin');
    return origin === undefined || allowedOrigins().includes(origin);
  };

  const maxRequestBytes = options.maxRequestBytes ?? MAX_REQUEST_BYTES;

  app.post('/api/invoke/:channel', async (c) => {
    if (!originAllowed(c)) return c.json(refusal('Request refused: it came from another web page.'), 403);
    // Read from Node's request itself (not the web Request), so a body past the limit can be
    // dropped as it arrives rather than cut off with the connection.
    const bytes = await readBodyWithin(c.env.incoming, maxRequestBytes);
    if (bytes === null)
      return c.json(
        refusal(
          `The request is larger than the harness takes (${bytesText(maxRequestBytes)}); FieldDesk's own requests are smaller.`,
          'invalidInput',
        ),
        413,
      );
    let body: unknown;
    try {
      const text = bytes.toString('utf8');
      body = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      return c.json(
        {
          ok: false,
          error: { code: 'invalidInput', message: 'The request body is not JSON.', retryable: false },
        },
        400,
      );
    }
    c.header('Cache-Control', 'no-store');
    const envelope = await dispatchRequest(backend.handlers, c.req.param('channel'), body);
    // Answers with typed arrays (time series) go as a binary frame: their bytes as they are, NaNs
    // kept, no text encoding. The others stay JSON.
    const answer = encodeAnswer(envelope);
    return 'json' in answer
      ? c.body(answer.json, 200, { 'Content-Type': 'application/json' })
      : c.body(answer.frame, 200, { 'Content-Type': FRAME_CONTENT_TYPE });
  });

  app.get('/api/events', (c) => {
    if (!originAllowed(c)) return c.json(refusal('Request refused: it came from another web page.'), 403);
    c.header('Cache-Control', 'no-store');
    return streamSSE(c, async (stream) => {
      let ended = false;
      let finish: () => void = () => undefined;
      const done = new Promise<void>((resolveDone) => (finish = resolveDone));
      // Writes are chained so events arrive in the order the backend sent them.
      let queue: Promise<void> = Promise.resolve();
      const send = (event: EventChannel | null, data: string): void => {
        queue = queue
          .then(() =>
            event === null
              ? stream.write(`: ${data}\n\n`).then(() => undefined)
              : stream.writeSSE({ event, data }),
          )
          .catch(() => end());
      };
      const unsubscribe = backend.subscribe((channel, payload) => {
        try {
          send(channel, JSON.stringify(payload, refuseTypedArrays));
        } catch (error) {
          // Said where the developer sees it, and logged; the backend and the other events go on.
          console.error(`FieldDesk harness: the ${channel} event was not sent: ${String(error)}`);
          backend.log.error(`The ${channel} event was not sent to a harness page`, { error });
        }
      });
      const keepAlive = setInterval(() => send(null, 'keep-alive'), SSE_KEEPALIVE_MS);
      const entry = { stream, end: () => end() };
      function end(): void {
        if (ended) return;
        ended = true;
        unsubscribe();
        clearInterval(keepAlive);
        streams.delete(entry);
        finish();
      }
      streams.add(entry);
      stream.onAbort(end);
      await stream.writeSSE({ event: 'ready', data: '{}', retry: 2000 });
      await done;
      await stream.close().catch(() => undefined);
    });
  });

  app.use('/api/*', async (c) => c.json(refusal('Unknown harness route.'), 404));

  // Library recordings for `<audio>`: the same answer the app's `fielddesk-audio:` scheme gives.
  // A media element cannot send a header, so the token may come as `?token=` (see `audioPlayUrl`).
  app.get(`${HARNESS_AUDIO_PATH}:key`, async (c) => {
    const given = c.req.header('authorization') ?? `Bearer ${c.req.query('token') ?? ''}`;
    if (!carriesToken(given, tokenBytes)) return c.text('This harness needs its token.', 401);
    return backend.audioFile(c.req.param('key'), c.req.raw);
  });

  app.use('*', async (c, next) => {
    await next();
    if (c.res.headers.get('content-type')?.startsWith('text/html'))
      c.header('Content-Security-Policy', pageCsp(allowedHosts()));
  });
  app.get('/', serveStatic({ root: staticDir, path: 'web.html' }));
  app.use('*', serveStatic({ root: staticDir }));

  // No clean-up of unread bodies by the adapter: it closes a connection whose body is still coming
  // after half a second, which is the dropped connection the 413 above must not be. Node itself
  // reads and drops a body no route read (a refused token, origin or route).
  const server = createServer(
    getRequestListener(app.fetch, { overrideGlobalObjects: false, autoCleanupIncoming: false }),
  );
  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(requestedPort, HOST, () => {
        server.off('error', reject);
        resolveListen();
      });
    });
  } catch (error) {
    await backend.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new Error(`Port ${requestedPort} is already in use: choose another with --port.`);
    throw error;
  }
  port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  const origin = `http://${HOST}:${port}/`;
  return {
    url: `${origin}?token=${token}`,
    origin,
    token,
    port,
    demoActions,
    notifications: () => notices.map((notice) => ({ ...notice })),
    setWindowFocused(focused) {
      windowFocused = focused;
    },
    close() {
      closing ??= (async () => {
        unsubscribeNotices();
        for (const { end } of [...streams]) end();
        await new Promise<void>((resolveClose) => {
          server.close(() => resolveClose());
          // Keep-alive and SSE sockets would otherwise hold close() open.
          server.closeAllConnections();
        });
        await backend.close();
      })();
      return closing;
    },
  };
}
