/**
 * The demo noise history of one instrument, generated second by second from a seeded model:
 *
 * - background road traffic: a diurnal profile (quiet nights, ~45 dB LAeq at 3 am; 65–70 dB in
 *   the day; quieter weekends) plus day-to-day and minute-to-minute wandering;
 * - loud events (HGVs, motorcycles, aircraft, sirens, breakers) a few times an hour by day and
 *   rarely at night, added energetically to the background; they set off a level trigger;
 * - now and then by day, a dog barking near the instrument, which someone on site marks with the
 *   manual trigger (about one a day);
 * - below one second, each second is split into ten 100 ms samples by one of a table of
 *   patterns normalised so that their energetic mean is exactly the 1 s level, and which also
 *   carry the F/S/I maxima and peaks (subsecond-patterns.ts). So every coarser value is derived
 *   from finer ones.
 *
 * Everything is a pure function of (seed, serial, time). One recorded interval's seconds, and the
 * levels and bands derived from them, are interval-seconds.ts.
 */
import { toEnergy, toLevel } from '../../shared/acoustics';
import {
  BAND_COUNT,
  EVENT_SOURCE_WEIGHTS,
  LEVEL_EVENT_SOURCES,
  MANUAL_EVENT_SOURCE,
  THIRD_OCTAVE_CENTRES,
  TRAFFIC,
  shapeLevels,
  spectrumWeights,
  type SpectrumWeights,
} from './acoustics';
import type { Availability } from './availability';
import { GRID_MS } from './availability';
import { STREAM, between, hash32, lattice, sampleLattice, unit, valueNoise } from './hash';
import { IntervalSeconds, SECONDS_PER_GRID, type IntervalEvent } from './interval-seconds';
import { createPatterns, type SubsecondPatterns } from './subsecond-patterns';

export interface Trigger {
  name: string;
  /** The level the trigger fires at (dB); a manual trigger has none (0). */
  level: number;
  /** Pressed by someone on site rather than set off by a level. */
  manual?: boolean;
}

/** The trigger of the events someone on site marks by hand. */
export const MANUAL_TRIGGER: Trigger = { name: 'Manual trigger', level: 0, manual: true };
/** Chance that someone presses the manual trigger in a given daytime hour. */
const MANUAL_CHANCE = 0.06;

export interface NoiseEvent {
  serial: string;
  /** Epoch seconds; the event covers [startSec, endSec). */
  startSec: number;
  endSec: number;
  peakSec: number;
  peakLevel: number;
  trigger: Trigger;
  source: number;
}

/**
 * A stretch in which the microphone heard a source of its own instead of the street: an acoustic
 * calibrator sealed onto it, or the SIC's test tones. Its A-weighted level replaces each second
 * the stretch touches.
 */
export interface HeardSource {
  /** Epoch ms; [startMs, endMs). */
  startMs: number;
  endMs: number;
  /** LAeq of the source (dB). */
  levelDb: number;
}

export interface NoiseModelOptions {
  serial: string;
  key: number;
  availability: Availability;
  triggers: readonly Trigger[];
  /** What the instrument heard of its own between two times (calibrations, SICs); none by default. */
  heard?: (startMs: number, endMs: number) => readonly HeardSource[];
}

/** Median LAeq,1s of weekday traffic by hour (dB) before the instrument's own offset. */
const WEEKDAY_MEDIAN = [
  45, 43, 42, 41.5, 42.5, 47, 54, 61, 63.5, 63, 62, 62, 62, 62, 62, 63, 64, 64, 62, 59, 56, 53.5, 50.5, 47.5,
];
/** Spread (dB) of the second-to-second wandering by hour: sparse night traffic varies most. */
const WEEKDAY_SPREAD = [6, 6, 6, 6, 6, 5.5, 4.5, 3.5, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3.5, 4, 4.5, 5, 5.5, 6];

