/**
 * Which urgent attention reasons are new, to be told on the desktop once per instrument and
 * reason (the user opts in, in Settings). Pure: the store keeps what was told (remembered between
 * runs) and asks the backend to show the notice while the window is in the background.
 */
import type { AttentionReason } from '../../../../shared/attention';

export interface UrgentRow {
  serial: string;
  name: string;
  reasons: readonly AttentionReason[];
}

export interface UrgentToTell {
  serial: string;
  name: string;
  reason: string;
}

const keyOf = (serial: string, reason: AttentionReason) => `${serial}:${reason.kind}`;

/**
 * The urgent reasons of `rows` not in `told`, and what is told from now: `told` with the new ones,
 * less the reasons of the instruments `judged` (their health known) that are no longer urgent — so
 * a reason that goes and comes back is told again, and one not yet judged (still loading at start)
 * is never told twice.
 */
export function urgentToTell(
  rows: readonly UrgentRow[],
  judged: ReadonlySet<string>,
  told: ReadonlySet<string>,
): { tell: UrgentToTell[]; told: string[] } {
  const urgentNow = new Set<string>();
  const tell: UrgentToTell[] = [];
  for (const row of rows)
    for (const reason of row.reasons) {
      if (reason.urgency < 3) continue;
      const key = keyOf(row.serial, reason);
      urgentNow.add(key);
      if (!told.has(key)) tell.push({ serial: row.serial, name: row.name, reason: reason.text });
    }
  const kept = [...told].filter((key) => urgentNow.has(key) || !judged.has(key.slice(0, key.indexOf(':'))));
  return { tell, told: [...new Set([...kept, ...urgentNow])].sort() };
}
