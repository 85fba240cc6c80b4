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
  TIME_TICKS,
  yScale,
  type ChartPoint,
  type LineDataset,
} from '../../ui/chart-base';
import { intervalText, zoneName, zoneOptions, type DisplayZone } from '../../ui/time';
import { evenTimeTicks } from '../../ui/time-ticks';
import { countOf } from '../../ui/words';
import { channelFigures, type ChannelFigures } from '../../../../shared/series-figures';
import { compassPoint, isWindDirection, windArrows } from './wind';
import { quantityOf, quantityValueText } from '../../../../shared/quantities';
import {
  atLeastSpan,
  bandStyle,
  hasBreak,
  isolatedReadings,
  MIN_DB_SPAN,
  reducedPoints,
  seriesStyle,
  type LineStyle,
} from './chart-points';

export interface DataChartModel {
  datasets: LineDataset[];
  options: ChartOptions<'line'>;
  /** One sentence for screen readers and the caption. */
  summary: string;
  /** Readings in the range, over all channels (from every reading, not the points drawn). */
  sampleCount: number;
  /** Points drawn after reduction, over all channels. */
  drawnCount: number;
}

export interface DataChartSettings {
  zone: DisplayZone;
  range: TimeInterval;
  /** For the summary's dates: a range within this day says only its times. */
  now: number;
  buckets?: number;
  /** The figures of every reading when the backend reduced the series; computed here otherwise. */
  figures?: readonly ChannelFigures[];
  /**
   * Readings as points, not joined: records taken now and then (calibrations, SICs), where a line
   * between two weeks apart would draw values nobody measured.
   */
  pointsOnly?: boolean;
  /**
   * Comparing instruments: each channel's line by name (colour per instrument, dash per value), and
   * no legend on the canvas (the card draws one grouped by instrument).
   */
  styles?: Readonly<Record<string, LineStyle>>;
  /** The channels are frequency bands, in order: each its own colour along the spectrum (bandStyle). */
  bands?: boolean;
}

const unitKey = (unit: string | null): string => unit ?? '';

/** Wind arrows across a chart: about one per 16 px of a laptop-wide plot, so they never overlap. */
const WIND_ARROW_COUNT = 72;

/** Wind direction as arrows (drawn by the windArrows plugin), no line: 359° and 1° are neighbours. */
function windArrowDataset(label: string, data: ChartPoint[]): LineDataset {
  return {
    label: `${label}, arrows point downwind`,
    data,
    showLine: false,
    borderColor: CHART_COLORS.accent,
    backgroundColor: CHART_COLORS.accent,
    // The plugin draws the arrows; the invisible points still answer the tooltip.
    pointRadius: 0,
    pointHoverRadius: 0,
    pointHitRadius: 10,
    spanGaps: false,
  };
}

/** A direction axis as a compass: where the wind comes from, north at the bottom and top. */
const COMPASS_AXIS = {
  min: 0,
  max: 360,
  title: { display: true, text: 'Wind from', color: CHART_COLORS.text, font: CHART_FONT },
  ticks: {
    color: CHART_COLORS.text,
    font: CHART_FONT,
    stepSize: 90,
    callback: (value: number | string) => compassPoint(Number(value)),
  },
};

/** One chart's worth of channels: those of one unit, so each axis shows one quantity. */
export interface ChartGroup {
  key: string;
  /** "PPV X, PPV Y, PPV Z"; a long list as its first and last ("31.5 Hz … 16 kHz"); or the group's name. */
  title: string;
  /** The channels drawn (of a named group, those shown). */
  series: SeriesChannel[];
  /** The figures of these channels, when the backend sent figures. */
  figures?: ChannelFigures[];
  /** Of a named group with more than one channel: each channel, and whether it is drawn. */
  choices?: MetricChoice[];
}

export interface MetricChoice {
  name: string;
  label: string;
  shown: boolean;
}

/**
 * Whether a channel is drawn: as the user chose, or else unless it is one shown on request.
 * `shown` holds the user's choices by channel name.
 */
export const isShown = (channel: SeriesChannel, shown: Readonly<Record<string, boolean>>): boolean =>
  shown[channel.name] ?? channel.onRequest !== true;

