import { describe, expect, it, vi } from 'vitest';
import { BACKEND_NOT_RUNNING, createHttpBridge } from '../../../src/renderer/src/transport/http-bridge';
import { stringifyTypedJson } from '../../../src/shared/ipc/typed-json';

class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readonly listeners = new Map<string, Array<(event: { data: string }) => void>>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: { data: string }) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string, data: string): void {
    for (const listener of this.listeners.get(type) ?? []) listener({ data });
  }
  close(): void {
    this.closed = true;
  }
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

  it('shares one event stream between listeners and closes it after the last one leaves', () => {
    FakeEventSource.instances = [];
    const bridge = createHttpBridge({
      fetch: vi.fn(),
      EventSource: FakeEventSource as unknown as typeof EventSource,
    });
    const connectivity: unknown[] = [];
    const accounts: unknown[] = [];
    const stopA = bridge.connectivity.onChanged((p) => connectivity.push(p));
    const stopB = bridge.accounts.onChanged((p) => accounts.push(p));
    expect(FakeEventSource.instances).toHaveLength(1);
    const source = FakeEventSource.instances[0]!;
    expect(source.url).toBe('/api/events');
    source.emit('connectivity.changed', '{"state":"online"}');
    source.emit('accounts.changed', 'not json');
    expect(connectivity).toEqual([{ state: 'online' }]);
    expect(accounts).toEqual([]);
    stopA();
    expect(source.closed).toBe(false);
    stopB();
    expect(source.closed).toBe(true);
  });

  it('asks for connectivity again whenever the event stream is ready, as events may have been lost', async () => {
    FakeEventSource.instances = [];
    const connectivity = { state: 'offline', accountId: 'acc-1', since: 5, message: 'Cannot reach it.' };
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: connectivity })));
    const bridge = createHttpBridge({ fetch, EventSource: FakeEventSource as unknown as typeof EventSource });
    const accounts: unknown[] = [];
    bridge.accounts.onChanged((p) => accounts.push(p));
    FakeEventSource.instances[0]!.emit('ready', '{}');
    expect(fetch).not.toHaveBeenCalled(); // nobody follows connectivity yet

    const received: unknown[] = [];
    bridge.connectivity.onChanged((p) => received.push(p));
    FakeEventSource.instances[0]!.emit('ready', '{}');
    await vi.waitFor(() => expect(received).toEqual([connectivity]));
    expect(fetch).toHaveBeenCalledWith(
      '/api/invoke/connectivity.get',
      expect.objectContaining({ body: '{}' }),
    );
    expect(accounts).toEqual([]);
  });

  it('restores typed arrays in answers and events (time series keep their type and NaNs)', async () => {
    const times = new Float64Array([1_763_000_000_000, 1_763_000_001_000]);
    const values = new Float32Array([52.5, Number.NaN]);
    const bridge = createHttpBridge({
      fetch: async () => new Response(stringifyTypedJson({ ok: true, value: { times, values } })),
      EventSource: FakeEventSource as unknown as typeof EventSource,
    });
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

    FakeEventSource.instances = [];
    const events: unknown[] = [];
    bridge.sync.onProgress((p) => events.push(p));
    FakeEventSource.instances[0]!.emit('sync.progress', stringifyTypedJson({ id: 's1', sample: values }));
    expect((events[0] as { sample: unknown }).sample).toBeInstanceOf(Float32Array);
  });
});
