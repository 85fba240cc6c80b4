/**
 * The report's tables of what was measured: the figures (the results, a figure a row in the
 * spreadsheets), the exceedances grouped by figure, and the appendices' hourly noise levels and
 * noise events. A figure's value is written as `figureValueText` states it, and its number at the
 * decimals it was stated to, so the screen, PDF, workbook and CSV agree.
 */
import { unitDecimals } from '../../../../shared/assessment-units';
import type {
  AssessmentChart,
  AssessmentResult,
  Figure,
  HourlyRow,
  NoiseEventRef,
} from '../../../../shared/assessment';
import { figureStateWords, figureValueText } from '../../../../shared/figure-text';
import { limitDecimals, limitNameOf, limitText, overBy } from '../../../../shared/assessment-summary';
import { allDataText, includesExcludedTime } from '../../../../shared/assessment-hourly';
import { measuredText, recordingFileName } from './event-details';
import {
  countColumn,
  dbColumn,
  periodColumns,
  tableView,
  type Column,
  type ReportTableView,
} from './report-columns';
import {
  coveragePercent,
  isoMoment,
  isoUtc,
  limitNumberText,
  rounded,
  valueText,
  type SiteClock,
} from './report-format';
import { exceedanceGroups } from './report-summary';
import { figureResult } from './report-verdicts';

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

const dB = (value: number | null) => valueText(value, 'dB');

/** An event's length in whole seconds; null while it has no end. */
const eventSeconds = (e: NoiseEventRef) => (e.end === null ? null : Math.round((e.end - e.start) / 1000));

/** A number of a figure at the decimals it is stated to. */
const figureNumber = <R>(
  header: string,
  get: (row: R) => number | null,
  figure: (row: R) => Figure,
): Column<R> => ({
  header,
  value: (row) => rounded(get(row), figure(row).decimals),
  decimals: (row) => figure(row).decimals,
});

/** The results (figures), a figure a row; the PDF tabulates them per instrument and day instead. */
export function figuresTable(result: AssessmentResult, clock: SiteClock): ReportTableView {
  const self = (f: Figure) => f;
  return tableView(
    'results',
    'Results',
    result.figures,
    [
      { header: 'Serial', value: (f) => f.serial },
      { header: 'Figure', value: (f) => f.label },
      { header: 'Period', value: (f) => f.period },
      ...periodColumns<Figure>(clock),
      { header: 'Stated', value: (f) => figureValueText(f) },
      figureNumber('With exclusions', (f) => (f.state === 'ok' ? f.valid : null), self),
      figureNumber('All data', (f) => f.all, self),
      { header: 'Unit', value: (f) => f.unit },
      { header: 'State', value: (f) => figureStateWords(f) },
      { header: 'Coverage (%)', value: (f) => coveragePercent(f.coverage), decimals: () => 1 },
      { header: 'Limit', value: (f) => f.limit, decimals: (f) => limitDecimals(f.limit ?? 0, f.decimals) },
      { header: 'Limit basis', value: (f) => limitNameOf(f) },
      { header: 'Result', value: (f) => figureResult(f) || null },
      {
        header: 'Time of the value (UTC)',
        value: (f) => (f.at === undefined ? null : isoMoment(f.at, f.atStepMs)),
      },
      { header: 'Method', value: (f) => f.method },
      { header: 'Detail', value: (f) => f.detail ?? null },
    ],
    null,
  );
}

/**
 * When an exceedance's value was reached, in words: the moment of a highest value (PPV, LAFMax) to
 * its data's resolution; for a level averaged over its period, its loudest hour that had enough
 * data kept ("loudest hour 14:00–15:00, 68.2 dB"); otherwise that the value is the period's own.
 */
function reachedText(result: AssessmentResult, figure: Figure, clock: SiteClock): string {
  if (figure.at !== undefined) return clock.moment(figure.at, figure.atStepMs);
  const loudest = figure.source.channel === 'LAeq' ? loudestHour(result, figure) : null;
  if (loudest !== null && loudest.laeqValid !== null)
    return `loudest hour ${clock.moment(loudest.start, loudest.end - loudest.start)}, ${dB(loudest.laeqValid)} dB`;
  return 'the period as a whole';
}

