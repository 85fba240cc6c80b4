/** Wind as engineers read it: arrows along the time axis, and the rose of the range. */
import { describe, expect, it } from 'vitest';
import type { RecordTable, SeriesChannel } from '../../../src/shared/data';
import { buildDataChart } from '../../../src/renderer/src/features/data/chart';
import { circularMean } from '../../../src/shared/series-figures';
import {
  compassPoint,
  downwindBearing,
  prevailingSector,
  rosePercents,
  sectorOf,
  windArrows,
  windChannels,
  windRose,
  windRoseOfRecords,
} from '../../../src/renderer/src/features/data/wind';

const T0 = Date.UTC(2026, 10, 12, 0, 0);
const MINUTE = 60_000;
const sectorTotal = (rose: ReturnType<typeof windRose>, point: string) =>
  rose.counts[
    [
      'N',
      'NNE',
      'NE',
      'ENE',
      'E',
      'ESE',
      'SE',
      'SSE',
      'S',
      'SSW',
      'SW',
      'WSW',
      'W',
      'WNW',
      'NW',
      'NNW',
    ].indexOf(point)
  ]!.reduce((a, b) => a + b, 0);

describe('compass sectors', () => {
  it('puts 355° and 5° in north, and splits sectors at their edges', () => {
    expect(compassPoint(355)).toBe('N');
    expect(compassPoint(5)).toBe('N');
    expect(compassPoint(360)).toBe('N');
    expect(compassPoint(-10)).toBe('N');
    expect(sectorOf(348.75)).toBe(0);
    expect(sectorOf(348.7)).toBe(15);
    expect(sectorOf(11.25)).toBe(1);
    expect(compassPoint(225)).toBe('SW');
    expect(compassPoint(250)).toBe('WSW');
  });

  it('averages directions on the circle: 350° and 10° make north, not south', () => {
    expect(circularMean([350, 10])).toBeCloseTo(0, 6);
    expect(circularMean([80, 100])).toBeCloseTo(90, 6);
    expect(circularMean([0, 180])).toBeNull();
    expect(circularMean([Number.NaN])).toBeNull();
    expect(downwindBearing(270)).toBe(90);
    expect(downwindBearing(90)).toBe(270);
  });
});

describe('wind arrows along the time axis', () => {
  it('keeps at most one arrow per stretch of the range, each the mean direction, and none across a gap', () => {
    const directions = [350, 10, Number.NaN, Number.NaN, 90, 90];
    const times = Float64Array.from(directions, (_, i) => T0 + i * MINUTE);
    const arrows = windArrows(times, Float32Array.from(directions), { start: T0, end: T0 + 6 * MINUTE }, 3);
    expect(arrows).toHaveLength(2);
    expect(arrows[0]!.x).toBe(T0 + MINUTE / 2);
    expect(arrows[0]!.y).toBeCloseTo(0, 4);
    expect(arrows[1]).toEqual({ x: T0 + 4.5 * MINUTE, y: 90 });
  });

  it('draws direction as arrows on a compass axis, never as a line', () => {
    const direction: SeriesChannel = {
      name: 'windDirection',
      label: 'Wind direction',
      unit: '°',
      quantity: 'wind direction',
      times: Float64Array.from([T0, T0 + MINUTE]),
      values: Float32Array.from([355, 5]),
    };
    const model = buildDataChart([direction], {
      zone: 'utc',
      range: { start: T0, end: T0 + 60 * MINUTE },
      now: T0,
    });
    const dataset = model.datasets[0]!;
    expect(dataset.showLine).toBe(false);
    expect(dataset.label).toBe('Wind direction (°), arrows point downwind');
    expect(model.options.plugins?.windArrows).toMatchObject({ datasetIndexes: [0] });
    const axis = model.options.scales?.['y0'] as {
      min: number;
      max: number;
      ticks: { callback: (v: number) => string };
    };
    expect([axis.min, axis.max]).toEqual([0, 360]);
    expect([0, 90, 180, 270, 360].map((v) => axis.ticks.callback(v))).toEqual(['N', 'E', 'S', 'W', 'N']);
  });
});

describe('wind rose', () => {
  it('bins by sector and speed class, counts calm apart and skips readings without both values', () => {
    const speeds = [1, 3, 9, 0.2, 0.3, 5, Number.NaN, 4, null];
    const directions = [355, 5, 10, 200, Number.NaN, Number.NaN, 90, 225, 90];
    const rose = windRose(speeds, directions);
    // Calm with or without a direction; a speed without a direction, and a direction without a speed, skipped.
    expect(rose.calm).toBe(2);
    expect(rose.skipped).toBe(3);
    expect(rose.readings).toBe(7 - 1);
    expect(sectorTotal(rose, 'N')).toBe(3);
    expect(rose.counts[0]).toEqual([1, 1, 0, 0, 1]);
    expect(rose.counts[10]).toEqual([0, 0, 1, 0, 0]);
    expect(prevailingSector(rose)).toEqual({ point: 'N', share: 3 / 6 });
    const percents = rosePercents(rose);
    expect(percents[0]![0]).toBeCloseTo(100 / 6, 6);
    // Every reading is in a sector or calm: the shares and calm make 100 %.
    const inSectors = percents.flat().reduce((a, b) => a + b, 0);
    expect(inSectors + (100 * rose.calm) / rose.readings).toBeCloseTo(100, 6);
  });

  it('has no prevailing sector and no percentages without readings', () => {
    const rose = windRose([], []);
    expect(rose.readings).toBe(0);
    expect(prevailingSector(rose)).toBeNull();
    expect(
      rosePercents(rose)
        .flat()
        .every((p) => p === 0),
    ).toBe(true);
  });

  it('pairs each record’s speed with its own direction, found by the channels’ quantities', () => {
    const channel = (name: string, quantity: string): SeriesChannel => ({
      name,
      quantity,
      unit: null,
      times: new Float64Array(0),
      values: new Float32Array(0),
    });
    const wind = windChannels([
      channel('temperature', 'temperature'),
      channel('windSpeed', 'wind speed'),
      channel('windDirection', 'wind direction'),
    ]);
    expect(wind?.speed.name).toBe('windSpeed');
    expect(windChannels([channel('windSpeed', 'wind speed')])).toBeNull();
    const table: RecordTable = {
      timeKey: 'time',
      columns: [],
      rows: [
        { time: T0, windSpeed: 3, windDirection: 270 },
        { time: T0 + MINUTE, windSpeed: null, windDirection: 270 },
        { time: T0 + 2 * MINUTE, windSpeed: 0.1, windDirection: null },
      ],
    };
    const rose = windRoseOfRecords(table, 'windSpeed', 'windDirection');
    expect([rose.readings, rose.calm, rose.skipped]).toEqual([2, 1, 1]);
    expect(sectorTotal(rose, 'W')).toBe(1);
  });
});
