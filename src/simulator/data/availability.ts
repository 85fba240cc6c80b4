/**
 * When an instrument recorded: everyone has an occasional outage of a few hours (power, modem),
 * and an instrument that is offline (or online but not measuring) now stopped recording some
 * hours ago. Outages are aligned to the 15-minute measurement grid so that every measurement
 * interval is either wholly recorded or wholly missing.
 */
import { hashString, STREAM, unit } from './hash';

export const GRID_MS = 15 * 60_000;
const DAY_MS = 86_400_000;
const GRIDS_PER_DAY = DAY_MS / GRID_MS;
/** Chance that an outage starts on a given UTC day. */
const OUTAGE_CHANCE = 0.08;

export interface Availability {
  /** True when the instrument recorded the whole 15-minute grid interval with this index. */
  recorded(gridIndex: number): boolean;
  /** The first grid index that is not recorded at or after `gridIndex`, up to `limit`. */
  recordedUntil(gridIndex: number, limit: number): number;
  /**
   * The grid interval the instrument is recording now, and how far it has got (now): the service
   * shows its readings before the interval closes. Null when it is not recording now (stopped,
   * offline, or in an outage).
   */
  open: { grid: number; untilMs: number } | null;
}

/** The outage (in grid indices, [start, end)) that starts on a UTC day, or null. */
function outageOfDay(key: number, day: number): [number, number] | null {
  if (unit(key, STREAM.outageDay, day) >= OUTAGE_CHANCE) return null;
  const start = day * GRIDS_PER_DAY + Math.floor(unit(key, STREAM.outageStart, day) * GRIDS_PER_DAY);
  // One to eight hours.
  const length = 4 + Math.floor(unit(key, STREAM.outageLength, day) * 29);
  return [start, start + length];
}

/**
 * @param key the instrument's hash key
 * @param nowMs nothing is recorded after now
 * @param stoppedAtMs start of the current stretch without recording (offline or paused), or null
 */
export function createAvailability(key: number, nowMs: number, stoppedAtMs: number | null): Availability {
  const endGrid = Math.floor((stoppedAtMs ?? nowMs) / GRID_MS);
  const nowGrid = Math.floor(nowMs / GRID_MS);
  const lastGrid = Math.min(endGrid, nowGrid);
  const inOutage = (g: number): boolean => {
    const day = Math.floor(g / GRIDS_PER_DAY);
    for (const d of [day, day - 1]) {
      const outage = outageOfDay(key, d);
      if (outage !== null && g >= outage[0] && g < outage[1]) return true;
    }
    return false;
  };
  const recorded = (g: number): boolean => g < lastGrid && !inOutage(g);
  return {
    recorded,
    open: stoppedAtMs === null && !inOutage(nowGrid) ? { grid: nowGrid, untilMs: nowMs } : null,
    recordedUntil(g, limit) {
      let i = g;
      while (i < limit && recorded(i)) i++;
      return i;
    },
  };
}

/** Where the offline/paused stretch of an instrument that is not recording now began (2–48 h ago). */
export function stoppedAt(key: number, nowMs: number): number {
  const hoursAgo = 2 + unit(key, STREAM.stopped, 0) * 46;
  return Math.floor((nowMs - hoursAgo * 3_600_000) / GRID_MS) * GRID_MS;
}

/**
 * Whether an instrument is in one of its outages at a time: its status may still say online, but
 * it records nothing and the service has no current state for it (tests pick a connected one).
 */
export function inOutageAt(serial: string, seed: number, atMs: number): boolean {
  const key = hashString(serial, seed);
  return !createAvailability(key, atMs + GRID_MS, null).recorded(Math.floor(atMs / GRID_MS));
}
