/**
 * How long an answer may take and how large it may be. Without bounds a slow drip held a read for
 * minutes, and an answer of hundreds of megabytes was buffered whole; with them, each ends with its
 * own retryable error (requester.ts) while every answer the real service sends fits with room.
 *
 * Sizes measured from the demo service, which prints numbers as compactly as JSON allows (about 4.8
 * bytes per reading): a week of 1 s noise time history is 2.9 MB per value (8.8 MB for the three
 * default values, about 51 MB for all 18 the endpoint has); a day of 1 s third-octave time history is
 * 14.9 MB (36 bands; octaves 4.1 MB); the largest 31-day record answers are 7.2 MB (a month of 1 min
 * weather), 7.0 MB (gases, vibration PPV) and 3.5 MB (15 min third-octave levels). The
 * real service's number format is not documented: the bounds assume the longest a reading can be.
 */
import type { CheckedQuery } from './data-params';
import type { TimeInterval } from '../../../shared/data';
import {
  DEFAULT_NOISE_VALUES,
  OCTAVE_BAND_NAMES,
  THIRD_OCTAVE_BAND_NAMES,
} from '../../../shared/service/limits';

export interface AnswerLimits {
  /**
   * The whole answer of one attempt, headers and body (ms). Besides it, `timeoutMs` of the client
   * bounds the wait for the headers and any pause in the body, so a dead link ends sooner.
   */
  deadlineMs: number;
  /** The largest body of any answer (bytes); time history may add `bytesPerReading` per reading. */
  maxBytes: number;
  /** Bytes a time history answer may carry per reading asked for, on top of `maxBytes`. */
  bytesPerReading: number;
}

export const ANSWER_LIMIT_DEFAULTS: Readonly<AnswerLimits> = {
  // The largest answers FieldDesk asks for by default (a day of third octaves, 14.9 MB; a week of
  // the three default noise values, 8.8 MB) arrive in 2 min at 1 Mbit/s, a poor mobile link.
  deadlineMs: 120_000,
  // 9.3 times the largest record answer (7.2 MB), with room for whitespace and more fields than the
  // demo sends; and what every time history answer may have besides its readings.
  maxBytes: 64 * 1024 * 1024,
  // The longest a reading can be printed as JSON: 17 significant digits, sign, point and exponent
  // ("-1.2345678901234567e-100", 24 characters) and its comma. Five times the demo's 4.8.
  bytesPerReading: 25,
};

/** Readings per sample time of a time history query: one per value or band asked for. */
function channelsOf(checked: CheckedQuery): number {
  if (checked.dataset === 'noiseTimeHistory') {
    const values = checked.params.values;
    return values === undefined ? DEFAULT_NOISE_VALUES.length : values.split(',').length;
  }
  return checked.params.bands === 'Third' ? THIRD_OCTAVE_BAND_NAMES.length : OCTAVE_BAND_NAMES.length;
}

/**
 * The largest body one request of a dataset may answer. Time history grows with the range, the
 * period and the values or bands asked for: a week of the three default noise values at 1 s may be
 * 112 MB (13× what the demo sends), of every value 339 MB (6.7×); a day of third octaves 145 MB
 * (9.7×). Records answers are bounded by `maxBytes` alone (9.4× a month of weather). Checked
 * against the demo service's answers in bounded-answers.test.ts.
 */
export function answerByteLimit(limits: AnswerLimits, checked: CheckedQuery, interval: TimeInterval): number {
  if (checked.dataset !== 'noiseTimeHistory' && checked.dataset !== 'frequencyTimeHistory') {
    return limits.maxBytes;
  }
  const periodMs = checked.periodMs ?? 1000;
  const samples = Math.ceil((interval.end - interval.start) / periodMs);
  return limits.maxBytes + samples * channelsOf(checked) * limits.bytesPerReading;
}
