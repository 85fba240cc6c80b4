/**
 * The readings of the report fixture's three days (Mon 23 to Thu 26 Nov 2026 in London): the
 * excluded periods and what they shape, hourly noise levels, noise events and the chart series. Kept
 * apart from `report-fixture.ts`, which forms the figures and the whole assessment from them.
 */
import type {
  AssessmentChart,
  ExcludedPeriod,
  HourlyRow,
  NoiseEventRef,
} from '../../../src/shared/assessment';

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
/** Mon 23 Nov 2026 00:00 in London (UTC+00:00). */
export const START = Date.UTC(2026, 10, 23);
export const END = START + 72 * HOUR;
export const NOISE = 'NM-1043';
export const VIBRATION = 'VM-2210';

/** A time on a day of November 2026, in UTC (the same as London time then). */
export const at = (day: number, hour: number, minute = 0, second = 0) =>
  Date.UTC(2026, 10, day, hour, minute, second);

export const EXCLUSIONS: ExcludedPeriod[] = [
  {
    start: at(23, 9),
    end: at(23, 12, 30),
    serial: null,
    cause: 'manual',
    reason: 'Road works on Riverside Close (resurfacing, plate compactor)',
  },
  {
    start: at(24, 3),
    end: at(24, 4),
    serial: NOISE,
    cause: 'failedCheck',
    reason: 'SIC failed at 03:00 (largest band deviation 1.2 dB) until the passed SIC at 04:00',
  },
  {
    start: at(24, 14),
    end: at(24, 15, 30),
    serial: NOISE,
    cause: 'wind',
    reason: 'Wind above 5 m/s (highest 7.2 m/s)',
  },
  {
    start: at(25, 2, 15),
    end: at(25, 3),
    serial: NOISE,
    cause: 'offline',
    reason: 'No readings for 45 min (modem restart)',
  },
  {
    start: at(25, 10),
    end: at(25, 10, 45),
    serial: VIBRATION,
    cause: 'offline',
    reason: 'No readings for 45 min',
  },
];

/** A reproducible level for a time: quieter at night, a little ripple. */
function level(time: number, dayLevel: number, nightLevel: number): number {
  const hour = new Date(time).getUTCHours();
  const base = hour >= 7 && hour < 23 ? dayLevel : nightLevel;
  return (
    Math.round((base + 2.5 * Math.sin(time / (37 * MINUTE)) + 1.2 * Math.cos(time / (11 * MINUTE))) * 100) /
    100
  );
}

function excludedMinutes(serial: string, start: number, end: number): number {
  let ms = 0;
  for (const e of EXCLUSIONS.filter((x) => x.serial === null || x.serial === serial)) {
    ms += Math.max(0, Math.min(end, e.end) - Math.max(start, e.start));
  }
  return Math.round(ms / MINUTE);
}

export function hourlyRows(): HourlyRow[] {
  const rows: HourlyRow[] = [];
  for (let start = START; start < END; start += HOUR) {
    const excluded = excludedMinutes(NOISE, start, start + HOUR);
    const laeq = level(start, 55, 43);
    rows.push({
      serial: NOISE,
      start,
      end: start + HOUR,
      label: new Date(start).toISOString().slice(11, 16),
      laeq,
      laeqValid: excluded >= 60 ? null : excluded > 0 ? Math.round((laeq - 1.4) * 100) / 100 : laeq,
      lafmax: Math.round((laeq + 14.6) * 10) / 10,
      la10: Math.round((laeq + 2.1) * 10) / 10,
      la90: Math.round((laeq - 6.3) * 10) / 10,
      excludedMinutes: excluded,
      coverage: (60 - excluded) / 60,
      sufficient: excluded <= 15,
    });
  }
  return rows;
}

export const EVENTS: NoiseEventRef[] = [
  {
    serial: NOISE,
    start: at(23, 10, 12, 30),
    end: at(23, 10, 13),
    level: 88.41,
    trigger: 'LAFMax above 85 dB',
    audioId: 'aud-7f3c21',
    atNight: false,
    excluded: true,
  },
  {
    serial: NOISE,
    start: at(24, 1, 47, 5),
    end: at(24, 1, 47, 17),
    level: 72.62,
    trigger: 'LAFMax above 65 dB at night',
    audioId: 'aud-80a1d4',
    atNight: true,
    excluded: false,
  },
  {
    serial: NOISE,
    start: at(24, 16, 20, 41),
    end: at(24, 16, 21, 26),
    level: 86.1,
    trigger: 'LAFMax above 85 dB',
    audioId: null,
    atNight: false,
    excluded: false,
  },
  {
    serial: NOISE,
    start: at(25, 5, 31, 10),
    end: null,
    level: 69.04,
    trigger: 'LAFMax above 65 dB at night',
    audioId: 'aud-81be09',
    atNight: true,
    excluded: false,
  },
];

function series(
  step: number,
  value: (time: number) => number | null,
): { times: number[]; values: Array<number | null> } {
  const times: number[] = [];
  const values: Array<number | null> = [];
  for (let t = START; t < END; t += step) {
    times.push(t);
    values.push(value(t));
  }
  return { times, values };
}

const inside = (time: number, serial: string, cause: ExcludedPeriod['cause']) =>
  EXCLUSIONS.some((e) => e.serial === serial && e.cause === cause && time >= e.start && time < e.end);

export const CHARTS: AssessmentChart[] = [
  {
    serial: NOISE,
    title: 'LAeq, 15 min',
    unit: 'dB',
    ...series(15 * MINUTE, (t) => (inside(t, NOISE, 'offline') ? null : level(t, 55, 43))),
    limits: [
      { label: 'LAeq,day limit', value: 55 },
      { label: 'LAeq,night limit', value: 45 },
    ],
  },
  {
    serial: VIBRATION,
    title: 'PPV Z, 5-min maximum',
    unit: 'mm/s',
    ...series(5 * MINUTE, (t) => {
      if (inside(t, VIBRATION, 'offline')) return null;
      const hour = new Date(t).getUTCHours();
      const works = t >= at(23, 9) && t < at(23, 12, 30);
      const base = works ? 0.9 : hour >= 8 && hour < 18 ? 0.35 : 0.08;
      return Math.round(base * (1 + 0.4 * Math.abs(Math.sin(t / (23 * MINUTE)))) * 1000) / 1000;
    }),
    limits: [{ label: 'BS 5228-2 complaint level', value: 1 }],
  },
];
