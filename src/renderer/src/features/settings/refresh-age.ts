/** Checking the refresh age of cached data typed on the Settings page before it is saved. */
import { REFRESH_CACHED_MAX_MINUTES, REFRESH_CACHED_MIN_MINUTES } from '../../../../shared/operations';

export type MinutesCheck = { ok: true; value: number } | { ok: false; message: string };

const RANGE = `from ${REFRESH_CACHED_MIN_MINUTES} to ${REFRESH_CACHED_MAX_MINUTES}`;

/** "5", " 15 " → minutes; anything else (a fraction, a word, out of range) says why not. */
export function parseRefreshMinutes(text: string): MinutesCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: `Enter a number of minutes, ${RANGE}.` };
  if (!/^\d+$/.test(trimmed)) return { ok: false, message: `Enter whole minutes, such as 5.` };
  const value = Number(trimmed);
  if (value < REFRESH_CACHED_MIN_MINUTES || value > REFRESH_CACHED_MAX_MINUTES) {
    return { ok: false, message: `The refresh age must be ${RANGE} minutes.` };
  }
  return { ok: true, value };
}
