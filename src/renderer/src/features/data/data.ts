/**
 * The historic-data screens as plain functions: time ranges and how times read in the chosen
 * zone, what a read's provenance says in words, the chart model built from typed-array
 * channels (min-max reduced so a week of 1 s samples draws at once and keeps its noise peaks),
 * and the record table (newest first, a page at a time).
 */
import type { ChartOptions } from 'chart.js';
import type {
  CellValue,
  Provenance,
  RecordTable,
  SeriesChannel,
  TimeInterval,
} from '../../../../shared/data';
import type { FieldDeskErrorData } from '../../../../shared/errors';
import {
  CHART_COLORS,
  CHART_FONT,
  lineChartBase,
  yScale,
  type ChartPoint,
  type LineDataset,
} from '../history/charts';
import { tableSlice, type TableSlice } from '../history/logic';
import { relativeTimeText } from '../../ui/time';
import type { Tone } from '../instruments/logic';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

// ---- zones and time text ---------------------------------------------------------------------

/** Times on screen are the user's choice; site time comes later. */
export type DisplayZone = 'local' | 'utc';

export const ZONE_LABELS: Readonly<Record<DisplayZone, string>> = { local: 'Local', utc: 'UTC' };

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

interface WallClock {
  year: number;
  /** 0–11 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(epochMs: number, zone: DisplayZone): WallClock {
  const d = new Date(epochMs);
  return zone === 'utc'
    ? {
        year: d.getUTCFullYear(),
        month: d.getUTCMonth(),
        day: d.getUTCDate(),
        hour: d.getUTCHours(),
        minute: d.getUTCMinutes(),
        second: d.getUTCSeconds(),
      }
    : {
        year: d.getFullYear(),
        month: d.getMonth(),
        day: d.getDate(),
        hour: d.getHours(),
        minute: d.getMinutes(),
        second: d.getSeconds(),
      };
}

const two = (n: number): string => String(n).padStart(2, '0');
const zoneSuffix = (zone: DisplayZone): string => (zone === 'utc' ? ' UTC' : '');

/** "14:05" */
export function clockIn(epochMs: number, zone: DisplayZone): string {
  const w = wallClock(epochMs, zone);
  return `${two(w.hour)}:${two(w.minute)}`;
}

/** "12 Nov" */
export function dayIn(epochMs: number, zone: DisplayZone): string {
  const w = wallClock(epochMs, zone);
  return `${w.day} ${MONTHS[w.month]}`;
}

/** "12 Nov 14:05" */
export function dayMinuteIn(epochMs: number, zone: DisplayZone): string {
  return `${dayIn(epochMs, zone)} ${clockIn(epochMs, zone)}`;
}

/** "2026-11-12 14:05:09", for table cells and tooltips. */
export function fullTimeIn(epochMs: number, zone: DisplayZone): string {
  const w = wallClock(epochMs, zone);
  return `${w.year}-${two(w.month + 1)}-${two(w.day)} ${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
}

const sameDay = (a: WallClock, b: WallClock): boolean =>
  a.year === b.year && a.month === b.month && a.day === b.day;

/** "14:05:09" */
function clockSecondsIn(epochMs: number, zone: DisplayZone): string {
  const w = wallClock(epochMs, zone);
  return `${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
}

/**
 * "12 Nov 14:00 – 18:00", or "12 Nov 22:00 – 13 Nov 02:00" across midnight; with seconds when
 * both ends fall in the same minute ("12 Nov 14:00:05 – 14:00:40").
 */
export function intervalText(interval: TimeInterval, zone: DisplayZone): string {
  const from = wallClock(interval.start, zone);
  const to = wallClock(interval.end, zone);
  if (sameDay(from, to) && clockIn(interval.start, zone) === clockIn(interval.end, zone)) {
    const start = `${dayIn(interval.start, zone)} ${clockSecondsIn(interval.start, zone)}`;
    return `${start} – ${clockSecondsIn(interval.end, zone)}${zoneSuffix(zone)}`;
  }
  const end = sameDay(from, to) ? clockIn(interval.end, zone) : dayMinuteIn(interval.end, zone);
  return `${dayMinuteIn(interval.start, zone)} – ${end}${zoneSuffix(zone)}`;
}

/**
 * A covered range, short: "12–19 Nov", "28 Oct – 3 Nov", "28 Dec 2025 – 3 Jan 2026"; under two
 * days it keeps the times ("21 Nov 14:00 – 22 Nov 14:00"). The end is exclusive, so a range
 * ending at midnight ends on the day before. The year shows when it is not `now`'s year.
 */
export function coveredText(interval: TimeInterval, zone: DisplayZone, now: number): string {
  if (interval.end - interval.start < 2 * DAY_MS) return intervalText(interval, zone);
  const from = wallClock(interval.start, zone);
  const to = wallClock(Math.max(interval.start, interval.end - 1), zone);
  const thisYear = wallClock(now, zone).year;
  const year = (w: WallClock): string => (w.year === thisYear ? '' : ` ${w.year}`);
  if (from.year !== to.year) {
    return `${from.day} ${MONTHS[from.month]} ${from.year} – ${to.day} ${MONTHS[to.month]} ${to.year}`;
  }
  if (from.month === to.month) {
    const days = from.day === to.day ? `${from.day}` : `${from.day}–${to.day}`;
    return `${days} ${MONTHS[from.month]}${year(to)}`;
  }
  return `${from.day} ${MONTHS[from.month]} – ${to.day} ${MONTHS[to.month]}${year(to)}`;
}

/** The value of an `<input type="datetime-local">` showing `epochMs` in `zone`. */
export function toInputValue(epochMs: number, zone: DisplayZone): string {
  const w = wallClock(epochMs, zone);
  return `${w.year}-${two(w.month + 1)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}`;
}

/** Reads an `<input type="datetime-local">` value as a time in `zone`; null when incomplete. */
export function fromInputValue(value: string, zone: DisplayZone): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms =
    zone === 'utc'
      ? Date.UTC(year, month - 1, day, hour, minute, second)
      : new Date(year, month - 1, day, hour, minute, second).getTime();
  return Number.isFinite(ms) ? ms : null;
}

// ---- ranges ----------------------------------------------------------------------------------

export type RangePresetId = '24h' | '7d' | '31d';

export const RANGE_PRESETS: ReadonlyArray<{ id: RangePresetId; label: string; spanMs: number }> = [
  { id: '24h', label: 'Last 24 hours', spanMs: DAY_MS },
  { id: '7d', label: 'Last 7 days', spanMs: 7 * DAY_MS },
  { id: '31d', label: 'Last 31 days', spanMs: 31 * DAY_MS },
];

export type RangeChoice =
  { kind: 'preset'; preset: RangePresetId } | { kind: 'custom'; start: number; end: number };

/** Ten years, as the contract allows. */
const MAX_SPAN_MS = 10 * 366 * DAY_MS;

/**
 * The interval a choice means now. A preset ends at the next whole minute, so reads within the
 * same minute ask for the same interval (and the cache answers them alike).
 */
export function resolveRange(choice: RangeChoice, now: number): TimeInterval {
  if (choice.kind === 'custom') return { start: choice.start, end: choice.end };
  const preset = RANGE_PRESETS.find((p) => p.id === choice.preset) ?? RANGE_PRESETS[0]!;
  const end = Math.ceil(now / MINUTE_MS) * MINUTE_MS;
  return { start: end - preset.spanMs, end };
}

/** Why a custom range cannot be used, in plain words; null when it can. */
export function customRangeProblem(start: number | null, end: number | null): string | null {
  if (start === null || end === null) return 'Enter both a start and an end.';
  if (end <= start) return 'The end must be after the start.';
  if (end - start > MAX_SPAN_MS) return 'Choose a range of at most ten years.';
  return null;
}

export function rangeChoiceText(choice: RangeChoice, zone: DisplayZone): string {
  if (choice.kind === 'preset') return RANGE_PRESETS.find((p) => p.id === choice.preset)?.label ?? '';
  return intervalText({ start: choice.start, end: choice.end }, zone);
}

// ---- provenance ------------------------------------------------------------------------------

export interface ProvenanceView {
  tone: Tone;
  icon: 'online' | 'cloud-off' | 'warning';
  text: string;
  /** When the shown copy was fetched, when it is not live (for the offline banner). */
  copyAt: number | null;
}

/** Why part of a range could not be fetched, in a few words for the brackets. */
export function missingReasonText(reason: FieldDeskErrorData): string {
  switch (reason.code) {
    case 'offline':
      return 'offline';
    case 'forbidden':
      return reason.missingScope
        ? `the key lacks ${reason.missingScope}`
        : 'the key is not allowed to read it';
    case 'unauthorized':
      return 'the service refused the key';
    case 'rateLimited':
      return 'the service asked us to slow down';
    case 'timeout':
      return 'the service did not answer in time';
    case 'serverError':
      return 'the service had an error';
    case 'cancelled':
      return 'cancelled';
    default:
      return reason.message;
  }
}

const MISSING_SHOWN = 2;

export function provenanceView(provenance: Provenance, now: number, zone: DisplayZone): ProvenanceView {
  switch (provenance.source) {
    case 'fresh':
      return {
        tone: 'ok',
        icon: 'online',
        text: `Live from the service, fetched ${clockIn(provenance.fetchedAt, zone)}${zoneSuffix(zone)}`,
        copyAt: null,
      };
    case 'cached':
      return {
        tone: 'info',
        icon: 'cloud-off',
        text: `From the cache, fetched ${relativeTimeText(provenance.cachedAt, now)} (offline copy)`,
        copyAt: provenance.cachedAt,
      };
    case 'partial': {
      const shown = provenance.missing.slice(0, MISSING_SHOWN).map((m) => intervalText(m, zone));
      const more = provenance.missing.length - shown.length;
      const missing =
        shown.length === 0 ? 'some of this range' : shown.join(', ') + (more > 0 ? ` and ${more} more` : '');
      const rest =
        provenance.cachedAt === null
          ? ''
          : `. The rest is from the cache, fetched ${relativeTimeText(provenance.cachedAt, now)}`;
      return {
        tone: 'warning',
        icon: 'warning',
        text: `Partly available: missing ${missing} (${missingReasonText(provenance.reason)})${rest}`,
        copyAt: provenance.cachedAt,
      };
    }
  }
}

/** Added to the app's offline banner while a screen shows a copy: "The data shown was fetched 2 days ago." */
export function shownCopyText(copyAt: number | null, now: number): string | null {
  return copyAt === null ? null : `The data shown was fetched ${relativeTimeText(copyAt, now)}.`;
}

// ---- chart -----------------------------------------------------------------------------------

/** High-contrast line colours, each with its own dash so lines differ without colour too. */
const SERIES_STYLES: ReadonlyArray<{ color: string; dash: number[] }> = [
  { color: CHART_COLORS.accent, dash: [] },
  { color: CHART_COLORS.text, dash: [6, 3] },
  { color: CHART_COLORS.bandHigh, dash: [2, 2] },
  { color: CHART_COLORS.ok, dash: [10, 3, 2, 3] },
  { color: CHART_COLORS.danger, dash: [] },
  { color: '#5b2a86', dash: [6, 3] },
  { color: '#00666b', dash: [2, 2] },
  { color: '#6b5200', dash: [10, 3, 2, 3] },
];

/**
 * Columns of the chart the reduction aims at: a little more than a wide canvas has pixels, so
 * min-max per column keeps every peak the screen can show.
 */
export const CHART_BUCKETS = 1600;

/**
 * Min-max reduction that keeps gaps: the time range is cut into `buckets` columns; each keeps
 * its lowest and highest reading in time order, plus a NaN where it held a missing reading, so
 * the line still breaks there. Short series are passed through as they are. (Chart.js's own
 * min-max decimation drops NaN points, which would draw lines across gaps.)
 */
export function minMaxReduce(
  times: Float64Array,
  values: Float32Array,
  range: TimeInterval,
  buckets = CHART_BUCKETS,
): ChartPoint[] {
  const count = Math.min(times.length, values.length);
  const points: ChartPoint[] = [];
  const push = (x: number, y: number): void => {
    // One NaN is enough to break the line; runs of them add nothing.
    if (Number.isNaN(y) && points.length > 0 && Number.isNaN(points[points.length - 1]!.y)) return;
    points.push({ x, y });
  };
  if (count <= 2 * buckets) {
    for (let i = 0; i < count; i++) push(times[i] as number, values[i] as number);
    return points;
  }
  const span = Math.max(1, range.end - range.start);
  let bucket = -1;
  let minIndex = -1;
  let maxIndex = -1;
  let gapIndex = -1;
  const flush = (): void => {
    const indices = [minIndex, maxIndex, gapIndex].filter((i, n, all) => i >= 0 && all.indexOf(i) === n);
    indices.sort((a, b) => a - b);
    for (const i of indices) push(times[i] as number, i === gapIndex ? Number.NaN : (values[i] as number));
  };
  for (let i = 0; i < count; i++) {
    const t = times[i] as number;
    const b = Math.min(buckets - 1, Math.max(0, Math.floor(((t - range.start) / span) * buckets)));
    if (b !== bucket) {
      flush();
      bucket = b;
      minIndex = maxIndex = gapIndex = -1;
    }
    const v = values[i] as number;
    if (Number.isNaN(v)) {
      if (gapIndex < 0) gapIndex = i;
    } else {
      if (minIndex < 0 || v < (values[minIndex] as number)) minIndex = i;
      if (maxIndex < 0 || v > (values[maxIndex] as number)) maxIndex = i;
    }
  }
  flush();
  return points;
}

/**
 * Chart.js's time axis formats in local time. To show UTC, each x is moved by the local
 * offset at that time, so the local formatter prints the UTC wall clock (within an hour of a
 * daylight-saving change the shift uses the offset before it).
 */
export function displayX(epochMs: number, zone: DisplayZone): number {
  return zone === 'utc' ? epochMs + new Date(epochMs).getTimezoneOffset() * MINUTE_MS : epochMs;
}

export interface DataChartModel {
  datasets: LineDataset[];
  options: ChartOptions<'line'>;
  /** One sentence for screen readers and the caption. */
  summary: string;
  /** Readings received, over all channels. */
  sampleCount: number;
  /** Points drawn after reduction, over all channels. */
  drawnCount: number;
}

export interface DataChartSettings {
  zone: DisplayZone;
  range: TimeInterval;
  buckets?: number;
}

const unitKey = (unit: string | null): string => unit ?? '';

export function seriesLabel(channel: Pick<SeriesChannel, 'name' | 'unit'>): string {
  return channel.unit ? `${channel.name} (${channel.unit})` : channel.name;
}

function valueText(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(Math.abs(value) < 10 ? 2 : 1);
}

/** When the first and the last reading of any channel were taken; null when there is none. */
function readingSpan(series: readonly SeriesChannel[]): TimeInterval | null {
  let first = Infinity;
  let last = -Infinity;
  for (const channel of series) {
    for (let i = 0; i < channel.values.length; i++) {
      if (Number.isNaN(channel.values[i]!)) continue;
      first = Math.min(first, channel.times[i]!);
      last = Math.max(last, channel.times[i]!);
    }
  }
  return first <= last ? { start: first, end: last } : null;
}

/**
 * "LAeq, LAFMax, 21 Nov 07:38 – 22 Nov 07:38: 24 readings each, taken 21 Nov 07:30 – 13:15.
 * 3 missing values show as breaks in the line." Saying when the readings were taken matters:
 * an instrument that stopped measuring leaves most of the chart empty, and that is not a fault.
 */
function chartSummary(
  series: readonly SeriesChannel[],
  range: TimeInterval,
  zone: DisplayZone,
  missingCount: number,
): string {
  const names = series.map((s) => s.name).join(', ');
  const span = readingSpan(series);
  if (span === null) return `${names}, ${intervalText(range, zone)}: no readings in this range.`;
  const points = Math.max(...series.map((s) => s.values.length));
  const count = `${points.toLocaleString('en-GB')} reading${points === 1 ? '' : 's'}${series.length > 1 ? ' each' : ''}`;
  const missing =
    missingCount === 0
      ? ''
      : missingCount === 1
        ? ' 1 missing value shows as a break in the line.'
        : ` ${missingCount.toLocaleString('en-GB')} missing values show as breaks in the line.`;
  return `${names}, ${intervalText(range, zone)}: ${count}, taken ${intervalText(span, zone)}.${missing}`;
}

/**
 * One line per channel on a time axis, one y axis per unit: the first unit on the left, the
 * others on the right. Channels beyond the first two units start hidden (their axis appears
 * when they are shown from the legend), so unrelated scales do not squash each other.
 */
export function buildDataChart(
  series: readonly SeriesChannel[],
  settings: DataChartSettings,
): DataChartModel {
  const { zone, range } = settings;
  const units = [...new Set(series.map((s) => unitKey(s.unit)))];
  const axisId = (unit: string | null): string => `y${units.indexOf(unitKey(unit))}`;
  let sampleCount = 0;
  let missingCount = 0;
  let drawnCount = 0;

  const datasets: LineDataset[] = series.map((channel, index) => {
    const style = SERIES_STYLES[index % SERIES_STYLES.length]!;
    const reduced = minMaxReduce(channel.times, channel.values, range, settings.buckets);
    const data = zone === 'utc' ? reduced.map((p) => ({ x: displayX(p.x, zone), y: p.y })) : reduced;
    sampleCount += channel.values.length;
    for (const v of channel.values) if (Number.isNaN(v)) missingCount++;
    drawnCount += data.length;
    return {
      label: seriesLabel(channel),
      data,
      yAxisID: axisId(channel.unit),
      hidden: units.indexOf(unitKey(channel.unit)) > 1,
      borderColor: style.color,
      backgroundColor: style.color,
      borderDash: style.dash,
      borderWidth: 2,
      pointRadius: 0,
      pointHoverRadius: 4,
      spanGaps: false,
    };
  });

  const yScales = Object.fromEntries(
    units.map((unit, i) => [
      `y${i}`,
      // 'auto': an axis whose every series is hidden hides too.
      {
        ...yScale(unit === '' ? 'Value' : unit, i === 0 ? 'left' : 'right', null, i === 0),
        display: 'auto' as const,
      },
    ]),
  );

  const options: ChartOptions<'line'> = {
    ...lineChartBase(),
    scales: {
      x: {
        type: 'time',
        min: displayX(range.start, zone),
        max: displayX(range.end, zone),
        time: {
          tooltipFormat: 'yyyy-MM-dd HH:mm:ss',
          displayFormats: { minute: 'HH:mm', hour: 'HH:mm', day: 'd MMM', month: 'MMM yyyy' },
        },
        title: {
          display: true,
          text: `Time (${ZONE_LABELS[zone]})`,
          color: CHART_COLORS.text,
          font: CHART_FONT,
        },
        // Major ticks (midnight, the 1st) carry the date, so a day boundary is never anonymous.
        ticks: {
          color: CHART_COLORS.text,
          font: (context) => (context.tick?.major ? { ...CHART_FONT, weight: 800 } : CHART_FONT),
          maxRotation: 0,
          autoSkipPadding: 20,
          major: { enabled: true },
        },
        grid: { color: CHART_COLORS.grid },
        border: { color: CHART_COLORS.text, width: 2 },
      },
      ...yScales,
    },
    plugins: {
      // Our reduction leaves fewer points than this plugin's threshold, so it only acts if a
      // canvas is far wider than expected; it is min-max too, so peaks survive either way.
      decimation: { enabled: true, algorithm: 'min-max' },
      legend: {
        position: 'bottom',
        // A short stroke of each line (not a filled box): the sample reads like the line itself.
        labels: {
          color: CHART_COLORS.text,
          font: CHART_FONT,
          usePointStyle: true,
          pointStyle: 'line',
          padding: 18,
        },
      },
      tooltip: {
        titleFont: { size: 14 },
        bodyFont: { size: 14 },
        callbacks: {
          label: (item) => {
            const y = (item.raw as ChartPoint).y;
            return `${item.dataset.label ?? ''}: ${Number.isNaN(y) ? 'no reading' : valueText(y)}`;
          },
        },
      },
    },
  };

  const summary =
    series.length === 0
      ? 'No series to draw for this dataset.'
      : chartSummary(series, range, zone, missingCount);

  return { datasets, options, summary, sampleCount, drawnCount };
}

// ---- record table ----------------------------------------------------------------------------

export const RECORD_PAGE_SIZE = 200;

type Column = RecordTable['columns'][number];

const TIME_KEYS = ['time', 'starttime', 'start', 'timestamp', 'endtime', 'end'];

const isTimeKey = (key: string): boolean => TIME_KEYS.includes(key.toLowerCase()) || /time$/i.test(key);

/** The column records are ordered by: the first of the usual time columns. */
export function timeColumnKey(table: RecordTable): string | null {
  for (const wanted of TIME_KEYS) {
    const column = table.columns.find((c) => c.key.toLowerCase() === wanted);
    if (column) return column.key;
  }
  return null;
}

/** Every column holding times (start, end, audio time…), shown as dates in the chosen zone. */
export function timeColumnKeys(table: RecordTable): Set<string> {
  return new Set(table.columns.filter((c) => isTimeKey(c.key) && c.unit === null).map((c) => c.key));
}

function timeValue(value: CellValue | undefined): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/** Rows newest first, by the time column; without one, the reverse of the order received. */
export function recordsNewestFirst(table: RecordTable): RecordTable['rows'] {
  const key = timeColumnKey(table);
  if (key === null) return [...table.rows].reverse();
  return table.rows
    .map((row, index) => ({ row, index, t: timeValue(row[key]) ?? Number.NEGATIVE_INFINITY }))
    .sort((a, b) => b.t - a.t || b.index - a.index)
    .map((entry) => entry.row);
}

/** The first `shown` rows and how many remain (see `RECORD_PAGE_SIZE`). */
export function recordSlice<T>(rows: readonly T[], shown: number): TableSlice<T> {
  return tableSlice(rows, false, shown);
}

/** A column is right-aligned when every reading in it is a number. */
export function isNumericColumn(rows: RecordTable['rows'], key: string): boolean {
  let any = false;
  for (const row of rows) {
    const value = row[key];
    if (value === null || value === undefined) continue;
    if (typeof value !== 'number') return false;
    any = true;
  }
  return any;
}

export function headerText(column: Column): string {
  return column.unit ? `${column.label} (${column.unit})` : column.label;
}

/** The "no reading" mark; never 0, never blank. */
export const NO_READING = '—';

const numberFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 4, useGrouping: false });

export function cellText(value: CellValue | undefined, isTime: boolean, zone: DisplayZone): string {
  if (value === null || value === undefined) return NO_READING;
  if (isTime) {
    const ms = timeValue(value);
    return ms === null ? String(value) : fullTimeIn(ms, zone);
  }
  if (typeof value === 'number') return Number.isNaN(value) ? NO_READING : numberFormat.format(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return value;
}
