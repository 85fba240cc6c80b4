import { describe, expect, it } from 'vitest';
import type { DataReadResult, SeriesChannel } from '../../../src/shared/data';
import type { ChannelFigures } from '../../../src/shared/series-figures';
import { combineForComparison } from '../../../src/renderer/src/features/data/compare';
import { chartGroups } from '../../../src/renderer/src/features/data/chart';

const channel = (name: string, label: string, unit: string): SeriesChannel => ({
  name,
  label,
  unit,
  times: new Float64Array([0, 1000]),
  values: new Float32Array([50, 51]),
});
const figure = (name: string, label: string): ChannelFigures =>
  ({ name, label, unit: 'dB', readings: 2 }) as ChannelFigures;
const answer = (series: SeriesChannel[], figures?: ChannelFigures[]): DataReadResult =>
  ({ series, ...(figures ? { chart: { columns: 100, figures } } : {}) }) as DataReadResult;

describe('comparing instruments', () => {
  const shown = {
    serial: 'QT1',
    name: 'North gate',
    result: answer(
      [channel('laeq', 'LAeq', 'dB'), channel('windSpeed', 'Wind speed', 'm/s')],
      [figure('laeq', 'LAeq'), figure('windSpeed', 'Wind speed')],
    ),
  };
  const other = {
    serial: 'QT2',
    name: 'South gate',
    result: answer([channel('laeq', 'LAeq', 'dB')], [figure('laeq', 'LAeq')]),
  };

  it('leaves the shown answer as it is when nothing is compared', () => {
    const combined = combineForComparison(shown, []);
    expect(combined.series).toBe(shown.result.series);
    expect(combined.figures).toBe(shown.result.chart!.figures);
  });

  it("names each instrument's channels and figures after it, and puts the same unit on one chart", () => {
    const combined = combineForComparison(shown, [other]);
    expect(combined.series.map((c) => [c.name, c.label])).toEqual([
      ['QT1:laeq', 'LAeq · North gate'],
      ['QT1:windSpeed', 'Wind speed · North gate'],
      ['QT2:laeq', 'LAeq · South gate'],
    ]);
    expect(combined.figures!.map((f) => f.label)).toEqual([
      'LAeq · North gate',
      'Wind speed · North gate',
      'LAeq · South gate',
    ]);
    const groups = chartGroups(combined.series, combined.figures);
    expect(groups.map((g) => g.series.map((c) => c.name))).toEqual([
      ['QT1:laeq', 'QT2:laeq'],
      ['QT1:windSpeed'],
    ]);
    expect(groups[0]!.figures!.map((f) => f.name)).toEqual(['QT1:laeq', 'QT2:laeq']);
  });

  it('drops the figures when one answer has none, rather than showing some instruments only', () => {
    const withoutFigures = { ...other, result: answer([channel('laeq', 'LAeq', 'dB')]) };
    expect(combineForComparison(shown, [withoutFigures]).figures).toBeUndefined();
  });

  it('gives each instrument a colour of its own and each value one dash on every instrument, in a legend by instrument', () => {
    const third = {
      serial: 'QT3',
      name: 'East gate',
      result: answer([channel('laeq', 'LAeq', 'dB'), channel('lafmax', 'LAFMax', 'dB')]),
    };
    const combined = combineForComparison(shown, [other, third]);
    const styles = combined.comparison!.styles;
    const colours = ['QT1', 'QT2', 'QT3'].map((serial) => styles[`${serial}:laeq`]!.color);
    expect(new Set(colours).size).toBe(3);
    // The same value, the same dash, whichever instrument; different values, different dashes.
    expect(styles['QT2:laeq']!.dash).toEqual(styles['QT1:laeq']!.dash);
    expect(styles['QT3:lafmax']!.dash).not.toEqual(styles['QT3:laeq']!.dash);
    expect(styles['QT3:lafmax']!.color).toBe(styles['QT3:laeq']!.color);
    expect(
      combined.comparison!.legend.map((row) => [row.name, row.values.map((value) => value.label)]),
    ).toEqual([
      ['North gate', ['LAeq (dB)', 'Wind speed (m/s)']],
      ['South gate', ['LAeq (dB)']],
      ['East gate', ['LAeq (dB)', 'LAFMax (dB)']],
    ]);
  });
});
