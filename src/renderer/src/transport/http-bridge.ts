/**
 * The browser transport: the same `FieldDeskBridge` the Electron preload exposes, talking to
 * the browser harness (src/harness) instead — requests as `POST /api/invoke/<channel>`
 * answering an envelope, pushed events over one Server-Sent Events stream. Both carry JSON with
 * typed arrays in the tagged encoding of `shared/ipc/typed-json`.
 */
import { buildFacade, EVENT_CHANNELS, type EventChannel } from '../../../shared/ipc/channels';
import type { Envelope, FieldDeskBridge } from '../../../shared/ipc/contract';
import { parseTypedJson } from '../../../shared/ipc/typed-json';

export interface HttpBridgeOptions {
  /** Prefix of the harness routes; same origin by default. */
  baseUrl?: string;
  fetch?: typeof fetch;
  EventSource?: typeof EventSource;
}

export const BACKEND_NOT_RUNNING = 'FieldDesk’s backend is not running. Start it and try again.';

function failure(code: 'offline' | 'badResponse', message: string): Envelope<never> {
  return { ok: false, error: { code, message, retryable: true } };
}

export function createHttpBridge(options: HttpBridgeOptions = {}): FieldDeskBridge {
  const baseUrl = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const EventSourceImpl = options.EventSource ?? globalThis.EventSource;

  const invoke = async (channel: string, arg: unknown): Promise<Envelope<unknown>> => {
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}/api/invoke/${encodeURIComponent(channel)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(arg ?? {}),
      });
    } catch {
      return failure('offline', BACKEND_NOT_RUNNING);
    }
    try {
      // The harness sends typed arrays (time series) in a tagged encoding: restore them.
      const body: unknown = parseTypedJson(await response.text());
      if (typeof body === 'object' && body !== null && 'ok' in body) return body as Envelope<unknown>;
    } catch {
      // Fall through: a proxy error page or an empty body is not an envelope.
    }
    return failure('badResponse', `FieldDesk’s backend gave an unexpected answer (HTTP ${response.status}).`);
  };

  // One stream for every channel, opened on the first subscription and closed after the last.
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  let source: EventSource | null = null;

  const deliver = (channel: EventChannel, payload: unknown): void => {
    for (const listener of [...(listeners.get(channel) ?? [])]) listener(payload);
  };

  /**
   * Events sent while the stream was (re)connecting are lost, unlike over Electron IPC. The one
   * that is a state rather than a happening, connectivity, is asked for again once the harness
   * says the stream is `ready`, and passed on as if it had been pushed.
   */
  const catchUpConnectivity = async (): Promise<void> => {
    if (!listeners.get('connectivity.changed')?.size) return;
    const answer = await invoke('connectivity.get', {});
    if (answer.ok) deliver('connectivity.changed', answer.value);
  };

  const open = (): EventSource => {
    const stream = new EventSourceImpl(`${baseUrl}/api/events`);
    for (const channel of EVENT_CHANNELS) {
      stream.addEventListener(channel, (event) => {
        let payload: unknown;
        try {
          payload = parseTypedJson((event as MessageEvent<string>).data);
        } catch {
          return; // A malformed event is dropped; the next full state event corrects the view.
        }
        deliver(channel, payload);
      });
    }
    stream.addEventListener('ready', () => void catchUpConnectivity());
    return stream;
  };

  const subscribe = (channel: EventChannel, listener: (payload: unknown) => void): (() => void) => {
    let set = listeners.get(channel);
    if (!set) listeners.set(channel, (set = new Set()));
    set.add(listener);
    source ??= open();
    return () => {
      set.delete(listener);
      const remaining = [...listeners.values()].reduce((n, s) => n + s.size, 0);
      if (remaining === 0 && source) {
        source.close();
        source = null;
      }
    };
  };

  return buildFacade<FieldDeskBridge>(invoke, subscribe);
}

/** Installs the HTTP transport as `window.fielddesk` (the browser build's stand-in for the preload). */
export function installHttpBridge(options?: HttpBridgeOptions): FieldDeskBridge {
  const bridge = createHttpBridge(options);
  Object.defineProperty(window, 'fielddesk', { value: bridge, configurable: false, writable: false });
  return bridge;
}
