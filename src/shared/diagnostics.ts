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

/**
 * The stored rows FieldDesk reads through a check, by table (or file), and what one of them is
 * called in words. A row that fails its check is left out (or its value read as none) and counted
 * by the backend (core/damaged-rows.ts); `diagnostics.damagedRecords` answers the counts.
 */
export const DAMAGED_ROW_SOURCES = {
  assessment_sites: ['site', 'sites'],
  site_visits: ['site visit', 'site visits'],
  action_history: ['action result', 'action results'],
  action_journal: ['action result waiting in the journal', 'action results waiting in the journal'],
  calibrators: ['calibrator', 'calibrators'],
  visit_settings: ['checklist template', 'checklist templates'],
  audio_library: ['recording in the library', 'recordings in the library'],
  audio_downloads: ['queued download', 'queued downloads'],
  cache_chunks: ['piece of cached data', 'pieces of cached data'],
  known_fleets: ['cached instrument list', 'cached instrument lists'],
  instrument_health: ['instrument’s cached health', 'instruments’ cached health'],
  event_histories: ['cached event time history', 'cached event time histories'],
  sync_runs: ['site sync', 'site syncs'],
  sync_chunks: ['site-sync request', 'site-sync requests'],
} as const satisfies Record<string, readonly [string, string]>;

export type DamagedRowSource = keyof typeof DAMAGED_ROW_SOURCES;

/** How many rows of one table were found damaged this session. */
export interface DamagedRowCount {
  table: DamagedRowSource;
  count: number;
  /** True when more were found than are told apart (the count is then a least). */
  more: boolean;
}

/** What `diagnostics.damagedRecords` answers: the tables with damaged rows, in the order above. */
export interface DamagedRecords {
  tables: DamagedRowCount[];
}

/**
 * "Damaged records left out since FieldDesk started: 2 sites and 1 action result — the log names
 * each one." The one wording of it (the diagnostics section and the diagnostics zip); null when
 * nothing was found damaged.
 */
export function damagedRecordsText(damaged: DamagedRecords): string | null {
  const parts = damaged.tables
    .filter((entry) => entry.count > 0)
    .map(({ table, count, more }) => {
      const [one, many] = DAMAGED_ROW_SOURCES[table];
      return `${more ? `${count} or more` : count} ${count === 1 && !more ? one : many}`;
    });
  if (parts.length === 0) return null;
  const list = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
  return `Damaged records left out since FieldDesk started: ${list} — the log names each one.`;
}
