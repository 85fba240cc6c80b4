/**
 * The live check: an instrument's newest 1 s levels, read again every few seconds. The interface
 * names a `data.live:read` scope but no endpoint for it, so FieldDesk reads the time history of
 * the last minutes (`/data/noise/timehistory`): near-live, as far behind as the service's newest
 * reading, which the view says.
 */

/** The value shown: 1 s LAeq. */
export const LIVE_VALUE = 'LAeq';
/** The chart's rolling window. */
export const LIVE_CHART_MS = 120_000;
/** How far back each read goes: the chart's window and a little more, so a late upload is seen. */
export const LIVE_READ_WINDOW_MS = 150_000;
/** Bounds of the read window a caller may ask for. */
export const LIVE_READ_WINDOW_MIN_MS = 30_000;
export const LIVE_READ_WINDOW_MAX_MS = 300_000;

/** One read of an instrument's newest levels; never stored in the cache (its last minute is open). */
export interface LiveLevels {
  serial: string;
  /** Start of each 1 s sample (epoch ms), oldest first. */
  times: Float64Array;
  /** 1 s LAeq (dB) of each sample; NaN is "no reading". */
  values: Float32Array;
  /** Length of one sample (ms): the newest reading ends at its time plus this. */
  sampleMs: number;
  /** When the read was made (the backend's clock). */
  fetchedAt: number;
  /** What of the answer could not be read (left out); empty when all was. */
  notes: string[];
}

/** The end of the newest reading (epoch ms), or null when the read holds none. */
export function newestReadingEnd(levels: Pick<LiveLevels, 'times' | 'values' | 'sampleMs'>): number | null {
  for (let i = levels.times.length - 1; i >= 0; i--) {
    if (!Number.isNaN(levels.values[i] as number)) return (levels.times[i] as number) + levels.sampleMs;
  }
  return null;
}