const TRAFFIC_LEVELS = shapeLevels(TRAFFIC);
/** dB per unit of tilt: octaves from 500 Hz. */
const TILT_BASIS = Float64Array.from(THIRD_OCTAVE_CENTRES, (f) => Math.log2(f / 500));

const interpolateHour = (table: readonly number[], hour: number): number => {
  const i = Math.floor(hour);
  const f = hour - i;
  const a = table[i % 24] as number;
  const b = table[(i + 1) % 24] as number;
  return a + (b - a) * f;
};

export class NoiseModel {
  readonly serial: string;
  readonly key: number;
  readonly availability: Availability;
  readonly triggers: readonly Trigger[];
  readonly patterns: SubsecondPatterns;
  private readonly heard: (startMs: number, endMs: number) => readonly HeardSource[];
  private readonly levelOffset: number;
  private readonly eventCache = new Map<number, NoiseEvent[]>();

  constructor(options: NoiseModelOptions) {
    this.serial = options.serial;
    this.key = options.key;
    this.availability = options.availability;
    this.triggers = [...options.triggers].sort((a, b) => a.level - b.level);
    this.patterns = createPatterns(options.key);
    this.heard = options.heard ?? (() => []);
    this.levelOffset = between(options.key, STREAM.levelOffset, 0, 0, 6);
  }

  /**
   * Background (traffic) LAeq,1s of the seconds [startSec, startSec + out.length) into `out`,
   * and each second's sub-second pattern into `pattern`. Works per grid interval: the slowly
   * varying parts are evaluated once, the wandering from precomputed value-noise lattices.
   */
  fillBackground(startSec: number, out: Float64Array, pattern: Uint8Array): void {
    const n = out.length;
    const slowA = this.slowLevel(startSec);
    const slowB = this.slowLevel(startSec + n);
    const medium = lattice(this.key, STREAM.medium, startSec, n, 47);
    const fast = lattice(this.key, STREAM.fast, startSec, n, 7);
    for (let i = 0; i < n; i++) {
      const s = startSec + i;
      const h = hash32(this.key, STREAM.white, s);
      pattern[i] = h >>> 24;
      const white = ((h & 0xffff) / 65536) * 2 - 1;
      const median = slowA.median + ((slowB.median - slowA.median) * i) / n;
      const spread = slowA.spread + ((slowB.spread - slowA.spread) * i) / n;
      const wander = 0.75 * sampleLattice(medium, s, 47) + 0.45 * sampleLattice(fast, s, 7) + 0.3 * white;
      out[i] = median + spread * 1.6 * wander;
    }
  }

  /** The slowly varying median level (dB) and wandering spread at epoch second s. */
  private slowLevel(s: number): { median: number; spread: number } {
    const day = Math.floor(s / 86_400);
    const hour = (s - day * 86_400) / 3600;
    // 1970-01-01 was a Thursday: (day + 4) % 7 is 0 on Sundays.
    const weekday = (((day + 4) % 7) + 7) % 7;
    const weekend = weekday === 0 || weekday === 6;
    // Weekends wake up later and stay quieter.
    const profileHour = weekend ? (hour + 22.5) % 24 : hour;
    let median = interpolateHour(WEEKDAY_MEDIAN, profileHour) - (weekend && hour > 7 ? 3 : 0);
    const spread = interpolateHour(WEEKDAY_SPREAD, profileHour);
    median += this.levelOffset + between(this.key, STREAM.dayOffset, day, -1.5, 1.5);
    median += 1.5 * valueNoise(this.key, STREAM.slow, s / 2700);
    return { median, spread };
  }

  /** Spectrum of the background in a grid interval: traffic with a small tilt and band jitter. */
  backgroundSpectrum(g: number): SpectrumWeights {
    const tilt = between(this.key, STREAM.intervalShape, g, -0.8, 0.8);
    const levels = new Float64Array(BAND_COUNT);
    for (let b = 0; b < BAND_COUNT; b++) {
      levels[b] =
        (TRAFFIC_LEVELS[b] as number) +
        tilt * (TILT_BASIS[b] as number) +
        between(this.key, STREAM.bandJitter, g * 64 + b, -0.75, 0.75);
    }
    return spectrumWeights(levels);
  }

