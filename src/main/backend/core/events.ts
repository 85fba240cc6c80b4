/**
 * Core services every domain shares: pushed events (this file), the local database, interval
 * arithmetic and the JSON file store. Nothing here knows about accounts or the service.
 */
import type { EventChannel } from '../../../shared/ipc/channels';
import type { EventPayloads, EventSink } from '../../../shared/ipc/contract';

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
}

export function createEventHub(options: EventHubOptions = {}): EventHub {
  const sinks = new Set<EventSink>();
  const redact = options.redact ?? (<T>(value: T) => value);
  return {
    emit(channel, payload) {
      if (sinks.size === 0) return;
      const sent = redact(payload);
      for (const sink of sinks) {
        try {
          sink(channel, sent);
        } catch {
          // A failing receiver (e.g. a closed window) must not break the backend or other receivers.
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
    clear: () => sinks.clear(),
  };
}
