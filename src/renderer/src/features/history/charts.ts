/**
 * Chart.js datasets and options for the instrument's history, built as plain data so tests can
 * check them. Points are `{ x: epoch ms, y }` in time order (the charts run with `parsing: false`
 * and `normalized: true`). Values far off the scale are drawn at its edge and counted, so one
 * "no calibrator" reading of 45 dB does not flatten the drift everyone is looking for.
 */
import type { ChartOptions } from 'chart.js';
import { dbText } from '../../../../shared/format';
import type { CalibrationRecord, SicRecord } from '../../../../shared/operations';
import { minuteTimeText } from '../../ui/time';
import { countOf } from '../../ui/words';
import {
  CHART_COLORS,
  CHART_FONT,
  lineChartBase,
  TIME_AXIS_FORMATS,
  yScale,
  type AxisRange,
  type ChartPoint,
  type LineDataset,
} from '../../ui/chart-base';

/**
 * Axis ids. Not `offset`: Chart.js resolves scale ids through its scale defaults, where
 * `offset` is an option (false), and the chart then fails to start.
 */
export const LEVEL_AXIS = 'yLevel';
export const OFFSET_AXIS = 'yOffset';

const isSuccess = (status: string): boolean => status.trim().toLowerCase() === 'success';

const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

const ceilTo = (value: number, step: number): number => Math.ceil(value / step - 1e-9) * step;

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The offset axis: symmetric around 0, at least twice the tolerance so the band reads as a band,
 * and wide enough for offsets up to four tolerances; anything further is drawn at the edge.
 */
export function offsetAxisRange(offsets: readonly number[], toleranceDb: number): AxisRange {
  const near = offsets.filter((o) => Math.abs(o) <= 4 * toleranceDb).map(Math.abs);
  const widest = near.length === 0 ? 0 : Math.max(...near);
  const bound = ceilTo(Math.max(2 * toleranceDb, widest * 1.1), 0.1);
  return { min: -bound, max: bound };
}

/** The calibrator levels FieldDesk knows (dB). */
const REFERENCE_LEVELS = [94, 114] as const;

/**
 * The reference level the calibrations were made against: 94 or 114 dB, whichever is nearer the
 * median of the passed calibrations (else of all); null without levels.
 */
export function referenceLevel(levels: readonly number[], passedLevels: readonly number[]): number | null {
  const centre = median(passedLevels.length > 0 ? passedLevels : levels);
  if (centre === null) return null;
  return Math.abs(centre - REFERENCE_LEVELS[1]) < Math.abs(centre - REFERENCE_LEVELS[0])
    ? REFERENCE_LEVELS[1]
    : REFERENCE_LEVELS[0];
}

/**
 * The level axis: the offset axis's scale moved to the reference, so 0 dB offset lies level with the
 * reference and the tolerance band reads true on both axes (a level outside reference ± tolerance
 * is outside the band).
 */
export function levelAxisRange(reference: number, offsetRange: AxisRange): AxisRange {
  return { min: reference + offsetRange.min, max: reference + offsetRange.max };
}

export interface ChartModel {
  datasets: LineDataset[];
  options: ChartOptions<'line'>;
  /** One sentence for screen readers and the figure's caption. */
  summary: string;
  /** Records drawn (the table may hold more with no figures). */
  pointCount: number;
  failedCount: number;
  offScaleCount: number;
}

const dayText = (ms: number): string => minuteTimeText(ms).slice(0, 10);

function spanText(times: readonly number[]): string {
  if (times.length === 0) return '';
  const first = times[0] as number;
  const last = times[times.length - 1] as number;
  return first === last ? ` on ${dayText(first)}` : `, ${dayText(first)} to ${dayText(last)}`;
}

function baseOptions(yScales: NonNullable<ChartOptions<'line'>['scales']>): ChartOptions<'line'> {
  return {
    ...lineChartBase(),
    scales: {
      x: {
        type: 'time',
        time: { tooltipFormat: 'yyyy-MM-dd HH:mm', displayFormats: TIME_AXIS_FORMATS },
        ticks: { color: CHART_COLORS.text, font: CHART_FONT, maxRotation: 0, autoSkipPadding: 16 },
        grid: { color: CHART_COLORS.grid },
        border: { color: CHART_COLORS.text, width: 2 },
      },
      ...yScales,
    },
    plugins: {
      legend: {
        position: 'bottom',
        labels: { color: CHART_COLORS.text, font: CHART_FONT, usePointStyle: true, padding: 16 },
      },
      tooltip: {
        titleFont: { size: 14 },
        bodyFont: { size: 14 },
        callbacks: {
          label: (item) => {
            const point = item.raw as ChartPoint & { actual?: number };
            const value = point.actual ?? point.y;
            return `${item.dataset.label ?? ''}: ${dbText(value)}`;
          },
        },
      },
    },
  };
}

