import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeDuration, parseIsoDuration } from '../../../src/shared/service/duration';

describe('ISO 8601 duration parser', () => {
  it.each([
    ['PT1S', 1000],
    ['PT0.1S', 100],
    ['PT0,5S', 500],
    ['PT1M', 60_000],
    ['PT15M', 900_000],
    ['PT1H', 3_600_000],
    ['P1D', 86_400_000],
    ['P1W', 7 * 86_400_000],
    ['P1DT12H', 1.5 * 86_400_000],
    ['PT1H30M', 5_400_000],
    ['PT90S', 90_000],
    ['pt15m', 900_000],
    ['P1M', 30 * 86_400_000],
    ['PT1M', 60_000],
  ])('reads %s as %i ms', (text, ms) => {
    expect(parseIsoDuration(text)).toBe(ms);
  });

  it.each(['', 'P', 'PT', '1S', 'PT1', 'P1S', 'PT-1S', 'PT1.5M30S', 'PT1S1M', 'P1DT', '15 minutes', 'PTS'])(
    'refuses %j',
    (text) => {
      expect(parseIsoDuration(text)).toBeNull();
    },
  );

  it('round-trips whole hours, minutes and seconds', () => {
    fc.assert(
      fc.property(fc.nat(48), fc.nat(59), fc.nat(59), (h, m, s) => {
        fc.pre(h + m + s > 0);
        expect(parseIsoDuration(`PT${h}H${m}M${s}S`)).toBe(((h * 60 + m) * 60 + s) * 1000);
      }),
    );
  });

  it('describes durations for messages', () => {
    expect(describeDuration(86_400_000)).toBe('1 day');
    expect(describeDuration(7 * 86_400_000)).toBe('7 days');
    expect(describeDuration(900_000)).toBe('15 min');
    expect(describeDuration(100)).toBe('0.1 s');
  });
});
