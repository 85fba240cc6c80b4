/**
 * The report's tables of what was measured: the figures with and without the excluded time against
 * their limits, the exceedances, the hourly noise levels and the noise events.
 */
import type { AssessmentResult, Figure, NoiseEventRef } from '../../../../shared/assessment';
import {
  countColumn,
  dbColumn,
  periodColumns,
  tableView,
  unitColumn,
  type ReportTableView,
} from './report-columns';
import { coveragePercent, isoUtc, valueText, type SiteClock } from './report-format';
import { figureResult } from './report-verdicts';

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

const dB = (value: number | null) => valueText(value, 'dB');

/** An event's length in whole seconds; null while it has no end. */
const eventSeconds = (e: NoiseEventRef) => (e.end === null ? null : Math.round((e.end - e.start) / 1000));

/**
 * Figures, exceedances, hourly levels and noise events. The figures are a figure a row in the
 * spreadsheets only: the PDF tabulates them per instrument and day (`pdf-figures.ts`).
 */
export function levelTables(result: AssessmentResult, clock: SiteClock): ReportTableView[] {
  const site = clock.zone;
  const withUnit = (value: number, unit: string) => `${valueText(value, unit)} ${unit}`;

  return [
    tableView(
      'figures',
      'Figures',
      result.figures,
      [
        { header: 'Serial', value: (f) => f.serial },
        { header: 'Figure', value: (f) => f.label },
        { header: 'Period', value: (f) => f.period },
        ...periodColumns<Figure>(clock),
        unitColumn('With exclusions', (f) => f.valid),
        unitColumn('All data', (f) => f.all),
        { header: 'Unit', value: (f) => f.unit },
        { header: 'Coverage (%)', value: (f) => coveragePercent(f.coverage), decimals: () => 1 },
        unitColumn('Limit', (f) => f.limit),
        { header: 'Result', value: (f) => figureResult(f) || null },
        { header: 'Method', value: (f) => f.method },
        { header: 'Detail', value: (f) => f.detail ?? null },
      ],
      null,
    ),

    tableView(
      'exceedances',
      'Exceedances',
      result.exceedances,
      [
        { header: 'Serial', value: (e) => e.serial },
        { header: 'Figure', value: (e) => e.label },
        { header: 'Period', value: (e) => e.period },
        ...periodColumns(clock),
        unitColumn('Value', (e) => e.value),
        unitColumn('Limit', (e) => e.limit),
        unitColumn('Over by', (e) => e.value - e.limit),
        { header: 'Unit', value: (e) => e.unit },
      ],
      [
        { header: 'Instrument', text: (e) => e.serial, weight: 9 },
        { header: 'Figure', text: (e) => e.label, weight: 10 },
        { header: 'Period', text: (e) => e.period, weight: 22 },
        { header: 'From', text: (e) => clock.short(e.start), weight: 14 },
        { header: 'To', text: (e) => clock.short(e.end), weight: 14 },
        { header: 'Value', text: (e) => withUnit(e.value, e.unit), weight: 10, align: 'right' },
        { header: 'Limit', text: (e) => withUnit(e.limit, e.unit), weight: 10, align: 'right' },
        { header: 'Over by', text: (e) => valueText(e.value - e.limit, e.unit), weight: 9, align: 'right' },
      ],
    ),

    tableView(
      'hourly',
      'Hourly levels',
      result.hourly,
      [
        { header: 'Serial', value: (h) => h.serial },
        { header: 'Hour start (UTC)', value: (h) => isoUtc(h.start) },
        { header: `Hour start (${site})`, value: (h) => clock.iso(h.start) },
        dbColumn('LAeq (dB)', (h) => h.laeq),
        dbColumn('LAeq without excluded time (dB)', (h) => h.laeqValid),
        dbColumn('LAFMax (dB)', (h) => h.lafmax),
        dbColumn('LA10 (dB)', (h) => h.la10),
        dbColumn('LA90 (dB)', (h) => h.la90),
        countColumn('Excluded (min)', (h) => h.excludedMinutes),
      ],
      [
        { header: 'Instrument', text: (h) => h.serial, weight: 12 },
        { header: 'Hour', text: (h) => `${clock.short(h.start)}–${clock.hhmm(h.end)}`, weight: 22 },
        { header: 'LAeq (dB)', text: (h) => dB(h.laeq), weight: 9, align: 'right' },
        { header: 'LAeq without excluded (dB)', text: (h) => dB(h.laeqValid), weight: 13, align: 'right' },
        { header: 'LAFMax (dB)', text: (h) => dB(h.lafmax), weight: 9, align: 'right' },
        { header: 'LA10 (dB)', text: (h) => dB(h.la10), weight: 9, align: 'right' },
        { header: 'LA90 (dB)', text: (h) => dB(h.la90), weight: 9, align: 'right' },
        { header: 'Excluded (min)', text: (h) => String(h.excludedMinutes), weight: 10, align: 'right' },
      ],
    ),

    tableView(
      'events',
      'Noise events',
      [...result.events].sort((a, b) => a.start - b.start),
      [
        { header: 'Serial', value: (e) => e.serial },
        { header: 'Start (UTC)', value: (e) => isoUtc(e.start) },
        { header: `Start (${site})`, value: (e) => clock.iso(e.start) },
        { header: 'End (UTC)', value: (e) => (e.end === null ? null : isoUtc(e.end)) },
        countColumn('Duration (s)', eventSeconds),
        dbColumn('Level (dB)', (e) => e.level),
        { header: 'Trigger', value: (e) => e.trigger },
        { header: 'At night', value: (e) => yesNo(e.atNight) },
        { header: 'Excluded', value: (e) => yesNo(e.excluded) },
        { header: 'Audio', value: (e) => e.audioId ?? 'no recording' },
      ],
      [
        { header: 'Instrument', text: (e) => e.serial, weight: 10 },
        { header: 'Time', text: (e) => clock.seconds(e.start), weight: 16 },
        {
          header: 'Duration',
          text: (e) => (e.end === null ? '—' : `${eventSeconds(e)} s`),
          weight: 8,
          align: 'right',
        },
        { header: 'Level (dB)', text: (e) => dB(e.level), weight: 9, align: 'right' },
        { header: 'Trigger', text: (e) => e.trigger, weight: 21 },
        { header: 'At night', text: (e) => yesNo(e.atNight), weight: 7 },
        { header: 'Excluded', text: (e) => yesNo(e.excluded), weight: 8 },
        { header: 'Audio', text: (e) => e.audioId ?? 'no recording', weight: 14 },
      ],
    ),
  ];
}
