/**
 * How the end-to-end tests and the browser benchmark start Chromium: Debian's on our machines
 * (Playwright's own browser download is unreachable there), Playwright's own elsewhere, so both
 * also run on a developer's laptop.
 */
import { existsSync } from 'node:fs';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** Launch options for Debian's Chromium when it is installed; empty (Playwright's own) otherwise. */
export function chromiumLaunchOptions(): { executablePath?: string; args?: string[] } {
  return existsSync(SYSTEM_CHROMIUM)
    ? {
        executablePath: SYSTEM_CHROMIUM,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      }
    : {};
}
