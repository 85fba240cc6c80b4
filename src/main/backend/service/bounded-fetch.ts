/**
 * A fetch whose successful answers arrive whole and bounded: the headers within the client's time
 * limit, no pause in the body as long, the whole answer within its deadline, and no more bytes than
 * the request's size limit (answer-limits.ts). The body is read here, piece by piece, so an answer
 * past the limit is cut there rather than buffered whole, and the connection is closed at once.
 * The requester (requester.ts) hands this to ky as its fetch, so ky's one retry layer still decides
 * what is asked again: a cut-off body is, a time-out or an answer too large is not.
 */
import { FieldDeskError } from '../../../shared/errors';
import { bytesText, durationWords } from '../../../shared/format';
import { cutOffAnswer } from './answers';

export interface BodyBounds {
  /** host[:port], for messages. */
  host: string;
  /** The wait for the headers, and the longest pause in the body (ms). */
  timeoutMs: number;
  /** The whole answer, headers and body (ms). */
  deadlineMs: number;
  /** The largest body (bytes). */
  maxBytes: number;
  /** What the body is, for the cut-off message. */
  resource: string;
  /**
   * Takes a successful answer's bytes as read, which then returns without its body (headers and
   * status only). Each copy of a week's 2.9 MB answer counted: a body handed back was copied into
   * the new Response, again by ky's clone for its hook, and again when read.
   */
  takeBody?: (bytes: Uint8Array<ArrayBuffer>) => void;
}

/** An answer that grew past its request's size limit: cut there, retryable (it may be a fault). */
function answerTooLarge(maxBytes: number): FieldDeskError {
  return new FieldDeskError(
    'badResponse',
    `The service's answer was larger than FieldDesk takes for one request (${bytesText(maxBytes)}), so it was stopped there. Try again; if it happens again, choose a shorter range.`,
    { retryable: true },
  );
}

/** The bytes of `pieces` (`total` of them) in one array. */
function joined(pieces: Uint8Array[], total: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const piece of pieces) {
    bytes.set(piece, offset);
    offset += piece.byteLength;
  }
  return bytes;
}

/**
 * `doFetch` with the bounds. A successful answer comes back with its body already read (a new
 * Response over the bytes, or handed to `takeBody`); any other answer as it came (ky reads error
 * bodies with its own bounds).
 */
export function boundedFetch(doFetch: typeof fetch, bounds: BodyBounds): typeof fetch {
  const { host, timeoutMs, deadlineMs, maxBytes, resource, takeBody } = bounds;
  return async (input, init) => {
    const local = new AbortController();
    const given = init?.signal ?? (input instanceof Request ? input.signal : null);
    const signal = given === null ? local.signal : AbortSignal.any([given, local.signal]);
    // The bound that ended the answer, if one did: reported instead of the abort it caused.
    let ended: FieldDeskError | null = null;
    const end = (error: FieldDeskError) => {
      ended ??= error;
      local.abort(error);
    };
    const deadline = setTimeout(
      () =>
        end(
          new FieldDeskError(
            'timeout',
            `${host} did not send its whole answer within ${durationWords(deadlineMs)}: it came too slowly. Check your connection and try again.`,
          ),
        ),
      deadlineMs,
    );
    const pause = setTimeout(
      () =>
        end(
          new FieldDeskError(
            'timeout',
            `${host} did not answer within ${durationWords(timeoutMs)}. Check your connection and try again.`,
          ),
        ),
      timeoutMs,
    );
    try {
      let response: Response;
      try {
        response = await doFetch(input, { ...init, signal });
      } catch (error) {
        throw ended ?? error;
      }
      if (!response.ok || response.body === null) return response;

      const declared = Number(response.headers.get('Content-Length') ?? Number.NaN);
      // A compressed answer's Content-Length counts compressed bytes: only a plain one can be compared.
      const plain = (response.headers.get('Content-Encoding') ?? 'identity') === 'identity';
      if (plain && Number.isSafeInteger(declared) && declared > maxBytes) {
        local.abort();
        throw answerTooLarge(maxBytes);
      }
      clearTimeout(pause);
      const stalled = setTimeout(
        () =>
          end(
            new FieldDeskError(
              'timeout',
              `${host} stopped sending its answer for ${durationWords(timeoutMs)}. Check your connection and try again.`,
            ),
          ),
        timeoutMs,
      );
      const reader = response.body.getReader();
      const pieces: Uint8Array[] = [];
      let total = 0;
      try {
        for (;;) {
          let next: Awaited<ReturnType<typeof reader.read>>;
          try {
            next = await reader.read();
          } catch (error) {
            if (ended !== null) throw ended;
            if (given?.aborted === true) throw error;
            // The connection ended in the middle of the body: asked again like a dropped one.
            throw cutOffAnswer(resource);
          }
          if (ended !== null) throw ended;
          if (next.done) break;
          total += next.value.byteLength;
          if (total > maxBytes) {
            local.abort();
            throw answerTooLarge(maxBytes);
          }
          pieces.push(next.value);
          stalled.refresh();
        }
      } finally {
        clearTimeout(stalled);
      }
      if (plain && Number.isInteger(declared) && total < declared) throw cutOffAnswer(resource);
      const bytes = joined(pieces, total);
      takeBody?.(bytes);
      return new Response(takeBody === undefined ? bytes : null, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } finally {
      clearTimeout(deadline);
      clearTimeout(pause);
    }
  };
}
