/**
 * The second a night's LAFMax was reached. The instrument's interval values say only which 15-min
 * interval held the maximum; its 1 s time history (`/data/noise/timehistory`, LAFMax per second)
 * says when within it. After an assessment, each stated LAFMax is looked up in the 15 minutes of
 * history that hold it — a few hundred readings, through the same read-through cache, so offline
 * it is found only if that history was kept, and otherwise the figure keeps saying the interval.
 */
import type { AssessmentResult } from '../../../shared/assessment';
import type { DatasetOptions } from '../../../shared/data';
import { channelOf } from './exclusions';
import type { ReadOne } from './assessment-inputs';
import { maxLevel } from './figures/noise-figures';
import { samplesOf } from './figures/samples';
import { momentLabel } from './figures/site-periods';

const LAFMAX_HISTORY: DatasetOptions = { values: ['LAFMax'], period: 'PT1S' };

/** Interval maxima are looked up when their interval is at most this long (a day of 1 s is 86,400 readings). */
const LONGEST_INTERVAL_MS = 3_600_000;

/**
 * Sets `at` and `detail` of each stated LAFMax figure (and its exceedance) to the second of its
 * maximum in the 1 s history. `intervalMs` is the interval values' length. Stops asking at the
 * first read that fails (offline or not allowed): the rest would fail the same way. Answers whether
 * every figure was looked up (false when it stopped there).
 */
export async function refineMaximaTimes(
  result: AssessmentResult,
  intervalMsOf: (serial: string) => number | null,
  read: ReadOne,
  /** Called after each figure looked up, with how many of how many (a year has a night a day). */
  onProgress: (done: number, total: number) => void = () => {},
): Promise<boolean> {
  const wanted = result.figures.filter((figure) => {
    if (figure.label !== 'LAFMax,night' || figure.state !== 'ok' || figure.at === undefined) return false;
    const intervalMs = intervalMsOf(figure.serial);
    return intervalMs !== null && intervalMs > 1000 && intervalMs <= LONGEST_INTERVAL_MS;
  });
  for (const [index, figure] of wanted.entries()) {
    if (index > 0) onProgress(index, wanted.length);
    const intervalMs = intervalMsOf(figure.serial);
    if (intervalMs === null || figure.at === undefined) continue;
    const range = { start: figure.at, end: figure.at + intervalMs };
    let second: number | null;
    try {
      const history = await read(figure.serial, 'noiseTimeHistory', range, LAFMAX_HISTORY);
      const lafmax = channelOf(history, 'LAFMax');
      second = lafmax === null ? null : (maxLevel(samplesOf(lafmax, 1000), range)?.time ?? null);
    } catch {
      // Offline or not allowed: every figure keeps the interval it was found in, said as such.
      return false;
    }
    if (second === null) continue;
    figure.at = second;
    figure.atStepMs = 1000;
    figure.detail = `${momentLabel(second, 1000, result.timeZone)} (from the 1 s history)`;
    for (const exceedance of result.exceedances)
      if (exceedance.figureId === figure.id) exceedance.at = second;
  }
  return true;
}
