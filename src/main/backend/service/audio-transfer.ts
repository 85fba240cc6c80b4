/**
 * One audio body from the service, streamed to a temporary file — never held in memory — and
 * continued where it stopped when the connection drops.
 *
 * The requester (requester.ts) reads every answer whole, which suits JSON but not a recording of
 * hundreds of megabytes, so a download makes its own requests with the same rules: the key only in
 * `X-Api-Key`, no redirects followed, the same transient statuses, `Retry-After`, backoff with
 * jitter, transport failures and HTTP answers in the same plain words (failures.ts), one exchange
 * reported per download for connectivity and scope learning.
 *
 * - Resume: when the service said `Accept-Ranges: bytes`, a later attempt asks `Range: bytes=N-`
 *   from the N bytes on disk (with `If-Range` when it gave an ETag or Last-Modified), and takes the
 *   answer only as `206` whose `Content-Range` starts at N. A `200` instead is the whole body again:
 *   the file is emptied and written from the start. Without ranges every attempt starts from 0.
 * - Verify: the file must end with exactly the size the service declared (`Content-Length` of a
 *   200, the total of `Content-Range`); shorter is a cut connection (tried again), longer a bad body.
 *   A file that already holds the declared size (FieldDesk stopped after the last byte) is whole:
 *   nothing is asked for.
 * - Retry: a dropped connection (before or during the body), a body that stalls for the time limit,
 *   a 429 or 5xx are tried again with backoff, up to `retry.limit` attempts in a row that kept no
 *   new bytes — an attempt that added to a resumable file starts the count again.
 * - Bounds: unlike JSON answers (bounded-fetch.ts), a recording has no size limit and no deadline
 *   for the whole body (an hour of WAV over a slow link takes long, and goes to disk, not memory);
 *   what bounds it is the stall limit: no answer, and no bytes of a body, for `timeoutMs`.
 */
