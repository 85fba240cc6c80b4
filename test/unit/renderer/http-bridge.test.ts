import { describe, expect, it, vi } from 'vitest';
import {
  BACKEND_NOT_RUNNING,
  createHttpBridge,
  takeHarnessToken,
} from '../../../src/renderer/src/transport/http-bridge';
import { encodeAnswer } from '../../../src/shared/ipc/binary-frame';

/**
 * A fake harness for the event stream: each GET /api/events answers a body the test writes SSE
 * frames into (`push`) and may end (`end`); invoke calls answer `answer(url)`.
 */
function fakeHarness(answer: (url: string) => Response = () => new Response('{"ok":true,"value":null}')) {
  const streams: Array<ReadableStreamDefaultController<Uint8Array>> = [];
  const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
  const encoder = new TextEncoder();
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, init });
    if (!url.endsWith('/api/events')) return answer(url);
    let own: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        own = controller;
        streams.push(controller);
      },
    });
    // Closing the stream from the bridge's side forgets it here.
    init?.signal?.addEventListener('abort', () => streams.splice(streams.indexOf(own!), 1));
    return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
  });
  return {
    fetch,
    calls,
    streamsOpen: () => streams.length,
    push: (event: string, data: string) =>
      streams.at(-1)!.enqueue(encoder.encode(`event: ${event}\ndata: ${data}\n\n`)),
    end: () => streams.pop()!.close(),
  };
}

