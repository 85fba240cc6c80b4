/**
 * Errors the renderer meets outside any request — a component that throws, an error event, a
 * promise nobody awaited — go to the backend's log (`app.reportError`), redacted there like every
 * line, beside what the backend logged at the same moment. At most a few a minute: a component that
 * throws on every frame must not fill the log; the next report says how many were left out.
 */
import type { App } from 'vue';
import type { RendererError } from '../../shared/diagnostics';

/** How many errors a minute are reported; the rest are counted. */
export const REPORTS_PER_MINUTE = 10;
const MINUTE_MS = 60_000;

export interface ErrorReportingOptions {
  /** Sends one report (the API's `app.reportError`); a failure is said on the console only. */
  report: (error: RendererError) => Promise<unknown>;
  /** The screen the user is on (the route's path). */
  where: () => string;
  now?: () => number;
  /** What to listen on for errors and unhandled rejections (the window). */
  target?: Pick<Window, 'addEventListener'>;
}

/** What the report says of a thrown value: its message and stack, or the value as text. */
function described(value: unknown): Pick<RendererError, 'message' | 'stack'> {
  if (value instanceof Error)
    return {
      message: `${value.name}: ${value.message}`.slice(0, 2_000),
      stack: value.stack?.slice(0, 8_000),
    };
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return { message: (text ?? String(value)).slice(0, 2_000) };
}

/** A reporter with its rate limit; `installErrorReporting` wires it to the app and the window. */
export function createErrorReporter(options: ErrorReportingOptions) {
  const now = options.now ?? Date.now;
  let windowStart = -Infinity;
  let sent = 0;
  let dropped = 0;
  return (source: RendererError['source'], value: unknown, where = options.where()): void => {
    const at = now();
    if (at - windowStart >= MINUTE_MS) {
      windowStart = at;
      sent = 0;
    }
    if (sent >= REPORTS_PER_MINUTE) {
      dropped += 1;
      return;
    }
    sent += 1;
    const report: RendererError = { source, ...described(value), where: where.slice(0, 300) };
    if (dropped > 0) report.dropped = dropped;
    dropped = 0;
    options.report(report).catch((failure: unknown) => {
      // The log itself could not be reached: the console is all that is left.
      console.error('FieldDesk could not log an error:', failure);
    });
  };
}

export function installErrorReporting(app: App, options: ErrorReportingOptions): void {
  const report = createErrorReporter(options);
  const target = options.target ?? window;
  app.config.errorHandler = (error, instance, info) => {
    console.error(error);
    const component = instance?.$options.name ?? instance?.$options.__name;
    report('component', error, `${options.where()} (${component ?? 'a component'}, ${info})`);
  };
  target.addEventListener('error', (event) => report('window', event.error ?? event.message));
  target.addEventListener('unhandledrejection', (event) => report('promise', event.reason));
}
