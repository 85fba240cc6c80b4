/**
 * Parses the service's date-times into epoch milliseconds. The real service sometimes omits
 * the offset (treat as UTC) and sends up to 7 fractional digits (service-facts.md).
 */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

export function parseServiceTime(text: string): number | null {
  const match = ISO_DATE_TIME.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60) {
    return null;
  }
  const millis = frac === undefined ? 0 : Math.round(Number(`0.${frac}`) * 1000);
  let epoch = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Date.UTC silently rolls 31 February into March: reject impossible dates instead.
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1) return null;
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offsetMinutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
    epoch -= sign * offsetMinutes * 60_000;
  }
  return epoch;
}

/** Formats epoch milliseconds as the service expects: ISO 8601 UTC. */
export function formatServiceTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
