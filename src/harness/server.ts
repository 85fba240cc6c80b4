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
 *
 * Those checks are http-guards.ts, the event stream event-stream.ts, and the backend with its demo
 * service and kept notifications harness-backend.ts; this file sets up the routes and the server.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Hono, type Context } from 'hono';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { createKeyVault, type Backend } from '../main/backend/index';
import type { DemoActionControl } from '../simulator/index';
import { dispatchRequest } from '../shared/ipc/contract';
import { bytesText } from '../shared/format';
import { MAX_IMAGE_BASE64 } from '../shared/ipc/data-requests';
import { PHOTO_MAX_BYTES } from '../shared/visits';
import { encodeAnswer, FRAME_CONTENT_TYPE } from '../shared/ipc/binary-frame';
import { HARNESS_AUDIO_PATH } from '../shared/audio';
import type { Notice } from '../main/notifications';
import { streamEvents, type OpenStreams } from './event-stream';
import { startHarnessBackend } from './harness-backend';
import { carriesToken, pageCsp, readBodyWithin, refusal } from './http-guards';

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
 * (`visits.addPhoto`: `PHOTO_MAX_BYTES` as base64, some 33 MiB; the backend makes its thumbnail) and
 * a chart image (`data.saveImage`, at most `MAX_IMAGE_BASE64`); a MiB more holds the names, caption
 * and JSON around them. A body past it is refused, never buffered whole.
 */
export const MAX_REQUEST_BYTES = Math.max(MAX_IMAGE_BASE64, base64Length(PHOTO_MAX_BYTES)) + 1024 * 1024;

/** What the routes answer with and to whom. */
interface HarnessRoutes {
  backend: Backend;
  tokenBytes: Buffer;
  staticDir: string;
  maxRequestBytes: number;
  /** The host names the harness answers to (its port known once listening). */
  allowedHosts: () => string[];
  /** The origins allowed to drive the backend. */
  allowedOrigins: () => string[];
  streams: OpenStreams;
}

/** `POST /api/invoke/:channel`: one request to the backend, its envelope as JSON or a binary frame. */
async function invoke(
  c: Context<{ Bindings: HttpBindings }, '/api/invoke/:channel'>,
  routes: HarnessRoutes,
): Promise<Response> {
  const { maxRequestBytes } = routes;
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
  const envelope = await dispatchRequest(routes.backend.handlers, c.req.param('channel'), body);
  // Answers with typed arrays (time series) go as a binary frame: their bytes as they are, NaNs
  // kept, no text encoding. The others stay JSON.
  const answer = encodeAnswer(envelope);
  return 'json' in answer
    ? c.body(answer.json, 200, { 'Content-Type': 'application/json' })
    : c.body(answer.frame, 200, { 'Content-Type': FRAME_CONTENT_TYPE });
}

/** The harness's routes, each behind the checks of who may use it. */
function harnessApp(routes: HarnessRoutes): Hono<{ Bindings: HttpBindings }> {
  const { backend, tokenBytes, staticDir, allowedHosts, allowedOrigins } = routes;
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

  app.post('/api/invoke/:channel', async (c) => {
    if (!originAllowed(c)) return c.json(refusal('Request refused: it came from another web page.'), 403);
    return invoke(c, routes);
  });

  app.get('/api/events', (c) => {
    if (!originAllowed(c)) return c.json(refusal('Request refused: it came from another web page.'), 403);
    c.header('Cache-Control', 'no-store');
    return streamEvents(c, backend, routes.streams);
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
  return app;
}

/** Listens on loopback at `port` (0: any free one); a port in use is said as such. */
async function listen(server: Server, port: number): Promise<void> {
  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(port, HOST, () => {
        server.off('error', reject);
        resolveListen();
      });
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new Error(`Port ${port} is already in use: choose another with --port.`);
    throw error;
  }
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
  const { backend, demoActions, notices, setWindowFocused, unsubscribeNotices } = await startHarnessBackend({
    dataDir: options.dataDir,
    vault,
    serviceTimeoutMs: options.serviceTimeoutMs,
    timeScale,
    holdActions: options.demo?.holdActions === true,
  });

  // Filled in once listening: the checks below need the real port.
  let port = requestedPort;
  const allowedHosts = (): string[] => [`${HOST}:${port}`, `localhost:${port}`];
  /** Open event streams, ended by `close()` so the server can stop at once. */
  const streams: OpenStreams = new Set();
  const app = harnessApp({
    backend,
    tokenBytes: Buffer.from(token),
    staticDir,
    maxRequestBytes: options.maxRequestBytes ?? MAX_REQUEST_BYTES,
    allowedHosts,
    allowedOrigins: () => [
      ...allowedHosts().map((host) => `http://${host}`),
      ...(options.allowedOrigins ?? []),
    ],
    streams,
  });

  // No clean-up of unread bodies by the adapter: it closes a connection whose body is still coming
  // after half a second, which is the dropped connection the 413 above must not be. Node itself
  // reads and drops a body no route read (a refused token, origin or route).
  const server = createServer(
    getRequestListener(app.fetch, { overrideGlobalObjects: false, autoCleanupIncoming: false }),
  );
  try {
    await listen(server, requestedPort);
  } catch (error) {
    await backend.close();
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
    setWindowFocused,
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