/** Failed records: a large red cross each, with no line between them. */
function failedDataset(data: ChartPoint[]): LineDataset {
  return {
    label: 'Failed',
    data,
    showLine: false,
    borderColor: CHART_COLORS.danger,
    backgroundColor: CHART_COLORS.danger,
    borderWidth: 3,
    pointStyle: 'crossRot',
    pointRadius: 9,
    pointHoverRadius: 11,
  };
}

/** A point drawn at `clamped` that remembers its real value for the tooltip. */
function point(x: number, actual: number, range: AxisRange | null): ChartPoint & { actual: number } {
  const y = range === null ? actual : clamp(actual, range.min, range.max);
  return { x, y, actual };
}

/**
 * Level and offset over time: offset on its own right-hand axis with the tolerance band around
 * 0, the level axis on the same scale centred on the reference, failed calibrations marked with a
 * large red cross.
 */
export function calibrationChart(records: readonly CalibrationRecord[], toleranceDb: number): ChartModel {
  const sorted = [...records].sort((a, b) => a.time - b.time);
  const levels = sorted.flatMap((r) => (r.level === null ? [] : [r.level]));
  const passedLevels = sorted.flatMap((r) => (r.level !== null && isSuccess(r.status) ? [r.level] : []));
  const offsets = sorted.flatMap((r) => (r.offset === null ? [] : [r.offset]));
  const reference = referenceLevel(levels, passedLevels);
  // One scale for both axes, wide enough for the offsets and for the levels' distance from the reference.
  const offsetRange = offsetAxisRange(
    [...offsets, ...(reference === null ? [] : levels.map((level) => level - reference))],
    toleranceDb,
  );
  const levelRange = reference === null ? null : levelAxisRange(reference, offsetRange);

  const levelPoints = sorted.flatMap((r) => (r.level === null ? [] : [point(r.time, r.level, levelRange)]));
  const offsetPoints = sorted.flatMap((r) =>
    r.offset === null ? [] : [point(r.time, r.offset, offsetRange)],
  );
  const failed = sorted.filter((r) => !isSuccess(r.status));
  const failedPoints = failed.map((r) => point(r.time, r.offset ?? offsetRange.min, offsetRange));
  const offScaleCount =
    levelPoints.filter((p) => p.y !== p.actual).length + offsetPoints.filter((p) => p.y !== p.actual).length;

  const times = sorted.map((r) => r.time);
  const edges = times.length === 0 ? [] : [times[0] as number, times[times.length - 1] as number];
  const bandLine = (y: number): ChartPoint[] => edges.map((x) => ({ x, y }));

  const tolerance = dbText(toleranceDb, { decimals: 'setting' });
  const datasets: LineDataset[] = [
    {
      label: `Tolerance +${tolerance}`,
      data: bandLine(toleranceDb),
      yAxisID: OFFSET_AXIS,
      borderColor: CHART_COLORS.ok,
      borderWidth: 2,
      borderDash: [8, 5],
      backgroundColor: CHART_COLORS.okBand,
      pointRadius: 0,
      pointStyle: 'line',
      // Fills down to the next dataset (the lower tolerance line): the band engineers read.
      fill: '+1',
    },
    {
      label: `Tolerance −${tolerance}`,
      data: bandLine(-toleranceDb),
      yAxisID: OFFSET_AXIS,
      borderColor: CHART_COLORS.ok,
      borderWidth: 2,
      borderDash: [8, 5],
      pointRadius: 0,
      pointStyle: 'line',
      fill: false,
    },
    {
      label: 'Offset (dB, right axis)',
      data: offsetPoints,
      yAxisID: OFFSET_AXIS,
      borderColor: CHART_COLORS.text,
      backgroundColor: CHART_COLORS.text,
      borderWidth: 2.5,
      pointRadius: sorted.length > 120 ? 0 : 3,
      pointStyle: 'circle',
    },
    {
      label: 'Level (dB, left axis)',
      data: levelPoints,
      yAxisID: LEVEL_AXIS,
      borderColor: CHART_COLORS.accent,
      backgroundColor: CHART_COLORS.accent,
      borderWidth: 2,
      borderDash: [6, 4],
      pointRadius: sorted.length > 120 ? 0 : 2.5,
      pointStyle: 'rect',
    },
    { ...failedDataset(failedPoints), yAxisID: OFFSET_AXIS },
  ];

  const offsetSpan =
    offsets.length === 0
      ? ''
      : ` Offset from ${offsetText(Math.min(...offsets))} to ${offsetText(Math.max(...offsets))} dB against a tolerance of ±${tolerance}.`;
  const summary =
    sorted.length === 0
      ? 'No calibrations in this range.'
      : `${countOf(sorted.length, 'calibration')}${spanText(times)}; ${failed.length} failed, marked with a red cross.` +
        offsetSpan +
        (offScaleCount > 0 ? ` ${countOf(offScaleCount, 'value')} off the scale drawn at its edge.` : '');

  return {
    datasets,
    options: baseOptions({
      [LEVEL_AXIS]: yScale('Level (dB)', 'left', levelRange, false),
      [OFFSET_AXIS]: yScale('Offset (dB)', 'right', offsetRange, true),
    }),
    summary,
    pointCount: sorted.length,
    failedCount: failed.length,
    offScaleCount,
  };
}

