/** What the data endpoints share: per-instrument models built once, the clock and the seed. */
import type { InstrumentPeriods } from '../../shared/service/limits';
import type { DemoInstrument } from '../fleet';
import { isQuantumModel } from '../fleet';
import type { DemoState } from '../state';
import { createAvailability, GRID_MS, stoppedAt, type Availability } from './availability';
import { hashString } from './hash';
import { heardSources } from './heard';
import { NoiseModel, type Trigger } from './noise-model';

/** The demo instruments' settings: 15-minute measurements, 100 ms time history. */
export const DEMO_PERIODS: InstrumentPeriods = { measurementPeriodMs: 15 * 60_000, timeHistoryPeriodMs: 100 };

const QUANTUM_TRIGGERS: readonly Trigger[] = [
  { name: 'High level LAeq > 75 dB', level: 75 },
  { name: 'Very high level LAeq > 85 dB', level: 85 },
];
const OTHER_TRIGGERS: readonly Trigger[] = [{ name: 'Level trigger LAeq > 75 dB', level: 75 }];

export class DataContext {
  readonly state: DemoState;
  readonly seed: number;
  private readonly stopped = new Map<string, number | null>();
  private readonly noiseModels = new Map<string, NoiseModel>();
  private readonly availabilities = new Map<string, { nowMs: number; availability: Availability }>();
  private readonly outagesOnly = new Map<string, { nowMs: number; availability: Availability }>();
  /** The monitor whose battery is failing (see `failingBattery`), chosen once. */
  private failingBatterySerial: string | null | undefined = undefined;

  constructor(state: DemoState, seed: number) {
    this.state = state;
    this.seed = seed;
    const nowMs = state.now();
    // Instruments that are offline (or paused) now stopped recording some hours before the service started.
    for (const [serial, instrument] of state.instruments) {
      const recording = instrument.condition.online && instrument.condition.measuring;
      this.stopped.set(serial, recording ? null : stoppedAt(this.key(serial), nowMs));
    }
  }

  now(): number {
    return this.state.now();
  }

  key(serial: string): number {
    return hashString(serial, this.seed);
  }

  /** Recording availability of an instrument, with nothing after the current time. */
  availability(serial: string): Availability {
    const nowMs = this.now();
    const cached = this.availabilities.get(serial);
    if (cached && cached.nowMs === nowMs) return cached.availability;
    const availability = createAvailability(this.key(serial), nowMs, this.stopped.get(serial) ?? null);
    this.availabilities.set(serial, { nowMs, availability });
    this.noiseModels.delete(serial);
    return availability;
  }

  /** Whether the instrument was online through a grid interval (paused instruments are online). */
  online(instrument: DemoInstrument, g: number): boolean {
    const serial = instrument.wire.serialNumber;
    if (!instrument.condition.online) return this.availability(serial).recorded(g);
    const nowMs = this.now();
    let cached = this.outagesOnly.get(serial);
    if (!cached || cached.nowMs !== nowMs) {
      cached = { nowMs, availability: createAvailability(this.key(serial), nowMs, null) };
      this.outagesOnly.set(serial, cached);
    }
    return cached.availability.recorded(g);
  }

  /**
   * Starts or stops an instrument's recording now (it went offline, or came back). Stopping keeps
   * what was recorded up to now; starting again fills the stretch in between, as an instrument
   * uploads what it stored while it was away.
   */
  setRecording(serial: string, recording: boolean): void {
    const wasStopped = this.stopped.get(serial) ?? null;
    if (recording === (wasStopped === null)) return;
    this.stopped.set(serial, recording ? null : Math.floor(this.now() / GRID_MS) * GRID_MS);
    this.availabilities.delete(serial);
    this.noiseModels.delete(serial);
  }

  /**
   * Whether this is the fleet's one monitor with a failing battery: its supply stays below 11.8 V
   * (fleet attention's usual limit), so the demo always shows a low battery. It is the online
   * Quantum monitor without a calibration fault with the lowest serial — deterministic per seed,
   * and not one whose calibration or SIC already needs attention.
   */
  failingBattery(serial: string): boolean {
    if (this.failingBatterySerial === undefined) {
      const candidates = [...this.state.instruments.values()]
        .filter(
          (i) =>
            i.condition.online &&
            isQuantumModel(i.wire.model) &&
            this.state.health.profiles.get(i.wire.serialNumber)?.fault === 'none',
        )
        .map((i) => i.wire.serialNumber)
        .sort();
      this.failingBatterySerial = candidates[0] ?? null;
    }
    return this.failingBatterySerial === serial;
  }

  noiseModel(instrument: DemoInstrument): NoiseModel {
    const serial = instrument.wire.serialNumber;
    const availability = this.availability(serial);
    let model = this.noiseModels.get(serial);
    if (!model) {
      model = new NoiseModel({
        serial,
        key: this.key(serial),
        availability,
        triggers: isQuantumModel(instrument.wire.model) ? QUANTUM_TRIGGERS : OTHER_TRIGGERS,
        heard: (startMs, endMs) => heardSources(this.state.health, serial, this.now(), startMs, endMs),
      });
      this.noiseModels.set(serial, model);
    }
    return model;
  }
}
