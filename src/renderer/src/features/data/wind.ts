/**
 * Wind as engineers read it: the direction along the time axis as arrows (a line through 359° and
 * 1° would jump across the whole chart), and a wind rose of the range — how often the wind came
 * from each of 16 compass sectors, split by speed class, with calm readings counted apart
 * (a calm reading has no meaningful direction).
 */
import type { CellValue, RecordTable, SeriesChannel, TimeInterval } from '../../../../shared/data';
import type { ChartPoint } from '../../ui/chart-base';
import { circularMean } from '../../../../shared/series-figures';

/** The quantities the backend marks wind channels with (record-specs.ts). */
export const WIND_SPEED = 'wind speed';
export const WIND_DIRECTION = 'wind direction';

export const isWindDirection = (channel: Pick<SeriesChannel, 'quantity'>): boolean =>
  channel.quantity === WIND_DIRECTION;

/** The 16 compass points, clockwise from north; sector i is centred on i × 22.5°. */
export const COMPASS_POINTS = [
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
] as const;
export type CompassPoint = (typeof COMPASS_POINTS)[number];

const SECTOR_DEG = 360 / COMPASS_POINTS.length;

/** Degrees in [0, 360), whatever turn they were given in (−10 → 350, 370 → 10). */
export function normalizedDegrees(degrees: number): number {
  const turned = degrees % 360;
  return turned < 0 ? turned + 360 : turned;
}

/** The sector a direction falls in: N covers 348.75°–11.25°, so 355° is north. */
export function sectorOf(degrees: number): number {
  return Math.floor((normalizedDegrees(degrees) + SECTOR_DEG / 2) / SECTOR_DEG) % COMPASS_POINTS.length;
}

/** "SW": the compass point nearest a direction. */
export const compassPoint = (degrees: number): CompassPoint => COMPASS_POINTS[sectorOf(degrees)]!;

/**
 * At most `count` arrows evenly across the range: each the mean direction of the readings in its
 * stretch, at their mean time. A stretch without readings has no arrow, so gaps stay visible.
 * (Every reading of a week as an arrow would be a black smear.)
 */
export function windArrows(
  times: Float64Array,
  directions: Float32Array,
  range: TimeInterval,
  count: number,
): ChartPoint[] {
  const span = Math.max(1, range.end - range.start);
  const buckets = Array.from({ length: Math.max(1, count) }, () => ({
    times: [] as number[],
    dirs: [] as number[],
  }));
  const length = Math.min(times.length, directions.length);
  for (let i = 0; i < length; i++) {
    const t = times[i]!;
    const d = directions[i]!;
    if (!Number.isFinite(d) || t < range.start || t >= range.end) continue;
    const bucket =
      buckets[Math.min(buckets.length - 1, Math.floor(((t - range.start) / span) * buckets.length))]!;
    bucket.times.push(t);
    bucket.dirs.push(d);
  }
  return buckets.flatMap((bucket) => {
    const mean = circularMean(bucket.dirs);
    if (mean === null) return [];
    const x = Math.round(bucket.times.reduce((sum, t) => sum + t, 0) / bucket.times.length);
    return [{ x, y: mean }];
  });
}

/** Where an arrow points: downwind, the way the air moves (the reading says where it comes from). */
export const downwindBearing = (fromDegrees: number): number => normalizedDegrees(fromDegrees + 180);

/** Below this speed (m/s) a reading is calm: its direction says nothing. */
export const CALM_BELOW_MS = 0.5;

/** Speed classes of the rose (m/s), each from its `from` up to the next class's. */
export const SPEED_CLASSES: ReadonlyArray<{ from: number; label: string }> = [
  { from: CALM_BELOW_MS, label: '0.5–2 m/s' },
  { from: 2, label: '2–4 m/s' },
  { from: 4, label: '4–6 m/s' },
  { from: 6, label: '6–8 m/s' },
  { from: 8, label: '8 m/s and more' },
];

export interface WindRose {
  /** Readings with both a speed and a direction (or calm), the 100 % of the rose. */
  readings: number;
  calm: number;
  /** counts[sector][speedClass]: sectors as COMPASS_POINTS, classes as SPEED_CLASSES. */
  counts: number[][];
  /** Readings left out: a speed or direction missing. */
  skipped: number;
}

function speedClassOf(speed: number): number {
  let index = 0;
  for (let i = 0; i < SPEED_CLASSES.length; i++) if (speed >= SPEED_CLASSES[i]!.from) index = i;
  return index;
}

/**
 * The rose of paired readings (`speeds[i]` with `directions[i]`). A calm reading counts without a
 * sector even when its direction is missing; any other reading without both values is skipped.
 */
export function windRose(speeds: ArrayLike<number | null>, directions: ArrayLike<number | null>): WindRose {
  const counts = COMPASS_POINTS.map(() => SPEED_CLASSES.map(() => 0));
  let calm = 0;
  let skipped = 0;
  const length = Math.min(speeds.length, directions.length);
  for (let i = 0; i < length; i++) {
    const speed = speeds[i];
    const direction = directions[i];
    if (speed === null || speed === undefined || !Number.isFinite(speed) || speed < 0) {
      skipped++;
    } else if (speed < CALM_BELOW_MS) {
      calm++;
    } else if (direction === null || direction === undefined || !Number.isFinite(direction)) {
      skipped++;
    } else {
      counts[sectorOf(direction)]![speedClassOf(speed)]! += 1;
    }
  }
  skipped += Math.abs(speeds.length - directions.length);
  const readings = calm + counts.reduce((sum, row) => sum + row.reduce((a, b) => a + b, 0), 0);
  return { readings, calm, counts, skipped };
}

/** The sector the wind came from most often, with its share of the readings; null with no sector. */
export function prevailingSector(rose: WindRose): { point: CompassPoint; share: number } | null {
  let best = -1;
  let bestCount = 0;
  rose.counts.forEach((row, sector) => {
    const count = row.reduce((a, b) => a + b, 0);
    if (count > bestCount) [best, bestCount] = [sector, count];
  });
  if (best < 0 || rose.readings === 0) return null;
  return { point: COMPASS_POINTS[best]!, share: bestCount / rose.readings };
}

/** Percent of all readings in each sector (rows) for each speed class (columns). */
export function rosePercents(rose: WindRose): number[][] {
  return rose.counts.map((row) =>
    row.map((count) => (rose.readings === 0 ? 0 : (100 * count) / rose.readings)),
  );
}

/**
 * The wind channels of an answer, by the quantities the backend gave them: the speed and the
 * direction, or null when the dataset has not both.
 */
export function windChannels(
  series: readonly SeriesChannel[],
): { speed: SeriesChannel; direction: SeriesChannel } | null {
  const speed = series.find((channel) => channel.quantity === WIND_SPEED);
  const direction = series.find(isWindDirection);
  return speed && direction ? { speed, direction } : null;
}

const numberOrNull = (value: CellValue | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/**
 * The rose of a range from its records: each record pairs its speed with its direction exactly,
 * which the chart's series (reduced per pixel column, each on its own) no longer do.
 */
export function windRoseOfRecords(table: RecordTable, speedKey: string, directionKey: string): WindRose {
  return windRose(
    table.rows.map((row) => numberOrNull(row[speedKey])),
    table.rows.map((row) => numberOrNull(row[directionKey])),
  );
}
