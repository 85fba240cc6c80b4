/**
 * Zooming and panning the data chart as pure steps on time ranges: the view always lies inside the
 * range the user chose and is never shorter than a minute; every step is then read again from the
 * backend at the chart's width (from the cache, so a step is quick).
 */
import type { TimeInterval } from '../../../../shared/data';

/**
 * How far a notch of the mouse wheel zooms (chartjs-plugin-zoom's `speed`: a notch in shows
 * 1/(1 + speed) of the span). Its default 0.1 took five notches to go from a week to 4.6 days;
 * at 0.35 five notches reach a day and a half, and one notch still reads as a small step.
 */
export const WHEEL_ZOOM_SPEED = 0.35;

/** The narrowest view: a minute (60 one-second readings). */
export const MIN_VIEW_MS = 60_000;

/** The view moved and cut to lie inside `full`, at least `MIN_VIEW_MS` long (or all of a shorter `full`). */
export function clampView(view: TimeInterval, full: TimeInterval): TimeInterval {
  const fullSpan = full.end - full.start;
  const span = Math.min(fullSpan, Math.max(MIN_VIEW_MS, Math.round(view.end - view.start)));
  let start = Math.round(view.start);
  if (view.end - view.start < span) start = Math.round((view.start + view.end) / 2 - span / 2);
  start = Math.min(Math.max(start, full.start), full.end - span);
  return { start, end: start + span };
}

/** Zoomed by `factor` (0.5: twice as close; 2: twice as far) around the middle of the view. */
export function zoomView(view: TimeInterval, full: TimeInterval, factor: number): TimeInterval {
  const middle = (view.start + view.end) / 2;
  const half = ((view.end - view.start) * factor) / 2;
  return clampView({ start: middle - half, end: middle + half }, full);
}

/** Moved by `fraction` of its length (negative: earlier), stopping at the edges of `full`. */
export function panView(view: TimeInterval, full: TimeInterval, fraction: number): TimeInterval {
  const shift = (view.end - view.start) * fraction;
  return clampView({ start: view.start + shift, end: view.end + shift }, full);
}

export function isWholeRange(view: TimeInterval, full: TimeInterval): boolean {
  return view.start <= full.start && view.end >= full.end;
}

/**
 * The view a key asks for on the focused chart (+ or = twice as close, − twice as far, ← → a
 * quarter along, 0 or Home the whole range); null for any other key.
 */
export function viewForKey(key: string, view: TimeInterval, full: TimeInterval): TimeInterval | null {
  switch (key) {
    case '+':
    case '=':
      return zoomView(view, full, 0.5);
    case '-':
      return zoomView(view, full, 2);
    case 'ArrowLeft':
      return panView(view, full, -0.25);
    case 'ArrowRight':
      return panView(view, full, 0.25);
    case '0':
    case 'Home':
      return full;
    default:
      return null;
  }
}
