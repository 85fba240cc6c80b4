/**
 * Who each instrument of the demo fleet is, as far as its calibration and SIC history goes: the
 * per-instrument health profile (calibrator, engineers, SIC baseline, standing fault), the
 * seeded randomness every history value is drawn from, and the microphone drift model.
 */
import type { InstrumentFeature, InstrumentType } from '../shared/service/wire';
import { fmix } from './data/hash';
import { createRandom, type Random } from './random';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** Installation dates are counted back from a grid of this step, so they move only once per step. */
const INSTALLATION_GRID_MS = 256 * DAY_MS;
export const YEAR_MS = 365.25 * DAY_MS;

/** How far the generated history reaches back from the fleet's creation (about 18 months). */
export const HISTORY_DAYS = 548;

/** Maintenance buckets: a chance of one microphone replacement per 120 days. */
export const MICROPHONE_BUCKET_MS = 120 * DAY_MS;

const ENGINEERS = [
  'J. Patel',
  'S. Okafor',
  'M. Evans',
  'R. Singh',
  'L. Hughes',
  'A. Kowalski',
  'C. Murray',
  'D. Adeyemi',
  'H. Clarke',
  'T. Nowak',
] as const;

export type CalibrationFault = 'none' | 'noCalibrator' | 'degradedMicrophone';

/** Levels of the three SIC test tones (dB). */
export interface SicBands {
  _500Hz: number;
  _1KHz: number;
  _8KHz: number;
}

/** What one instrument's history and action results are generated from. */
export interface HealthProfile {
  seed: number;
  serial: string;
  /** Noise instruments are calibrated; others have no calibration at all. */
  calibrated: boolean;
  hasSic: boolean;
  /** The level of the calibrator used on this instrument (dB). */
  referenceDb: 94 | 114;
  /** e.g. 'CR:515 #051234'. */
  calibrator: string;
  /** Field engineers who visit the instrument. */
  engineers: readonly string[];
  /** Simulated durations of the actions, before the time scale (seconds). */
  calibrationSeconds: number;
  sicSeconds: number;
  fault: CalibrationFault;
  /** When the fault began (before the fleet's creation); null without a fault. */
  faultSinceMs: number | null;
  /** SIC tone levels at commissioning (dB). */
  sicBaseline: SicBands;
  /** Minutes after 02:00 UTC at which the nightly SIC runs. */
  sicMinute: number;
  /** Phase of the seasonal (temperature) wobble, radians. */
  seasonPhase: number;
  installedMs: number;
  /** Generated history covers [historyStartMs, historyEndMs); historyEndMs is the fleet's creation. */
  historyStartMs: number;
  historyEndMs: number;
}

/** The part of a fleet instrument the profiles are built from. */
export interface HealthSubject {
  wire: { serialNumber: string; type: InstrumentType; feature: readonly InstrumentFeature[] };
  condition: { online: boolean };
}

// ---------------------------------------------------------------------------------------------
// Deterministic randomness keyed by (seed, serial, purpose, index).

/** FNV-1a over the key text, then the murmur3 finaliser so near keys give unrelated seeds. */
function hashKey(parts: ReadonlyArray<string | number>): number {
  const text = parts.join('|');
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return fmix(hash);
}

export function randomFor(seed: number, ...parts: Array<string | number>): Random {
  return createRandom(hashKey([seed, ...parts]));
}

export const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

// ---------------------------------------------------------------------------------------------
// Profiles.

/**
 * Profiles of the whole fleet. The faults go to online noise instruments (at least three per
 * fleet), chosen so at least one online noise instrument stays healthy and, when two or more
 * online instruments have SIC, one of those stays healthy too.
 */
