/**
 * The service client: HTTP to the service through an injected fetch (Electron's `net.fetch` in the
 * app, Node's fetch elsewhere), built on ky for retries, Retry-After and timeouts.
 *
 * Every answer is validated with the shared schemas, and every failure becomes a `FieldDeskError`
 * with a specific plain message. The API key goes only into the `X-Api-Key` header: it is never part
 * of a message, and any server text that echoes it is redacted.
 */
import ky, { HTTPError, isHTTPError, isKyError, isNetworkError, isTimeoutError, type KyInstance } from 'ky';
import { z } from 'zod';
import { FieldDeskError } from '../../../shared/errors';
import { API_KEY_HEADER } from '../../../shared/service/limits';
import {
  actionResultSchema,
  calibrationStatusSchema,
  errorBodySchema,
  instrumentSchema,
  instrumentStatusSchema,
  sicStatusSchema,
  type ActionResult,
  type CalibrationStatus,
  type Instrument,
  type InstrumentStatus,
  type SicStatus,
} from '../../../shared/service/schemas';
import { findEndpointRule, isScope, SCOPE_PURPOSE, type Scope } from '../../../shared/service/scopes';
import type { ActionName } from '../../../shared/service/wire';
import { kindOf } from './wire-kind';

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
  /** Per-attempt time limit for an answer (default 15 s). */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Cancels every request of this client (e.g. when the account is removed). */
  signal?: AbortSignal;
  onExchange?: (exchange: ServiceExchange) => void;
}

export interface ServiceClient {
  readonly baseUrl: string;
  listInstruments(signal?: AbortSignal): Promise<Instrument[]>;
  getInstrument(serial: string, signal?: AbortSignal): Promise<Instrument>;
  renameInstrument(serial: string, name: string, signal?: AbortSignal): Promise<void>;
  getInstrumentStatus(serial: string, signal?: AbortSignal): Promise<InstrumentStatus>;
  /** Starts Identify, Calibration or SIC. A POST, so never retried: a repeat could run it twice. */
  startAction(serial: string, action: ActionName, signal?: AbortSignal): Promise<ActionResult>;
  /** The latest calibration; `null` when the service has none for the instrument (404). */
  getCalibration(serial: string, signal?: AbortSignal): Promise<CalibrationStatus | null>;
  /** The latest SIC; `null` when the service has none for the instrument (404). */
  getSic(serial: string, signal?: AbortSignal): Promise<SicStatus | null>;
}

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE';

export interface CallInit {
  json?: unknown;
  query?: Record<string, string>;
  signal?: AbortSignal | undefined;
}

export const CLIENT_DEFAULTS = {
  timeoutMs: 15_000,
  retry: { limit: 3, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 20_000 },
} as const;

/** Statuses worth another try: rate limiting and transient server trouble. */
const RETRY_STATUS_CODES = [429, 500, 502, 503, 504];
/** Statuses whose `Retry-After` header is honoured. */
const RETRY_AFTER_STATUS_CODES = [429, 503];

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
 * Parses a `Retry-After` value (delay seconds or an HTTP date) into milliseconds from `nowMs`.
 * Returns `null` when absent or unreadable (then the normal backoff applies).
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return null;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

/**
 * The cause to keep on a FieldDeskError. ky's errors carry the request and options, whose headers
 * hold the API key, so logging one would print it: keep only the underlying transport error.
 */
function safeCause(error: unknown): unknown {
  let current = error;
  while (isKyError(current)) current = current.cause;
  return current;
}

/** Replaces every occurrence of the key in text that came from elsewhere (a server, a library). */
function redact(text: string, apiKey: string): string {
  return apiKey.length === 0 ? text : text.split(apiKey).join('[API key]');
}

