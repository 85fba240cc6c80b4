/**
 * The service's HTTP layer: every request to the service goes through `createServiceRequester`,
 * built on ky with ONE retry layer — backoff with jitter, `Retry-After`, transient statuses, dropped
 * connections, and answers cut off on the way (read by the bounded fetch, and parsed inside ky's
 * `afterResponse` hook, so a GET whose body ends early or arrives unreadable is asked again by ky
 * like any other failure; a POST never is: it could start an action twice). Through an injected
 * fetch (Electron's `net.fetch` in the app, Node's elsewhere), wrapped so every answer is bounded
 * in time and size (bounded-fetch.ts, answer-limits.ts): a slow drip, a stalled body or an answer
 * of hundreds of megabytes ends with its own error instead of holding the read.
 *
 * The API key goes only into the `X-Api-Key` header: it is never part of a message, and wherever a
 * server echoes it — in an answer's body (read and kept: names, record texts) or an error's
 * description — it is redacted in every spelling (core/secrets.ts) before anything reads the text.
 */
import ky, { HTTPError, isTimeoutError, type KyInstance } from 'ky';
import { FieldDeskError } from '../../../shared/errors';
import { API_KEY_HEADER } from '../../../shared/service/limits';
import { findEndpointRule, type Scope } from '../../../shared/service/scopes';
import { apiKeyRedactor } from '../core/secrets';
import { ANSWER_LIMIT_DEFAULTS, type AnswerLimits } from './answer-limits';
import {
  decodeAnswer,
  parseJson,
  UnreadableAnswer,
  validateAnswer,
  type ParseOptions,
  type Resource,
} from './answers';
import { boundedFetch } from './bounded-fetch';
import {
  classifyTransportFailure,
  parseRetryAfter,
  requestFailure,
  safeCause,
  TRANSPORT_FAILURES,
  type HttpMethod,
} from './failures';

export type { HttpMethod } from './failures';

export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  limit?: number;
  /** First backoff delay before jitter (default 500 ms); doubles each retry. */
  baseDelayMs?: number;
  /** Upper bound of one backoff delay (default 8 s). */
  maxDelayMs?: number;
  /** Longest `Retry-After` FieldDesk waits for; a longer one fails at once as `rateLimited` (default 20 s). */
  maxRetryAfterMs?: number;
}

/** One request's final outcome (after retries), reported so the backend can track connectivity and scopes. */
export interface ServiceExchange {
  method: HttpMethod;
  /** Path relative to the base address, e.g. `/control/instruments/QT1`. */
  path: string;
  /** The scopes the endpoint needs (empty for an endpoint the interface does not list). */
  scopes: readonly Scope[];
  /** `null` on success. */
  error: FieldDeskError | null;
}

export interface ServiceClientOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  /** The wait for an answer's headers, and the longest pause in its body (default 15 s). */
  timeoutMs?: number;
  /** The whole answer's deadline and size limits (answer-limits.ts); tests make them small. */
  answerLimits?: Partial<AnswerLimits>;
  retry?: RetryOptions;
  /** Cancels every request of this client (e.g. when the account is removed). */
  signal?: AbortSignal;
  onExchange?: (exchange: ServiceExchange) => void;
}

export interface CallInit {
  json?: unknown;
  query?: Record<string, string>;
  signal?: AbortSignal | undefined;
  /** The largest body this request may answer (default the client's `answerLimits.maxBytes`). */
  maxBytes?: number;
}

export const CLIENT_DEFAULTS = {
  timeoutMs: 15_000,
  retry: { limit: 3, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 20_000 },
} as const;

/** Statuses worth another try: rate limiting and transient server trouble. */
export const RETRY_STATUS_CODES: readonly number[] = [429, 500, 502, 503, 504];
/** Statuses whose `Retry-After` header is honoured. */
export const RETRY_AFTER_STATUS_CODES: readonly number[] = [429, 503];

