import { describe, expect, it } from 'vitest';
import { buildFacade, EVENT_CHANNELS, REQUEST_CHANNELS } from '../../../src/shared/ipc/channels';
import type { RequestChannel } from '../../../src/shared/ipc/channels';
import {
  dispatchRequest,
  REQUESTS,
  type BackendHandlers,
  type FieldDeskApi,
  type FieldDeskBridge,
} from '../../../src/shared/ipc/contract';

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

// ---- the facade's shape, checked by the compiler -------------------------------------------
// `npm run typecheck` fails when one of these no longer holds (vue-tsc and tsc both read this file).

/** Requests that take no argument: the facade must let them be called with none. */
const NO_ARGUMENT_REQUESTS = [
  'app.getInfo',
  'app.notices',
  'settings.confirm',
  'accounts.getState',
  'accounts.tryDemo',
  'instruments.list',
  'instruments.knownHealth',
  'actions.lastResults',
  'operations.list',
  'settings.get',
  'sync.list',
  'sync.profiles',
  'cache.summary',
  'connectivity.get',
  'diagnostics.save',
  'diagnostics.damagedRecords',
  'app.logLevel',
  'webhooks.list',
  'audio.downloads',
  'audio.folder',
  'audio.chooseFolder',
  'assessment.sites',
  'calibrators.list',
  'team.status',
  'team.leave',
  'team.conflicts',
  'team.sites',
  // Every field optional: "clear everything", and a change of nothing.
  'cache.clear',
  'settings.update',
  'audio.library',
  'audio.openFolder',
  'visits.templates',
  'visits.choosePhotos',
  // Without a serial: every visit of the account.
  'visits.list',
] as const satisfies readonly RequestChannel[];
type NoArgumentRequest = (typeof NO_ARGUMENT_REQUESTS)[number];

type Expect<T extends true> = T;
/** Exact type equality (a union of true and false, or `any`, is not `true`). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** The facade method of a channel, or a string naming what is missing (never `never`, which would pass). */
type MethodOf<Facade, C extends string> = C extends `${infer N}.${infer M}`
  ? N extends keyof Facade
    ? M extends keyof Facade[N]
      ? Facade[N][M]
      : 'no such method'
    : 'no such namespace'
  : 'not a channel';
/** Whether the method can be called with no argument at all. */
type CallableWithout<F> = F extends () => unknown ? true : false;
/** `true` when every channel of `C` is callable with no argument on `Facade`, else `false`. */
type AllCallableWithout<Facade, C extends string> = { [K in C]: CallableWithout<MethodOf<Facade, K>> }[C];

// A no-argument request that starts requiring an argument makes these `boolean` or `false`.
type _NoArgumentRequestsOnTheBridge = Expect<
  Equal<AllCallableWithout<FieldDeskBridge, NoArgumentRequest>, true>
>;
type _NoArgumentRequestsOnTheApi = Expect<Equal<AllCallableWithout<FieldDeskApi, NoArgumentRequest>, true>>;
// Every other request insists on its argument.
type _OtherRequestsNeedTheirArgument = Expect<
  Equal<AllCallableWithout<FieldDeskBridge, Exclude<RequestChannel, NoArgumentRequest>>, false>
>;
type _RenameNeedsOneArgument = Expect<
  Equal<Parameters<FieldDeskBridge['instruments']['rename']>, [{ serial: string; name: string }]>
>;

describe('requests without an argument', () => {
  it('are exactly those whose argument schema accepts an empty object', () => {
    const acceptingNothing = REQUEST_CHANNELS.filter(
      (channel) => REQUESTS[channel].arg.safeParse({}).success,
    );
    expect([...acceptingNothing].sort()).toEqual([...NO_ARGUMENT_REQUESTS].sort());
  });
});