import { createWriteStream } from 'node:fs';
import { stat, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { FieldDeskError } from '../../../shared/errors';
import { diskFailure } from '../core/disk-errors';
import { durationWords } from '../../../shared/format';
import { API_KEY_HEADER } from '../../../shared/service/limits';
import { findEndpointRule } from '../../../shared/service/scopes';
import { apiKeyRedactor } from '../core/secrets';
import {
  classifyTransportFailure,
  httpFailure,
  parseRetryAfter,
  requestFailure,
  TRANSPORT_FAILURES,
  type Endpoint,
} from './failures';
import {
  backoffDelay,
  CLIENT_DEFAULTS,
  RETRY_AFTER_STATUS_CODES,
  RETRY_STATUS_CODES,
  type ServiceClientOptions,
} from './requester';

/** What is known of a download between attempts (and, kept by the caller, between runs of FieldDesk). */
export interface TransferState {
  /** Bytes received so far (on disk once an attempt ends). */
  bytes: number;
  /** The whole body's size, once the service declared it. */
  total: number | null;
  /** The service can continue a body (`Accept-Ranges: bytes`, no content encoding). */
  ranges: boolean;
  /** A strong ETag or a Last-Modified date, sent as `If-Range` when continuing. */
  validator: string | null;
  /** Times a body was continued with a range request, and restarted from byte 0. */
  resumed: number;
  restarted: number;
}

export interface AudioTransfer {
  /** Path relative to the base address, e.g. `/data/audio/abc` (for the scope rules and messages). */
  path: string;
  query: Record<string, string>;
  /** The account's address, key, fetch, time limit, retries and exchange report. */
  service: ServiceClientOptions;
  /** The temporary file; what it already holds is continued when the service allows. */
  partPath: string;
  state: TransferState;
  signal: AbortSignal;
  /** After each chunk written (the caller decides how often to tell anyone). */
  onBytes?: () => void;
  /** After the total, ranges or validator were learned from an answer (the caller keeps them). */
  onLearned?: () => void;
}

/** How much of the body may wait in memory for the disk (per download). */
const WRITE_BUFFER_BYTES = 1024 * 1024;
/** Error bodies are read up to this size; an audio endpoint's refusal is a line of JSON. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** An attempt that must start again from byte 0 at once (the service did not continue as asked). */
class RestartFromZero extends Error {}
/** No answer, or no bytes of the body, for the time limit. */
class Stalled extends Error {}
/** The body ended before the declared size. */
class CutOff extends Error {}
/** A non-success answer, with its body read. */
class FailedAnswerError extends Error {
  constructor(
    readonly response: Response,
    readonly data: string | undefined,
  ) {
    super(`HTTP ${response.status}`);
  }
}

interface Failure {
  error: FieldDeskError;
  retry: boolean;
  waitMs: number | null;
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

async function empty(path: string): Promise<void> {
  try {
    await truncate(path, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * A `Content-Range` value: `bytes 100-199/1000` gives start 100 and total 1000; the unsatisfied form
 * (bytes, an asterisk, a slash and 1000) gives start null and total 1000. Null when unreadable.
 */
export function parseContentRange(
  value: string | null,
): { start: number | null; total: number | null } | null {
  if (value === null) return null;
  const whole = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(value);
  if (whole !== null) {
    const start = Number(whole[1]);
    const end = Number(whole[2]);
    const total = whole[3] === '*' ? null : Number(whole[3]);
    if (end < start || (total !== null && end >= total)) return null;
    return { start, total };
  }
  const unsatisfied = /^\s*bytes\s+\*\/(\d+)\s*$/i.exec(value);
  return unsatisfied === null ? null : { start: null, total: Number(unsatisfied[1]) };
}

/** A validator `If-Range` may carry: a strong ETag, else a Last-Modified date. */
function validatorOf(headers: Headers): string | null {
  const etag = headers.get('ETag');
  if (etag !== null && !etag.trim().startsWith('W/')) return etag.trim();
  return headers.get('Last-Modified');
}

/** The body of a refusal as text, bounded, never failing (it only feeds the message). */
async function errorText(response: Response): Promise<string | undefined> {
  if (response.body === null) return undefined;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ERROR_BODY_LIMIT) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
    await reader.cancel().catch(() => undefined);
    return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, ERROR_BODY_LIMIT));
  } catch {
    return undefined;
  }
}

/** Streams the body into the part file until it holds the whole, verified body. */
export async function transferAudio(transfer: AudioTransfer): Promise<void> {
  const { service, state, partPath, signal } = transfer;
  const baseUrl = service.baseUrl.replace(/\/+$/, '');
  const host = new URL(baseUrl).host;
  const apiKey = service.apiKey;
  const redact = apiKeyRedactor(apiKey);
  const timeoutMs = service.timeoutMs ?? CLIENT_DEFAULTS.timeoutMs;
  const retry = { ...CLIENT_DEFAULTS.retry, ...service.retry };
  const endpoint: Endpoint & { timeoutMs: number } = { host, baseUrl, redact, timeoutMs };
  const doFetch: typeof fetch = service.fetch ?? ((input, init) => fetch(input, init));
  const query = new URLSearchParams(transfer.query).toString();
  const url = `${baseUrl}${transfer.path}${query === '' ? '' : `?${query}`}`;
  const scopes = findEndpointRule('GET', transfer.path)?.scopes ?? [];
  const report = (error: FieldDeskError | null) =>
    service.onExchange?.({ method: 'GET', path: transfer.path, scopes, error });

  /** What a failed attempt means: the error to report, whether to try again, and when. */
  function failureOf(error: unknown, attemptSignal: AbortSignal): Failure {
    if (error instanceof RestartFromZero) {
      const message = `${host} did not continue the recording where it stopped.`;
      return { error: new FieldDeskError('badResponse', message), retry: true, waitMs: 0 };
    }
    if (error instanceof Stalled) {
      const message = `${host} stopped sending the recording for ${durationWords(timeoutMs)}. Check your connection and try again.`;
      return { error: new FieldDeskError('timeout', message), retry: true, waitMs: null };
    }
    if (error instanceof CutOff) {
      const message = `Cannot reach ${host}: the connection ended before the whole recording arrived. Check your internet connection.`;
      return { error: new FieldDeskError('offline', message), retry: true, waitMs: null };
    }
    if (error instanceof FailedAnswerError) {
      const status = error.response.status;
      const failed = httpFailure('GET', transfer.path, error, endpoint);
      let waitMs: number | null = null;
      if (RETRY_AFTER_STATUS_CODES.includes(status)) {
        waitMs = parseRetryAfter(error.response.headers.get('Retry-After'));
        // The service asks for a longer pause than a person will wait: fail now and say so.
        if (waitMs !== null && waitMs > retry.maxRetryAfterMs) return { error: failed, retry: false, waitMs };
      }
      return { error: failed, retry: RETRY_STATUS_CODES.includes(status), waitMs };
    }
    if (error instanceof FieldDeskError) return { error, retry: false, waitMs: null };
    const fsError = error as NodeJS.ErrnoException;
    if (typeof fsError?.path === 'string' && typeof fsError.code === 'string') {
      // The disk's refusal in its own words: full, read-only and not allowed each need another action.
      const refused = diskFailure(error, { folder: dirname(partPath), what: 'the recording' });
      if (refused !== null) return { error: refused, retry: false, waitMs: null };
    }
    const failed = requestFailure('GET', transfer.path, error, attemptSignal, endpoint);
    const kind = classifyTransportFailure(error);
    const again = kind === null ? error instanceof TypeError : TRANSPORT_FAILURES[kind].retryRequest;
    return { error: failed, retry: again, waitMs: null };
  }

  async function attempt(attemptSignal: AbortSignal, stall: AbortController): Promise<void> {
    const onDisk = await sizeOf(partPath);
    if (state.total !== null && onDisk === state.total && onDisk > 0) {
      // Already whole (FieldDesk stopped after the last byte, before the file was renamed): the
      // declared size was reached, so nothing is asked for, continuable or not.
      state.bytes = onDisk;
      return;
    }
    let from = state.ranges ? onDisk : 0;
    if (state.total !== null && from > state.total) from = 0;
    if (from === 0 && onDisk > 0) {
      // What is on disk cannot be continued: start again from the beginning.
      await empty(partPath);
      state.restarted++;
    }
    state.bytes = from;

    const headers: Record<string, string> = {
      [API_KEY_HEADER]: apiKey,
      Accept: 'application/octet-stream, */*',
      // Sizes and ranges count the bytes as stored: no compression on the way.
      'Accept-Encoding': 'identity',
    };
    if (from > 0) {
      headers['Range'] = `bytes=${from}-`;
      if (state.validator !== null) headers['If-Range'] = state.validator;
    }
    const waiting = setTimeout(() => stall.abort(new Stalled()), timeoutMs);
    let response: Response;
    try {
      // A redirect would carry the key to wherever it points: report it instead of following it.
      response = await doFetch(url, { headers, signal: attemptSignal, redirect: 'manual' });
    } finally {
      clearTimeout(waiting);
    }

    const identity =
      (response.headers.get('Content-Encoding') ?? 'identity').trim().toLowerCase() === 'identity';
    if (response.status === 206) {
      const range = parseContentRange(response.headers.get('Content-Range'));
      const changed =
        state.total !== null && range !== null && range.total !== null && range.total !== state.total;
      if (range === null || range.start !== from || changed || !identity) {
        await response.body?.cancel().catch(() => undefined);
        // Not the continuation asked for: forget the ranges and take the whole body next.
        state.ranges = false;
        throw new RestartFromZero();
      }
      if (from > 0) state.resumed++;
      if (range.total !== null) state.total = range.total;
      transfer.onLearned?.();
    } else if (response.status === 200) {
      if (from > 0) {
        // The service sent the whole body instead of the rest: write it from the start.
        await empty(partPath);
        state.restarted++;
        from = 0;
        state.bytes = 0;
      }
      const declared = response.headers.get('Content-Length');
      const length = declared === null ? Number.NaN : Number(declared);
      state.total = identity && Number.isSafeInteger(length) && length >= 0 ? length : null;
      state.ranges = identity && /\bbytes\b/i.test(response.headers.get('Accept-Ranges') ?? '');
      state.validator = state.ranges ? validatorOf(response.headers) : null;
      transfer.onLearned?.();
    } else if (response.status === 416 && from > 0) {
      const range = parseContentRange(response.headers.get('Content-Range'));
      await response.body?.cancel().catch(() => undefined);
      // Asked for the bytes after the last one: the file was already whole.
      if (range !== null && range.start === null && range.total === from) {
        state.total = from;
        transfer.onLearned?.();
        return;
      }
      state.ranges = false;
      throw new RestartFromZero();
    } else if (response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new FieldDeskError(
        'badResponse',
        `${host} answered without the recording (HTTP ${response.status}).`,
      );
    } else {
      // A refusal's body is read under the same stall bound as a recording's.
      const idle = setTimeout(() => stall.abort(new Stalled()), timeoutMs);
      try {
        throw new FailedAnswerError(response, await errorText(response));
      } finally {
        clearTimeout(idle);
      }
    }
    if (response.body === null) {
      if (state.total === 0 || from === state.total) return;
      throw new CutOff();
    }

    const idle = setTimeout(() => stall.abort(new Stalled()), timeoutMs);
    const onBytes = transfer.onBytes;
    async function* counted(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
      for await (const chunk of source) {
        idle.refresh();
        state.bytes += chunk.byteLength;
        onBytes?.();
        yield chunk;
      }
    }
    try {
      await pipeline(
        response.body,
        counted,
        // `flush`: the bytes are on the disk, not only in its cache, before the file is renamed.
        // Up to a MiB may wait for the disk, so chunks go out together (writev) rather than one
        // call each: about 10% faster than the default 16 KiB (bench/audio.ts).
        createWriteStream(partPath, {
          flags: from > 0 ? 'a' : 'w',
          mode: 0o600,
          flush: true,
          highWaterMark: WRITE_BUFFER_BYTES,
        }),
        { signal: attemptSignal },
      );
    } finally {
      clearTimeout(idle);
    }
    const size = await sizeOf(partPath);
    state.bytes = size;
    if (state.total === null) {
      // No size was declared (a chunked body that ended cleanly): what arrived is the recording.
      state.total = size;
      transfer.onLearned?.();
      return;
    }
    if (size < state.total) throw new CutOff();
    if (size > state.total) {
      state.ranges = false;
      throw new RestartFromZero();
    }
  }

  let failuresInARow = 0;
  for (;;) {
    if (signal.aborted) throw signal.reason;
    const keptBefore = state.ranges ? await sizeOf(partPath) : 0;
    const stall = new AbortController();
    const attemptSignal = AbortSignal.any([signal, stall.signal]);
    try {
      await attempt(attemptSignal, stall);
      report(null);
      return;
    } catch (thrown) {
      if (signal.aborted) throw signal.reason;
      const error = stall.signal.aborted && !(thrown instanceof Stalled) ? stall.signal.reason : thrown;
      const failure = failureOf(error, attemptSignal);
      const kept = state.ranges ? await sizeOf(partPath) : 0;
      failuresInARow = kept > keptBefore ? 1 : failuresInARow + 1;
      if (!failure.retry || failuresInARow > retry.limit) {
        report(failure.error);
        throw failure.error;
      }
      const wait = failure.waitMs ?? backoffDelay(failuresInARow, retry.baseDelayMs, retry.maxDelayMs);
      try {
        await sleep(wait, undefined, { signal });
      } catch {
        throw signal.reason;
      }
    }
  }
}