  /** Events that start in the hour with this index (epoch hours), whatever their recording. */
  private eventsOfHour(h: number): NoiseEvent[] {
    const cached = this.eventCache.get(h);
    if (cached) return cached;
    const hourOfDay = ((h % 24) + 24) % 24;
    const daytime = hourOfDay >= 7 && hourOfDay < 22;
    const r = unit(this.key, STREAM.eventCount, h);
    const count = daytime ? (r < 0.3 ? 0 : r < 0.7 ? 1 : r < 0.92 ? 2 : 3) : r < 0.82 ? 0 : 1;
    const events: NoiseEvent[] = [];
    for (let j = 0; j < count; j++) {
      const n = h * 4 + j;
      const startSec = h * 3600 + Math.floor(unit(this.key, STREAM.eventStart, n) * 3540);
      const length = 8 + Math.floor(unit(this.key, STREAM.eventLength, n) * 50);
      const u = unit(this.key, STREAM.eventPeak, n);
      const base = this.triggers[0] as Trigger;
      // Mostly a few dB over the trigger; now and then far louder.
      let peakLevel = base.level + 3 + 17 * u * u;
      if (u > 0.995) peakLevel += 25;
      const trigger = [...this.triggers].reverse().find((t) => peakLevel >= t.level + 3) ?? base;
      const peakSec = startSec + Math.round(length * between(this.key, STREAM.eventPeakAt, n, 0.25, 0.75));
      const source = LEVEL_EVENT_SOURCES[
        Math.floor(unit(this.key, STREAM.eventShape, n) * LEVEL_EVENT_SOURCES.length)
      ] as number;
      events.push({
        serial: this.serial,
        startSec,
        endSec: startSec + length,
        peakSec,
        peakLevel,
        trigger,
        source,
      });
    }
    // From their own stream, so the level-triggered events are the same with or without them.
    const manual = daytime ? this.manualEventOfHour(h) : null;
    if (manual && !events.some((event) => event.startSec === manual.startSec)) {
      events.push(manual);
    }
    if (this.eventCache.size > 20_000) this.eventCache.clear();
    this.eventCache.set(h, events);
    return events;
  }

  /** A dog barking for 15–45 s, 62–74 dB(A) at its loudest, marked with the manual trigger; or null. */
  private manualEventOfHour(h: number): NoiseEvent | null {
    if (unit(this.key, STREAM.manualEvent, h * 8) >= MANUAL_CHANCE) return null;
    const startSec = h * 3600 + Math.floor(unit(this.key, STREAM.manualEvent, h * 8 + 1) * 3540);
    const length = 15 + Math.floor(unit(this.key, STREAM.manualEvent, h * 8 + 2) * 31);
    const peakLevel = between(this.key, STREAM.manualEvent, h * 8 + 3, 62, 74);
    const peakSec =
      startSec + Math.round(length * between(this.key, STREAM.manualEvent, h * 8 + 4, 0.3, 0.7));
    return {
      serial: this.serial,
      startSec,
      endSec: startSec + length,
      peakSec,
      peakLevel,
      trigger: MANUAL_TRIGGER,
      source: MANUAL_EVENT_SOURCE,
    };
  }

  /** Whether every grid interval an event touches was recorded (or is the one being recorded, when `open`). */
  private eventRecorded(event: NoiseEvent, open = false): boolean {
    const first = Math.floor((event.startSec * 1000) / GRID_MS);
    const last = Math.floor(((event.endSec - 1) * 1000) / GRID_MS);
    const openGrid = open ? this.availability.open?.grid : undefined;
    for (let g = first; g <= last; g++) if (!this.availability.recorded(g) && g !== openGrid) return false;
    return true;
  }

