/**
 * The browser transport: the same `FieldDeskBridge` the Electron preload exposes, talking to
 * the browser harness (src/harness) instead — requests as `POST /api/invoke/<channel>`
 * answering an envelope (JSON, or a binary frame of `shared/ipc/binary-frame` when it holds
 * typed arrays), pushed events as JSON over one Server-Sent Events stream. Both carry the
 * harness's token as `Authorization: Bearer …` — which is why the stream is read with fetch
 * (EventSource cannot send a header) and parsed by eventsource-parser.
 */
import { createParser } from 'eventsource-parser';
import { buildFacade, EVENT_CHANNELS, type EventChannel } from '../../../shared/ipc/channels';
import type { Envelope, FieldDeskBridge } from '../../../shared/ipc/contract';
import { fetchHere, type AnswerFetcher } from './answer-fetcher';

export interface HttpBridgeOptions {
  /** Prefix of the harness routes; same origin by default. */
  baseUrl?: string;
  /** The harness's token (from the page's `?token=`); sent with every request. */
  token?: string | null;
  fetch?: typeof fetch;
  /** Wait before opening the event stream again after it ended (ms, default 2 s). */
  reconnectMs?: number;
  /**
   * Asks the harness and reads the answer; with `fetch` on the calling thread by default. The page
   * passes one that does both in a worker (`workerAnswerFetcher`), as Electron's IPC does.
   */
  fetchAnswer?: AnswerFetcher;
}

const TOKEN_KEY = 'fielddesk.harnessToken';

/**
 * The harness token the page was opened with (`/?token=…`), kept for this tab so a reload or a
 * navigation keeps it, and taken out of the address bar so it is not shown or shared by mistake.
 */
export function takeHarnessToken(location: Location, storage: Storage, history: History): string | null {
  const params = new URLSearchParams(location.search);
  const given = params.get('token');
  if (given !== null) {
    storage.setItem(TOKEN_KEY, given);
    params.delete('token');
    const query = params.toString();
    history.replaceState(
      history.state,
      '',
      `${location.pathname}${query === '' ? '' : `?${query}`}${location.hash}`,
    );
    return given;
  }
  return storage.getItem(TOKEN_KEY);
}

/**
 * The harness token this tab was opened with, for what cannot send a header: an `<audio>` element
 * playing a library recording (`audioPlayUrl(shell, key, { token: harnessToken() })`, shared/audio.ts).
 * Null in the desktop app.
 */
export function harnessToken(storage: Pick<Storage, 'getItem'> = window.sessionStorage): string | null {
  return storage.getItem(TOKEN_KEY);
}

export const BACKEND_NOT_RUNNING = 'FieldDesk’s backend is not running. Start it and try again.';

function failure(code: 'offline' | 'badResponse', message: string): Envelope<never> {
  return { ok: false, error: { code, message, retryable: true } };
}

export function createHttpBridge(options: HttpBridgeOptions = {}): FieldDeskBridge {
  const baseUrl = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const reconnectMs = options.reconnectMs ?? 2_000;
  const fetchAnswer = options.fetchAnswer ?? fetchHere(doFetch);
  const auth: Record<string, string> =
    options.token === undefined || options.token === null ? {} : { Authorization: `Bearer ${options.token}` };

  const invoke = async (channel: string, arg: unknown): Promise<Envelope<unknown>> => {
    const answer = await fetchAnswer({
      url: `${baseUrl}/api/invoke/${encodeURIComponent(channel)}`,
      headers: { 'Content-Type': 'application/json', ...auth },
      body: JSON.stringify(arg ?? {}),
    });
    if (!answer.reached) return failure('offline', answer.problem ?? BACKEND_NOT_RUNNING);
    if (answer.readable) {
      const { body } = answer;
      if (typeof body === 'object' && body !== null && 'ok' in body) return body as Envelope<unknown>;
    }
    // A malformed frame says what is wrong; a proxy error page or an empty body is not an envelope.
    const problem = !answer.readable && answer.problem ? ` ${answer.problem}` : '';
    return failure(
      'badResponse',
      `FieldDesk’s backend gave an unexpected answer (HTTP ${answer.status}).${problem}`,
    );
  };

  // One stream for every channel, opened on the first subscription and closed after the last.
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  let stream: AbortController | null = null;

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

  const isChannel = (name: string): name is EventChannel =>
    (EVENT_CHANNELS as readonly string[]).includes(name);

  /** Reads the event stream until it is closed, opening it again whenever it ends. */
  const open = (): AbortController => {
    const controller = new AbortController();
    const parser = createParser({
      onEvent(event) {
        if (event.event === 'ready') return void catchUpConnectivity();
        if (event.event === undefined || !isChannel(event.event)) return;
        let payload: unknown;
        try {
          payload = JSON.parse(event.data);
        } catch {
          return; // A malformed event is dropped; the next full state event corrects the view.
        }
        deliver(event.event, payload);
      },
    });
    const run = async (): Promise<void> => {
      while (!controller.signal.aborted) {
        try {
          const response = await doFetch(`${baseUrl}/api/events`, {
            headers: auth,
            signal: controller.signal,
          });
          if (response.ok && response.body !== null) {
            const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              parser.feed(value);
            }
          }
        } catch {
          // The harness is gone or restarting: try again after a pause, as EventSource would.
        }
        parser.reset();
        if (controller.signal.aborted) return;
        await new Promise((resolve) => setTimeout(resolve, reconnectMs));
      }
    };
    void run();
    return controller;
  };

  const subscribe = (channel: EventChannel, listener: (payload: unknown) => void): (() => void) => {
    let set = listeners.get(channel);
    if (!set) listeners.set(channel, (set = new Set()));
    set.add(listener);
    stream ??= open();
    return () => {
      set.delete(listener);
      const remaining = [...listeners.values()].reduce((n, s) => n + s.size, 0);
      if (remaining === 0 && stream) {
        stream.abort();
        stream = null;
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
