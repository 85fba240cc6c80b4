/**
 * Splitting a time range into consecutive pieces no longer than an endpoint's maximum range
 * (service-interface.md, Limits), and joining the answers.
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

/**
 * Joins the answers of consecutive pieces: sorted by time, and a record the service returned in
 * both pieces (one lying exactly on a shared boundary) kept once.
 */
export function joinByTime<T extends { time: number }>(pieces: readonly T[][]): T[] {
  const seen = new Set<string>();
  const joined: T[] = [];
  for (const piece of pieces) {
    for (const record of piece) {
      const key = JSON.stringify(record);
      if (seen.has(key)) continue;
      seen.add(key);
      joined.push(record);
    }
  }
  // Stable sort: records with the same time keep the service's order.
  return joined.sort((a, b) => a.time - b.time);
}