function describeDuration(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 90) return `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 90 ? `${minutes} minutes` : `${Math.ceil(minutes / 60)} hours`;
}

// ---------------------------------------------------------------------------------------------
// Transport failures

type TransportFailure =
  'refused' | 'dnsNotFound' | 'dnsTemporary' | 'reset' | 'unreachable' | 'connectTimeout' | 'tls';

/** Error codes of Node (libuv, undici) and Chromium (`net::ERR_…`, via Electron's net.fetch). */
const TRANSPORT_CODES: ReadonlyArray<[RegExp, TransportFailure]> = [
  [/^(ECONNREFUSED|ERR_CONNECTION_REFUSED)$/, 'refused'],
  [/^(ENOTFOUND|ERR_NAME_NOT_RESOLVED|ERR_NAME_RESOLUTION_FAILED)$/, 'dnsNotFound'],
  [/^(EAI_AGAIN|EAI_FAIL)$/, 'dnsTemporary'],
  [
    /^(ECONNRESET|EPIPE|ECONNABORTED|UND_ERR_SOCKET|UND_ERR_CLOSED|ERR_CONNECTION_RESET|ERR_CONNECTION_CLOSED|ERR_EMPTY_RESPONSE|ERR_CONNECTION_ABORTED)$/,
    'reset',
  ],
  [
    /^(EHOSTUNREACH|ENETUNREACH|ENETDOWN|EHOSTDOWN|ERR_INTERNET_DISCONNECTED|ERR_ADDRESS_UNREACHABLE|ERR_NETWORK_CHANGED|ERR_NETWORK_ACCESS_DENIED|ERR_PROXY_CONNECTION_FAILED)$/,
    'unreachable',
  ],
  [/^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|ERR_CONNECTION_TIMED_OUT|ERR_TIMED_OUT)$/, 'connectTimeout'],
  [/CERT|SSL|TLS|ERR_BAD_SSL/, 'tls'],
];

/** Walks an error and its causes, collecting error codes and `net::ERR_…` names. */
function transportCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string') codes.push(candidate.code);
    if (typeof candidate.message === 'string') {
      const chromium = /net::(ERR_[A-Z_]+)/.exec(candidate.message);
      if (chromium?.[1] !== undefined) codes.push(chromium[1]);
      // undici reports a peer hang-up without a code on some paths.
      if (/other side closed|socket hang up|terminated/i.test(candidate.message)) codes.push('ECONNRESET');
    }
    current = candidate.cause;
  }
  return codes;
}

function classifyTransportFailure(error: unknown): TransportFailure | null {
  for (const code of transportCodes(error)) {
    for (const [pattern, failure] of TRANSPORT_CODES) if (pattern.test(code)) return failure;
  }
  return isNetworkError(error) ? 'reset' : null;
}

/**
 * What each transport failure means to the engineer, and whether ky asks again (a refused
 * connection or a dropped one may be brief; a wrong name or a rejected certificate is not).
 */
const TRANSPORT_FAILURES: Record<
  TransportFailure,
  { code: 'offline' | 'timeout'; message: (host: string) => string; retryRequest: boolean; retryable?: false }
> = {
  refused: {
    code: 'offline',
    message: (host) =>
      `Cannot reach ${host}: the connection was refused. Check the address and that the service is running.`,
    retryRequest: true,
  },
  dnsNotFound: {
    code: 'offline',
    message: (host) =>
      `Cannot reach ${host}: no server with that name was found. Check the address and your internet connection.`,
    retryRequest: false,
  },
  dnsTemporary: {
    code: 'offline',
    message: (host) =>
      `Cannot reach ${host}: its name could not be looked up. Check your internet connection.`,
    retryRequest: true,
  },
  reset: {
    code: 'offline',
    message: (host) =>
      `Cannot reach ${host}: the connection was dropped before the answer arrived. Check your internet connection.`,
    retryRequest: true,
  },
  unreachable: {
    code: 'offline',
    message: (host) =>
      `Cannot reach ${host}: this computer has no route to it. Check your internet connection.`,
    retryRequest: true,
  },
  connectTimeout: {
    code: 'timeout',
    message: (host) =>
      `${host} did not accept the connection in time. Check your internet connection and try again.`,
    retryRequest: false,
  },
  tls: {
    code: 'offline',
    message: (host) =>
      `Cannot connect securely to ${host}: its certificate was not accepted. Check the address; on a company network, ask IT about HTTPS inspection.`,
    retryRequest: false,
    retryable: false,
  },
};

function transportError(failure: TransportFailure, host: string, cause: unknown): FieldDeskError {
  const { code, message, retryable } = TRANSPORT_FAILURES[failure];
  return new FieldDeskError(code, message(host), retryable === undefined ? { cause } : { cause, retryable });
}

// ---------------------------------------------------------------------------------------------
// Answers

export interface Resource<T> {
  schema: z.ZodType<T>;
  /** "an instrument": used in messages about what was wrong. */
  item: string;
}

const INSTRUMENT: Resource<Instrument> = { schema: instrumentSchema, item: 'an instrument' };
const INSTRUMENT_STATUS: Resource<InstrumentStatus> = {
  schema: instrumentStatusSchema,
  item: 'an instrument status',
};
const ACTION_RESULT: Resource<ActionResult> = { schema: actionResultSchema, item: 'an action result' };
const CALIBRATION_STATUS: Resource<CalibrationStatus> = {
  schema: calibrationStatusSchema,
  item: 'a calibration result',
};
const SIC_STATUS: Resource<SicStatus> = { schema: sicStatusSchema, item: 'a SIC result' };

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (Array.isArray(current)) {
      current = current[Number(key)];
      continue;
    }
    // Field names match case-insensitively (as in the schemas).
    const wanted = String(key).toLowerCase();
    const entry = Object.entries(current).find(([name]) => name.toLowerCase() === wanted);
    current = entry?.[1];
  }
  return current;
}

const EXPECTED_KIND: Record<string, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

/** "The service sent an instrument without a serialNumber." and friends. */
export function describeSchemaProblem(
  item: string,
  isList: boolean,
  issue: z.core.$ZodIssue,
  data: unknown,
): string {
  const fieldPath = issue.path.filter((key) => typeof key !== 'number').map(String);
  const actual = valueAt(data, issue.path);
  if (fieldPath.length === 0) {
    const what = isList && issue.path.length === 0 ? `a list of ${item.replace(/^an? /, '')}s` : item;
    return `The service sent ${kindOf(actual)} where FieldDesk expected ${what}.`;
  }
  const field = fieldPath.join('.');
  if (issue.code === 'invalid_type' && actual === undefined) {
    return `The service sent ${item} without a ${field}.`;
  }
  if (issue.code === 'invalid_type') {
    const expected = EXPECTED_KIND[issue.expected] ?? issue.expected;
    return `The service sent ${item} whose ${field} is ${kindOf(actual)} instead of ${expected}.`;
  }
  return `The service sent ${item} with an unusable ${field}: ${issue.message}.`;
}

function readErrorBody(data: unknown): { error?: string; description?: string } {
  let body = data;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      return {};
    }
  }
  const parsed = errorBodySchema.safeParse(body);
  return parsed.success ? parsed.data : {};
}

/** The scopes named in a 403 description such as "The API key lacks the required scope: a, b." */
export function scopesInDescription(description: string | undefined): Scope[] {
  if (description === undefined) return [];
  const afterLabel = /scopes?\s*:\s*([^]*)$/i.exec(description)?.[1] ?? description;
  const words = afterLabel.split(/[\s,;]+|\band\b/).map((word) => word.replace(/^["'`(]+|["'`).]+$/g, ''));
  return [...new Set(words.filter(isScope))];
}

