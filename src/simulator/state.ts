/** Everything the demo service remembers while it runs. Lost when the process ends. */
import { generateSizedFleet, type DemoInstrument } from './fleet';
import { DEFAULT_FLEET_SIZE } from './options';
import { createHealthState, type HealthState } from './health-state';
import { createRandom, type Random } from './random';

export interface DemoState {
  /** By serial number, in fleet order. */
  instruments: Map<string, DemoInstrument>;
  /** For results generated while running (e.g. a new calibration); separate from the fleet's stream. */
  random: Random;
  now: () => number;
  /** Calibration/SIC profiles, running actions and their results (health-state.ts). */
  health: HealthState;
}

export function createDemoState(
  seed: number,
  now: () => number,
  timeScale = 1,
  fleetSize = DEFAULT_FLEET_SIZE,
): DemoState {
  const createdAtMs = now();
  const fleet = generateSizedFleet(seed, createdAtMs, fleetSize);
  return {
    instruments: new Map(fleet.map((instrument) => [instrument.wire.serialNumber, instrument])),
    // A different stream from the fleet's, so later results do not repeat the fleet's numbers.
    random: createRandom((seed ^ 0x5bd1e995) >>> 0),
    now,
    health: createHealthState(seed, fleet, createdAtMs, timeScale),
  };
}
