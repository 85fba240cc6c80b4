import { describe, expect, it, vi } from 'vitest';
import { unwrapBridge } from '../../../src/renderer/src/api';
import {
  buildFacade,
  EVENT_CHANNELS,
  eventMethodName,
  REQUEST_CHANNELS,
} from '../../../src/shared/ipc/channels';
import type { FieldDeskBridge } from '../../../src/shared/ipc/contract';
import { FieldDeskError } from '../../../src/shared/errors';

function fakeBridge(answer: (channel: string, arg: unknown) => Promise<unknown>) {
  const subscriptions: Array<{ channel: string; listener: (payload: unknown) => void }> = [];
  const unsubscribe = vi.fn();
  const bridge = buildFacade<FieldDeskBridge>(answer, (channel, listener) => {
    subscriptions.push({ channel, listener });
    return unsubscribe;
  });
  return { bridge, subscriptions, unsubscribe };
}

describe('unwrapBridge', () => {
  it('answers the value of every request channel, passing the argument through', async () => {
    const calls: Array<[string, unknown]> = [];
    const { bridge } = fakeBridge(async (channel, arg) => {
      calls.push([channel, arg]);
      return { ok: true, value: `value of ${channel}` };
    });
    const api = unwrapBridge(bridge) as unknown as Record<string, Record<string, (arg?: unknown) => unknown>>;
    for (const channel of REQUEST_CHANNELS) {
      const [namespace, method] = channel.split('.') as [string, string];
      await expect(api[namespace]![method]!({ probe: channel })).resolves.toBe(`value of ${channel}`);
    }
    expect(calls.map(([c]) => c)).toEqual([...REQUEST_CHANNELS]);
    expect(calls[0]![1]).toEqual({ probe: REQUEST_CHANNELS[0] });
  });

  it('throws a FieldDeskError keeping code, message and missing scope', async () => {
    const { bridge } = fakeBridge(async () => ({
      ok: false,
      error: {
        code: 'forbidden',
        message: 'This key cannot rename instruments: it lacks instruments:write.',
        retryable: false,
        missingScope: 'instruments:write',
        status: 403,
      },
    }));
    const api = unwrapBridge(bridge);
    const failure = await api.instruments.rename({ serial: 'QT1', name: 'x' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(FieldDeskError);
    expect(failure).toMatchObject({ code: 'forbidden', missingScope: 'instruments:write', status: 403 });
    expect((failure as Error).message).toMatch(/lacks instruments:write/);
  });

  it('turns a malformed answer or a throwing transport into the error family', async () => {
    const malformed = unwrapBridge(fakeBridge(async () => 'oops').bridge);
    await expect(malformed.app.getInfo()).rejects.toMatchObject({ code: 'badResponse' });
    const throwing = unwrapBridge(
      fakeBridge(async () => {
        throw new Error('No handler registered');
      }).bridge,
    );
    await expect(throwing.accounts.getState()).rejects.toMatchObject({ code: 'internal' });
  });

  it('passes every event subscription straight through, returning the transport’s unsubscribe', () => {
    const { bridge, subscriptions, unsubscribe } = fakeBridge(async () => ({ ok: true, value: null }));
    const api = unwrapBridge(bridge);
    const loose = api as unknown as Record<string, Record<string, (listener: () => void) => () => void>>;
    for (const channel of EVENT_CHANNELS) {
      loose[channel.split('.')[0]!]![eventMethodName(channel)]!(() => undefined);
    }
    expect(subscriptions.map((s) => s.channel)).toEqual([...EVENT_CHANNELS]);

    const received: unknown[] = [];
    const stop = api.connectivity.onChanged((payload) => received.push(payload));
    subscriptions.at(-1)!.listener({ state: 'offline' });
    expect(received).toEqual([{ state: 'offline' }]);
    stop();
    expect(unsubscribe).toHaveBeenCalledTimes(1);
  });
});
