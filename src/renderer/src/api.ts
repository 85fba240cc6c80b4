/**
 * The renderer's view of the backend: `window.fielddesk` (a transport answering envelopes)
 * unwrapped into plain values, with failures rebuilt as `FieldDeskError`s so stores can read
 * `code`, `retryable` and `missingScope`.
 */
import {
  buildFacade,
  eventMethodName,
  type EventChannel,
  type RequestChannel,
} from '../../shared/ipc/channels';
import type { Envelope, FieldDeskApi, FieldDeskBridge } from '../../shared/ipc/contract';
import { FieldDeskError, isFieldDeskError } from '../../shared/errors';

type LooseNamespace = Record<string, ((arg?: unknown) => unknown) | undefined>;
type LooseBridge = Record<string, LooseNamespace | undefined>;

function splitChannel(channel: string): [namespace: string, member: string] {
  const dot = channel.indexOf('.');
  return [channel.slice(0, dot), channel.slice(dot + 1)];
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  const envelope = value as { ok: unknown; error?: unknown };
  if (envelope.ok === true) return 'value' in envelope;
  return envelope.ok === false && typeof envelope.error === 'object' && envelope.error !== null;
}

const NO_ANSWER =
  'FieldDesk’s backend gave no usable answer. Try again; if it keeps happening, restart the app.';

/** Turns a transport (`FieldDeskBridge`) into the unwrapped API. Generic over every channel. */
export function unwrapBridge(bridge: FieldDeskBridge): FieldDeskApi {
  const loose = bridge as unknown as LooseBridge;
  const member = (channel: string, name: string): ((arg?: unknown) => unknown) => {
    const [namespace] = splitChannel(channel);
    const fn = loose[namespace]?.[name];
    if (typeof fn !== 'function') throw new FieldDeskError('internal', NO_ANSWER);
    return fn;
  };

  const invoke = async (channel: RequestChannel, arg: unknown): Promise<unknown> => {
    let answer: unknown;
    try {
      answer = await member(channel, splitChannel(channel)[1])(arg);
    } catch (error) {
      // A transport should never throw (it answers envelopes), but a missing preload or a
      // crashed main process would: keep the error family consistent for the stores.
      throw isFieldDeskError(error) ? error : new FieldDeskError('internal', NO_ANSWER, { cause: error });
    }
    if (!isEnvelope(answer)) throw new FieldDeskError('badResponse', NO_ANSWER);
    if (answer.ok) return answer.value;
    throw FieldDeskError.fromData(answer.error);
  };

  const subscribe = (channel: EventChannel, listener: (payload: unknown) => void): (() => void) =>
    member(channel, eventMethodName(channel))(listener) as () => void;

  return buildFacade<FieldDeskApi>(invoke, subscribe);
}

/** Resolved lazily so tests can import modules that use `api` without a `window.fielddesk`. */
let cached: FieldDeskApi | null = null;
let cachedFor: FieldDeskBridge | null = null;

function current(): FieldDeskApi {
  const bridge = window.fielddesk;
  if (cached === null || cachedFor !== bridge) {
    cached = unwrapBridge(bridge);
    cachedFor = bridge;
  }
  return cached;
}

/** `api.instruments.list()` etc. Namespaces are looked up on first use. */
export const api: FieldDeskApi = new Proxy({} as FieldDeskApi, {
  get: (_target, namespace: string) => (current() as unknown as Record<string, unknown>)[namespace],
});