/** The figure's hour with the highest LAeq kept (enough of the hour kept), within its period. */
function loudestHour(result: AssessmentResult, figure: Figure): HourlyRow | null {
  let loudest: HourlyRow | null = null;
  for (const hour of result.hourly) {
    if (hour.serial !== figure.serial || hour.start < figure.start || hour.end > figure.end) continue;
    if (!hour.sufficient || hour.laeqValid === null) continue;
    if (loudest === null || hour.laeqValid > loudest.laeqValid!) loudest = hour;
  }
  return loudest;
}

/** The exceedances of stated figures, grouped by figure (see `exceedanceGroups`). */
export function exceedancesTable(result: AssessmentResult, clock: SiteClock): ReportTableView {
  const items = exceedanceGroups(result).flatMap((g) => g.items);
  const self = (f: Figure) => f;
  const limitPlaces = (f: Figure) => limitDecimals(f.limit!, f.decimals);
  return tableView(
    'exceedances',
    'Exceedances',
    items,
    [
      { header: 'Figure', value: (f) => f.label },
      { header: 'Serial', value: (f) => f.serial },
      { header: 'Period', value: (f) => f.period },
      ...periodColumns<Figure>(clock),
      { header: 'Reached at (UTC)', value: (f) => (f.at === undefined ? null : isoMoment(f.at, f.atStepMs)) },
      { header: 'Reached', value: (f) => reachedText(result, f, clock) },
      figureNumber('Value', (f) => f.valid, self),
      { header: 'Limit', value: (f) => f.limit, decimals: limitPlaces },
      { header: 'Limit basis', value: (f) => limitNameOf(f) },
      { header: 'Over by', value: (f) => overBy(f), decimals: limitPlaces },
      { header: 'Unit', value: (f) => f.unit },
      { header: 'Coverage (%)', value: (f) => coveragePercent(f.coverage), decimals: () => 1 },
    ],
    [
      { header: 'Figure', text: (f) => f.label, weight: 11 },
      { header: 'Instrument', text: (f) => f.serial, weight: 10 },
      { header: 'Period', text: (f) => f.period, weight: 27 },
      { header: 'Reached', text: (f) => reachedText(result, f, clock), weight: 18 },
      { header: 'Value', text: (f) => figureValueText(f), weight: 10, align: 'right' },
      { header: 'Limit', text: (f) => limitText(f.limit!, f.decimals, f.unit), weight: 10, align: 'right' },
      {
        header: 'Over by',
        text: (f) => overBy(f)!.toFixed(limitPlaces(f)),
        weight: 8,
        align: 'right',
      },
    ],
  );
}

/**
 * Appendix: the hourly noise levels, every level with the hour's excluded time left out as the
 * figures are formed, then how much was excluded and kept, and last the all-data LAeq, marked where
 * it includes excluded time (the spreadsheets say so in a column of their own).
 */
export function hourlyTable(result: AssessmentResult, clock: SiteClock): ReportTableView {
  return tableView(
    'hourly-levels',
    'Hourly levels',
    result.hourly,
    [
      { header: 'Serial', value: (h) => h.serial },
      { header: 'Hour start (UTC)', value: (h) => isoUtc(h.start) },
      { header: `Hour start (${clock.zone})`, value: (h) => clock.iso(h.start) },
      dbColumn('LAeq (dB)', (h) => h.laeqValid),
      dbColumn('LAFMax (dB)', (h) => h.lafmax),
      dbColumn('LA10 (dB)', (h) => h.la10),
      dbColumn('LA90 (dB)', (h) => h.la90),
      countColumn('Excluded (min)', (h) => h.excludedMinutes),
      countColumn('Kept (%)', (h) => coveragePercent(h.coverage)),
      dbColumn('LAeq all data (dB)', (h) => h.laeq),
      { header: 'All data includes excluded time', value: (h) => yesNo(includesExcludedTime(h)) },
    ],
    [
      { header: 'Instrument', text: (h) => h.serial, weight: 10 },
      { header: 'Hour', text: (h) => `${clock.short(h.start)}–${clock.hhmm(h.end)}`, weight: 20 },
      { header: 'LAeq (dB)', text: (h) => dB(h.laeqValid), weight: 9, align: 'right' },
      { header: 'LAFMax (dB)', text: (h) => dB(h.lafmax), weight: 9, align: 'right' },
      { header: 'LA10 (dB)', text: (h) => dB(h.la10), weight: 9, align: 'right' },
      { header: 'LA90 (dB)', text: (h) => dB(h.la90), weight: 9, align: 'right' },
      { header: 'Excluded (min)', text: (h) => String(h.excludedMinutes), weight: 8, align: 'right' },
      { header: 'Kept (%)', text: (h) => String(coveragePercent(h.coverage)), weight: 6, align: 'right' },
      { header: 'LAeq all data (dB)', text: (h) => allDataText(h, dB), weight: 10, align: 'right' },
    ],
  );
}

