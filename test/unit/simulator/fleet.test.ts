import { describe, expect, it } from 'vitest';
import {
  generateDemoFleet,
  generateSizedFleet,
  isQuantumModel,
  type DemoInstrument,
} from '../../../src/simulator/fleet';
import { createRandom } from '../../../src/simulator/random';
import { INSTRUMENT_NAME_MAX_LENGTH } from '../../../src/shared/service/limits';

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
const SEEDS = Array.from({ length: 60 }, (_, i) => i);

const countOf = (fleet: DemoInstrument[], predicate: (instrument: DemoInstrument) => boolean) =>
  fleet.filter(predicate).length;

/** Distance in km between two positions (equirectangular; fine for a few km). */
function distanceKm(a: { lat: number; long: number }, b: { lat: number; long: number }): number {
  const x = (((b.long - a.long) * Math.PI) / 180) * Math.cos((((a.lat + b.lat) / 2) * Math.PI) / 180);
  const y = ((b.lat - a.lat) * Math.PI) / 180;
  return Math.hypot(x, y) * 6371;
}

describe('seeded random numbers', () => {
  it('repeats the same sequence for the same seed and differs between seeds', () => {
    const take = (seed: number) => {
      const random = createRandom(seed);
      return Array.from({ length: 20 }, () => random.next());
    };
    expect(take(7)).toEqual(take(7));
    expect(take(7)).not.toEqual(take(8));
    for (const value of take(9)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });

  it('gives integers over the whole inclusive range and shuffles into a permutation', () => {
    const random = createRandom(3);
    const seen = new Set(Array.from({ length: 500 }, () => random.int(1, 6)));
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const items = ['a', 'b', 'c', 'd', 'e'];
    const shuffled = random.shuffle(items);
    expect([...shuffled].sort()).toEqual(items);
    expect(items).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(() => random.pick([])).toThrow();
  });
});

describe('demo fleet', () => {
  it('is identical for the same seed', () => {
    expect(generateDemoFleet(7, NOW)).toEqual(generateDemoFleet(7, NOW));
  });

  it('differs between seeds in names, serials and positions', () => {
    const first = generateDemoFleet(1, NOW).map((i) => i.wire);
    const second = generateDemoFleet(2, NOW).map((i) => i.wire);
    expect(second.map((i) => i.serialNumber)).not.toEqual(first.map((i) => i.serialNumber));
    expect(second.map((i) => i.name)).not.toEqual(first.map((i) => i.name));
    expect(second.map((i) => i.position)).not.toEqual(first.map((i) => i.position));
  });

  it.each(SEEDS)('is a valid mix for seed %i', (seed) => {
    const fleet = generateDemoFleet(seed, NOW);
    const wires = fleet.map((i) => i.wire);
    const noise = countOf(fleet, (i) => i.wire.type === 'Noise');
    expect(noise).toBeGreaterThanOrEqual(5);
    expect(noise).toBeLessThanOrEqual(6);
    expect(countOf(fleet, (i) => i.wire.type === 'AirQuality')).toBe(2);
    expect(countOf(fleet, (i) => i.wire.type === 'Vibration')).toBe(2);

    expect(new Set(wires.map((i) => i.serialNumber)).size).toBe(fleet.length);
    expect(new Set(wires.map((i) => i.name)).size).toBe(fleet.length);
    for (const instrument of wires) {
      expect(instrument.name).toMatch(/^.+ – .+$/);
      expect([...instrument.name].length).toBeLessThanOrEqual(INSTRUMENT_NAME_MAX_LENGTH);
      // SIC is an acoustic check: noise instruments only.
      if (instrument.type !== 'Noise') expect(instrument.feature).not.toContain('SIC');
    }

    // Quantum (system monitor) and non-Quantum noise instruments, and one without SIC.
    const noiseWires = wires.filter((i) => i.type === 'Noise');
    expect(noiseWires.filter((i) => isQuantumModel(i.model)).length).toBeGreaterThanOrEqual(3);
    expect(noiseWires.some((i) => !isQuantumModel(i.model))).toBe(true);
    expect(noiseWires.some((i) => !i.feature.includes('SIC'))).toBe(true);
    expect(wires.filter((i) => i.type !== 'Noise').every((i) => !isQuantumModel(i.model))).toBe(true);

    // Mostly active subscriptions.
    expect(countOf(fleet, (i) => i.wire.subscription.status === 'Active')).toBeGreaterThanOrEqual(
      fleet.length - 2,
    );

    // Two offline, which are not measuring; online ones both measuring and not.
    expect(countOf(fleet, (i) => !i.condition.online)).toBe(2);
    expect(countOf(fleet, (i) => !i.condition.online && i.condition.measuring)).toBe(0);
    expect(countOf(fleet, (i) => i.condition.online && i.condition.measuring)).toBeGreaterThan(0);
    expect(countOf(fleet, (i) => i.condition.online && !i.condition.measuring)).toBeGreaterThan(0);

    // Several instruments per site, close together (site = the part of the name before the dash).
    const bySite = new Map<string, typeof wires>();
    for (const instrument of wires) {
      const site = instrument.name.split(' – ')[0] ?? '';
      bySite.set(site, [...(bySite.get(site) ?? []), instrument]);
    }
    expect(bySite.size).toBeLessThan(fleet.length);
    expect(Math.max(...[...bySite.values()].map((group) => group.length))).toBeGreaterThanOrEqual(2);
    for (const group of bySite.values()) {
      for (const a of group)
        for (const b of group) expect(distanceKm(a.position, b.position)).toBeLessThan(1.5);
    }
  });
});

describe('fleet size', () => {
  it('a larger fleet starts with the default fleet of its seed and has unique serial numbers', () => {
    const now = Date.UTC(2026, 10, 23);
    const base = generateDemoFleet(1, now).map((i) => i.wire.serialNumber);
    const big = generateSizedFleet(1, now, 5_000).map((i) => i.wire.serialNumber);
    expect(big).toHaveLength(5_000);
    expect(big.slice(0, base.length)).toEqual(base);
    expect(new Set(big).size).toBe(5_000);
    expect(generateSizedFleet(1, now, 3).map((i) => i.wire.serialNumber)).toEqual(base.slice(0, 3));
    expect(() => generateSizedFleet(1, now, 0)).toThrow(RangeError);
  });
});
