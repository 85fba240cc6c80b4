/** The spectrogram's grid (each band's highest level per time slot) and its colour scale. */
import { describe, expect, it } from 'vitest';
import type { SeriesChannel } from '../../../src/shared/data';
import { levelColour, spectrogramGrid, VIRIDIS } from '../../../src/renderer/src/features/data/spectrogram';

const T0 = Date.UTC(2026, 10, 23, 9);
const band = (label: string, values: number[]): SeriesChannel => ({
  name: label,
  label,
  unit: 'dB',
  times: Float64Array.from(values, (_, i) => T0 + i * 1000),
  values: Float32Array.from(values),
});

describe('spectrogram grid', () => {
  it('keeps each band’s highest level per slot, bands from the lowest, empty slots left out', () => {
    const grid = spectrogramGrid(
      [band('63 Hz', [50, 70, 55, Number.NaN]), band('1 kHz', [Number.NaN, Number.NaN, 40, 45])],
      { start: T0, end: T0 + 4000 },
      2,
    );
    expect(grid.bands).toEqual(['63 Hz', '1 kHz']);
    expect(grid.cells.map((c) => [c.band, c.start - T0, c.end - T0, c.level])).toEqual([
      ['63 Hz', 0, 2000, 70],
      ['63 Hz', 2000, 4000, 55],
      ['1 kHz', 2000, 4000, 45],
    ]);
    expect(grid.scale).toEqual({ min: 45, max: 70 });
  });

  it('has no scale without readings in the range', () => {
    const grid = spectrogramGrid([band('63 Hz', [50])], { start: T0 + 10_000, end: T0 + 20_000 }, 4);
    expect(grid.cells).toEqual([]);
    expect(grid.scale).toBeNull();
  });
});

describe('level colours', () => {
  it('runs from viridis’s dark end to its yellow end, clamped outside the scale', () => {
    const rgb = (hex: string) =>
      `rgb(${parseInt(hex.slice(1, 3), 16)}, ${parseInt(hex.slice(3, 5), 16)}, ${parseInt(hex.slice(5, 7), 16)})`;
    expect(levelColour(30, 30, 90)).toBe(rgb(VIRIDIS[0]));
    expect(levelColour(90, 30, 90)).toBe(rgb(VIRIDIS[8]));
    expect(levelColour(60, 30, 90)).toBe(rgb(VIRIDIS[4]));
    expect(levelColour(10, 30, 90)).toBe(rgb(VIRIDIS[0]));
    expect(levelColour(120, 30, 90)).toBe(rgb(VIRIDIS[8]));
  });
});
