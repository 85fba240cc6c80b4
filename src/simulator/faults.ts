/**
 * Fault injection: the demo service answers a share of `/v1/data/*` requests the way a struggling
 * service does, so the client's error handling is exercised over real HTTP rather than a mocked
 * fetch. Which requests get a fault, and which fault, follows only from the seed and the order in
 * which data requests arrive; the kinds take turns, so every kind occurs in a run of requests.
 */
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context, MiddlewareHandler } from 'hono';
import { SERVICE_ERROR_CODES } from '../shared/service/limits';
import type { DemoFaultOptions } from './options';
import { createRandom } from './random';
import { errorResponse } from './responses';

export const FAULT_KINDS = [
  /** 500 with a `{ error, description }` body. */
  'serverError',
  /** The socket is destroyed without an answer. */
  'droppedConnection',
  /** The real status and headers, then only the first half of the body, then the connection ends. */
  'truncatedJson',
  /** The real answer after `SLOW_ANSWER_MS` × the time scale. */
  'slowAnswer',
  /** This and the next `RATE_LIMIT_STORM_LENGTH - 1` data requests get 429 with `Retry-After: 0`. */
  'rateLimitStorm',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const SLOW_ANSWER_MS = 400;
export const RATE_LIMIT_STORM_LENGTH = 3;

/** Keeps the fault stream apart from the fleet's and the running state's streams of the same seed. */
const FAULT_STREAM = 0x1b873593;

export function validateFaultOptions(options: DemoFaultOptions): void {
  if (!Number.isFinite(options.rate) || options.rate < 0 || options.rate > 1) {
    throw new RangeError(`The fault rate must be a number from 0 to 1, not ${options.rate}.`);
  }
  if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) {
    throw new RangeError(`The fault seed must be an integer, not ${options.seed}.`);
  }
}

/**
 * The fault of each data request in turn (null: answer normally). Pure apart from its own
 * position, so the same rate and seed always give the same sequence.
 */
export function createFaultPlan(rate: number, seed: number): () => FaultKind | null {
  const random = createRandom((seed ^ FAULT_STREAM) >>> 0);
  // The seed also picks which kind comes first, so different seeds differ even at rate 1.
  let nextKindIndex = random.int(0, FAULT_KINDS.length - 1);
  let stormLeft = 0;
  return () => {
    if (stormLeft > 0) {
      stormLeft--;
      return 'rateLimitStorm';
    }
    if (!random.chance(rate)) return null;
    const kind = FAULT_KINDS[nextKindIndex] as FaultKind;
    nextKindIndex = (nextKindIndex + 1) % FAULT_KINDS.length;
    if (kind === 'rateLimitStorm') stormLeft = RATE_LIMIT_STORM_LENGTH - 1;
    return kind;
  };
}

/** The Node request behind `c`, when served by @hono/node-server; `app.request()` has none. */
function nodeRequest(c: Context): HttpBindings['incoming'] | undefined {
  // Hono types `c.env` by the app's bindings, which the demo app leaves open.
  const bindings = c.env as Partial<HttpBindings> | undefined;
  return bindings?.incoming;
}

function dropConnection(c: Context): Response {
  const incoming = nodeRequest(c);
  if (incoming !== undefined) {
    incoming.socket.destroy();
    // Tells @hono/node-server not to write anything to the (destroyed) response.
    return RESPONSE_ALREADY_SENT;
  }
  // Without a socket (`app.request()` in tests), the nearest thing: a body that fails to arrive.
  const failing = new ReadableStream<Uint8Array>({
    start: (controller) => controller.error(new Error('The demo service dropped the connection.')),
  });
  return new Response(failing, { status: 200, headers: { 'Content-Type': 'application/json' } });
}

/** Replaces `c.res` by its status and headers with only the first half of its body. */
async function truncateAnswer(c: Context): Promise<void> {
  const real = c.res;
  const body = new Uint8Array(await real.arrayBuffer());
  const headers = new Headers(real.headers);
  headers.delete('Content-Length');
  // The connection ends after the half body: the client sees a complete, short answer.
  headers.set('Connection', 'close');
  // Clear first: assigning `c.res` over an existing answer would copy that answer's headers back.
  c.res = undefined;
  c.res = new Response(body.slice(0, Math.floor(body.length / 2)), { status: real.status, headers });
}

/** Middleware for the data routes; `timeScale` scales the slow answers' delay like other durations. */
export function faultInjection(
  options: DemoFaultOptions,
  defaultSeed: number,
  timeScale: number,
): MiddlewareHandler {
  validateFaultOptions(options);
  const nextFault = createFaultPlan(options.rate, options.seed ?? defaultSeed);
  return async (c, next) => {
    const fault = nextFault();
    switch (fault) {
      case null:
        return next();
      case 'serverError':
        return errorResponse(
          c,
          500,
          'InternalError',
          'The demo service failed this request on purpose (fault injection).',
        );
      case 'droppedConnection':
        return dropConnection(c);
      case 'truncatedJson':
        await next();
        return truncateAnswer(c);
      case 'slowAnswer':
        await new Promise((resolve) => setTimeout(resolve, SLOW_ANSWER_MS * timeScale));
        return next();
      case 'rateLimitStorm':
        c.header('Retry-After', '0');
        return errorResponse(
          c,
          429,
          SERVICE_ERROR_CODES.tooManyRequests,
          'Too many requests (fault injection); try again in 0 s.',
        );
    }
  };
}
