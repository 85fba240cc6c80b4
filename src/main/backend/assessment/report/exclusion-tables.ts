/**
 * The report's excluded periods with their reasons: every one for a period up to a month; for a
 * longer one those excluded by hand or for a failed check in full, and the rest (wind, rain, the
 * instruments' own flags) counted per month, cause and instruments.
 */
import type { AssessmentResult, ExcludedPeriod, ExclusionRuleId } from '../../../../shared/assessment';
import { countColumn, periodColumns, tableView, type ReportTableView } from './report-columns';
import { condensesChecks } from './calibration-tables';
import { durationText, MINUTE, type SiteClock } from './report-format';

const CAUSE_LABELS: Readonly<Record<ExclusionRuleId | 'manual', string>> = {
  wind: 'Wind',
  precipitation: 'Precipitation',
  failedCheck: 'Failed check',
  offline: 'Offline',
  overload: 'Overload',
  manual: 'Manual',
};

/** The order causes are listed in: the periods excluded by hand first, then by rule. */
const CAUSE_ORDER: ReadonlyArray<ExclusionRuleId | 'manual'> = [
  'manual',
  'failedCheck',
  'wind',
  'precipitation',
  'overload',
  'offline',
];

/** An excluded period as the appendix lists it: once, with every instrument it applies to. */
export interface ExclusionRow {
  start: number;
  end: number;
  cause: ExcludedPeriod['cause'];
  reason: string;
  /** "all", or the serials it applies to ("NM-1043, NM-1057"). */
  instruments: string;
}

/**
 * The excluded periods grouped as a reviewer reads them: a period the same rule excluded for
 * several instruments (the site's wind) is one row naming them all, the periods excluded by hand
 * come first, then each rule's, each in time order.
 */
export function groupedExclusions(exclusions: readonly ExcludedPeriod[]): ExclusionRow[] {
  const groups = new Map<string, ExclusionRow & { serials: Set<string> | null }>();
  for (const e of exclusions) {
    const key = `${e.cause}|${e.start}|${e.end}|${e.reason}`;
    const group = groups.get(key) ?? { ...e, instruments: '', serials: new Set<string>() };
    if (e.serial === null) group.serials = null;
    else group.serials?.add(e.serial);
    groups.set(key, group);
  }
  return [...groups.values()]
    .map(({ start, end, cause, reason, serials }) => ({
      start,
      end,
      cause,
      reason,
      instruments: serials === null ? 'all' : [...serials].join(', '),
    }))
    .sort((a, b) => CAUSE_ORDER.indexOf(a.cause) - CAUSE_ORDER.indexOf(b.cause) || a.start - b.start);
}

/**
 * The causes a long report counts per month rather than lists: the weather's and the instruments'
 * own, which a year holds thousands of. The periods excluded by hand and for a failed check are
 * always listed in full — each is a decision a reviewer reads.
 */
const COUNTED_CAUSES: ReadonlySet<ExcludedPeriod['cause']> = new Set([
  'wind',
  'precipitation',
  'offline',
  'overload',
]);

/** The periods of one cause excluded for the same instruments, starting in one month of the site's calendar. */
interface ExclusionMonth {
  monthStart: number;
  cause: ExcludedPeriod['cause'];
  instruments: string;
  periods: number;
  totalMs: number;
  longestMs: number;
}

/** Counted periods grouped per month they start in (site time), cause and instruments, in that order. */
export function exclusionMonths(rows: readonly ExclusionRow[], clock: SiteClock): ExclusionMonth[] {
  const months = new Map<string, ExclusionMonth>();
  for (const row of rows) {
    if (!COUNTED_CAUSES.has(row.cause)) continue;
    const key = `${clock.monthIso(row.start)}|${row.cause}|${row.instruments}`;
    const month = months.get(key) ?? {
      monthStart: clock.monthStart(row.start),
      cause: row.cause,
      instruments: row.instruments,
      periods: 0,
      totalMs: 0,
      longestMs: 0,
    };
    month.periods += 1;
    month.totalMs += row.end - row.start;
    month.longestMs = Math.max(month.longestMs, row.end - row.start);
    months.set(key, month);
  }
  return [...months.values()].sort(
    (a, b) =>
      a.monthStart - b.monthStart ||
      CAUSE_ORDER.indexOf(a.cause) - CAUSE_ORDER.indexOf(b.cause) ||
      a.instruments.localeCompare(b.instruments),
  );
}

/**
 * The excluded periods. A period up to a month lists every one. A longer one lists in full those
 * excluded by hand or for a failed check, and counts the rest (wind, rain, the instruments' own
 * flags) per month, cause and instruments — a year's wind alone would fill hundreds of pages.
 */
export function exclusionTables(result: AssessmentResult, clock: SiteClock): ReportTableView[] {
  const rows = groupedExclusions(result.exclusions);
  const condensed = condensesChecks(result);
  const listed = condensed ? rows.filter((row) => !COUNTED_CAUSES.has(row.cause)) : rows;
  const periods = tableView(
    'exclusions',
    'Excluded periods',
    listed,
    [
      ...periodColumns(clock),
      countColumn('Duration (min)', (e) => Math.round((e.end - e.start) / MINUTE)),
      { header: 'Instruments', value: (e) => e.instruments },
      { header: 'Cause', value: (e) => CAUSE_LABELS[e.cause] },
      { header: 'Reason', value: (e) => e.reason },
    ],
    [
      { header: 'Cause', text: (e) => CAUSE_LABELS[e.cause], weight: 10 },
      { header: 'From', text: (e) => clock.long(e.start), weight: 20 },
      { header: 'To', text: (e) => clock.long(e.end), weight: 20 },
      { header: 'Duration', text: (e) => durationText(e.end - e.start), weight: 9, align: 'right' },
      { header: 'Instruments', text: (e) => e.instruments, weight: 13 },
      { header: 'Reason', text: (e) => e.reason, weight: 28 },
    ],
  );
  if (!condensed) return [periods];
  return [
    periods,
    tableView(
      'exclusion-months',
      'Excluded by month',
      exclusionMonths(rows, clock),
      [
        { header: `Month (${clock.zone})`, value: (m) => clock.monthIso(m.monthStart) },
        { header: 'Cause', value: (m) => CAUSE_LABELS[m.cause] },
        { header: 'Instruments', value: (m) => m.instruments },
        countColumn('Periods', (m) => m.periods),
        countColumn('Excluded (min)', (m) => Math.round(m.totalMs / MINUTE)),
        countColumn('Longest (min)', (m) => Math.round(m.longestMs / MINUTE)),
      ],
      [
        { header: 'Month', text: (m) => clock.monthName(m.monthStart), weight: 10 },
        { header: 'Cause', text: (m) => CAUSE_LABELS[m.cause], weight: 12 },
        { header: 'Instruments', text: (m) => m.instruments, weight: 26 },
        { header: 'Periods', text: (m) => String(m.periods), weight: 8, align: 'right' },
        { header: 'Excluded', text: (m) => durationText(m.totalMs), weight: 12, align: 'right' },
        { header: 'Longest', text: (m) => durationText(m.longestMs), weight: 12, align: 'right' },
      ],
    ),
  ];
}
