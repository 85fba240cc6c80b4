/**
 * Splitting a time range into consecutive pieces no longer than an endpoint's maximum range
 * (service-interface.md, Limits).
 */

export interface TimeRange {
  /** Epoch ms, inclusive. */
  start: number;
  /** Epoch ms. */
  end: number;
}

/**
 * Consecutive ranges covering [start, end], each at most `maxMs` long; piece n ends where piece
 * n + 1 starts, so nothing between them is missed. An empty or reversed range gives no pieces.
 */
export function splitRange(start: number, end: number, maxMs: number): TimeRange[] {
  if (!(maxMs > 0)) throw new RangeError('maxMs must be positive');
  if (!(end > start)) return [];
  const pieces: TimeRange[] = [];
  for (let from = start; from < end; from += maxMs) {
    pieces.push({ start: from, end: Math.min(from + maxMs, end) });
  }
  return pieces;
}
