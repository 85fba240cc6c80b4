/** What the live view shows of a live read: the chart's points, the current level, how far behind. */
import { LIVE_CHART_MS, newestReadingEnd, type LiveLevels } from '../../../../shared/live';
import type { ChartPoint } from '../../ui/chart-base';

/** The points of the rolling chart: the readings of the last two minutes before `endMs` (NaN breaks the line). */
export function liveChartPoints(levels: Pick<LiveLevels, 'times' | 'values'>, endMs: number): ChartPoint[] {
  const points: ChartPoint[] = [];
  const startMs = endMs - LIVE_CHART_MS;
  for (let i = 0; i < levels.times.length; i++) {
    const x = levels.times[i] as number;
    if (x >= startMs && x <= endMs) points.push({ x, y: levels.values[i] as number });
  }
  return points;
}

/** The newest reading: its level (dB) and when it ended; null when the read holds none. */
export function currentReading(levels: LiveLevels): { level: number; endMs: number } | null {
  const endMs = newestReadingEnd(levels);
  if (endMs === null) return null;
  const i = levels.times.lastIndexOf(endMs - levels.sampleMs);
  return { level: levels.values[i] as number, endMs };
}

/** "12 s", "2 min 5 s": how long ago, to the second. */
export function agoText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** The plain statement of how near live the view is. */
export function behindText(levels: LiveLevels | null, nowMs: number): string {
  if (levels === null) return 'Reading the newest levels…';
  const reading = currentReading(levels);
  if (reading === null)
    return `No reading in the last ${agoText(levels.times.length === 0 ? LIVE_CHART_MS : nowMs - (levels.times[0] as number))}: the instrument is not sending levels now.`;
  return `Newest reading ${agoText(nowMs - reading.endMs)} ago`;
}

/** The big digits: one decimal, as a sound level meter shows it. */
export const levelDigits = (level: number): string => level.toFixed(1);
