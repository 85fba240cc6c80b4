/**
 * Every request's failure in the log, in the one place both transports (the Electron IPC wrapper
 * and the browser harness) pass through: `createBackend` wraps the handler map with it. A failure
 * FieldDesk expects (offline, invalid input, a refusal of the service…) is a line at info level; an
 * `internal` error or anything that is not a FieldDeskError is a bug or a broken environment, logged
 * at error level with its stack, its causes and the request it served.
 */
import type { BackendHandlers } from '../../../shared/ipc/contract';
import { FieldDeskError } from '../../../shared/errors';
import type { Logger } from './log';

/** Argument fields never written, whatever they hold (the key of `accounts.add`, a webhook's secret). */
const SECRET_FIELD = /key|secret|token|password/i;
const MAX_TEXT = 200;
const MAX_ITEMS = 20;

/** A request's argument as the log shows it: secret fields left out, long texts and lists cut. */
export function describeArgument(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= 4) return '[…]';
  if (Array.isArray(value)) {
    const shown = value.slice(0, MAX_ITEMS).map((item) => describeArgument(item, depth + 1));
    return value.length > MAX_ITEMS ? [...shown, `… ${value.length - MAX_ITEMS} more`] : shown;
  }
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [
      name,
      SECRET_FIELD.test(name) ? '[not logged]' : describeArgument(item, depth + 1),
    ]),
  );
}

/** Logs one failed request at the level its kind deserves. */
export function logRequestFailure(log: Logger, channel: string, arg: unknown, error: unknown): void {
  const request = { channel, arg: describeArgument(arg) };
  if (error instanceof FieldDeskError && error.code !== 'internal') {
    // Expected: what the user was told is enough to follow it; a cancellation is not even that.
    const fields = { request, code: error.code, reason: error.message };
    if (error.code === 'cancelled') log.debug(`${channel} was cancelled`, fields);
    else log.info(`${channel} failed: ${error.code}`, fields);
    return;
  }
  log.error(`${channel} failed unexpectedly`, { request, error });
}

/** Every handler, with its failures logged (and passed on unchanged). */
export function withRequestLog(handlers: BackendHandlers, log: Logger): BackendHandlers {
  const logged: Record<string, (arg: never) => Promise<unknown>> = {};
  for (const [channel, handler] of Object.entries(handlers) as Array<
    [string, (arg: never) => Promise<unknown>]
  >) {
    logged[channel] = async (arg) => {
      try {
        return await handler(arg);
      } catch (error) {
        logRequestFailure(log, channel, arg, error);
        throw error;
      }
    };
  }
  return logged as BackendHandlers;
}

/** The handlers with the requests still running counted, so a close can wait for them. */
export interface TrackedHandlers {
  handlers: BackendHandlers;
  /** Resolves once no request runs, or after `limitMs` (a long report is not waited for without end). */
  idle(limitMs: number): Promise<void>;
}

export function trackInFlight(handlers: BackendHandlers): TrackedHandlers {
  let running = 0;
  let wake: (() => void) | null = null;
  const tracked: Record<string, (arg: never) => Promise<unknown>> = {};
  for (const [channel, handler] of Object.entries(handlers) as Array<
    [string, (arg: never) => Promise<unknown>]
  >) {
    tracked[channel] = async (arg) => {
      running++;
      try {
        return await handler(arg);
      } finally {
        running--;
        if (running === 0) wake?.();
      }
    };
  }
  return {
    handlers: tracked as BackendHandlers,
    async idle(limitMs) {
      if (running === 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, limitMs);
        timer.unref();
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    },
  };
}