/**
 * Exponential backoff with "equal jitter": half the capped delay is fixed, half random, so retries
 * from many clients spread out but never collapse to zero. Returns a delay in
 * [cap/2, cap] with cap = min(maxDelayMs, baseDelayMs · 2^(attempt-1)).
 */
export function backoffDelay(
  attempt: number,
  baseDelayMs: number,
  maxDelayMs: number,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(attempt, 1) - 1, 30);
  const capped = Math.min(maxDelayMs, baseDelayMs * 2 ** exponent);
  return capped / 2 + (random() * capped) / 2;
}

/**
 * What one request's `afterResponse` hook needs: how to turn the body's text into the result, and
 * where to leave it (ky's per-request `context`).
 */
interface AnswerSlot {
  read: (text: string) => unknown;
  /** What the body is, for messages ("a list of instruments"); the reader names it itself otherwise. */
  resource: string;
  done: boolean;
  value: unknown;
  /** The body of the latest successful answer, as the bounded fetch read it (not yet read here). */
  body: Uint8Array | null;
}

/** The body of a successful answer (already read whole by the bounded fetch) as text. */
async function readBody(response: Response, slot: AnswerSlot): Promise<string> {
  const bytes = slot.body ?? new Uint8Array(await response.arrayBuffer());
  slot.body = null;
  return decodeAnswer(bytes, slot.resource);
}

/**
 * Runs a reader. An answer nested deeper than the reader's stack is the answer's fault and says so;
 * anything else but a FieldDeskError is a bug of ours — never reported as "offline".
 */
function readWith(read: (text: string) => unknown, text: string): unknown {
  try {
    return read(text);
  } catch (error) {
    if (error instanceof FieldDeskError) throw error;
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new FieldDeskError(
        'badResponse',
        'The service sent an answer nested too deeply for FieldDesk to read.',
      );
    }
    throw new FieldDeskError('internal', 'Something went wrong inside FieldDesk. Try again.', {
      cause: safeCause(error),
    });
  }
}

/**
 * The request machinery every service client shares (`createServiceClient`, `createDataClient`).
 * @internal for the backend's clients only.
 */
export interface ServiceRequester {
  readonly baseUrl: string;
  /** host[:port] of the base address, for messages. */
  readonly host: string;
  /**
   * One request with retries; `read` turns the answer's text into the result (a `FieldDeskError`
   * it throws is reported and passed on as is; an `UnreadableAnswer` of a GET is asked again).
   */
  call<T>(method: HttpMethod, path: string, init: CallInit, read: (text: string) => T): Promise<T>;
  /** JSON.parse with plain messages for empty, cut-off, HTML and garbled answers (answers.ts). */
  parseJson(text: string, resource: string, options?: ParseOptions): unknown;
  /** Checks an answer against a schema; `badResponse` naming the item and field when it does not fit. */
  validate<T>(data: unknown, resource: Resource<T>, isList: boolean): T;
  /** Removes the API key from text that came from elsewhere. */
  redact(text: string): string;
}