/**
 * The channels split by what they measure — their unit, or their quantity where the unit does not
 * tell (a calibration offset apart from the level) — in the order they first appear. Channels the
 * backend put in a named group (system health: "Compute", "Network" …) share that group's chart,
 * an axis per unit, drawing those shown (see `isShown`); the others are a choice away.
 */
export function chartGroups(
  series: readonly SeriesChannel[],
  figures?: readonly ChannelFigures[],
  shown: Readonly<Record<string, boolean>> = {},
): ChartGroup[] {
  const groups = new Map<string, SeriesChannel[]>();
  for (const channel of series) {
    const key =
      channel.group === undefined
        ? `${unitKey(channel.unit)}|${channel.quantity ?? ''}`
        : `group|${channel.group}`;
    groups.set(key, [...(groups.get(key) ?? []), channel]);
  }
  return [...groups].map(([key, all]) => {
    const named = all[0]!.group;
    const channels = named === undefined ? all : all.filter((c) => isShown(c, shown));
    const labels = channels.map((c) => c.label ?? c.name);
    const names = labels.length > 4 ? `${labels[0]} … ${labels[labels.length - 1]}` : labels.join(', ');
    const unit = channels[0]?.unit;
    const title = named ?? (unit ? `${names} (${unit})` : names);
    const choices =
      named !== undefined && all.length > 1
        ? all.map((c) => ({ name: c.name, label: seriesLabel(c), shown: isShown(c, shown) }))
        : undefined;
    return {
      key,
      title,
      series: channels,
      ...(figures === undefined
        ? {}
        : { figures: figures.filter((f) => channels.some((c) => c.name === f.name)) }),
      ...(choices === undefined ? {} : { choices }),
    };
  });
}

export function seriesLabel(channel: Pick<SeriesChannel, 'name' | 'label' | 'unit'>): string {
  const name = channel.label ?? channel.name;
  return channel.unit ? `${name} (${channel.unit})` : name;
}

/**
 * "LAeq, LAFMax, 21 Nov 2026 07:38 – 22 Nov 2026 07:38: 24 readings each, taken 21 Nov 2026 07:30 –
 * 13:15. Gaps in the readings show as breaks in the line." Counted from every reading (the figures), never from
 * the points drawn or the gap markers. Saying when the readings were taken matters: an instrument
 * that stopped measuring leaves most of the chart empty, and that is not a fault.
 */
