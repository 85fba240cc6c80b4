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
