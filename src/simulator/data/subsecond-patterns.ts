/**
 * How the demo splits each second into ten 100 ms samples: a table of patterns, each normalised so
 * that the energetic mean of its ten is exactly the 1 s level (0 dB offset), and which also carry
 * the F/S/I maxima and the A and C/Z peaks. So every coarser value is derived from finer ones.
 */
import { toEnergy, toLevel } from '../../shared/acoustics';
import { STREAM, between } from './hash';

export const SUBSAMPLES = 10;
const PATTERN_COUNT = 256;

/** Kinds of sub-second offsets carried by a pattern. */
export const OFFSET = { leq: 0, fast: 1, slow: 2, impulse: 3, peakA: 4, peakCZ: 5 } as const;
const OFFSET_KINDS = 6;

export interface SubsecondPatterns {
  /** offsets[kind][pattern * 10 + i]: dB relative to the second's Leq of the same weighting. */
  offsets: Float64Array[];
  /** maxima[kind][pattern]: the largest of the ten. */
  maxima: Float64Array[];
}

export function createPatterns(key: number): SubsecondPatterns {
  const offsets = Array.from({ length: OFFSET_KINDS }, () => new Float64Array(PATTERN_COUNT * SUBSAMPLES));
  const maxima = Array.from({ length: OFFSET_KINDS }, () => new Float64Array(PATTERN_COUNT).fill(-Infinity));
  for (let p = 0; p < PATTERN_COUNT; p++) {
    const d = new Float64Array(SUBSAMPLES);
    let walk = 0;
    for (let i = 0; i < SUBSAMPLES; i++) {
      walk = 0.6 * walk + between(key, STREAM.pattern, p * 64 + i, -1.6, 1.6);
      d[i] = walk;
    }
    // Normalise: the energetic mean of the ten is exactly 0 dB.
    const norm = toLevel(d.reduce((sum, x) => sum + toEnergy(x), 0) / SUBSAMPLES);
    for (let i = 0; i < SUBSAMPLES; i++) {
      const j = p * SUBSAMPLES + i;
      const leq = (d[i] as number) - norm;
      const fast = leq + between(key, STREAM.pattern, p * 64 + 20 + i, 0.3, 2.2);
      const slow = leq + between(key, STREAM.pattern, p * 64 + 40 + i, 0, 0.3);
      const impulse = fast + between(key, STREAM.pattern, p * 64 + 50 + i, 0.3, 1.5);
      // Peaks sit well above the fast maximum: so LCPeak ≥ LAFMax even where LC < LA by a few dB.
      const peakA = fast + between(key, STREAM.pattern, p * 64 + 30 + i, 4, 9);
      const peakCZ = fast + between(key, STREAM.pattern, p * 64 + 10 + i, 7, 13);
      const values = [leq, fast, slow, impulse, peakA, peakCZ];
      for (let k = 0; k < OFFSET_KINDS; k++) {
        (offsets[k] as Float64Array)[j] = values[k] as number;
        const max = maxima[k] as Float64Array;
        if ((values[k] as number) > (max[p] as number)) max[p] = values[k] as number;
      }
    }
  }
  return { offsets, maxima };
}