function chartSummary(
  figures: readonly ChannelFigures[],
  range: TimeInterval,
  zone: DisplayZone,
  now: number,
  hasGaps: boolean,
): string {
  const names = figures.map((f) => f.label).join(', ');
  const firsts = figures.flatMap((f) => (f.first === null ? [] : [f.first]));
  const lasts = figures.flatMap((f) => (f.last === null ? [] : [f.last]));
  const when = intervalText(range, zone, now);
  if (firsts.length === 0) return `${names}, ${when}: no readings in this range.`;
  const span = { start: Math.min(...firsts), end: Math.max(...lasts) };
  const counts = figures.map((f) => f.readings);
  const [fewest, most] = [Math.min(...counts), Math.max(...counts)];
  const count =
    fewest === most
      ? `${countOf(most, 'reading')}${figures.length > 1 ? ' each' : ''}`
      : `${fewest.toLocaleString('en-GB')}–${most.toLocaleString('en-GB')} readings`;
  const gaps = hasGaps ? ' Gaps in the readings show as breaks in the line.' : '';
  return `${names}, ${when}: ${count}, taken ${intervalText(span, zone, now)}.${gaps}`;
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
  const figures = settings.figures ?? series.map((channel) => channelFigures(channel, range));
  let hasGaps = false;
  let drawnCount = 0;
  // Readings between whole seconds (an event's 100 ms time history) are told apart in the tooltip.
  let subSecond = false;
  // Each line's readings in the tooltip at their channel's precision, as the figures and tables write them.
  const precisions = series.map((channel) => quantityOf(channel).precision);

  const datasets: LineDataset[] = series.map((channel, index) => {
    const style =
      settings.styles?.[channel.name] ??
      (settings.bands ? bandStyle(index, series.length) : seriesStyle(index));
    if (isWindDirection(channel)) {
      const data = windArrows(channel.times, channel.values, range, WIND_ARROW_COUNT);
      drawnCount += data.length;
      return {
        ...windArrowDataset(seriesLabel(channel), data),
        yAxisID: axisId(channel.unit),
        hidden: units.indexOf(unitKey(channel.unit)) > 1,
      };
    }
    const data = reducedPoints(channel.times, channel.values, range, settings.buckets);
    hasGaps ||= hasBreak(data);
    subSecond ||= data.some((point) => point.x % 1000 !== 0);
    const isolated = new Set(isolatedReadings(data));
    drawnCount += data.length;
    return {
      label: seriesLabel(channel),
      data,
      yAxisID: axisId(channel.unit),
      // A named group's channels were chosen one by one (system health): all of them are drawn.
      hidden: channel.group === undefined && units.indexOf(unitKey(channel.unit)) > 1,
      borderColor: style.color,
      backgroundColor: style.color,
      borderDash: style.dash,
      borderWidth: 2,
      ...(settings.pointsOnly ? { showLine: false } : {}),
      // A reading with no reading beside it draws no line: it gets a dot, so it is never invisible.
      pointRadius: settings.pointsOnly
        ? 5
        : isolated.size === 0
          ? 0
          : (context: { dataIndex: number }) => (isolated.has(context.dataIndex) ? 4 : 0),
      pointHoverRadius: 4,
      spanGaps: false,
    };
  });

  const yScales = Object.fromEntries(
    units.map((unit, i) => [
      `y${i}`,
      // 'auto': an axis whose every series is hidden hides too.
      {
        ...yScale(
          unit === '' ? 'Value' : unit,
          i === 0 ? 'left' : 'right',
          unit === 'dB'
            ? atLeastSpan(
                figures.filter((f) => unitKey(f.unit) === unit),
                MIN_DB_SPAN,
              )
            : null,
          i === 0,
        ),
        display: 'auto' as const,
      },
    ]),
  );

  // The direction axis reads as a compass, 0–360° from north.
  const windIndexes = series.flatMap((channel, i) => (isWindDirection(channel) ? [i] : []));
  for (const i of windIndexes) Object.assign(yScales[axisId(series[i]!.unit)]!, COMPASS_AXIS);

  const options: ChartOptions<'line'> = {
    ...lineChartBase(),
    scales: {
      x: {
        type: 'time',
        min: range.start,
        max: range.end,
        // Ticks, steps and labels in the zone shown (see ui/chart-time-zone.ts), evenly spaced.
        adapters: { date: zoneOptions(zone) },
        ...evenTimeTicks(zone),
        time: {
          tooltipFormat: subSecond ? 'yyyy-MM-dd HH:mm:ss.S' : 'yyyy-MM-dd HH:mm:ss',
          displayFormats: TIME_AXIS_FORMATS,
        },
        title: {
          display: true,
          text: `Time (${zoneName(zone, range.end)})`,
          color: CHART_COLORS.text,
          font: CHART_FONT,
        },
        // Major ticks (midnight, the 1st) carry the date, so a day boundary is never anonymous.
        ticks: { color: CHART_COLORS.text, ...TIME_TICKS },
        grid: { color: CHART_COLORS.grid },
        border: { color: CHART_COLORS.text, width: 2 },
      },
      ...yScales,
    },
    plugins: {
      // Our reduction leaves fewer points than this plugin's threshold, so it only acts if a
      // canvas is far wider than expected; it is min-max too, so peaks survive either way.
      decimation: { enabled: true, algorithm: 'min-max' },
      // Thousands of points a line: stroked in pieces, which a software canvas draws at once.
      chunkedLines: true,
      windArrows: windIndexes.length > 0 && { datasetIndexes: windIndexes, color: CHART_COLORS.accent },
      legend: {
        display: settings.styles === undefined,
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
            if (windIndexes.includes(item.datasetIndex))
              return `Wind from ${compassPoint(y)} (${Math.round(y)}°)`;
            const precision = precisions[item.datasetIndex] ?? null;
            return `${item.dataset.label ?? ''}: ${Number.isNaN(y) ? 'no reading' : quantityValueText(y, precision)}`;
          },
        },
      },
    },
  };

  const summary =
    series.length === 0
      ? 'No series to draw for this dataset.'
      : chartSummary(figures, range, zone, settings.now, hasGaps);
  const sampleCount = figures.reduce((sum, f) => sum + f.readings, 0);

  return { datasets, options, summary, sampleCount, drawnCount };
}
