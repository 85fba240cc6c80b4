/**
 * Core services every domain shares: pushed events (this file), the local database, interval
 * arithmetic and the JSON file store. Nothing here knows about accounts or the service.
 */
import type { EventChannel } from '../../../shared/ipc/channels';
import type { EventPayloads, EventSink } from '../../../shared/ipc/contract';
import type { Logger } from './log';

/** Pushed events to every registered receiver (the Electron window, harness clients, tests). */
export interface EventHub {
  emit<E extends EventChannel>(channel: E, payload: EventPayloads[E]): void;
  /** Registers a receiver; returns the function that removes it. */
  subscribe(sink: EventSink): () => void;
  /** Whether anyone listens (so work done only for listeners can be skipped). */
  hasListeners(): boolean;
  clear(): void;
}

export interface EventHubOptions {
  /**
   * Applied to every payload before it leaves: the backend's secrets redactor (core/secrets.ts), so
   * no event carries a key or a secret whatever text it repeats.
   */
  redact?: <T>(value: T) => T;
  /** Where a receiver's failure is said: the first of each channel logged, the rest counted. */
  log?: Logger;
}

export function createEventHub(options: EventHubOptions = {}): EventHub {
  const sinks = new Set<EventSink>();
  const redact = options.redact ?? (<T>(value: T) => value);
  /** Receiver failures by channel. */
  const failures = new Map<string, number>();
  const failed = (channel: EventChannel, error: unknown) => {
    const before = failures.get(channel);
    failures.set(channel, (before ?? 0) + 1);
    // A receiver failing on every progress event would fill the log: its first failure on a
    // channel is said, the rest counted and said when the hub is cleared (the backend closing).
    if (before === undefined) options.log?.warn('an event receiver failed', { channel, error });
  };
  return {
    emit(channel, payload) {
      if (sinks.size === 0) return;
      const sent = redact(payload);
      for (const sink of sinks) {
        try {
          sink(channel, sent);
        } catch (error) {
          // A failing receiver (e.g. a closed window) must not break the backend or other receivers.
          failed(channel, error);
        }
      }
    },
    subscribe(sink) {
      sinks.add(sink);
      return () => {
        sinks.delete(sink);
      };
    },
    hasListeners: () => sinks.size > 0,
    clear: () => {
      sinks.clear();
      const more = Object.fromEntries(
        [...failures].filter(([, count]) => count > 1).map(([c, n]) => [c, n - 1]),
      );
      if (Object.keys(more).length > 0)
        options.log?.warn('event receivers failed again', { byChannel: more });
      failures.clear();
    },
  };
}
