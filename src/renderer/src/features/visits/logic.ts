/** What the visit screens say of a visit. */
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
