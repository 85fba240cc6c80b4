/**
 * A long spectrum time history read day by day: the service answers at most a day of it per request
 * (service limits), and one read of a week waits for seven requests in a row behind one spinner.
 * Read as days instead, a few at a time, each stored in the cache by the backend as it arrives:
 * the view says "3 of 7 days", Cancel stops the days not yet asked for (those read stay cached),
 * and the whole range is then read once more — from the cache, so its figures and provenance are
 * those of every reading, computed by the backend as for any read.
 */
import { FieldDeskError } from '../../../../shared/errors';
import type { Dataset, TimeInterval } from '../../../../shared/data';

export const DAY_MS = 86_400_000;

/** Days asked for at once: the service and the backend's parsing are shared with the rest of the app. */
export const DAY_READS_AT_ONCE = 3;

/** Datasets read day by day over more than a day: those the service answers a day at a time. */
const READ_BY_DAYS: ReadonlySet<Dataset> = new Set(['frequencyTimeHistory']);

/** Whether a read of `dataset` over `range` goes day by day. */
export const readsByDays = (dataset: Dataset, range: TimeInterval): boolean =>
  READ_BY_DAYS.has(dataset) && range.end - range.start > DAY_MS;

/** The range as whole days from its start; the last one ends with the range. */
export function dayIntervals(range: TimeInterval): TimeInterval[] {
  const days: TimeInterval[] = [];
  for (let start = range.start; start < range.end; start += DAY_MS)
    days.push({ start, end: Math.min(range.end, start + DAY_MS) });
  return days;
}

export interface DayProgress {
  done: number;
  total: number;
}

/** "3 of 7 days". */
export const dayProgressText = ({ done, total }: DayProgress): string =>
  `${done} of ${total} day${total === 1 ? '' : 's'}`;

export interface DayReadOptions<T> {
  signal: AbortSignal;
  atOnce?: number;
  /** After each day read (in the order they finish), with how many are done. */
  onDay?: (day: TimeInterval, answer: T, progress: DayProgress) => void;
}

/**
 * Reads every day of `range` with `readDay`, at most `atOnce` at a time; answers them in day order.
 * Aborting rejects at once with `cancelled`, saying how many were read, and asks for no more days
 * (those under way finish in the background, unused: the backend keeps them in the cache); a day
 * that fails rejects with its error and asks for no more days.
 */
export async function readByDays<T>(
  range: TimeInterval,
  readDay: (day: TimeInterval) => Promise<T>,
  options: DayReadOptions<T>,
): Promise<T[]> {
  const days = dayIntervals(range);
  const answers: T[] = new Array<T>(days.length);
  let next = 0;
  let done = 0;
  let failure: unknown = null;
  const stopped = (): boolean => options.signal.aborted || failure !== null;

  async function worker(): Promise<void> {
    while (!stopped() && next < days.length) {
      const index = next++;
      const day = days[index]!;
      try {
        const answer = await readDay(day);
        if (options.signal.aborted) return;
        answers[index] = answer;
        done += 1;
        options.onDay?.(day, answer, { done, total: days.length });
      } catch (error) {
        failure ??= error;
      }
    }
  }

  const workers = Math.max(1, Math.min(options.atOnce ?? DAY_READS_AT_ONCE, days.length));
  const cancelled = new Promise<void>((resolve) => {
    if (options.signal.aborted) resolve();
    else options.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await Promise.race([Promise.all(Array.from({ length: workers }, () => worker())), cancelled]);
  if (options.signal.aborted) {
    throw new FieldDeskError(
      'cancelled',
      `Stopped after ${dayProgressText({ done, total: days.length })}. The days read are kept offline; Refresh reads the rest.`,
    );
  }
  if (failure !== null) throw failure;
  return answers;
}