export function createServiceRequester(options: ServiceClientOptions): ServiceRequester {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const host = new URL(baseUrl).host;
  const apiKey = options.apiKey;
  const retry = { ...CLIENT_DEFAULTS.retry, ...options.retry };
  const timeoutMs = options.timeoutMs ?? CLIENT_DEFAULTS.timeoutMs;
  const limits: AnswerLimits = { ...ANSWER_LIMIT_DEFAULTS, ...options.answerLimits };
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const redact = apiKeyRedactor(apiKey);
  const endpoint = { host, baseUrl, redact, timeoutMs };

  const http: KyInstance = ky.create({
    headers: { [API_KEY_HEADER]: apiKey, Accept: 'application/json' },
    // Every time limit is the bounded fetch's (each call's `fetch`), which also bounds the body.
    timeout: false,
    // A redirect would carry the key to wherever it points: report it instead of following it.
    redirect: 'manual',
    retry: {
      limit: retry.limit,
      // Idempotent methods only: repeating a POST could start an action twice.
      methods: ['get', 'put'],
      statusCodes: [...RETRY_STATUS_CODES],
      afterStatusCodes: [...RETRY_AFTER_STATUS_CODES],
      maxRetryAfter: retry.maxRetryAfterMs,
      delay: (attempt) => backoffDelay(attempt, retry.baseDelayMs, retry.maxDelayMs),
      backoffLimit: retry.maxDelayMs,
      shouldRetry: ({ error }) => {
        if (error instanceof HTTPError) {
          const wait = parseRetryAfter(error.response.headers.get('Retry-After'));
          // The service asks for a longer pause than a person will wait: fail now and say so.
          if (wait !== null && wait > retry.maxRetryAfterMs) return false;
          return undefined;
        }
        if (isTimeoutError(error)) return false;
        // The bounded fetch's own failures: a cut-off body is asked again; a time-out or an answer
        // too large is not (asking at once would wait or download as long again).
        if (error instanceof FieldDeskError) return error instanceof UnreadableAnswer && error.cutOff;
        const failure = classifyTransportFailure(error);
        // Electron's net.fetch errors are not recognised by ky's heuristics, so decide here.
        return failure === null ? undefined : TRANSPORT_FAILURES[failure].retryRequest;
      },
    },
    hooks: {
      afterResponse: [
        async ({ request, response, options: requestOptions, retryCount }) => {
          const slot = requestOptions.context['answer'] as AnswerSlot | undefined;
          if (slot === undefined || !response.ok) return undefined;
          try {
            // Redacted before it is read: whatever the answer holds may be kept or shown.
            slot.value = readWith(slot.read, redact(await readBody(response, slot)));
            slot.done = true;
          } catch (error) {
            // A cut-off answer is asked again like a dropped connection; an answer that is merely
            // unreadable once more (it may have been garbled on the way), then reported.
            const again =
              request.method === 'GET' &&
              error instanceof UnreadableAnswer &&
              (error.cutOff || retryCount === 0);
            if (again) return ky.retry({ code: 'UNREADABLE_ANSWER', cause: error });
            throw error;
          }
          // The body is read: hand ky an empty answer so it releases the original stream.
          return new Response(null, { status: response.status, headers: response.headers });
        },
      ],
    },
  });

  async function call<T>(
    method: HttpMethod,
    path: string,
    init: CallInit,
    read: (text: string) => T,
  ): Promise<T> {
    const scopes = findEndpointRule(method, path)?.scopes ?? [];
    const signal = AbortSignal.any(
      [init.signal, options.signal].filter((s): s is AbortSignal => s !== undefined),
    );
    const query = init.query === undefined ? '' : `?${new URLSearchParams(init.query).toString()}`;
    const slot: AnswerSlot = {
      read,
      resource: 'the whole answer',
      done: false,
      value: undefined,
      body: null,
    };
    try {
      await http(`${baseUrl}${path}${query}`, {
        method,
        signal,
        fetch: boundedFetch(doFetch, {
          host,
          timeoutMs,
          deadlineMs: limits.deadlineMs,
          maxBytes: init.maxBytes ?? limits.maxBytes,
          resource: slot.resource,
          takeBody: (bytes) => (slot.body = bytes),
        }),
        context: { answer: slot },
        ...(init.json === undefined ? {} : { json: init.json }),
      });
      if (!slot.done) throw new FieldDeskError('internal', 'FieldDesk did not read the answer.');
      options.onExchange?.({ method, path, scopes, error: null });
      return slot.value as T;
    } catch (error) {
      const failure = requestFailure(method, path, error, signal, endpoint);
      options.onExchange?.({ method, path, scopes, error: failure });
      throw failure;
    }
  }

  return {
    baseUrl,
    host,
    call,
    parseJson,
    validate: (data, resource, isList) => validateAnswer(data, resource, isList, redact),
    redact,
  };
}
