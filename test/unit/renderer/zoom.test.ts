/** Zoom steps of the data chart: inside the chosen range, never shorter than a minute. */
import { describe, expect, it } from 'vitest';
import {
  clampView,
  isWholeRange,
  MIN_VIEW_MS,
  panView,
  viewForKey,
  zoomView,
} from '../../../src/renderer/src/features/data/zoom';

const HOUR = 3_600_000;
const full = { start: 0, end: 24 * HOUR };

describe('chart zoom steps', () => {
  it('zooms in around the middle and out again, never beyond the chosen range', () => {
    const half = zoomView(full, full, 0.5);
    expect(half).toEqual({ start: 6 * HOUR, end: 18 * HOUR });
    expect(zoomView(half, full, 2)).toEqual(full);
    expect(zoomView(half, full, 8)).toEqual(full);
    expect(isWholeRange(zoomView(half, full, 2), full)).toBe(true);
  });

  it('never goes below a minute, keeping the middle', () => {
    const narrow = { start: 10 * HOUR, end: 10 * HOUR + 2 * MIN_VIEW_MS };
    expect(zoomView(narrow, full, 0.1)).toEqual({
      start: 10 * HOUR + MIN_VIEW_MS / 2,
      end: 10 * HOUR + (3 * MIN_VIEW_MS) / 2,
    });
  });

  it('moves by a share of the view and stops at the edges', () => {
    const view = { start: 6 * HOUR, end: 12 * HOUR };
    expect(panView(view, full, -0.5)).toEqual({ start: 3 * HOUR, end: 9 * HOUR });
    expect(panView(view, full, -5)).toEqual({ start: 0, end: 6 * HOUR });
    expect(panView(view, full, 5)).toEqual({ start: 18 * HOUR, end: 24 * HOUR });
  });

  it('puts a view chosen by dragging inside the range, whole milliseconds', () => {
    expect(clampView({ start: -HOUR + 0.4, end: HOUR }, full)).toEqual({ start: 0, end: 2 * HOUR });
    const short = { start: 0, end: 30_000 };
    expect(clampView(short, short)).toEqual(short);
  });

  it('answers the keys of the focused chart, and nothing for other keys', () => {
    const view = { start: 6 * HOUR, end: 12 * HOUR };
    expect(viewForKey('+', view, full)).toEqual({ start: 7.5 * HOUR, end: 10.5 * HOUR });
    expect(viewForKey('=', view, full)).toEqual(viewForKey('+', view, full));
    expect(viewForKey('-', view, full)).toEqual({ start: 3 * HOUR, end: 15 * HOUR });
    expect(viewForKey('ArrowLeft', view, full)).toEqual({ start: 4.5 * HOUR, end: 10.5 * HOUR });
    expect(viewForKey('ArrowRight', view, full)).toEqual({ start: 7.5 * HOUR, end: 13.5 * HOUR });
    expect(viewForKey('0', view, full)).toBe(full);
    expect(viewForKey('Home', view, full)).toBe(full);
    expect(viewForKey('Enter', view, full)).toBeNull();
    expect(viewForKey('a', view, full)).toBeNull();
  });
});
