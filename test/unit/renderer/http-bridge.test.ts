import { describe, expect, it, vi } from 'vitest';
import { BACKEND_NOT_RUNNING, createHttpBridge } from '../../../src/renderer/src/transport/http-bridge';

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
});
