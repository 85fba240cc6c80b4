/**
 * How far an assessment is, in the words its progress bar says: the reading (instrument by
 * instrument, the days read), the computing (instrument by instrument), then the nights' highest
 * levels found to the second. Reading takes most of the time (it fetches what the cache lacks),
 * so it fills most of the bar.
 */
import type { AssessmentProgress } from '../../../shared/assessment';
import type { AssessStep } from './assess';
import type { ReadProgress } from './assessment-inputs';

export type ComputeProgress = Pick<AssessmentProgress, 'stage' | 'detail' | 'fraction'>;

/** The bar's share of each stage; together 1. */
const READING_SHARE = 0.8;
const COMPUTING_SHARE = 0.15;
const MAXIMA_SHARE = 1 - READING_SHARE - COMPUTING_SHARE;

/** "1 day", "365 days". */
const countOf = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

const share = (done: number, total: number) => (total <= 0 ? 1 : Math.min(1, Math.max(0, done / total)));

export function readingProgress(progress: ReadProgress): ComputeProgress {
  return {
    stage: 'Reading the data',
    detail: `${progress.serial} (${progress.instrument + 1} of ${progress.instruments}): ${progress.daysRead} of ${countOf(progress.days, 'day')} read`,
    fraction: READING_SHARE * share(progress.done, progress.total),
  };
}

export function computingProgress(step: AssessStep): ComputeProgress {
  return {
    stage: 'Computing the figures',
    detail:
      step.serial === null
        ? `${countOf(step.total, 'instrument')} computed`
        : `${step.serial} (${step.done + 1} of ${step.total})`,
    fraction: READING_SHARE + COMPUTING_SHARE * share(step.done, step.total),
  };
}

export function maximaProgress(done: number, total: number): ComputeProgress {
  return {
    stage: 'Finding the time of each night’s highest level',
    detail: `${done} of ${countOf(total, 'night')} looked up in the 1 s history`,
    fraction: READING_SHARE + COMPUTING_SHARE + MAXIMA_SHARE * share(done, total),
  };
}
