/**
 * Standard periods in site time, checked against boundaries worked out by hand from the clock
 * changes: Europe/London goes GMT→BST at 01:00 UTC on Sun 29 Mar 2026 and BST→GMT at 01:00 UTC on
 * Sun 25 Oct 2026; Australia/Sydney goes AEDT (+11)→AEST (+10) at 16:00 UTC on Sat 4 Apr 2026
 * (03:00 local on Sun 5 Apr) and AEST→AEDT at 16:00 UTC on Sat 3 Oct 2026 (02:00 local, 4 Oct).
 */
import { describe, expect, it } from 'vitest';
import {
  siteDate,
  siteDateLabel,
  sitePeriods,
  siteTimeLabel,
  type SitePeriod,
} from '../../../src/main/backend/assessment/figures/site-periods';

const utc = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const hours = (p: { start: number; end: number }) => (p.end - p.start) / HOUR;
const LONDON = 'Europe/London';
const SYDNEY = 'Australia/Sydney';

/** The one period of `kind` dated `date` (the whole of it: the range is a few days around it). */
function periodOn(date: string, timeZone: string, kind: SitePeriod['kind']): SitePeriod {
  const range = { start: utc(`${date}T00:00Z`) - 3 * 24 * HOUR, end: utc(`${date}T00:00Z`) + 3 * 24 * HOUR };
  const found = sitePeriods(range, timeZone, kind).filter((p) => p.date === date);
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('sitePeriods on an ordinary day (London, GMT = UTC in November)', () => {
  it('gives the day, evening, night, Lden day and calendar day at their wall-clock times', () => {
    // Tue 24 Nov 2026: 1 Jan 2026 was a Thursday, 24 Nov is day 328 → 327 days later = Thu + 5 = Tue.
    const day = periodOn('2026-11-24', LONDON, 'day');
    expect([day.start, day.end]).toEqual([utc('2026-11-24T07:00Z'), utc('2026-11-24T23:00Z')]);
    expect(day.label).toBe('Tue 24 Nov 2026, day 07:00–23:00');
    expect(day.partial).toBe(false);
    const evening = periodOn('2026-11-24', LONDON, 'evening');
    expect([evening.start, evening.end]).toEqual([utc('2026-11-24T19:00Z'), utc('2026-11-24T23:00Z')]);
    expect(evening.label).toBe('Tue 24 Nov 2026, evening 19:00–23:00');
    const night = periodOn('2026-11-24', LONDON, 'night');
    expect([night.start, night.end]).toEqual([utc('2026-11-24T23:00Z'), utc('2026-11-25T07:00Z')]);
    expect(night.label).toBe('Tue 24 Nov 2026, night 23:00–07:00');
    const denDay = periodOn('2026-11-24', LONDON, 'denDay');
    expect([denDay.start, denDay.end]).toEqual([utc('2026-11-24T07:00Z'), utc('2026-11-24T19:00Z')]);
    expect(denDay.label).toBe('Tue 24 Nov 2026, day 07:00–19:00');
    const calendarDay = periodOn('2026-11-24', LONDON, 'calendarDay');
    expect([calendarDay.start, calendarDay.end]).toEqual([
      utc('2026-11-24T00:00Z'),
      utc('2026-11-25T00:00Z'),
    ]);
    expect(calendarDay.label).toBe('Tue 24 Nov 2026');
  });

  it('labels hours "24 Nov 13:00" and clips the periods at the range, marking them "(part)"', () => {
    const range = { start: utc('2026-11-24T13:30Z'), end: utc('2026-11-24T15:00Z') };
    const hourly = sitePeriods(range, LONDON, 'hour');
    expect(hourly.map((h) => [h.start, h.end, h.label, h.partial])).toEqual([
      [utc('2026-11-24T13:30Z'), utc('2026-11-24T14:00Z'), '24 Nov 13:00 (part)', true],
      [utc('2026-11-24T14:00Z'), utc('2026-11-24T15:00Z'), '24 Nov 14:00', false],
    ]);
    expect(hourly[0]!.whole).toEqual({ start: utc('2026-11-24T13:00Z'), end: utc('2026-11-24T14:00Z') });
    // A range from 02:00 to 12:00 holds the end of the night dated the evening before, and part of the day.
    const morning = { start: utc('2026-11-24T02:00Z'), end: utc('2026-11-24T12:00Z') };
    const [night, ...otherNights] = sitePeriods(morning, LONDON, 'night');
    expect(otherNights).toEqual([]);
    expect(night).toMatchObject({
      date: '2026-11-23',
      start: utc('2026-11-24T02:00Z'),
      end: utc('2026-11-24T07:00Z'),
      label: 'Mon 23 Nov 2026, night 23:00–07:00 (part)',
      partial: true,
      whole: { start: utc('2026-11-23T23:00Z'), end: utc('2026-11-24T07:00Z') },
    });
    expect(sitePeriods(morning, LONDON, 'day').map((d) => [d.start, d.end, d.partial])).toEqual([
      [utc('2026-11-24T07:00Z'), utc('2026-11-24T12:00Z'), true],
    ]);
    expect(sitePeriods(morning, LONDON, 'evening')).toEqual([]);
  });

  it('gives nothing for an empty range and refuses an unknown zone', () => {
    expect(sitePeriods({ start: 5, end: 5 }, LONDON, 'day')).toEqual([]);
    expect(() => sitePeriods({ start: 0, end: HOUR }, 'Mars/Olympus_Mons', 'day')).toThrow(RangeError);
  });

  it('dates and labels instants in site time', () => {
    // 23:30 UTC on 24 Oct 2026 is 00:30 BST on 25 Oct.
    expect(siteDate(utc('2026-10-24T23:30Z'), LONDON)).toBe('2026-10-25');
    expect(siteDateLabel(utc('2026-10-24T23:30Z'), LONDON)).toBe('Sun 25 Oct 2026');
    expect(siteTimeLabel(utc('2026-10-25T00:30Z'), LONDON)).toBe('Sun 25 Oct 2026 01:30 +01:00');
    expect(siteTimeLabel(utc('2026-10-25T01:30Z'), LONDON)).toBe('Sun 25 Oct 2026 01:30 +00:00');
  });
});

describe('sitePeriods across the clock changes in Europe/London', () => {
  it('spring, 29 Mar 2026: the night before lasts 7 h, the calendar day 23 h and has 23 hours', () => {
    // Night Sat 28 Mar 23:00 GMT (= 23:00Z) to Sun 29 Mar 07:00 BST (= 06:00Z): 7 h.
    const night = periodOn('2026-03-28', LONDON, 'night');
    expect([night.start, night.end]).toEqual([utc('2026-03-28T23:00Z'), utc('2026-03-29T06:00Z')]);
    expect(hours(night)).toBe(7);
    // 29 Mar 00:00 GMT (00:00Z) to 30 Mar 00:00 BST (29 Mar 23:00Z): 23 h.
    const calendarDay = periodOn('2026-03-29', LONDON, 'calendarDay');
    expect([calendarDay.start, calendarDay.end]).toEqual([
      utc('2026-03-29T00:00Z'),
      utc('2026-03-29T23:00Z'),
    ]);
    expect(hours(calendarDay)).toBe(23);
    // The day 07:00–23:00 BST is 06:00Z–22:00Z, still 16 h.
    const day = periodOn('2026-03-29', LONDON, 'day');
    expect([day.start, day.end]).toEqual([utc('2026-03-29T06:00Z'), utc('2026-03-29T22:00Z')]);
    const hourly = sitePeriods(calendarDay, LONDON, 'hour');
    expect(hourly).toHaveLength(23);
    expect(hourly.every((h) => hours(h) === 1 && !h.partial)).toBe(true);
    // 00:00 GMT, then the clocks skip 01:00: the next hour is 02:00 BST, starting at 01:00Z.
    expect(hourly.slice(0, 3).map((h) => [h.start, h.label])).toEqual([
      [utc('2026-03-29T00:00Z'), '29 Mar 00:00'],
      [utc('2026-03-29T01:00Z'), '29 Mar 02:00'],
      [utc('2026-03-29T02:00Z'), '29 Mar 03:00'],
    ]);
    expect(hourly[22]!.label).toBe('29 Mar 23:00');
    expect(hourly[22]!.end).toBe(utc('2026-03-29T23:00Z'));
  });

  it('autumn, 25 Oct 2026: the night before lasts 9 h, the calendar day 25 h and has 25 hours', () => {
    // Night Sat 24 Oct 23:00 BST (22:00Z) to Sun 25 Oct 07:00 GMT (07:00Z): 9 h.
    const night = periodOn('2026-10-24', LONDON, 'night');
    expect([night.start, night.end]).toEqual([utc('2026-10-24T22:00Z'), utc('2026-10-25T07:00Z')]);
    expect(hours(night)).toBe(9);
    // 25 Oct 00:00 BST (24 Oct 23:00Z) to 26 Oct 00:00 GMT (26 Oct 00:00Z): 25 h.
    const calendarDay = periodOn('2026-10-25', LONDON, 'calendarDay');
    expect([calendarDay.start, calendarDay.end]).toEqual([
      utc('2026-10-24T23:00Z'),
      utc('2026-10-26T00:00Z'),
    ]);
    expect(hours(calendarDay)).toBe(25);
    const hourly = sitePeriods(calendarDay, LONDON, 'hour');
    expect(hourly).toHaveLength(25);
    expect(hourly.every((h) => hours(h) === 1)).toBe(true);
    // 01:00 twice: first in BST (00:00Z), then in GMT (01:00Z), told apart by their offsets.
    expect(hourly.slice(0, 4).map((h) => [h.start, h.label])).toEqual([
      [utc('2026-10-24T23:00Z'), '25 Oct 00:00'],
      [utc('2026-10-25T00:00Z'), '25 Oct 01:00 +01:00'],
      [utc('2026-10-25T01:00Z'), '25 Oct 01:00 +00:00'],
      [utc('2026-10-25T02:00Z'), '25 Oct 02:00'],
    ]);
    expect(new Set(hourly.map((h) => h.label)).size).toBe(25);
    // A range starting inside the first 01:00 starts with that hour, not the second.
    const [first] = sitePeriods(
      { start: utc('2026-10-25T00:30Z'), end: utc('2026-10-25T03:00Z') },
      LONDON,
      'hour',
    );
    expect(first!.whole).toEqual({ start: utc('2026-10-25T00:00Z'), end: utc('2026-10-25T01:00Z') });
    expect(first!.label).toBe('25 Oct 01:00 +01:00 (part)');
    // The evening after is in GMT: 19:00Z–23:00Z; the Lden day 07:00Z–19:00Z.
    const evening = periodOn('2026-10-25', LONDON, 'evening');
    expect([evening.start, evening.end]).toEqual([utc('2026-10-25T19:00Z'), utc('2026-10-25T23:00Z')]);
    const denDay = periodOn('2026-10-25', LONDON, 'denDay');
    expect([denDay.start, denDay.end]).toEqual([utc('2026-10-25T07:00Z'), utc('2026-10-25T19:00Z')]);
  });
});

describe('sitePeriods across the clock changes in Australia/Sydney (east of UTC)', () => {
  it('5 Apr 2026 (AEDT +11 → AEST +10): the night before lasts 9 h, the day 25 h with 02:00 twice', () => {
    // Night Sat 4 Apr 23:00 AEDT (12:00Z) to Sun 5 Apr 07:00 AEST (4 Apr 21:00Z): 9 h.
    const night = periodOn('2026-04-04', SYDNEY, 'night');
    expect([night.start, night.end]).toEqual([utc('2026-04-04T12:00Z'), utc('2026-04-04T21:00Z')]);
    expect(night.label).toBe('Sat 4 Apr 2026, night 23:00–07:00');
    // 5 Apr 00:00 AEDT (4 Apr 13:00Z) to 6 Apr 00:00 AEST (5 Apr 14:00Z): 25 h.
    const calendarDay = periodOn('2026-04-05', SYDNEY, 'calendarDay');
    expect([calendarDay.start, calendarDay.end]).toEqual([
      utc('2026-04-04T13:00Z'),
      utc('2026-04-05T14:00Z'),
    ]);
    // Day 07:00–23:00 AEST: 4 Apr 21:00Z to 5 Apr 13:00Z.
    const day = periodOn('2026-04-05', SYDNEY, 'day');
    expect([day.start, day.end]).toEqual([utc('2026-04-04T21:00Z'), utc('2026-04-05T13:00Z')]);
    const hourly = sitePeriods(calendarDay, SYDNEY, 'hour');
    expect(hourly).toHaveLength(25);
    expect(hourly.slice(2, 5).map((h) => [h.start, h.label])).toEqual([
      [utc('2026-04-04T15:00Z'), '5 Apr 02:00 +11:00'],
      [utc('2026-04-04T16:00Z'), '5 Apr 02:00 +10:00'],
      [utc('2026-04-04T17:00Z'), '5 Apr 03:00'],
    ]);
  });

  it('4 Oct 2026 (AEST +10 → AEDT +11): the night before lasts 7 h, the day 23 h without 02:00', () => {
    // Night Sat 3 Oct 23:00 AEST (13:00Z) to Sun 4 Oct 07:00 AEDT (3 Oct 20:00Z): 7 h.
    const night = periodOn('2026-10-03', SYDNEY, 'night');
    expect([night.start, night.end]).toEqual([utc('2026-10-03T13:00Z'), utc('2026-10-03T20:00Z')]);
    // 4 Oct 00:00 AEST (3 Oct 14:00Z) to 5 Oct 00:00 AEDT (4 Oct 13:00Z): 23 h.
    const calendarDay = periodOn('2026-10-04', SYDNEY, 'calendarDay');
    expect([calendarDay.start, calendarDay.end]).toEqual([
      utc('2026-10-03T14:00Z'),
      utc('2026-10-04T13:00Z'),
    ]);
    const hourly = sitePeriods(calendarDay, SYDNEY, 'hour');
    expect(hourly).toHaveLength(23);
    expect(hourly.map((h) => h.label)).not.toContain('4 Oct 02:00');
    expect(hourly.slice(1, 3).map((h) => [h.start, h.label])).toEqual([
      [utc('2026-10-03T15:00Z'), '4 Oct 01:00'],
      [utc('2026-10-03T16:00Z'), '4 Oct 03:00'],
    ]);
  });
});

describe('sitePeriods in a zone whose hours are not UTC hours', () => {
  it('Asia/Kolkata (+05:30): local hours start at half past the UTC hour', () => {
    // 13:00Z is 18:30 IST: the hour 18:00 IST began at 12:30Z.
    const hourly = sitePeriods(
      { start: utc('2026-10-03T13:00Z'), end: utc('2026-10-03T14:30Z') },
      'Asia/Kolkata',
      'hour',
    );
    expect(hourly.map((h) => [h.whole.start, h.label])).toEqual([
      [utc('2026-10-03T12:30Z'), '3 Oct 18:00 (part)'],
      [utc('2026-10-03T13:30Z'), '3 Oct 19:00'],
    ]);
  });
});
