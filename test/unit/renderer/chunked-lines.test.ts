/** The data chart's lines stroked in pieces: the same line, point for point, as one path would draw. */
import { describe, expect, it } from 'vitest';
import {
  strokeInPieces,
  type LinePoint,
  type StrokeContext,
} from '../../../src/renderer/src/features/data/chunked-lines';
import { buildDataChart } from '../../../src/renderer/src/features/data/chart';

/** A context that keeps each stroke as its points and the dash offset it started with. */
function recorder() {
  const strokes: Array<{ offset: number; points: Array<[number, number]> }> = [];
  let current: Array<[number, number]> = [];
  let offsetAtStart = 0;
  const ctx: StrokeContext = {
    lineDashOffset: 0,
    setLineDash: () => undefined,
    beginPath: () => {
      current = [];
      offsetAtStart = ctx.lineDashOffset;
    },
    moveTo: (x, y) => void current.push([x, y]),
    lineTo: (x, y) => void current.push([x, y]),
    stroke: () => void strokes.push({ offset: offsetAtStart, points: current }),
  };
  return { ctx, strokes };
}

const zigzag = (count: number): LinePoint[] =>
  Array.from({ length: count }, (_, i) => ({ x: i / 2, y: i % 2 === 0 ? 10 : 90 }));

describe('strokeInPieces', () => {
  it('draws every point once in order, each piece starting where the one before ended', () => {
    const points = zigzag(1000);
    const { ctx, strokes } = recorder();
    strokeInPieces(ctx, points, [{ start: 0, end: 999 }], 0, 1000, { pattern: [], offset: 0 }, 256);
    expect(strokes.length).toBe(4);
    for (let k = 1; k < strokes.length; k++) {
      expect(strokes[k]!.points[0]).toEqual(strokes[k - 1]!.points.at(-1));
    }
    // Joined back together (each shared point once), the pieces are the line's points.
    const joined = strokes.flatMap((stroke, k) => (k === 0 ? stroke.points : stroke.points.slice(1)));
    expect(joined).toEqual(points.map((p) => [p.x, p.y]));
    expect(Math.max(...strokes.map((s) => s.points.length))).toBeLessThanOrEqual(256);
  });

  it('carries a dash pattern on: each piece starts at the length drawn before it', () => {
    // Steps of 3 across and 4 down: 5 px each.
    const points = Array.from({ length: 11 }, (_, i) => ({ x: 3 * i, y: 4 * i }));
    const { ctx, strokes } = recorder();
    strokeInPieces(ctx, points, [{ start: 0, end: 10 }], 0, 11, { pattern: [6, 3], offset: 2 }, 4);
    expect(strokes.map((s) => s.offset)).toEqual([2, 2 + 15, 2 + 30, 2 + 45]);
  });

  it('breaks at gaps between segments and steps over skipped points inside one, as Chart.js does', () => {
    const points: LinePoint[] = zigzag(10);
    points[4] = { ...points[4]!, skip: true };
    const { ctx, strokes } = recorder();
    strokeInPieces(
      ctx,
      points,
      [
        { start: 0, end: 5 },
        { start: 7, end: 9 },
      ],
      0,
      10,
      { pattern: [], offset: 0 },
    );
    expect(strokes.map((s) => s.points.map(([x]) => x * 2))).toEqual([
      [0, 1, 2, 3, 5],
      [7, 8, 9],
    ]);
  });

  it('draws only the points Chart.js asks for (start, count)', () => {
    const { ctx, strokes } = recorder();
    strokeInPieces(ctx, zigzag(100), [{ start: 0, end: 99 }], 20, 10, { pattern: [], offset: 0 });
    expect(strokes.map((s) => s.points.map(([x]) => x * 2))).toEqual([
      [20, 21, 22, 23, 24, 25, 26, 27, 28, 29],
    ]);
  });
});

describe('the data chart', () => {
  it('asks for its lines stroked in pieces', () => {
    const model = buildDataChart([], { zone: 'utc', range: { start: 0, end: 1000 }, now: 0 });
    expect(model.options.plugins?.chunkedLines).toBe(true);
  });
});
