/**
 * Daily means of air quality (PM10, PM2.5), as the EU's limit values are set: the mean of each
 * site-local calendar day, valid only when readings that count cover at least 75 % of it
 * (Directive 2008/50/EC Annex VII: 18 of a day's 24 hourly values). Readings are weighted by the
 * time they cover in the day, so a 15-min and an hourly instrument give the same kind of mean.
 */
import { isCounted, overlapping, type Samples } from './samples';
import type { SitePeriod } from './site-periods';

export interface DailyMean {
  date: string;
  start: number;
  end: number;
  mean: number | null;
  /** Fraction of the day with readings that count (of the whole day, even where the range clips it). */
  coverage: number;
  /** EU rule: a daily mean needs 75 % of the day's readings (18 of 24 h). */
  valid: boolean;
}

/** The EU's share of a day a daily mean needs (18 of 24 hours). */
export const EU_DAILY_COVERAGE = 0.75;

/**
 * The time-weighted arithmetic mean of each day (`days` from sitePeriods(…, 'calendarDay')):
 * each sample counts with the part of it inside the day; masked samples and NaN are skipped. The
 * coverage is of the whole day — 23 h or 25 h when the clocks change — so a day the range clips
 * can still be valid when its readings reach `minCoverage` of it.
 */
export function dailyMeans(
  samples: Samples,
  days: readonly SitePeriod[],
  mask?: Uint8Array | null,
  minCoverage: number = EU_DAILY_COVERAGE,
): DailyMean[] {
  const { starts, ends, values } = samples;
  return days.map((day) => {
    const { from, to } = overlapping(samples, day);
    let weighted = 0;
    let ms = 0;
    for (let i = from; i < to; i++) {
      if (!isCounted(values, mask, i)) continue;
      const inside = Math.min(ends[i]!, day.end) - Math.max(starts[i]!, day.start);
      if (!(inside > 0)) continue;
      weighted += inside * values[i]!;
      ms += inside;
    }
    const length = day.whole.end - day.whole.start;
    const coverage = length > 0 ? ms / length : 0;
    const mean = ms > 0 ? weighted / ms : null;
    return {
      date: day.date,
      start: day.start,
      end: day.end,
      mean,
      coverage,
      valid: mean !== null && coverage >= minCoverage,
    };
  });
}
