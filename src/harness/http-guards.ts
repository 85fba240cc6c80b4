/**
 * What the harness checks and answers before any route runs: whether a request carries the token
 * (compared in constant time), a request body read up to its limit and the rest dropped, the
 * content security policy of its pages, and the envelope of a refusal.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Envelope } from '../shared/ipc/contract';
import type { FieldDeskErrorData } from '../shared/errors';
import { HARNESS_AUDIO_PATH, PLAYER_STYLE_HASH } from '../shared/audio';

/**
 * Same policy as the page's meta CSP, plus what only a header can say: framing, and media from the
 * audio library's route only (a path needs the host spelled out, which the page's meta cannot know).
 */
export function pageCsp(hosts: readonly string[]): string {
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

export function refusal(message: string, code: FieldDeskErrorData['code'] = 'forbidden'): Envelope<never> {
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
export function readBodyWithin(incoming: IncomingMessage, max: number): Promise<Buffer | null> {
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
export function carriesToken(header: string | undefined, token: Buffer): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  return given.length === token.length && timingSafeEqual(given, token);
}
