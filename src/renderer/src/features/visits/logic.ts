/** What the visit screens say of a visit, and the arrival time's input field in the computer's zone. */
import type { SiteVisit, VisitSummary } from '../../../../shared/visits';

/** "Mill Lane" for a site's visit, else the instruments: "North gate (QT930998)". */
export function visitTitleText(visit: Pick<SiteVisit, 'site' | 'instruments'>): string {
  if (visit.site !== null) return visit.site.name;
  return visit.instruments
    .map((i) => (i.name === '' || i.name === i.serial ? i.serial : `${i.name} (${i.serial})`))
    .join(', ');
}

/** "2 issues · 1 unanswered · 3 photos", or "All checked" — what a list row says was found. */
export function visitFindingsText(summary: Pick<VisitSummary, 'issues' | 'open' | 'photos'>): string {
  const parts: string[] = [];
  if (summary.issues > 0) parts.push(`${summary.issues} ${summary.issues === 1 ? 'issue' : 'issues'}`);
  if (summary.open > 0) parts.push(`${summary.open} unanswered`);
  if (parts.length === 0) parts.push('All checked');
  if (summary.photos > 0) parts.push(`${summary.photos} ${summary.photos === 1 ? 'photo' : 'photos'}`);
  return parts.join(' · ');
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The value of a `datetime-local` input for an instant, in the computer's zone, to the minute. */
export function localInputValue(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The instant a `datetime-local` value names in the computer's zone; null when it is not one. */
export function fromLocalInput(value: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (match === null) return null;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const time = new Date(y, mo - 1, d, h, mi).getTime();
  return Number.isFinite(time) ? time : null;
}
