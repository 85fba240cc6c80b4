/**
 * The time history parser builds each channel block by block; it must give exactly the points of
 * visiting every sample with the gap convention of `buildChannel` (markers, overlaps, clipping).
 */
import { expect, it } from 'vitest';
import fc from 'fast-check';
import { parseTimeHistory } from '../../../src/main/backend/service/parse/time-history';
import { buildChannel, type SampleWalk } from '../../../src/main/backend/service/parse/series';

const T0 = Date.UTC(2026, 10, 16);

it('gives the same points as visiting every sample, whatever the blocks (property)', () => {
  const block = fc.record({
    offset: fc.integer({ min: -20, max: 120 }),
    step: fc.constantFrom(1, 2, 3, 7),
    values: fc.array(fc.oneof(fc.integer({ min: 30, max: 90 }), fc.constant(null)), { maxLength: 40 }),
  });
  fc.assert(
    fc.property(
      fc.array(fc.array(block, { maxLength: 4 }), { minLength: 1, maxLength: 3 }),
      fc.boolean(),
      (answers, ranged) => {
        const range = { start: T0, end: T0 + 100_000 };
        const parsed = answers.map((blocks, a) => ({
          // Answers for consecutive intervals, each clipped to its own (as a split request is).
          interval: { start: T0 + a * 40_000, end: T0 + (a + 1) * 40_000 },
          data: [
            {
              type: 'LAeq',
              blocks: blocks.map((b) => ({
                start: new Date(T0 + b.offset * 1000).toISOString(),
                sampleDuration: b.step * 1000,
                values: b.values,
              })),
            },
          ],
        }));
        const options = { noun: 'x', serial: null, frequency: false, range: ranged ? range : null };
        const got = parseTimeHistory(parsed, options);
        // Expected: every sample visited in block order, as the generic builder does it.
        const all = parsed.flatMap((answer) =>
          answer.data[0]!.blocks.map((b) => ({
            start: Date.parse(b.start),
            step: b.sampleDuration,
            values: b.values,
            clip: ranged ? answer.interval : null,
          })),
        );
        all.sort((a, b) => a.start - b.start);
        const walk: SampleWalk = (visit) => {
          for (const b of all) {
            b.values.forEach((v, i) => {
              const time = b.start + i * b.step;
              if (b.clip !== null && (time < b.clip.start || time >= b.clip.end)) return;
              visit(time, time + b.step, v === null ? Number.NaN : v);
            });
          }
        };
        const capacity = all.reduce((n, b) => n + b.values.length + 1, 2);
        const expected = buildChannel('LAeq', 'dB', walk, options.range, true, capacity);
        if (all.every((b) => b.values.length === 0)) return;
        const channel = got.find((c) => c.name === 'LAeq')!;
        expect([...channel.times]).toEqual([...expected.times]);
        expect([...channel.values]).toEqual([...expected.values]);
      },
    ),
    { numRuns: 300 },
  );
});