export function buildHealthProfiles(
  seed: number,
  fleet: readonly HealthSubject[],
  createdAtMs: number,
): Map<string, HealthProfile> {
  const faults = new Map<string, CalibrationFault>();
  const onlineNoise = fleet.filter((i) => i.condition.online && i.wire.type === 'Noise');
  const onlineSic = onlineNoise.filter((i) => i.wire.feature.includes('SIC'));
  const random = randomFor(seed, 'faults');
  // With two or more online SIC instruments the degraded microphone also fails its SIC.
  const degradedPool =
    onlineSic.length >= 2 ? onlineSic : onlineNoise.filter((i) => !i.wire.feature.includes('SIC'));
  if (degradedPool.length > 0 && onlineNoise.length >= 3) {
    const degraded = random.pick(degradedPool);
    faults.set(degraded.wire.serialNumber, 'degradedMicrophone');
    const noCalibrator = random.pick(onlineNoise.filter((i) => i !== degraded));
    faults.set(noCalibrator.wire.serialNumber, 'noCalibrator');
  }

  const historyStartMs = createdAtMs - HISTORY_DAYS * DAY_MS;
  const profiles = new Map<string, HealthProfile>();
  for (const instrument of fleet) {
    const serial = instrument.wire.serialNumber;
    const r = randomFor(seed, serial, 'profile');
    const fault = faults.get(serial) ?? 'none';
    const referenceDb: 94 | 114 = r.chance(0.25) ? 114 : 94;
    const engineers = r.shuffle(ENGINEERS).slice(0, 2);
    const calibrator = `CR:515 #0${r.int(40000, 59999)}`;
    const calibrationSeconds = r.int(30, 45);
    const sicSeconds = r.int(20, 30);
    const sicBaseline: SicBands = {
      _500Hz: round(r.between(80, 84), 1),
      _1KHz: round(r.between(82, 86), 1),
      _8KHz: round(r.between(75, 80), 1),
    };
    // Rain soaks a microphone at any hour; a calibrator leaves the site in working hours, at
    // least a day before the fleet's creation even after a weekend shift.
    const faultSinceMs =
      fault === 'degradedMicrophone'
        ? // A day's grid, so services started on the same day agree on the fault's start.
          Math.floor(createdAtMs / DAY_MS - r.int(8, 12)) * DAY_MS + r.int(0, 86_399) * 1000
        : workingTime(r, Math.floor((createdAtMs - r.int(3, 6) * DAY_MS) / DAY_MS) * DAY_MS);
    profiles.set(serial, {
      seed,
      serial,
      calibrated: instrument.wire.type === 'Noise',
      hasSic: instrument.wire.feature.includes('SIC'),
      referenceDb,
      calibrator,
      engineers,
      calibrationSeconds,
      sicSeconds,
      fault,
      faultSinceMs: fault === 'none' ? null : faultSinceMs,
      sicBaseline,
      sicMinute: r.int(0, 119),
      seasonPhase: r.between(0, 2 * Math.PI),
      // On an absolute grid, not relative to the service's start: the installation date feeds the
      // microphone drift, and two services started hours apart must agree on every past record.
      installedMs:
        Math.floor(historyStartMs / INSTALLATION_GRID_MS) * INSTALLATION_GRID_MS - r.int(30, 400) * DAY_MS,
      historyStartMs,
      historyEndMs: createdAtMs,
    });
  }
  return profiles;
}

/** Whether the instrument's standing `fault` is this one and has begun by `timeMs`. */
export const faultActiveAt = (profile: HealthProfile, fault: CalibrationFault, timeMs: number): boolean =>
  profile.fault === fault && profile.faultSinceMs !== null && timeMs >= profile.faultSinceMs;

/** A time on a working day (Monday–Friday) between 08:00 and 16:00 UTC, from a day's start. */
export function workingTime(random: Random, dayStartMs: number): number {
  let timeMs = dayStartMs + random.int(8 * 60, 16 * 60) * MINUTE_MS + random.int(0, 59) * 1000;
  const weekday = new Date(timeMs).getUTCDay();
  if (weekday === 6) timeMs += 2 * DAY_MS;
  if (weekday === 0) timeMs += DAY_MS;
  return timeMs;
}

// ---------------------------------------------------------------------------------------------
// Microphone replacements and the offset they reset.

/** Microphone replacement in one bucket, if there is one (before the fleet's creation only). */
export function microphoneReplacement(
  profile: HealthProfile,
  bucket: number,
): { timeMs: number; random: Random } | null {
  const random = randomFor(profile.seed, profile.serial, 'microphone', bucket);
  if (!random.chance(0.12)) return null;
  const timeMs = workingTime(random, bucket * MICROPHONE_BUCKET_MS + random.int(0, 110) * DAY_MS);
  if (timeMs <= profile.installedMs || timeMs >= profile.historyEndMs) return null;
  return { timeMs, random };
}

/** When the microphone in use at `timeMs` was fitted: the last replacement, else installation. */
function microphoneFittedAt(profile: HealthProfile, timeMs: number): number {
  const last = Math.floor(Math.min(timeMs, profile.historyEndMs) / MICROPHONE_BUCKET_MS) + 1;
  const first = Math.floor(profile.installedMs / MICROPHONE_BUCKET_MS);
  for (let bucket = last; bucket >= first; bucket--) {
    const replacement = microphoneReplacement(profile, bucket);
    if (replacement !== null && replacement.timeMs <= timeMs) return replacement.timeMs;
  }
  return profile.installedMs;
}

/** The true sensitivity deviation of the microphone at `timeMs` (dB). */
export function trueOffsetAt(profile: HealthProfile, timeMs: number): number {
  if (faultActiveAt(profile, 'degradedMicrophone', timeMs)) {
    const days = (timeMs - (profile.faultSinceMs ?? timeMs)) / DAY_MS;
    return -(0.62 + Math.min(0.5, 0.015 * days));
  }
  const fittedMs = microphoneFittedAt(profile, timeMs);
  const random = randomFor(profile.seed, profile.serial, 'drift', fittedMs);
  const base = random.between(-0.12, 0.12);
  const ratePerDay = random.between(-0.0008, 0.0008);
  const seasonal = 0.04 * Math.sin((2 * Math.PI * timeMs) / YEAR_MS + profile.seasonPhase);
  const raw = base + (ratePerDay * (timeMs - fittedMs)) / DAY_MS + seasonal;
  // A healthy microphone stays well inside the tolerance.
  return 0.42 * Math.tanh(raw / 0.42);
}
