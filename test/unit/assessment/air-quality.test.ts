/** Daily means and the EU's 75 % coverage rule, against values worked out by hand. */
import { describe, expect, it } from 'vitest';
import { dailyMeans } from '../../../src/main/backend/assessment/figures/air-quality';
import { exclusionMask, type Samples } from '../../../src/main/backend/assessment/figures/samples';
import { sitePeriods } from '../../../src/main/backend/assessment/figures/site-periods';

const HOUR = 3_600_000;
const utc = (iso: string) => Date.parse(iso);

/** Samples given as [start, end, value]. */
function samples(rows: ReadonlyArray<readonly [number, number, number]>): Samples {
  return {
    starts: Float64Array.from(rows, (r) => r[0]),
    ends: Float64Array.from(rows, (r) => r[1]),
    values: Float32Array.from(rows, (r) => r[2]),
  };
}

/** `count` hourly samples from `start` with the value `value`. */
const hourly = (start: number, count: number, value: number) =>
  Array.from({ length: count }, (_, i) => [start + i * HOUR, start + (i + 1) * HOUR, value] as const);

describe('dailyMeans (London, GMT in November: days are 00:00Z–24:00Z)', () => {
  const range = { start: utc('2026-11-24T00:00Z'), end: utc('2026-11-26T00:00Z') };
  const days = sitePeriods(range, 'Europe/London', 'calendarDay');

  it('needs 75 % of the day: 18 of 24 hours is enough, 17 is not', () => {
    // 24 Nov: 12 h at 30 and 6 h at 60 µg/m³ → (12·30 + 6·60)/18 = 720/18 = 40; 18/24 = 0.75 → valid.
    // 25 Nov: 17 h at 50 → 50; 17/24 = 0.7083 → not valid.
    const pm10 = samples([
      ...hourly(utc('2026-11-24T00:00Z'), 12, 30),
      ...hourly(utc('2026-11-24T12:00Z'), 6, 60),
      ...hourly(utc('2026-11-25T00:00Z'), 17, 50),
    ]);
    const [first, second] = dailyMeans(pm10, days);
    expect(first).toMatchObject({ date: '2026-11-24', valid: true });
    expect(first!.mean).toBeCloseTo(40, 6);
    expect(first!.coverage).toBeCloseTo(0.75, 9);
    expect(second).toMatchObject({ date: '2026-11-25', valid: false });
    expect(second!.mean).toBeCloseTo(50, 6);
    expect(second!.coverage).toBeCloseTo(0.70833, 4);
    // With a lower bar (e.g. 2/3) the second day counts too.
    expect(dailyMeans(pm10, days, null, 2 / 3)[1]!.valid).toBe(true);
  });

  it('weighs each reading by the time it covers in the day', () => {
    // 24 Nov: one 6-h reading of 10 (00–06) and 12 hourly readings of 40 (06–18):
    // (6·10 + 12·40)/18 = 540/18 = 30 (not (10 + 12·40)/13 = 37.7); 18 h → coverage 0.75.
    // A 2-h reading of 80 from 23:00 on 24 Nov gives 1 h to each day.
    const pm = samples([
      [utc('2026-11-24T00:00Z'), utc('2026-11-24T06:00Z'), 10],
      ...hourly(utc('2026-11-24T06:00Z'), 12, 40),
      [utc('2026-11-24T23:00Z'), utc('2026-11-25T01:00Z'), 80],
    ]);
    const [first, second] = dailyMeans(pm, days);
    // 24 Nov: (6·10 + 12·40 + 1·80)/19 = 620/19 = 32.63; coverage 19/24 = 0.7917.
    expect(first!.mean).toBeCloseTo(32.632, 3);
    expect(first!.coverage).toBeCloseTo(0.79167, 4);
    // 25 Nov: 1 h of 80 → 80; coverage 1/24 → not valid.
    expect(second!.mean).toBeCloseTo(80, 6);
    expect(second!.coverage).toBeCloseTo(1 / 24, 9);
    expect(second!.valid).toBe(false);
  });

  it('leaves out excluded readings, which lowers the coverage', () => {
    // 18 hourly readings of 20, one (05:00–06:00) excluded: 17/24 → not valid, mean still 20.
    const pm = samples(hourly(utc('2026-11-24T00:00Z'), 18, 20));
    const mask = exclusionMask(pm, [{ start: utc('2026-11-24T05:30Z'), end: utc('2026-11-24T05:31Z') }]);
    const [first] = dailyMeans(pm, days, mask);
    expect(first!.mean).toBeCloseTo(20, 6);
    expect(first!.coverage).toBeCloseTo(17 / 24, 9);
    expect(first!.valid).toBe(false);
  });

  it('gives a null mean for a day without readings', () => {
    expect(dailyMeans(samples([]), days).map((d) => [d.mean, d.coverage, d.valid])).toEqual([
      [null, 0, false],
      [null, 0, false],
    ]);
  });
});

describe('dailyMeans on the 23-hour day (London, 29 Mar 2026) and a clipped day', () => {
  it('counts coverage of the day as it is: 18 of 23 h valid, 17 of 23 h not', () => {
    // 29 Mar 2026 runs 00:00Z–23:00Z (23 h). 18 h: 18/23 = 0.7826 ≥ 0.75 → valid.
    const [day] = sitePeriods(
      { start: utc('2026-03-29T00:00Z'), end: utc('2026-03-29T23:00Z') },
      'Europe/London',
      'calendarDay',
    );
    const eighteen = dailyMeans(samples(hourly(utc('2026-03-29T00:00Z'), 18, 25)), [day!]);
    expect(eighteen[0]!.coverage).toBeCloseTo(0.78261, 4);
    expect(eighteen[0]!.valid).toBe(true);
    // 17 h: 17/23 = 0.7391 < 0.75 → not valid (17 of 24 would be 0.7083).
    const seventeen = dailyMeans(samples(hourly(utc('2026-03-29T00:00Z'), 17, 25)), [day!]);
    expect(seventeen[0]!.coverage).toBeCloseTo(0.73913, 4);
    expect(seventeen[0]!.valid).toBe(false);
  });

  it('counts coverage of the whole day when the range clips it', () => {
    // Range from 06:00Z on 24 Nov: the day keeps its 24 h; 18 h of readings 06–24 → 18/24 = 0.75 → valid.
    const range = { start: utc('2026-11-24T06:00Z'), end: utc('2026-11-25T00:00Z') };
    const [day] = sitePeriods(range, 'Europe/London', 'calendarDay');
    expect(day!.partial).toBe(true);
    const [mean] = dailyMeans(samples(hourly(utc('2026-11-24T00:00Z'), 24, 35)), [day!]);
    expect(mean).toMatchObject({ start: range.start, end: range.end, valid: true });
    expect(mean!.coverage).toBeCloseTo(0.75, 9);
    // From 07:00Z: 17 of 24 h → not valid, however complete the part in range.
    const [later] = sitePeriods(
      { ...range, start: utc('2026-11-24T07:00Z') },
      'Europe/London',
      'calendarDay',
    );
    const [short] = dailyMeans(samples(hourly(utc('2026-11-24T00:00Z'), 24, 35)), [later!]);
    expect(short!.coverage).toBeCloseTo(17 / 24, 9);
    expect(short!.valid).toBe(false);
  });
});
