/**
 * The still-open recent interval: data the service may still add to (instruments upload late), so a
 * stored chunk is settled only once it was fetched long enough after its end.
 */

/** Data may still arrive for the last hour before a fetch. */
export const DEFAULT_OPEN_INTERVAL_MS = 3_600_000;

/** Whether a stored chunk may still change at the service (fetched too soon after its end). */
export function isOpen(chunk: { end: number; fetchedAt: number }, openIntervalMs: number): boolean {
  return chunk.fetchedAt < chunk.end + openIntervalMs;
}
