/** Coverage math against a model of integer points, with fast-check. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  contains,
  gaps,
  intersect,
  normalize,
  subtract,
  totalLength,
  union,
} from '../../../src/main/backend/core/intervals';
import type { TimeInterval } from '../../../src/shared/data';

const DOMAIN = 60;
const interval = fc
  .tuple(fc.integer({ min: 0, max: DOMAIN }), fc.integer({ min: 0, max: DOMAIN }))
  .map(([a, b]) => ({ start: Math.min(a, b), end: Math.max(a, b) }));
const intervals = fc.array(interval, { maxLength: 8 });

/** The integer points [0, DOMAIN] a set covers (each point p stands for [p, p+1)). */
function points(set: readonly TimeInterval[]): Set<number> {
  const out = new Set<number>();
  for (const i of set) for (let p = i.start; p < i.end; p++) out.add(p);
  return out;
}

function isNormalized(set: readonly TimeInterval[]): boolean {
  return set.every((i, k) => i.end > i.start && (k === 0 || i.start > set[k - 1]!.end));
}

const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);

describe('interval sets', () => {
  it('normalize keeps the same points, sorted, merged and without empty intervals', () => {
    fc.assert(
      fc.property(intervals, (set) => {
        const result = normalize(set);
        expect(isNormalized(result)).toBe(true);
        expect(sorted(points(result))).toEqual(sorted(points(set)));
      }),
    );
  });

  it('union, subtract and intersect match the set operations on points', () => {
    fc.assert(
      fc.property(intervals, intervals, (a, b) => {
        const pa = points(a);
        const pb = points(b);
        const u = union(a, b);
        const s = subtract(a, b);
        const x = intersect(a, b);
        for (const r of [u, s, x]) expect(isNormalized(r)).toBe(true);
        expect(sorted(points(u))).toEqual(sorted(new Set([...pa, ...pb])));
        expect(sorted(points(s))).toEqual(sorted(new Set([...pa].filter((p) => !pb.has(p)))));
        expect(sorted(points(x))).toEqual(sorted(new Set([...pa].filter((p) => pb.has(p)))));
      }),
    );
  });

  it('gaps and the covered part of a range add up to the range, without overlap', () => {
    fc.assert(
      fc.property(interval, intervals, (range, covered) => {
        const missing = gaps(range, covered);
        const have = intersect([range], covered);
        expect(intersect(missing, have)).toEqual([]);
        expect(totalLength(missing) + totalLength(have)).toBe(range.end - range.start);
        for (const p of points(missing)) expect(contains(covered, p)).toBe(false);
      }),
    );
  });

  it('handles the plain cases a reader relies on', () => {
    const range = { start: 0, end: 100 };
    expect(gaps(range, [])).toEqual([range]);
    expect(gaps(range, [{ start: 0, end: 100 }])).toEqual([]);
    expect(
      gaps(range, [
        { start: 20, end: 30 },
        { start: 30, end: 40 },
        { start: 90, end: 200 },
      ]),
    ).toEqual([
      { start: 0, end: 20 },
      { start: 40, end: 90 },
    ]);
    expect(
      normalize([
        { start: 5, end: 5 },
        { start: 1, end: 3 },
        { start: 3, end: 4 },
      ]),
    ).toEqual([{ start: 1, end: 4 }]);
  });
});
