/**
 * The excluded periods as a chart draws them: pixel spans clipped to the plot, at least a pixel
 * wide, and runs that touch on screen merged — a year's thousand rain periods become the few runs
 * a viewer can tell apart, and nothing excluded is left unshaded.
 */
import { describe, expect, it } from 'vitest';
import { excludedSpans } from '../../../src/renderer/src/features/data/chart-overlays';

// One pixel a minute from 0 at time 0.
const pixelOf = (time: number) => time / 60_000;
const minutes = (from: number, to: number) => ({ start: from * 60_000, end: to * 60_000 });

describe('excluded spans', () => {
  it('clips to the plot, keeps a short period a pixel wide, and skips what is outside', () => {
    expect(
      excludedSpans([minutes(-50, 10), minutes(100.2, 100.4), minutes(500, 600)], pixelOf, 0, 400),
    ).toEqual([
      { left: 0, right: 10 },
      { left: 100.2, right: 101.2 },
    ]);
  });

  it('merges periods that overlap or touch on screen, whatever their order', () => {
    const spans = excludedSpans(
      [minutes(30, 40), minutes(10, 20), minutes(20.5, 25), minutes(24, 26), minutes(50, 60)],
      pixelOf,
      0,
      400,
    );
    expect(spans).toEqual([
      { left: 10, right: 26 },
      { left: 30, right: 40 },
      { left: 50, right: 60 },
    ]);
  });

  it('shades every excluded minute of a year of rain periods in far fewer spans', () => {
    // 1,000 periods of 5 minutes every 40 minutes, drawn 1,000 px wide over ~28 days.
    const periods = Array.from({ length: 1_000 }, (_, i) => minutes(i * 40, i * 40 + 5));
    const scale = (time: number) => time / (40 * 60_000);
    const spans = excludedSpans(periods, scale, 0, 1_000);
    expect(spans.length).toBeLessThan(periods.length / 1.5);
    for (const period of periods) {
      const left = scale(period.start);
      expect(spans.some((span) => span.left <= left && span.right >= left + 0.125)).toBe(true);
    }
  });
});