describe('http bridge', () => {
  it('posts the argument as JSON to /api/invoke/<channel> and answers the envelope', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: { version: '1' } })));
    const bridge = createHttpBridge({ fetch });
    await expect(bridge.app.getInfo()).resolves.toEqual({ ok: true, value: { version: '1' } });
    await bridge.instruments.get({ serial: 'QT1' });
    expect(fetch).toHaveBeenLastCalledWith('/api/invoke/instruments.get', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"serial":"QT1"}',
    });
  });

  it('answers an offline envelope when the harness cannot be reached', async () => {
    const bridge = createHttpBridge({
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(bridge.instruments.list()).resolves.toEqual({
      ok: false,
      error: { code: 'offline', message: BACKEND_NOT_RUNNING, retryable: true },
    });
    expect(BACKEND_NOT_RUNNING).toMatch(/^FieldDesk’s backend is not running/);
  });

  it('answers badResponse for something that is not an envelope (a proxy error page)', async () => {
    const bridge = createHttpBridge({
      fetch: async () => new Response('<h1>Bad gateway</h1>', { status: 502 }),
    });
    await expect(bridge.accounts.getState()).resolves.toMatchObject({
      ok: false,
      error: { code: 'badResponse', message: expect.stringContaining('HTTP 502') },
    });
  });

  it('shares one event stream between listeners, sends the token, and closes it after the last one leaves', async () => {
    const harness = fakeHarness();
    const bridge = createHttpBridge({ fetch: harness.fetch, token: 'tok-123' });
    const connectivity: unknown[] = [];
    const accounts: unknown[] = [];
    const stopA = bridge.connectivity.onChanged((p) => connectivity.push(p));
    const stopB = bridge.accounts.onChanged((p) => accounts.push(p));
    await vi.waitFor(() => expect(harness.streamsOpen()).toBe(1));
    expect(harness.calls[0]).toMatchObject({
      url: '/api/events',
      init: { headers: { Authorization: 'Bearer tok-123' } },
    });
    harness.push('connectivity.changed', '{"state":"online"}');
    harness.push('accounts.changed', 'not json');
    await vi.waitFor(() => expect(connectivity).toEqual([{ state: 'online' }]));
    expect(accounts).toEqual([]);
    stopA();
    expect(harness.streamsOpen()).toBe(1);
    stopB();
    expect(harness.streamsOpen()).toBe(0);
  });

  it('opens the stream again when it ends, and asks for connectivity once it is ready', async () => {
    const connectivity = { state: 'offline', accountId: 'acc-1', since: 5, message: 'Cannot reach it.' };
    const harness = fakeHarness(() => new Response(JSON.stringify({ ok: true, value: connectivity })));
    const bridge = createHttpBridge({ fetch: harness.fetch, reconnectMs: 1 });
    const accounts: unknown[] = [];
    bridge.accounts.onChanged((p) => accounts.push(p));
    await vi.waitFor(() => expect(harness.streamsOpen()).toBe(1));
    harness.push('ready', '{}');
    // Nobody follows connectivity yet: nothing to catch up.
    expect(harness.calls.filter((c) => c.url.includes('connectivity.get'))).toHaveLength(0);

    const received: unknown[] = [];
    bridge.connectivity.onChanged((p) => received.push(p));
    harness.end();
    await vi.waitFor(() => expect(harness.streamsOpen()).toBe(1));
    harness.push('ready', '{}');
    await vi.waitFor(() => expect(received).toEqual([connectivity]));
    expect(harness.calls.find((c) => c.url === '/api/invoke/connectivity.get')?.init).toMatchObject({
      body: '{}',
    });
    expect(accounts).toEqual([]);
  });

  it('takes the token from the page address once, keeps it for the tab, and removes it from the address', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    const replaced: string[] = [];
    const history = {
      state: null,
      replaceState: (_s: unknown, _t: string, url: string) => void replaced.push(url),
    };
    const at = (search: string) =>
      ({ search, pathname: '/', hash: '#/instruments/QT1' }) as unknown as Location;
    expect(takeHarnessToken(at('?token=abc&x=1'), storage as Storage, history as unknown as History)).toBe(
      'abc',
    );
    expect(replaced).toEqual(['/?x=1#/instruments/QT1']);
    expect(takeHarnessToken(at(''), storage as Storage, history as unknown as History)).toBe('abc');
    expect(replaced).toHaveLength(1);
  });

  it('restores typed arrays from a binary frame (time series keep their type and NaNs)', async () => {
    const times = new Float64Array([1_763_000_000_000, 1_763_000_001_000]);
    const values = new Float32Array([52.5, Number.NaN]);
    const encoded = encodeAnswer({ ok: true, value: { times, values } });
    if (!('frame' in encoded)) throw new Error('expected a frame');
    const harness = fakeHarness(
      () => new Response(encoded.frame, { headers: { 'Content-Type': 'application/octet-stream' } }),
    );
    const bridge = createHttpBridge({ fetch: harness.fetch });
    const answer = (await bridge.data.read({
      serial: 'QT1',
      dataset: 'noiseMeasurements',
      start: 0,
      end: 1,
    })) as unknown as {
      ok: true;
      value: { times: Float64Array; values: Float32Array };
    };
    expect(answer.value.times).toBeInstanceOf(Float64Array);
    expect([...answer.value.times]).toEqual([...times]);
    expect(answer.value.values).toBeInstanceOf(Float32Array);
    expect(Number.isNaN(answer.value.values[1])).toBe(true);
  });

  it('answers badResponse saying why when a frame is cut short, never half an answer', async () => {
    const answer = encodeAnswer({ ok: true, value: { times: new Float64Array(100) } });
    if (!('frame' in answer)) throw new Error('expected a frame');
    const cut = answer.frame.subarray(0, answer.frame.byteLength - 8);
    const bridge = createHttpBridge({
      fetch: async () => new Response(cut, { headers: { 'Content-Type': 'application/octet-stream' } }),
    });
    const result = await bridge.data.read({ serial: 'QT1', dataset: 'noiseMeasurements', start: 0, end: 1 });
    expect(result).toMatchObject({ ok: false, error: { code: 'badResponse' } });
    expect((result as { error: { message: string } }).error.message).toMatch(/cut short/);
  });

  it('passes events on as JSON', async () => {
    const harness = fakeHarness();
    const bridge = createHttpBridge({ fetch: harness.fetch });
    const events: unknown[] = [];
    bridge.sync.onProgress((p) => events.push(p));
    await vi.waitFor(() => expect(harness.streamsOpen()).toBe(1));
    harness.push('sync.progress', JSON.stringify({ id: 's1', done: 2 }));
    await vi.waitFor(() => expect(events).toEqual([{ id: 's1', done: 2 }]));
  });
});
