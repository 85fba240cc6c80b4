/**
 * The report's conclusion as FieldDesk drafts it from an assessment: the summary's own sentence and
 * verdicts (`summarySentence`, `verdictText` over `summaryRows`), never a verdict of its own, so the
 * conclusion cannot say other than the summary above it. The site form fills its text area with it
 * ("Draft from the results") and the report uses it while the site's own conclusion is empty.
 */
import type { AssessmentResult } from './assessment';
import {
  limitText,
  summaryRows,
  summarySentence,
  verdictText,
  worstText,
  type SummaryRow,
  type SummaryVerdict,
} from './assessment-summary';

/** The order the rows not met on every period are told in: exceeded first. */
const VERDICT_ORDER: readonly SummaryVerdict[] = ['exceeded', 'met in part', 'not assessable'];

/** "LAeq,night at QT930998 (limit 45.45 dB): exceeded on 2 of 7 stated periods; worst case 48.2 dB, …." */
function rowSentence(row: SummaryRow): string {
  const worst =
    row.verdict === 'exceeded' && row.worst !== null
      ? `; worst case ${worstText(row)}, ${row.worst.period}`
      : '';
  return `${row.figure} at ${row.serial} (limit ${limitText(row.limit, row.limitDecimals, row.unit)}): ${verdictText(row)}${worst}.`;
}

/** "LAeq,day at NM-1043 and NM-1057, Lden at NM-1043": the rows met on every period, by figure. */
function metList(rows: readonly SummaryRow[]): string {
  const byFigure = new Map<string, string[]>();
  for (const row of rows) byFigure.set(row.figure, [...(byFigure.get(row.figure) ?? []), row.serial]);
  return [...byFigure]
    .map(([figure, serials]) => {
      const list =
        serials.length === 1 ? serials[0]! : `${serials.slice(0, -1).join(', ')} and ${serials.at(-1)!}`;
      return `${figure} at ${list}`;
    })
    .join('; ');
}

/**
 * The conclusion drafted from `result`: the summary's sentence, then a line per figure that was
 * exceeded or could not be assessed on every period (exceeded first), one line naming the figures
 * met on every period. Lines are separated by a line break, as the site form and the report keep
 * them. (A rule that could not be judged is said in the summary just above, not again here.)
 */
export function draftConclusion(result: Pick<AssessmentResult, 'instruments' | 'figures'>): string {
  const rows = summaryRows(result);
  const attention = rows
    .filter((r) => r.verdict !== 'met')
    .sort((a, b) => VERDICT_ORDER.indexOf(a.verdict) - VERDICT_ORDER.indexOf(b.verdict));
  const met = rows.filter((r) => r.verdict === 'met');
  return [
    summarySentence(rows),
    ...attention.map(rowSentence),
    ...(met.length === 0 ? [] : [`Met on every period: ${metList(met)}.`]),
  ].join('\n');
}

/** The conclusion a report prints: the site's own when written, else the one drafted from the results. */
export function reportConclusion(
  written: string,
  result: Pick<AssessmentResult, 'instruments' | 'figures'>,
): { text: string; drafted: boolean } {
  const own = written.trim();
  return own === '' ? { text: draftConclusion(result), drafted: true } : { text: own, drafted: false };
}
