/** The data view's time range: quick choices or a custom interval, and what each means now. */
import type { TimeInterval } from '../../../../shared/data';
import { DAY_MS, MINUTE_MS } from '../../ui/time';

export type RangePresetId = '24h' | '7d' | '31d';

export const RANGE_PRESETS: ReadonlyArray<{ id: RangePresetId; label: string; spanMs: number }> = [
  { id: '24h', label: 'Last 24 hours', spanMs: DAY_MS },
  { id: '7d', label: 'Last 7 days', spanMs: 7 * DAY_MS },
  { id: '31d', label: 'Last 31 days', spanMs: 31 * DAY_MS },
];

export type RangeChoice =
  { kind: 'preset'; preset: RangePresetId } | { kind: 'custom'; start: number; end: number };

/** Ten years, as the contract allows. */
const MAX_SPAN_MS = 10 * 366 * DAY_MS;

/**
 * The interval a choice means now. A preset ends at the next whole minute, so reads within the
 * same minute ask for the same interval (and the cache answers them alike).
 */
export function resolveRange(choice: RangeChoice, now: number): TimeInterval {
  if (choice.kind === 'custom') return { start: choice.start, end: choice.end };
  const preset = RANGE_PRESETS.find((p) => p.id === choice.preset) ?? RANGE_PRESETS[0]!;
  const end = Math.ceil(now / MINUTE_MS) * MINUTE_MS;
  return { start: end - preset.spanMs, end };
}

/**
 * What the range menu says: the preset chosen, or "Custom" when the choice is custom or the chart
 * shows only part of it (`zoomedView`, after a zoom or a pan): the range shown is then no longer
 * "Last 7 days".
 */
export function rangeMenuChoice(
  choice: RangeChoice,
  zoomedView: TimeInterval | null,
): RangePresetId | 'custom' {
  return choice.kind === 'custom' || zoomedView !== null ? 'custom' : choice.preset;
}

/** Why a custom range cannot be used, in plain words; null when it can. */
export function customRangeProblem(start: number | null, end: number | null): string | null {
  if (start === null || end === null) return 'Enter both a start and an end.';
  if (end <= start) return 'The end must be after the start.';
  if (end - start > MAX_SPAN_MS) return 'Choose a range of at most ten years.';
  return null;
}
