/**
 * The fake backend store tests talk to instead of `window.fielddesk`, typed from the contract:
 * every request is a `vi.fn` with that request's own argument and result types, and every event
 * subscription is recorded so a test can push events. A change of a request's argument or result
 * in src/shared/ipc/contract.ts therefore breaks the typecheck of the tests that stub it.
 *
 * Stores take their API from their pinia (src/renderer/src/api-injection.ts), so a test gives them
 * the fake through the pinia it makes active, with no module replaced:
 *   const backend = createFakeBackend();
 *   beforeEach(() => {
 *     fakePinia(backend);
 *     backend.reset();
 *   });
 */
import { expect, vi, type Mock } from 'vitest';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { provideApi } from '../../../src/renderer/src/api-injection';
import {
  EVENT_CHANNELS,
  eventMethodName,
  REQUEST_CHANNELS,
  type EventChannel,
} from '../../../src/shared/ipc/channels';
import type { EventPayloads, FieldDeskApi } from '../../../src/shared/ipc/contract';
import { FieldDeskError } from '../../../src/shared/errors';

/** `FieldDeskApi` with every method a mock of exactly its own type. */
export type FakeApi = {
  [N in keyof FieldDeskApi]: {
    [M in keyof FieldDeskApi[N]]: FieldDeskApi[N][M] extends (...args: never[]) => unknown
      ? Mock<FieldDeskApi[N][M]>
      : never;
  };
};

export interface FakeBackend {
  api: FakeApi;
  /** Pushes an event as the backend would, to every listener subscribed through `api`. */
  emit<E extends EventChannel>(channel: E, payload: EventPayloads[E]): void;
  /** How many listeners follow `channel` now (a store that stopped has none left). */
  listenerCount(channel: EventChannel): number;
  /** Forgets every listener and every stubbed answer; requests refuse again until stubbed. */
  reset(): void;
}

const namespaceOf = (channel: string): string => channel.slice(0, channel.indexOf('.'));

export function createFakeBackend(): FakeBackend {
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  // Built loosely from the channel lists, then typed as a whole: the lists and the contract are
  // one description, which test/unit/shared/contract-types.test.ts keeps in step.
  const loose: Record<string, Record<string, Mock>> = {};

  for (const channel of REQUEST_CHANNELS) {
    const method = channel.slice(channel.indexOf('.') + 1);
    // A request the test did not stub fails loudly instead of answering `undefined`.
    (loose[namespaceOf(channel)] ??= {})[method] = vi.fn(async () => {
      throw new FieldDeskError('internal', `${channel} is not stubbed in this test.`);
    });
  }
  for (const channel of EVENT_CHANNELS) {
    (loose[namespaceOf(channel)] ??= {})[eventMethodName(channel)] = vi.fn(
      (listener: (payload: unknown) => void) => {
        let set = listeners.get(channel);
        if (!set) listeners.set(channel, (set = new Set()));
        set.add(listener);
        return () => void set.delete(listener);
      },
    );
  }

  return {
    api: loose as unknown as FakeApi,
    emit(channel, payload) {
      for (const listener of [...(listeners.get(channel) ?? [])]) listener(payload);
    },
    listenerCount: (channel) => listeners.get(channel)?.size ?? 0,
    reset() {
      listeners.clear();
      for (const namespace of Object.values(loose))
        for (const mock of Object.values(namespace)) mock.mockReset();
    },
  };
}

/**
 * A new pinia whose stores talk to `backend`, made the active one (as each test starts: stores of
 * one test never see another's). Answers the pinia, for `useSomeStore(pinia)` if another is active.
 */
export function fakePinia(backend: FakeBackend): Pinia {
  const pinia = provideApi(createPinia(), backend.api);
  setActivePinia(pinia);
  return pinia;
}

/**
 * `expect(request).toHaveBeenCalledWith(…)` with the arguments typed as the contract's own
 * (vitest's matcher takes anything), so a changed argument breaks the test's typecheck.
 */
export function expectCalledWith<F extends (...args: never[]) => unknown>(
  request: Mock<F>,
  ...args: Parameters<F>
): void {
  expect(request).toHaveBeenCalledWith(...args);
}
