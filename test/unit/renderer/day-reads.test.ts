/**
 * The day-by-day reader of long spectrum time histories (day-reads.ts): a week as seven days, at
 * most three asked for at once, progress as days finish, answers in day order; Cancel stops the
 * days not yet asked for. Each day's read is held by the test (a promise it settles), never timed.
 */
import { describe, expect, it } from 'vitest';
import type { TimeInterval } from '../../../src/shared/data';
import { FieldDeskError } from '../../../src/shared/errors';
import {
  DAY_MS,
  dayIntervals,
  dayProgressText,
  readByDays,
  readsByDays,
  type DayProgress,
} from '../../../src/renderer/src/features/data/day-reads';

const T0 = Date.UTC(2026, 6, 6);
const WEEK = { start: T0, end: T0 + 7 * DAY_MS };

/** Day reads the test answers one by one; `asked` lists the days' starts in the order asked for. */
function heldDays() {
  const asked: number[] = [];
  const pending = new Map<number, { resolve: (v: string) => void; reject: (e: unknown) => void }>();
  const readDay = (day: TimeInterval) =>
    new Promise<string>((resolve, reject) => {
      asked.push(day.start);
      pending.set(day.start, { resolve, reject });
    });
  /** Answers the read of day `n` (0 first) and lets the reader go on. */
  async function answer(n: number): Promise<void> {
    pending.get(T0 + n * DAY_MS)!.resolve(`day ${n}`);
    await new Promise<void>((resolve) => setTimeout(resolve, 0)); // one turn of the event loop, not a wait
  }
  async function fail(n: number, error: unknown): Promise<void> {
    pending.get(T0 + n * DAY_MS)!.reject(error);
    await new Promise<void>((resolve) => setTimeout(resolve, 0)); // one turn of the event loop, not a wait
  }
  const dayOf = (start: number) => (start - T0) / DAY_MS;
  return { asked, readDay, answer, fail, dayOf };
}

describe('day-by-day reads', () => {
  it('splits a range into whole days from its start, the last one ending with the range', () => {
    expect(dayIntervals(WEEK)).toHaveLength(7);
    expect(dayIntervals({ start: T0, end: T0 + 2.5 * DAY_MS })).toEqual([
      { start: T0, end: T0 + DAY_MS },
      { start: T0 + DAY_MS, end: T0 + 2 * DAY_MS },
      { start: T0 + 2 * DAY_MS, end: T0 + 2.5 * DAY_MS },
    ]);
    expect(readsByDays('frequencyTimeHistory', WEEK)).toBe(true);
    expect(readsByDays('frequencyTimeHistory', { start: T0, end: T0 + DAY_MS })).toBe(false);
    expect(readsByDays('noiseTimeHistory', WEEK)).toBe(false);
    expect(dayProgressText({ done: 3, total: 7 })).toBe('3 of 7 days');
  });

  it('reads a week three days at a time, says each day done, and answers in day order', async () => {
    const days = heldDays();
    const progress: DayProgress[] = [];
    const reading = readByDays(WEEK, days.readDay, {
      signal: new AbortController().signal,
      onDay: (_day, _answer, p) => progress.push(p),
    });
    expect(days.asked.map(days.dayOf)).toEqual([0, 1, 2]);
    // Day 2 finishes first: the next day is asked for, no more than three run.
    await days.answer(2);
    expect(days.asked.map(days.dayOf)).toEqual([0, 1, 2, 3]);
    expect(progress).toEqual([{ done: 1, total: 7 }]);
    for (const n of [0, 1, 3, 4, 5, 6]) await days.answer(n);
    expect(progress.at(-1)).toEqual({ done: 7, total: 7 });
    await expect(reading).resolves.toEqual([0, 1, 2, 3, 4, 5, 6].map((n) => `day ${n}`));
  });

  it('Cancel asks for no more days and says how many were read', async () => {
    const days = heldDays();
    const cancel = new AbortController();
    // Its outcome is taken at once: it settles while the test is still answering days.
    const outcome = readByDays(WEEK, days.readDay, { signal: cancel.signal }).catch(
      (error: unknown) => error,
    );
    await days.answer(0);
    await days.answer(1);
    expect(days.asked).toHaveLength(5);
    cancel.abort();
    // Answered at once, without waiting for the three under way; they finish unused, and nothing
    // more is asked for.
    const stopped = await outcome;
    for (const n of [2, 3, 4]) await days.answer(n);
    expect(days.asked).toHaveLength(5);
    expect(stopped).toBeInstanceOf(FieldDeskError);
    expect(stopped).toMatchObject({
      code: 'cancelled',
      message: 'Stopped after 2 of 7 days. The days read are kept offline; Refresh reads the rest.',
    });
  });

  it('a day that fails asks for no more days and answers its error', async () => {
    const days = heldDays();
    const outcome = readByDays(WEEK, days.readDay, { signal: new AbortController().signal, atOnce: 2 }).catch(
      (error: unknown) => error,
    );
    const refused = new FieldDeskError('forbidden', 'The key cannot read spectra.');
    await days.fail(0, refused);
    await days.answer(1);
    expect(days.asked.map(days.dayOf)).toEqual([0, 1]);
    expect(await outcome).toBe(refused);
  });
});