function purposeList(scopes: readonly Scope[]): string {
  return scopes.map((scope) => SCOPE_PURPOSE[scope]).join(' or ');
}

/**
 * The request machinery every service client shares: ky with retries (backoff with jitter,
 * `Retry-After`), time-outs, the mapping of failures to `FieldDeskError`, `onExchange` reports and
 * key redaction. `createServiceClient` and `createDataClient` are both built on it.
 * @internal for the backend's clients only.
 */
export interface ServiceRequester {
  readonly baseUrl: string;
  /** host[:port] of the base address, for messages. */
  readonly host: string;
  /**
   * One request with retries; `read` turns the answer's text into the result (a `FieldDeskError`
   * it throws is reported and passed on as is).
   */
  call<T>(method: HttpMethod, path: string, init: CallInit, read: (text: string) => T): Promise<T>;
  /** JSON.parse with plain messages for empty, cut-off and HTML answers. */
  parseJson(text: string, resource: string): unknown;
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

  const http: KyInstance = ky.create({
    headers: { [API_KEY_HEADER]: apiKey, Accept: 'application/json' },
    timeout: timeoutMs,
    // A redirect would carry the key to wherever it points: report it instead of following it.
    redirect: 'manual',
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    retry: {
      limit: retry.limit,
      // Idempotent methods only: repeating a POST could start an action twice.
      methods: ['get', 'put'],
      statusCodes: RETRY_STATUS_CODES,
      afterStatusCodes: RETRY_AFTER_STATUS_CODES,
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
        const failure = classifyTransportFailure(error);
        // Electron's net.fetch errors are not recognised by ky's heuristics, so decide here.
        return failure === null ? undefined : TRANSPORT_FAILURES[failure].retryRequest;
      },
    },
  });

  function httpFailure(method: HttpMethod, path: string, error: HTTPError): FieldDeskError {
    const status = error.response.status;
    const body = readErrorBody(error.data);
    const description = body.description === undefined ? undefined : redact(body.description.trim(), apiKey);
    // No `cause`: the HTTPError holds the request headers, and with them the key.
    const extra = { status, ...(body.error === undefined ? {} : { serverCode: body.error }) };
    const said = description ? ` The service said: “${description}”` : '';

    if (status >= 300 && status < 400) {
      const location = error.response.headers.get('Location');
      let target = '';
      try {
        if (location !== null) target = ` (to ${new URL(location, baseUrl).host})`;
      } catch {
        // An unreadable Location still means a redirect; leave the target out.
      }
      return new FieldDeskError(
        'badResponse',
        `The service at ${host} redirected FieldDesk elsewhere${target}. Check the account's address.`,
        extra,
      );
    }
    if (status === 401) {
      return new FieldDeskError(
        'unauthorized',
        `The service did not accept the API key.${said || ' The key may have expired or been revoked.'}`,
        extra,
      );
    }
    if (status === 403) {
      const ruleScopes = findEndpointRule(method, path)?.scopes ?? [];
      const named = scopesInDescription(description);
      const missing: readonly Scope[] =
        ruleScopes.length === 1
          ? ruleScopes
          : ruleScopes.length > 1
            ? named.filter((s) => ruleScopes.includes(s))
            : named;
      const first = missing[0];
      if (first !== undefined) {
        return new FieldDeskError(
          'forbidden',
          `This key cannot ${purposeList(missing)}: it lacks ${missing.join(', ')}.`,
          { ...extra, missingScope: first },
        );
      }
      if (ruleScopes.length > 1) {
        return new FieldDeskError(
          'forbidden',
          `This key cannot ${purposeList(ruleScopes)}: it lacks one of ${ruleScopes.join(', ')}.`,
          extra,
        );
      }
      return new FieldDeskError('forbidden', `The service refused this request for this key.${said}`, extra);
    }
    if (status === 404) {
      return new FieldDeskError(
        'notFound',
        description ?? `The service at ${host} does not know ${path}. Check the account's address.`,
        extra,
      );
    }
    if (status === 408) {
      return new FieldDeskError(
        'timeout',
        `The service at ${host} took too long to read the request. Try again.`,
        extra,
      );
    }
    if (status === 409) {
      return new FieldDeskError(
        'conflict',
        description ?? 'The service refused the change because of a conflict.',
        extra,
      );
    }
    if (status === 429) {
      const wait = parseRetryAfter(error.response.headers.get('Retry-After'));
      const when = wait === null ? 'Wait a minute' : `Wait about ${describeDuration(wait)}`;
      return new FieldDeskError(
        'rateLimited',
        `The service is getting too many requests from this key. ${when} and try again.${said}`,
        extra,
      );
    }
    if (status >= 500) {
      return new FieldDeskError(
        'serverError',
        `The service at ${host} had a problem answering. Try again in a few minutes.${said}`,
        extra,
      );
    }
    return new FieldDeskError(
      'invalidRequest',
      description ?? 'The service refused the request as invalid, without saying why.',
      extra,
    );
  }

  function toFieldDeskError(
    method: HttpMethod,
    path: string,
    error: unknown,
    signal: AbortSignal,
  ): FieldDeskError {
    if (error instanceof FieldDeskError) return error;
    if (signal.aborted) return new FieldDeskError('cancelled', 'The request was cancelled.');
    if (isHTTPError(error)) return httpFailure(method, path, error);
    if (isTimeoutError(error)) {
      return new FieldDeskError(
        'timeout',
        `${host} did not answer within ${describeDuration(timeoutMs)}. Check your connection and try again.`,
      );
    }
    const cause = safeCause(error);
    const failure = classifyTransportFailure(error);
    if (failure !== null) return transportError(failure, host, cause);
    if (error instanceof TypeError) {
      // fetch reports most network trouble as a bare TypeError.
      return new FieldDeskError('offline', `Cannot reach ${host}: the request failed on the way.`, {
        cause,
      });
    }
    return new FieldDeskError(
      'internal',
      'Something went wrong inside FieldDesk while talking to the service. Try again.',
      { cause },
    );
  }

  /**
   * ky retries failed requests, but not an answer whose body ended early (a connection dropped
   * mid-transfer, a proxy cutting a long answer): a GET is asked again, with the same backoff.
   */
  async function withCutOffRetries<T>(
    method: HttpMethod,
    init: CallInit,
    attempt: () => Promise<T>,
  ): Promise<T> {
    for (let retried = 0; ; retried++) {
      try {
        return await attempt();
      } catch (error) {
        const again =
          method === 'GET' &&
          retried < retry.limit &&
          error instanceof FieldDeskError &&
          error.code === 'badResponse' &&
          error.retryable;
        if (!again) throw error;
        const signals = [init.signal, options.signal].filter((x): x is AbortSignal => x !== undefined);
        await pause(backoffDelay(retried + 1, retry.baseDelayMs, retry.maxDelayMs), AbortSignal.any(signals));
      }
    }
  }

  function parseJson(text: string, resource: string): unknown {
    if (text.trim() === '') {
      throw new FieldDeskError(
        'badResponse',
        `The service sent an empty answer where FieldDesk expected ${resource}.`,
      );
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      // No `cause`: a JSON.parse error quotes the answer, which is not ours to log.
      const looksLikePage = /^\s*</.test(text);
      const cutOff = !looksLikePage && /end of (JSON )?input|Unterminated/i.test(String(error));
      if (cutOff) throw cutOffAnswer(resource);
      throw new FieldDeskError(
        'badResponse',
        looksLikePage
          ? `The service sent a web page where FieldDesk expected ${resource}. Check the account's address: it should end in /v1.`
          : `The service sent something that is not valid JSON where FieldDesk expected ${resource}.`,
      );
    }
  }

  function validate<T>(data: unknown, resource: Resource<T>, isList: boolean): T {
    const parsed = resource.schema.safeParse(data);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const message =
      issue === undefined
        ? `The service sent ${resource.item} FieldDesk could not read.`
        : describeSchemaProblem(resource.item, isList, issue, data);
    throw new FieldDeskError('badResponse', redact(message, apiKey));
  }

  async function send(method: HttpMethod, path: string, init: CallInit): Promise<string> {
    const signal = AbortSignal.any(
      [init.signal, options.signal].filter((s): s is AbortSignal => s !== undefined),
    );
    const query = init.query === undefined ? '' : `?${new URLSearchParams(init.query).toString()}`;
    let response: Response;
    try {
      response = await http(`${baseUrl}${path}${query}`, {
        method,
        signal,
        ...(init.json === undefined ? {} : { json: init.json }),
      });
    } catch (error) {
      throw toFieldDeskError(method, path, error, signal);
    }
    try {
      return await response.text();
    } catch (error) {
      if (signal.aborted) throw toFieldDeskError(method, path, error, signal);
      // The connection ended after the answer began: the same as a cut-off body.
      throw cutOffAnswer('the whole answer');
    }
  }

  async function call<T>(
    method: HttpMethod,
    path: string,
    init: CallInit,
    read: (text: string) => T,
  ): Promise<T> {
    const scopes = findEndpointRule(method, path)?.scopes ?? [];
    try {
      const result = await withCutOffRetries(method, init, async () => read(await send(method, path, init)));
      options.onExchange?.({ method, path, scopes, error: null });
      return result;
    } catch (error) {
      const failure =
        error instanceof FieldDeskError
          ? error
          : new FieldDeskError('internal', 'Something went wrong inside FieldDesk. Try again.', {
              cause: safeCause(error),
            });
      options.onExchange?.({ method, path, scopes, error: failure });
      throw failure;
    }
  }

  return { baseUrl, host, call, parseJson, validate, redact: (text) => redact(text, apiKey) };
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const { baseUrl, call, parseJson, validate } = createServiceRequester(options);

  const instrumentPath = (serial: string) => `/control/instruments/${encodeURIComponent(serial)}`;

  /** A 404 on a "latest result" endpoint means the instrument has none yet. */
  async function latestOrNull<T>(read: Promise<T>): Promise<T | null> {
    try {
      return await read;
    } catch (error) {
      if (error instanceof FieldDeskError && error.code === 'notFound') return null;
      throw error;
    }
  }

  return {
    baseUrl,
    listInstruments: (signal) =>
      call('GET', '/control/instruments', { signal }, (text) =>
        validate(
          parseJson(text, 'a list of instruments'),
          { ...INSTRUMENT, schema: z.array(INSTRUMENT.schema) },
          true,
        ),
      ),
    getInstrument: (serial, signal) =>
      call('GET', instrumentPath(serial), { signal }, (text) =>
        validate(parseJson(text, 'an instrument'), INSTRUMENT, false),
      ),
    renameInstrument: (serial, name, signal) =>
      // The answer is 204 without a body; any body is ignored.
      call('PUT', instrumentPath(serial), { json: { name }, signal }, () => undefined),
    getInstrumentStatus: (serial, signal) =>
      call('GET', `${instrumentPath(serial)}/status`, { signal }, (text) =>
        validate(parseJson(text, 'an instrument status'), INSTRUMENT_STATUS, false),
      ),
    startAction: (serial, action, signal) =>
      call('POST', `${instrumentPath(serial)}/action`, { query: { action }, signal }, (text) =>
        validate(parseJson(text, 'an action result'), ACTION_RESULT, false),
      ),
    getCalibration: (serial, signal) =>
      latestOrNull(
        call('GET', `${instrumentPath(serial)}/calibration`, { signal }, (text) =>
          validate(parseJson(text, 'a calibration result'), CALIBRATION_STATUS, false),
        ),
      ),
    getSic: (serial, signal) =>
      latestOrNull(
        call('GET', `${instrumentPath(serial)}/sic`, { signal }, (text) =>
          validate(parseJson(text, 'a SIC result'), SIC_STATUS, false),
        ),
      ),
  };
}

/** A body that ended before its end: worth asking again, unlike an answer that is wrong. */
function cutOffAnswer(resource: string): FieldDeskError {
  return new FieldDeskError(
    'badResponse',
    `The service's answer was cut off before the end (expected ${resource}). Try again.`,
    { retryable: true },
  );
}

/** Waits `ms`, or rejects as cancelled as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const cancelled = () => {
      clearTimeout(timer);
      reject(new FieldDeskError('cancelled', 'The request was cancelled.'));
    };
    if (signal?.aborted) return cancelled();
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', cancelled);
      resolve();
    }, ms);
    signal?.addEventListener('abort', cancelled, { once: true });
  });
}
