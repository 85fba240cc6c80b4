import { describe, expect, it } from 'vitest';
import { buildFacade, EVENT_CHANNELS, REQUEST_CHANNELS } from '../../../src/shared/ipc/channels';
import type { FieldDeskBridge } from '../../../src/shared/ipc/contract';
import { dispatchRequest, type BackendHandlers } from '../../../src/shared/ipc/contract';

describe('facade built from channel names', () => {
  it('exposes one named method per request and one on… method per event, nothing else', async () => {
    const calls: Array<[string, unknown]> = [];
    const bridge = buildFacade<FieldDeskBridge>(
      async (channel, arg) => {
        calls.push([channel, arg]);
        return { ok: true, value: channel };
      },
      () => () => undefined,
    );
    await bridge.instruments.rename({ serial: 'QT100001', name: 'North fence' });
    await bridge.accounts.getState();
    expect(calls).toEqual([
      ['instruments.rename', { serial: 'QT100001', name: 'North fence' }],
      ['accounts.getState', {}],
    ]);
    const methodCount = Object.values(bridge).reduce((n, ns) => n + Object.keys(ns).length, 0);
    expect(methodCount).toBe(REQUEST_CHANNELS.length + EVENT_CHANNELS.length);
    expect(typeof bridge.connectivity.onChanged).toBe('function');
    expect(Object.isFrozen(bridge)).toBe(true);
  });
});

describe('dispatchRequest', () => {
  const handlers = {
    'instruments.rename': async (arg: { serial: string; name: string }) => ({ renamed: arg.name }),
  } as unknown as BackendHandlers;

  it('validates and trims arguments before the backend sees them', async () => {
    const answer = await dispatchRequest(handlers, 'instruments.rename', {
      serial: 'QT1',
      name: '  Gate 3  ',
    });
    expect(answer).toEqual({ ok: true, value: { renamed: 'Gate 3' } });
  });

  it('refuses unknown channels, bad arguments and extra fields with plain error data', async () => {
    expect(await dispatchRequest(handlers, 'shell.exec', {})).toMatchObject({
      ok: false,
      error: { code: 'invalidInput' },
    });
    const empty = await dispatchRequest(handlers, 'instruments.rename', { serial: 'QT1', name: '   ' });
    expect(empty).toMatchObject({
      ok: false,
      error: { code: 'invalidInput', field: 'name', message: 'The name cannot be empty.' },
    });
    const traversal = await dispatchRequest(handlers, 'instruments.rename', { serial: '../x', name: 'a' });
    expect(traversal).toMatchObject({ ok: false, error: { code: 'invalidInput', field: 'serial' } });
    const extra = await dispatchRequest(handlers, 'instruments.rename', {
      serial: 'QT1',
      name: 'a',
      admin: true,
    });
    expect(extra).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
  });

  it('never passes an unexpected exception through: the renderer gets a generic message', async () => {
    const failing = {
      'instruments.list': async () => {
        throw new Error('ECONNRESET at /home/user/secret/path.js:12');
      },
    } as unknown as BackendHandlers;
    const answer = await dispatchRequest(failing, 'instruments.list', {});
    expect(answer.ok).toBe(false);
    if (!answer.ok) {
      expect(answer.error.code).toBe('internal');
      expect(answer.error.message).not.toContain('secret');
    }
  });
});

// Compile-time checks of the facade's shape (vue-tsc/tsc fail the build if these break).
type Expect<T extends true> = T;
type _NoArgRequestTakesNoArgument = Expect<
  Parameters<FieldDeskBridge['accounts']['getState']>['length'] extends 0 | 1 ? true : false
>;
type _RenameNeedsOneArgument = Expect<
  Parameters<FieldDeskBridge['instruments']['rename']> extends [{ serial: string; name: string }]
    ? true
    : false
>;
