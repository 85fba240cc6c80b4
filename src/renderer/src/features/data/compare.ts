/**
 * Several instruments on one time axis: the shown instrument's answer plus those of the
 * instruments it is compared with, for the same dataset, range and options. Each channel and its
 * figures are named after their instrument ("LAeq · Site A – North"), so one chart per unit holds
 * every instrument's line and the figures table a row per instrument (pure, tested directly).
 */
import type { DataReadResult, SeriesChannel } from '../../../../shared/data';
import type { ChannelFigures } from '../../../../shared/series-figures';

/** The most instruments compared with the shown one: more lines than that stop being readable. */
export const MAX_COMPARED = 3;

export interface ComparedAnswer {
  serial: string;
  /** The instrument's name as the user knows it. */
  name: string;
  result: DataReadResult;
}

export interface CombinedSeries {
  series: SeriesChannel[];
  figures: ChannelFigures[] | undefined;
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
  return { series, figures };
}
