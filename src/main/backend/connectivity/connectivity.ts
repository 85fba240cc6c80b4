/**
 * Connectivity: whether the active account's service can be reached. The backend is its only
 * writer — every answer (or lack of one) of a request for the active account updates it — and
 * the renderer follows its `connectivity.changed` events (or asks with `connectivity.get`).
 */
import { isUnreachable, type FieldDeskError, type FieldDeskErrorData } from '../../../shared/errors';
import type { Connectivity, ConnectivityState } from '../../../shared/ipc/contract';
import type { EventHub } from '../core/events';
import type { Logger } from '../core/log';

/** While the service cannot be reached, one light request this often notices its return. */
export const OFFLINE_PROBE_MS = 20_000;

export interface ConnectivityOptions {
  events: EventHub;
  now: () => number;
  /** The account whose service the state is about. */
  activeId: () => string | null;
  /** One light request for the account (no retries) whose answer is noted like any other. */
  probe: (accountId: string) => Promise<void>;
  /** How often to probe while offline (ms; 0 = never). */
  probeEveryMs?: number;
  log?: Logger;
}

export interface ConnectivityService {
  current(): Connectivity;
  /** An answer (`error` null) or failure of a request for `accountId`; only the active account counts. */
  note(accountId: string, error: FieldDeskError | null): void;
  /** A new active account (or the same one with a new key): online if just proven, else unknown. */
  reset(accountId: string | null, knownOnline: boolean): void;
  /** Why `accountId`'s service cannot be reached, when it is known to be unreachable; else null. */
  offlineReason(accountId: string): FieldDeskErrorData | null;
  close(): void;
}

export function createConnectivity(options: ConnectivityOptions): ConnectivityService {
  const { events, now } = options;
  let state: Connectivity = { state: 'unknown', accountId: options.activeId(), since: now(), message: null };
  /** The last "cannot reach the service" error of the active account, while offline. */
  let unreachable: FieldDeskErrorData | null = null;
  let probe: ReturnType<typeof setInterval> | null = null;
  let probing = false;
  let closed = false;

  function set(accountId: string | null, next: ConnectivityState, message: string | null): void {
    if (next !== 'offline') unreachable = null;
    if (next === 'offline') startProbe();
    else stopProbe();
    if (state.accountId === accountId && state.state === next) return;
    state = { state: next, accountId, since: now(), message };
    events.emit('connectivity.changed', { ...state });
  }

  function stopProbe(): void {
    if (probe !== null) clearInterval(probe);
    probe = null;
  }

  function startProbe(): void {
    const every = options.probeEveryMs ?? OFFLINE_PROBE_MS;
    if (probe !== null || closed || !(every > 0)) return;
    probe = setInterval(() => void probeOnce(), every);
    probe.unref?.();
  }

  async function probeOnce(): Promise<void> {
    const accountId = state.accountId;
    if (accountId === null || state.state !== 'offline') return stopProbe();
    if (probing || closed) return;
    probing = true;
    try {
      await options.probe(accountId);
    } catch (error) {
      // Still offline (noted by the request itself), or a problem the next real request will explain.
      options.log?.debug('service still not reachable', { error });
    } finally {
      probing = false;
    }
  }

  return {
    current: () => ({ ...state }),
    note(accountId, error) {
      if (accountId !== options.activeId() || error?.code === 'cancelled') return;
      if (error !== null && isUnreachable(error)) {
        unreachable = error.toData();
        set(accountId, 'offline', error.message);
      } else set(accountId, 'online', null);
    },
    reset(accountId, knownOnline) {
      set(accountId, knownOnline && accountId !== null ? 'online' : 'unknown', null);
    },
    offlineReason(accountId) {
      if (state.accountId !== accountId || state.state !== 'offline') return null;
      return (
        unreachable ?? {
          code: 'offline',
          message: state.message ?? 'The service cannot be reached.',
          retryable: true,
        }
      );
    },
    close() {
      closed = true;
      stopProbe();
    },
  };
}
