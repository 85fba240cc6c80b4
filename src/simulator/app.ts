/**
 * The demo service as a Hono app: every endpoint of the interface, routed from the shared
 * `ENDPOINTS` table (and the demo's own extension, `DEMO_ENDPOINTS`), behind one gate that checks
 * key, scopes and rate limit in that order.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { API_KEY_HEADER, SERVICE_ERROR_CODES } from '../shared/service/limits';
import { DEMO_ENDPOINTS, ENDPOINTS, type EndpointRule, type Scope } from '../shared/service/scopes';
import { actionRoutes } from './actions';
import { AudioService, audioRoutes } from './audio/routes';
import { KeyRateLimiter, missingScopes, resolveDemoKeys, resolveKeyAccounts } from './auth';
import { DataContext } from './data/context';
import { dataRoutes } from './data/routes';
import { faultInjection } from './faults';
import { healthDataRoutes } from './health-data';
import { instrumentRoutes } from './instruments';
import {
  DEFAULT_RATE_LIMIT,
  DEFAULT_SEED,
  DEMO_BASE_PATH,
  type DemoActionControl,
  type DemoServiceOptions,
  type DemoAudioControl,
  type DemoWebhookControl,
} from './options';
import { releaseActions } from './health-state';
import { errorResponse, type RouteHandler, type RouteTable } from './responses';
import { createDemoState } from './state';
import { webhookRoutes } from './webhooks/routes';
import { WebhookService } from './webhooks/service';

const endpointKey = (rule: EndpointRule): string => `${rule.method} ${rule.path}`;

/** The interface's endpoints and the demo's own extension, all behind the same gate. */
const SERVED_ENDPOINTS: readonly EndpointRule[] = [...ENDPOINTS, ...DEMO_ENDPOINTS];

/** Merges the areas' route tables, refusing a key that names no endpoint (a typo would go unserved). */
function mergeRouteTables(tables: readonly RouteTable[]): Map<string, RouteHandler> {
  const known = new Set(SERVED_ENDPOINTS.map(endpointKey));
  const merged = new Map<string, RouteHandler>();
  for (const table of tables) {
    for (const [key, handler] of Object.entries(table)) {
      if (!known.has(key)) throw new Error(`Demo route "${key}" is not an endpoint of the interface.`);
      if (merged.has(key)) throw new Error(`Demo route "${key}" has two handlers.`);
      merged.set(key, handler);
    }
  }
  return merged;
}

function gate(
  rule: EndpointRule,
  keys: ReadonlyMap<string, readonly Scope[]>,
  limiter: KeyRateLimiter,
): MiddlewareHandler {
  return async (c, next) => {
    const apiKey = c.req.header(API_KEY_HEADER);
    if (apiKey === undefined || apiKey.trim() === '') {
      return errorResponse(
        c,
        401,
        SERVICE_ERROR_CODES.tokenExpired,
        `The request has no API key: send it in the ${API_KEY_HEADER} header.`,
      );
    }
    const held = keys.get(apiKey);
    if (held === undefined) {
      return errorResponse(c, 401, SERVICE_ERROR_CODES.tokenExpired, 'The API key is not recognised.');
    }
    const missing = missingScopes(held, rule.scopes);
    if (missing.length > 0) {
      // Clients parse this exact form ("scope: a, b.") to name the missing scopes.
      return errorResponse(
        c,
        403,
        SERVICE_ERROR_CODES.accessDenied,
        `The API key lacks the required scope: ${missing.join(', ')}.`,
      );
    }
    const decision = limiter.take(apiKey);
    if (!decision.allowed) {
      c.header('Retry-After', String(decision.retryAfterSeconds));
      return errorResponse(
        c,
        429,
        SERVICE_ERROR_CODES.tooManyRequests,
        `Too many requests with this API key; try again in ${decision.retryAfterSeconds} s.`,
      );
    }
    await next();
  };
}

const notImplemented =
  (rule: EndpointRule): RouteHandler =>
  (c) =>
    errorResponse(
      c,
      501,
      SERVICE_ERROR_CODES.notImplemented,
      `${rule.method} ${rule.path} is not available in the demo service yet.`,
    );

/** The demo service without a socket: call `app.request()` in tests or hand `app.fetch` to a server. */
export function createDemoApp(options: DemoServiceOptions = {}): Hono {
  return createDemo(options).app;
}

/** The demo app and the test's hands on it. */
export interface Demo {
  app: Hono;
  actions: DemoActionControl;
  webhooks: DemoWebhookControl;
  audio: DemoAudioControl;
  /** Stops the webhook checks, deliveries and retries (the app itself holds nothing open). */
  close(): Promise<void>;
}

export function createDemo(options: DemoServiceOptions = {}): Demo {
  const now = options.now ?? Date.now;
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`The seed must be an integer, not ${seed}.`);
  const { keys } = resolveDemoKeys(options.keys);
  const limiter = new KeyRateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT, now);
  const timeScale = options.timeScale ?? 1;
  const state = createDemoState(seed, now, timeScale, options.fleetSize);
  state.health.hold = options.holdActions === true;
  const actions: DemoActionControl = {
    hold: (on) => {
      state.health.hold = on;
    },
    held: () =>
      [...state.health.running.values()]
        .filter((running) => running.held)
        .map((running) => ({ serial: running.instrument, action: running.action })),
    release: (serial) => releaseActions(state, serial),
  };
  const accounts = resolveKeyAccounts(keys, options.keyAccounts);
  // One context for the data routes and the webhook triggers: both read the same recordings.
  const context = new DataContext(state, seed);
  const webhooks = new WebhookService({
    context,
    timeScale,
    delivery: options.webhookDelivery,
    timing: options.webhookTiming,
    log: options.log,
  });
  const audio = new AudioService(context, options.audio ?? {});
  // One table per area.
  const handlers = mergeRouteTables([
    instrumentRoutes(state),
    actionRoutes(state),
    healthDataRoutes(state),
    dataRoutes(context),
    audioRoutes(context, audio),
    webhookRoutes(webhooks, {
      accounts,
      isKnownSerial: (serial) => state.instruments.has(serial),
      allowLoopback: options.allowLoopbackWebhooks === true,
    }),
  ]);

  // Not strict: `/control/instruments/` is the same endpoint as `/control/instruments`, as in findEndpointRule.
  const app = new Hono({ strict: false });
  if (options.faults !== undefined) {
    // Only data requests: listing instruments and running actions keep working. Registered
    // before the routes, so it runs ahead of the key check, as a failing front end would.
    app.use(`${DEMO_BASE_PATH}/data/*`, faultInjection(options.faults, seed, timeScale));
  }
  const keyMap = new Map(Object.entries(keys));
  for (const rule of SERVED_ENDPOINTS) {
    const handler = handlers.get(endpointKey(rule)) ?? notImplemented(rule);
    app.on(rule.method, `${DEMO_BASE_PATH}${rule.path}`, gate(rule, keyMap, limiter), handler);
  }
  app.notFound((c) =>
    errorResponse(
      c,
      404,
      SERVICE_ERROR_CODES.notFound,
      `There is no endpoint ${c.req.method} ${c.req.path} in the service interface.`,
    ),
  );
  app.onError((error, c) =>
    errorResponse(c, 500, 'InternalError', `The demo service failed: ${error.message}`),
  );
  return {
    app,
    actions,
    webhooks: webhooks.control,
    audio: { release: () => audio.release() },
    close: () => webhooks.close(),
  };
}
