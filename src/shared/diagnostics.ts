/** What "Save diagnostics…" (`diagnostics.save`) answers, and what its zip holds. */

/** The answer: not saved when the user cancelled the save dialog. */
export type DiagnosticsResult = { saved: false } | { saved: true; path: string; bytes: number };

/** The zip's files besides the logs (`logs/fielddesk.log`, `logs/fielddesk.1.log`, …). */
export const DIAGNOSTICS_FILES = {
  about: 'about.json',
  settings: 'settings.json',
  accounts: 'accounts.json',
  files: 'data-folder.txt',
} as const;

/** How much the log says, least first: `info` normally, `debug` while support asks for more. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Where in the renderer an error was met outside any request. */
export const RENDERER_ERROR_SOURCES = ['component', 'window', 'promise'] as const;

/** An error the renderer met, as it reports it to the backend's log. */
export interface RendererError {
  source: (typeof RENDERER_ERROR_SOURCES)[number];
  message: string;
  stack?: string | undefined;
  /** The screen it happened on (the route's path), or a component's name. */
  where?: string | undefined;
  /** Errors left unreported before this one (too many too fast). */
  dropped?: number | undefined;
}
