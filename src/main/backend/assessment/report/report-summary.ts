/**
 * The report's exceedances sections, formed from the summary's own list (`summaryRows(...).over`),
 * so the summary counts exactly the periods the sections list: grouped by the figure's label in the
 * order the labels first appear, and by instrument and time within a group.
 */
import type { AssessmentResult, Figure } from '../../../../shared/assessment';
import { summaryRows } from '../../../../shared/assessment-summary';

export function exceedanceGroups(result: AssessmentResult): Array<{ label: string; items: Figure[] }> {
  const groups = new Map<string, Figure[]>();
  for (const figure of summaryRows(result).flatMap((row) => row.over)) {
    groups.set(figure.label, [...(groups.get(figure.label) ?? []), figure]);
  }
  const order = [...new Set(result.figures.map((f) => f.label))];
  const serials = result.instruments.map((i) => i.serial);
  return [...groups]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([label, items]) => ({
      label,
      items: items.sort((a, b) => serials.indexOf(a.serial) - serials.indexOf(b.serial) || a.start - b.start),
    }));
}
