/**
 * What an instrument's microphone heard of the actions run on it in this process: the calibrator's
 * level while a Calibration runs, the SIC's test tones while a SIC runs. The data endpoints show it
 * in place of the street, so a live view watches a calibration rise to the calibrator's level.
 */
import { trueOffsetAt, type HealthProfile } from '../health-profiles';
import type { HealthState, RunningAction, TimedAction } from '../health-state';
import { toEnergy, toLevel } from '../../shared/acoustics';
import { aWeighting } from './acoustics';
import type { HeardSource } from './noise-model';

/** The LAeq the microphone hears during an action, or null when it hears only the street. */
export function actionLevelDb(profile: HealthProfile, action: TimedAction, atMs: number): number | null {
  if (action === 'Calibration') {
    // Nobody fitted the calibrator: the calibration hears the street (and fails).
    if (profile.fault === 'noCalibrator') return null;
    // The calibrator's level as this microphone measures it (a degraded one reads low).
    return profile.referenceDb + trueOffsetAt(profile, atMs);
  }
  // The three test tones together, A-weighted.
  const { _500Hz, _1KHz, _8KHz } = profile.sicBaseline;
  return toLevel(
    toEnergy(_500Hz + aWeighting(500)) +
      toEnergy(_1KHz + aWeighting(1000)) +
      toEnergy(_8KHz + aWeighting(8000)),
  );
}

/** Where a running action's sound has got to: now, or its end once its time is up (unless held). */
const runningEndMs = (running: RunningAction, nowMs: number): number =>
  running.held ? nowMs : Math.min(nowMs, running.finishesMs);

/** The sources an instrument heard overlapping [startMs, endMs), from the actions of this process. */
export function heardSources(
  health: HealthState,
  serial: string,
  nowMs: number,
  startMs: number,
  endMs: number,
): HeardSource[] {
  const profile = health.profiles.get(serial);
  if (profile === undefined) return [];
  const spans = health.finished
    .filter((finished) => finished.instrument === serial)
    .map((finished) => ({
      action: finished.action,
      startMs: finished.startedMs,
      endMs: finished.finishedMs,
    }));
  const running = health.running.get(serial);
  if (running !== undefined)
    spans.push({ action: running.action, startMs: running.startedMs, endMs: runningEndMs(running, nowMs) });
  const sources: HeardSource[] = [];
  for (const span of spans) {
    if (span.endMs <= startMs || span.startMs >= endMs || span.endMs <= span.startMs) continue;
    const levelDb = actionLevelDb(profile, span.action, span.startMs);
    if (levelDb !== null) sources.push({ startMs: span.startMs, endMs: span.endMs, levelDb });
  }
  return sources;
}
