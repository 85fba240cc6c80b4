/**
 * Chart.js datasets and options for the instrument's history, built as plain data so tests can
 * check them. Points are `{ x: epoch ms, y }` in time order (the charts run with `parsing: false`
 * and `normalized: true`). Values far off the scale are drawn at its edge and counted, so one
 * "no calibrator" reading of 45 dB does not flatten the drift everyone is looking for.
 */
import type { ChartOptions } from 'chart.js';
import { dbText } from '../../../../shared/format';
import { median, SIC_REFERENCE_CHECKS, sicReferences } from '../../../../shared/check-verdicts';
import { calibrationCheck, outcomeAt, sicCheck } from '../../../../shared/check-record';
import {
  DEFAULT_SETTINGS,
  type ActionOutcome,
  type CalibrationRecord,
  type SicRecord,
  type SicTone,
} from '../../../../shared/operations';
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

/** FieldDesk's outcomes of the checks it ran (its action records' results), to judge each record by. */
type FieldDeskOutcomes = ReadonlyArray<ActionOutcome | null>;

const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

const ceilTo = (value: number, step: number): number => Math.ceil(value / step - 1e-9) * step;

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
export function calibrationChart(
  records: readonly CalibrationRecord[],
  toleranceDb: number,
  fieldDesk: FieldDeskOutcomes = [],
): ChartModel {
  const sorted = [...records].sort((a, b) => a.time - b.time);
  // Each calibration as one record: FieldDesk's verdict where it ran it, else the instrument's.
  const passed = new Set(
    sorted.filter((r) => calibrationCheck(r, outcomeAt(fieldDesk, 'calibration', r.time)).passed === true),
  );
  const levels = sorted.flatMap((r) => (r.level === null ? [] : [r.level]));
  const passedLevels = sorted.flatMap((r) => (r.level !== null && passed.has(r) ? [r.level] : []));
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
  const failed = sorted.filter((r) => !passed.has(r));
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
      : `${countOf(sorted.length, 'calibration')}${spanText(times)}; ${failed.length} failed, marked with a red cross` +
        ` (FieldDesk’s verdict where it ran the calibration, else the instrument’s).` +
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
  {
    key: '_500Hz',
    label: '500 Hz',
    color: CHART_COLORS.bandLow,
    fill: 'rgba(10, 63, 143, 0.10)',
    dash: [] as number[],
    style: 'circle',
  },
  {
    key: '_1KHz',
    label: '1 kHz',
    color: CHART_COLORS.bandMid,
    fill: 'rgba(13, 13, 13, 0.08)',
    dash: [7, 4],
    style: 'rect',
  },
  {
    key: '_8KHz',
    label: '8 kHz',
    color: CHART_COLORS.bandHigh,
    fill: 'rgba(163, 74, 0, 0.12)',
    dash: [2, 3],
    style: 'triangle',
  },
] as const;

/** Marks the lower edge of a tone's band, which the legend leaves out (the upper edge names the band). */
const LOWER_EDGE = ' (lower edge)';

/**
 * Each tone's allowed band at each check: its reference (the median of the tone in the last
 * passing checks before it, as FieldDesk judges a SIC) ± the SIC tolerance. Checks without an
 * earlier pass have no band.
 */
export function sicBands(
  sorted: readonly SicRecord[],
  toleranceDb: number,
): Record<SicTone, { upper: ChartPoint[]; lower: ChartPoint[] }> {
  const bands = Object.fromEntries(
    SIC_BANDS.map((band) => [band.key, { upper: [] as ChartPoint[], lower: [] as ChartPoint[] }]),
  ) as Record<SicTone, { upper: ChartPoint[]; lower: ChartPoint[] }>;
  for (const record of sorted) {
    for (const reference of sicReferences(sorted, record.time)) {
      if (reference.medianDb === null) continue;
      bands[reference.tone].upper.push({ x: record.time, y: reference.medianDb + toleranceDb });
      bands[reference.tone].lower.push({ x: record.time, y: reference.medianDb - toleranceDb });
    }
  }
  return bands;
}

/**
 * The three SIC tone levels over time, each in its own colour and dash, with its allowed band
 * (its reference ± the SIC tolerance) shaded behind it; a failed check is marked with a red cross
 * on the band furthest from its usual level (the one that most likely failed).
 */
export function sicChart(
  records: readonly SicRecord[],
  toleranceDb = DEFAULT_SETTINGS.sicToleranceDb,
  fieldDesk: FieldDeskOutcomes = [],
): ChartModel {
  const sorted = [...records].sort((a, b) => a.time - b.time);
  const passed = new Set(
    sorted.filter((r) => sicCheck(r, outcomeAt(fieldDesk, 'sic', r.time)).passed === true),
  );
  const passes = (r: SicRecord) => passed.has(r);
  const usual = Object.fromEntries(
    SIC_BANDS.map((band) => [
      band.key,
      median(sorted.flatMap((r) => (passes(r) && r[band.key] !== null ? [r[band.key] as number] : []))),
    ]),
  ) as Record<(typeof SIC_BANDS)[number]['key'], number | null>;
  const failed = sorted.filter((r) => !passes(r));
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
  const bands = sicBands(sorted, toleranceDb);
  const tolerance = dbText(toleranceDb, { decimals: 'setting' });
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
    ...SIC_BANDS.flatMap((band): LineDataset[] => [
      {
        label: `${band.label} allowed ±${tolerance}`,
        data: bands[band.key].upper,
        borderColor: band.color,
        backgroundColor: band.fill,
        borderWidth: 1,
        borderDash: [3, 3],
        pointRadius: 0,
        pointStyle: 'line',
        stepped: 'before',
        // Fills down to the next dataset, this tone's lower edge.
        fill: '+1',
      },
      {
        label: `${band.label} allowed${LOWER_EDGE}`,
        data: bands[band.key].lower,
        borderColor: band.color,
        borderWidth: 1,
        borderDash: [3, 3],
        pointRadius: 0,
        pointStyle: 'line',
        stepped: 'before',
        fill: false,
      },
    ]),
  ];
  const summary =
    sorted.length === 0
      ? 'No system integrity checks in this range.'
      : `${countOf(sorted.length, 'system integrity check')}${spanText(sorted.map((r) => r.time))}; ` +
        `${failed.length} failed or could not run, marked with a red cross (FieldDesk’s verdict where it ran the check, else the instrument’s). Lines: 500 Hz, 1 kHz and 8 kHz tone levels, ` +
        `each with its allowed band shaded: the median of its last ${SIC_REFERENCE_CHECKS} passing checks ± ${tolerance}.`;
  const options = baseOptions({ y: yScale('Tone level (dB)', 'left', null, true) });
  const legend = options.plugins?.legend;
  if (legend?.labels) legend.labels.filter = (item) => !item.text.endsWith(LOWER_EDGE);
  return {
    datasets,
    options,
    summary,
    pointCount: sorted.length,
    failedCount: failed.length,
    offScaleCount: 0,
  };
}