  /**
   * Recorded events overlapping [fromSec, toSec), in time order; with `open`, also those in the
   * interval being recorded now (their seconds after now are never shown).
   */
  eventsBetween(fromSec: number, toSec: number, open = false): NoiseEvent[] {
    const out: NoiseEvent[] = [];
    // Events last under a minute, so one that overlaps started at most an hour earlier.
    for (let h = Math.floor(fromSec / 3600) - 1; h * 3600 < toSec; h++) {
      for (const event of this.eventsOfHour(h)) {
        if (event.endSec > fromSec && event.startSec < toSec && this.eventRecorded(event, open))
          out.push(event);
      }
    }
    return out.sort((a, b) => a.startSec - b.startSec);
  }

  /** The event's own A-weighted level in the second s (before adding the background). */
  static eventLevel(event: NoiseEvent, s: number): number {
    const half = Math.max(event.peakSec - event.startSec, event.endSec - 1 - event.peakSec, 1);
    return event.peakLevel - 28 * (Math.abs(s - event.peakSec) / half) ** 1.4;
  }

  /** The seconds of one recorded grid interval, or null when the interval was not recorded. */
  interval(g: number): IntervalSeconds | null {
    return this.availability.recorded(g) ? this.secondsOf(g, false) : null;
  }

  /**
   * The interval being recorded now and how far it has got (`untilMs`, now), or null when `g` is
   * not that interval. Its seconds are those the closed interval will have, so a reading shown
   * before the interval closes is the reading stored after.
   */
  openInterval(g: number): { iv: IntervalSeconds; untilMs: number } | null {
    const open = this.availability.open;
    if (open === null || open.grid !== g) return null;
    return { iv: this.secondsOf(g, true), untilMs: open.untilMs };
  }

  private secondsOf(g: number, open: boolean): IntervalSeconds {
    const startSec = g * SECONDS_PER_GRID;
    const bg = new Float64Array(SECONDS_PER_GRID);
    const la = new Float64Array(SECONDS_PER_GRID);
    const pattern = new Uint8Array(SECONDS_PER_GRID);
    this.fillBackground(startSec, bg, pattern);
    la.set(bg);
    const events: IntervalEvent[] = [];
    for (const event of this.eventsBetween(startSec, startSec + SECONDS_PER_GRID, open)) {
      const from = Math.max(event.startSec, startSec) - startSec;
      const to = Math.min(event.endSec, startSec + SECONDS_PER_GRID) - startSec;
      const energy = new Float64Array(to - from);
      for (let i = from; i < to; i++) {
        const e = toEnergy(NoiseModel.eventLevel(event, startSec + i));
        energy[i - from] = e;
        la[i] = toLevel(toEnergy(la[i] as number) + e);
      }
      events.push({ event, from, energy, spectrum: EVENT_SOURCE_WEIGHTS[event.source] as SpectrumWeights });
    }
    this.overlayHeard(startSec, bg, la);
    return new IntervalSeconds(this, g, startSec, bg, la, pattern, events);
  }

  /**
   * The seconds in which the microphone heard a calibrator or the SIC's tones: that level instead
   * of the street's (a calibrator's coupler seals the microphone off). Only the A-weighted levels
   * are modelled: C, Z and the bands keep the street's spectrum shape around the new level.
   */
  private overlayHeard(startSec: number, bg: Float64Array, la: Float64Array): void {
    const startMs = startSec * 1000;
    for (const source of this.heard(startMs, startMs + la.length * 1000)) {
      const from = Math.max(0, Math.floor((source.startMs - startMs) / 1000));
      const to = Math.min(la.length, Math.ceil((source.endMs - startMs) / 1000));
      for (let i = from; i < to; i++) {
        la[i] = source.levelDb;
        bg[i] = source.levelDb;
      }
    }
  }
}
