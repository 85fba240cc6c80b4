/**
 * The data chart as plain data: one line per typed-array channel, min-max reduced so a week of
 * 1 s samples draws at once and keeps its noise peaks, with an axis per unit.
 */
import type { ChartOptions } from 'chart.js';
import type { SeriesChannel, TimeInterval } from '../../../../shared/data';
import {
  CHART_COLORS,
  CHART_FONT,
  lineChartBase,
  TIME_AXIS_FORMATS,
  yScale,
  type ChartPoint,
  type LineDataset,
} from '../../ui/chart-base';
import { intervalText, MINUTE_MS, ZONE_LABELS, type DisplayZone } from '../../ui/time';
import { countOf } from '../../ui/words';

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
  const count = `${countOf(points, 'reading')}${series.length > 1 ? ' each' : ''}`;
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
          displayFormats: TIME_AXIS_FORMATS,
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
