/**
 * ISO 8601 durations (`PT1S`, `PT0.1S`, `PT15M`, `PT1H`, `P1D`, `P1W`, `P1DT12H`…) as
 * milliseconds, and the short English form the service's messages use ("15 min", "0.1 s",
 * "1 day"). The client checks `period` with these before sending and the demo service checks
 * it with the same functions, so the client's refusals read exactly like the server's.
 *
 * Years and months have no fixed length: they are read as 365 and 30 days, which only ever
 * matters for refusing them as too long a `period`.
 */
const DURATION =
  /^P(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/;

const UNIT_MS = [365 * 86_400_000, 30 * 86_400_000, 7 * 86_400_000, 86_400_000, 3_600_000, 60_000, 1000];

/** The duration in whole milliseconds, or null when the text is not an ISO 8601 duration. */
export function parseIsoDuration(text: string): number | null {
  const trimmed = text.trim().toUpperCase();
  const match = DURATION.exec(trimmed);
  // "P" and "PT" alone match the pattern but name no duration.
  if (!match || trimmed === 'P' || trimmed.endsWith('T')) return null;
  const parts = match.slice(1);
  if (parts.every((part) => part === undefined)) return null;
  // ISO 8601 allows a fraction only on the smallest component given.
  const lastGiven = parts.findLastIndex((part) => part !== undefined);
  let total = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part === undefined) continue;
    if (/[.,]/.test(part) && i !== lastGiven) return null;
    total += Number(part.replace(',', '.')) * (UNIT_MS[i] as number);
  }
  return Number.isFinite(total) ? Math.round(total) : null;
}

/** A short English form of a duration for messages: "15 min", "0.1 s", "1 day". */
export function describeDuration(ms: number): string {
  if (ms % 86_400_000 === 0) return ms === 86_400_000 ? '1 day' : `${ms / 86_400_000} days`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}
