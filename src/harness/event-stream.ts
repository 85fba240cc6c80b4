/**
 * `GET /api/events`: the backend's events as Server-Sent Events, one named event per backend event,
 * written in the order the backend sent them, with a comment line now and then to keep an idle
 * connection open. Each open stream is kept until its page goes or the harness closes.
 */
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { Backend } from '../main/backend/index';
import type { EventChannel } from '../shared/ipc/channels';

/** The open event streams, ended by the harness's `close()` so the server can stop at once. */
export type OpenStreams = Set<{ stream: SSEStreamingApi; end: () => void }>;

/** A comment line now and then keeps idle SSE connections from being cut by proxies. */
const SSE_KEEPALIVE_MS = 15_000;

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

/** Streams the backend's events to one page until it goes (or `end` is called from `streams`). */
export function streamEvents(c: Context, backend: Backend, streams: OpenStreams): Response {
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
}
