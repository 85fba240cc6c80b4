/** The contract's requests of the app itself (`app.*`), spread into REQUESTS by contract.ts. */
import { z } from 'zod';
import { LOG_LEVELS, RENDERER_ERROR_SOURCES, type LogLevel } from '../diagnostics';
import { noArgs, request } from './request-spec';

export interface AppInfo {
  version: string;
  /** Where the app runs: `electron` or the browser test `harness`. */
  shell: 'electron' | 'harness';
}

/**
 * Something the user must know that no single screen owns: a damaged file set aside at start, a
 * database replaced during the session, results kept while the database was unavailable.
 */
export interface AppNotice {
  /** Stable per kind of notice, so a repeat replaces rather than piles up. */
  id: string;
  tone: 'warning' | 'info';
  message: string;
  /** When it was raised (epoch ms). */
  since: number;
}

export const APP_REQUESTS = {
  'app.getInfo': request<AppInfo>()(noArgs),
  /** Notices not yet dismissed, oldest first. */
  'app.notices': request<AppNotice[]>()(noArgs),
  'app.dismissNotice': request<AppNotice[]>()(
    z.object({ id: z.string().regex(/^[a-z0-9-]{1,64}$/, 'Unknown notice.') }).strict(),
  ),
  /** How much the backend's log says now (for this run of FieldDesk). */
  'app.logLevel': request<{ level: LogLevel }>()(noArgs),
  'app.setLogLevel': request<{ level: LogLevel }>()(
    z.object({ level: z.enum(LOG_LEVELS, { error: 'That is not a log level.' }) }).strict(),
  ),
  /** An error the renderer met outside any request, kept in the backend's redacted log. */
  'app.reportError': request<{ logged: true }>()(
    z
      .object({
        source: z.enum(RENDERER_ERROR_SOURCES),
        message: z.string().max(2_000),
        stack: z.string().max(8_000).optional(),
        where: z.string().max(300).optional(),
        dropped: z.number().int().min(0).max(1_000_000).optional(),
      })
      .strict(),
  ),
};