const offsetText = (value: number): string => dbText(value, { signed: true, unit: false });

const SIC_BANDS = [
  { key: '_500Hz', label: '500 Hz', color: CHART_COLORS.bandLow, dash: [] as number[], style: 'circle' },
  { key: '_1KHz', label: '1 kHz', color: CHART_COLORS.bandMid, dash: [7, 4], style: 'rect' },
  { key: '_8KHz', label: '8 kHz', color: CHART_COLORS.bandHigh, dash: [2, 3], style: 'triangle' },
] as const;

/**
 * The three SIC tone levels over time, each in its own colour and dash; a failed check is marked
 * with a red cross on the band furthest from its usual level (the one that most likely failed).
 */
export function sicChart(records: readonly SicRecord[]): ChartModel {
  const sorted = [...records].sort((a, b) => a.time - b.time);
  const usual = Object.fromEntries(
    SIC_BANDS.map((band) => [
      band.key,
      median(
        sorted.flatMap((r) => (isSuccess(r.status) && r[band.key] !== null ? [r[band.key] as number] : [])),
      ),
    ]),
  ) as Record<(typeof SIC_BANDS)[number]['key'], number | null>;
  const failed = sorted.filter((r) => !isSuccess(r.status));
  const failedPoints = failed.flatMap((r) => {
    let worst: { y: number; distance: number } | null = null;
    for (const band of SIC_BANDS) {
      const value = r[band.key];
      if (value === null) continue;
      const distance = Math.abs(value - (usual[band.key] ?? value));
      if (worst === null || distance > worst.distance) worst = { y: value, distance };
    }
    return worst === null ? [] : [{ x: r.time, y: worst.y }];
  });
  const many = sorted.length > 120;
  const datasets: LineDataset[] = [
    ...SIC_BANDS.map((band): LineDataset => ({
      label: band.label,
      data: sorted.flatMap((r) => (r[band.key] === null ? [] : [{ x: r.time, y: r[band.key] as number }])),
      borderColor: band.color,
      backgroundColor: band.color,
      borderWidth: 2,
      borderDash: [...band.dash],
      pointRadius: many ? 0 : 2.5,
      pointStyle: band.style,
    })),
    failedDataset(failedPoints),
  ];
  const summary =
    sorted.length === 0
      ? 'No system integrity checks in this range.'
      : `${countOf(sorted.length, 'system integrity check')}${spanText(sorted.map((r) => r.time))}; ` +
        `${failed.length} failed or could not run, marked with a red cross. Lines: 500 Hz, 1 kHz and 8 kHz tone levels.`;
  return {
    datasets,
    options: baseOptions({ y: yScale('Tone level (dB)', 'left', null, true) }),
    summary,
    pointCount: sorted.length,
    failedCount: failed.length,
    offScaleCount: 0,
  };
}
