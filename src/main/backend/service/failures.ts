/**
 * What went wrong talking to the service, in the engineer's words: transport failures (Node's and
 * Chromium's error codes, through Electron's net.fetch too) and HTTP answers, each a `FieldDeskError`
 * with a stable code. No message ever carries the API key.
 */
import { isHTTPError, isKyError, isNetworkError, isTimeoutError } from 'ky';
import { FieldDeskError } from '../../../shared/errors';
import { durationWords } from '../../../shared/format';
import { findEndpointRule, SCOPE_PURPOSE, type Scope } from '../../../shared/service/scopes';
import type { KeyRedactor } from '../core/secrets';
import { readErrorBody, scopesInDescription } from './answers';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE';

/** Where a request went, for messages: host[:port] and the base address. */
export interface Endpoint {
  host: string;
  baseUrl: string;
  /** Removes the API key from text that came from elsewhere; `inMessage` for words a message shows. */
  redact: KeyRedactor;
}

/** The most of the service's own words (an error's description) a message shows. */
export const SERVICE_TEXT_MAX_LENGTH = 500;

/**
 * The service's words as a message shows them, the one way they get there: with the key removed in
 * every spelling and every run of more than its last four characters (`KeyRedactor.inMessage`), then
 * cut to `max` characters with an ellipsis.
 */
export function serviceText(text: string, endpoint: Endpoint, max: number = SERVICE_TEXT_MAX_LENGTH): string {
  // Redacted whole before any cut (a cut could split a spelling of the key); only a generous start
  // is then searched for runs of the key's characters (a description may be megabytes).
  const start = endpoint.redact(text).slice(0, 4 * max);
  const redacted = endpoint.redact.inMessage(start).trim();
  if (redacted.length <= max) return redacted;
  // Never end on half of a surrogate pair.
  const cut = /[\uD800-\uDBFF]/.test(redacted.charAt(max - 2)) ? max - 2 : max - 1;
  return `${redacted.slice(0, cut).trimEnd()}…`;
}

/**
 * The cause to keep on a FieldDeskError. ky's errors carry the request and options, whose headers
 * hold the API key, so logging one would print it: keep only the underlying transport error.
 */
export function safeCause(error: unknown): unknown {
  let current = error;
  while (isKyError(current)) current = current.cause;
  return current;
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

export function classifyTransportFailure(error: unknown): TransportFailure | null {
  for (const code of transportCodes(error)) {
    for (const [pattern, failure] of TRANSPORT_CODES) if (pattern.test(code)) return failure;
  }
  return isNetworkError(error) ? 'reset' : null;
}

/**
 * What each transport failure means to the engineer, and whether ky asks again (a refused
 * connection or a dropped one may be brief; a wrong name or a rejected certificate is not).
 */
export const TRANSPORT_FAILURES: Record<
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
// HTTP answers

function purposeList(scopes: readonly Scope[]): string {
  return scopes.map((scope) => SCOPE_PURPOSE[scope]).join(' or ');
}

/**
 * What `httpFailure` reads of a failed answer: its status and headers, and the body read (ky's
 * `HTTPError` is one; a streaming download builds one from the response and its error body).
 */
export interface FailedAnswer {
  response: Pick<Response, 'status' | 'headers'>;
  data: unknown;
}

/** A failed HTTP answer as a FieldDeskError (3xx is a refused redirect: it would carry the key). */
export function httpFailure(
  method: HttpMethod,
  path: string,
  error: FailedAnswer,
  endpoint: Endpoint,
): FieldDeskError {
  const { host, baseUrl } = endpoint;
  const status = error.response.status;
  const body = readErrorBody(error.data);
  const shown = body.description === undefined ? '' : serviceText(body.description, endpoint);
  // A description of only spaces says nothing: the message's own words stand instead.
  const description = shown === '' ? undefined : shown;
  // No `cause`: the HTTPError holds the request headers, and with them the key. A service's error
  // code is a word: 100 characters are plenty.
  const extra = {
    status,
    ...(body.error === undefined ? {} : { serverCode: serviceText(body.error, endpoint, 100) }),
  };
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
    const when = wait === null ? 'Wait a minute' : `Wait about ${durationWords(wait)}`;
    return new FieldDeskError(
      'rateLimited',
      `The service is getting too many requests from this key. ${when} and try again.${said}`,
      wait === null ? extra : { ...extra, retryAfterMs: wait },
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

/** Any failure of one request as a FieldDeskError; `timeoutMs` for the time-out message. */
export function requestFailure(
  method: HttpMethod,
  path: string,
  error: unknown,
  signal: AbortSignal,
  endpoint: Endpoint & { timeoutMs: number },
): FieldDeskError {
  if (error instanceof FieldDeskError) return error;
  // A forced retry (a cut-off answer) that ran out of attempts: the reason is its cause.
  if (isKyError(error) && error.cause instanceof FieldDeskError) return error.cause;
  if (signal.aborted) return new FieldDeskError('cancelled', 'The request was cancelled.');
  if (isHTTPError(error)) return httpFailure(method, path, error, endpoint);
  const { host } = endpoint;
  if (isTimeoutError(error)) {
    return new FieldDeskError(
      'timeout',
      `${host} did not answer within ${durationWords(endpoint.timeoutMs)}. Check your connection and try again.`,
    );
  }
  const cause = safeCause(error);
  const failure = classifyTransportFailure(error);
  if (failure !== null) return transportError(failure, host, cause);
  if (error instanceof TypeError) {
    // fetch reports most network trouble as a bare TypeError.
    return new FieldDeskError('offline', `Cannot reach ${host}: the request failed on the way.`, { cause });
  }
  return new FieldDeskError(
    'internal',
    'Something went wrong inside FieldDesk while talking to the service. Try again.',
    { cause },
  );
}
