import { describe, expect, it } from 'vitest';
import { energeticMean, energeticSum, toEnergy, toLevel } from '../../../src/shared/acoustics';

describe('the one energy ↔ level conversion', () => {
  it('is 10^(L/10) and 10·log10(E) to within 1e-13, from −20 dB to 200 dB', () => {
    for (let level = -20; level <= 200; level += 0.37) {
      expect(Math.abs(toEnergy(level) / 10 ** (level / 10) - 1)).toBeLessThan(1e-13);
      expect(Math.abs(toLevel(10 ** (level / 10)) - level)).toBeLessThan(1e-11);
    }
  });

  it('gives means and sums worked by hand: two equal levels add 3.01 dB, their mean is the level', () => {
    expect(energeticSum([60, 60])).toBeCloseTo(63.0103, 4);
    expect(energeticMean([60, 60])).toBeCloseTo(60, 10);
    // An hour at 70 dB and three at 60 dB: 10·log10((10^7 + 3·10^6) / 4) = 65.12 dB.
    expect(energeticMean([70, 60], [1, 3])).toBeCloseTo(65.119, 3);
    expect(energeticMean([])).toBeNaN();
  });
});
