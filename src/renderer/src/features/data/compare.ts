/**
 * Several instruments on one time axis: the shown instrument's answer plus those of the
 * instruments it is compared with, for the same dataset, range and options. Each channel and its
 * figures are named after their instrument ("LAeq · Site A – North"), so one chart per unit holds
 * every instrument's line and the figures table a row per instrument (pure, tested directly).
 */
import type { DataReadResult, SeriesChannel } from '../../../../shared/data';
import type { ChannelFigures } from '../../../../shared/series-figures';
import { CHART_COLORS } from '../../ui/chart-base';
import { SERIES_DASHES, type LineStyle } from './chart-points';

/** The most instruments compared with the shown one: more lines than that stop being readable. */
export const MAX_COMPARED = 3;

export interface ComparedAnswer {
  serial: string;
  /** The instrument's name as the user knows it. */
  name: string;
  result: DataReadResult;
}

/**
 * One colour per instrument compared, each distinct from the others and from the events' lane:
 * the shown instrument blue, then orange, green and black. Values differ by dash (SERIES_DASHES).
 */
export const COMPARE_COLORS: readonly string[] = [
  CHART_COLORS.accent,
  CHART_COLORS.bandHigh,
  CHART_COLORS.ok,
  CHART_COLORS.text,
];

/** The legend of a comparison: a row per instrument, its colour, and its values by dash. */
export interface ComparedLegendRow {
  serial: string;
  name: string;
  color: string;
  values: Array<{ label: string; dash: number[] }>;
}

export interface CombinedSeries {
  series: SeriesChannel[];
  figures: ChannelFigures[] | undefined;
  /** Comparing: each channel's line by its (unique) name, and the legend grouped by instrument. */
  comparison?: { styles: Record<string, LineStyle>; legend: ComparedLegendRow[] };
}

const keyOf = (serial: string, name: string) => `${serial}:${name}`;

/**
 * The shown answer's channels and figures as they are when nothing is compared; with comparisons,
 * every instrument's channels, each channel's name made unique by its serial and its label
 * followed by its instrument's name. Figures are kept only when every answer has them.
 */
export function combineForComparison(
  shown: ComparedAnswer,
  compared: readonly ComparedAnswer[],
): CombinedSeries {
  if (compared.length === 0) return { series: shown.result.series, figures: shown.result.chart?.figures };
  const answers = [shown, ...compared];
  const series = answers.flatMap(({ serial, name, result }) =>
    result.series.map((channel) => ({
      ...channel,
      name: keyOf(serial, channel.name),
      label: `${channel.label ?? channel.name} · ${name}`,
    })),
  );
  // A value has the same dash on every instrument: its place among all values named.
  const valueNames = [...new Set(answers.flatMap(({ result }) => result.series.map((c) => c.name)))];
  const dashOf = (value: string) => SERIES_DASHES[valueNames.indexOf(value) % SERIES_DASHES.length]!;
  const styles: Record<string, LineStyle> = {};
  const legend = answers.map(({ serial, name, result }, index): ComparedLegendRow => {
    const color = COMPARE_COLORS[index % COMPARE_COLORS.length]!;
    for (const channel of result.series)
      styles[keyOf(serial, channel.name)] = { color, dash: dashOf(channel.name) };
    return {
      serial,
      name,
      color,
      values: result.series.map((channel) => ({
        label: channel.unit
          ? `${channel.label ?? channel.name} (${channel.unit})`
          : (channel.label ?? channel.name),
        dash: dashOf(channel.name),
      })),
    };
  });
  const everyHasFigures = answers.every((answer) => answer.result.chart !== undefined);
  const figures = everyHasFigures
    ? answers.flatMap(({ serial, name, result }) =>
        result.chart!.figures.map((figure) => ({
          ...figure,
          name: keyOf(serial, figure.name),
          label: `${figure.label} · ${name}`,
        })),
      )
    : undefined;
  return { series, figures, comparison: { styles, legend } };
}