/**
 * Appendix: the noise events, each with its trigger (the threshold that started it, said as the
 * trigger), the levels the instrument measured over it and its recording's file name.
 */
export function eventsTable(result: AssessmentResult, clock: SiteClock): ReportTableView {
  return tableView(
    'noise-events',
    'Noise events',
    [...result.events].sort((a, b) => a.start - b.start || a.serial.localeCompare(b.serial)),
    [
      { header: 'Serial', value: (e) => e.serial },
      { header: 'Start (UTC)', value: (e) => isoUtc(e.start) },
      { header: `Start (${clock.zone})`, value: (e) => clock.iso(e.start) },
      { header: 'End (UTC)', value: (e) => (e.end === null ? null : isoUtc(e.end)) },
      countColumn('Duration (s)', eventSeconds),
      { header: 'Trigger', value: (e) => e.trigger },
      dbColumn('Trigger level (dB)', (e) => e.level),
      // Named as the service names the list ("overall"); what each value is, it does not document.
      { header: 'Overall values (dB)', value: (e) => (e.measured?.length ? measuredText(e) : null) },
      { header: 'At night', value: (e) => yesNo(e.atNight) },
      { header: 'Excluded', value: (e) => yesNo(e.excluded) },
      { header: 'Recording (file name)', value: (e) => recordingFileName(e) ?? 'no recording' },
    ],
    [
      { header: 'Instrument', text: (e) => e.serial, weight: 9 },
      { header: 'Time', text: (e) => clock.seconds(e.start), weight: 18 },
      {
        header: 'Duration',
        text: (e) => (e.end === null ? '—' : `${eventSeconds(e)} s`),
        weight: 7,
        align: 'right',
      },
      { header: 'Trigger', text: (e) => e.trigger, weight: 17 },
      { header: 'Overall values (dB)', text: measuredText, weight: 12 },
      { header: 'Night', text: (e) => yesNo(e.atNight), weight: 5 },
      { header: 'Excluded', text: (e) => yesNo(e.excluded), weight: 7 },
      { header: 'Recording', text: (e) => recordingFileName(e) ?? 'no recording', weight: 25 },
    ],
  );
}

/** A reading a chart draws, with its chart. */
interface ChartPoint {
  chart: AssessmentChart;
  time: number;
  value: number | null;
}

/**
 * The readings each chart draws, a reading a row with the chart's limits beside it, so the
 * spreadsheets hold what the PDF's charts show (the PDF draws them; it prints no table of them).
 */
export function chartsTable(result: AssessmentResult, clock: SiteClock): ReportTableView {
  const points = result.charts.flatMap((chart) =>
    chart.times.map((time, i): ChartPoint => ({ chart, time, value: chart.values[i] ?? null })),
  );
  return tableView(
    'charts',
    'Charts',
    points,
    [
      { header: 'Serial', value: (p) => p.chart.serial },
      { header: 'Chart', value: (p) => p.chart.title },
      { header: 'Reading start (UTC)', value: (p) => isoUtc(p.time) },
      { header: `Reading start (${clock.zone})`, value: (p) => clock.iso(p.time) },
      {
        header: 'Value',
        value: (p) => (p.value === null ? null : rounded(p.value, unitDecimals(p.chart.unit, p.value))),
        decimals: (p) => unitDecimals(p.chart.unit, p.value ?? 0),
      },
      { header: 'Unit', value: (p) => p.chart.unit },
      {
        header: 'Limits drawn',
        value: (p) =>
          p.chart.limits
            .map((l) => `${l.label} ${limitNumberText(l.value, p.chart.unit)} ${p.chart.unit}`)
            .join('; ') || null,
      },
    ],
    null,
  );
}
