/** The smallest file facts the rest of core/ builds on (it imports nothing of its own). */

/** A timestamp safe in file names on every platform (no colons). */
export function fileTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/[:.]/g, '-');
}

/** A Node error's `code` (`ENOSPC`, `SQLITE_FULL`, …), if it has one. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;
}
